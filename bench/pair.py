#!/usr/bin/python3
"""Paired comparison of two ws builds, or of two option sets, on the real
programs of the benchmark (xz, bzip2, sqlite3, python3 at bench/run.py's
default sizes): how docs/design.md measures what a change costs.

    bench/pair.py --a TREE [--b TREE] [--pairs 3] [--only xz,bzip2]
                  [--a-opts '--ws-curves=no'] [--b-opts '--ws-curves=sampled']
    bench/pair.py --a TREE [--a-opts ...] --none     # ws(A) against none

For each program, build A and build B (B defaults to A, for two option
sets of one build) run at the same time, both pinned to one core (the
core alternates from pair to pair); the ratio is B's CPU time over A's,
and the report gives each pair's ratio and their median, then the median
over the programs.  Sharing one core throughout, the two runs see the
same machine, so the ratio holds on a loaded machine where two wall
times taken apart would not (bench/measure.py's run_pair argues the
same for the report's paired ratios).  With --none, B is
`valgrind --tool=none` and the ratio is A's CPU time over none's.

Each TREE is a built checkout (its ./vg-in-place).  The programs' output
goes to /dev/null, ws's files to a temporary folder; the inputs are made
under --build (bench/run.py's by default).  A run that fails is reported
with its status.  Python standard library only.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

from common import TOP_BUILD
import programs
import workloads


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, metavar="TREE")
    ap.add_argument("--b", metavar="TREE")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--only", default="xz,bzip2,sqlite3,python3")
    ap.add_argument("--a-opts", default="")
    ap.add_argument("--b-opts", default="")
    ap.add_argument("--none", action="store_true",
                    help="compare A (with --a-opts) against --tool=none")
    ap.add_argument("--quick", action="store_true",
                    help="bench/run.py's smaller inputs")
    ap.add_argument("--build", default=os.path.join(TOP_BUILD, "bench",
                                                     "build"))
    a = ap.parse_args(argv)
    if a.pairs < 1:
        ap.error("--pairs must be 1 or more")
    for tree in (a.a, a.b):
        if tree and not os.access(os.path.join(tree, "vg-in-place"),
                                  os.X_OK):
            ap.error("%s has no ./vg-in-place: build it first" % tree)
    return a


def command(tree, opts, tag, prog, tmp):
    """The command of one run: ws of |tree| with |opts|, or none."""
    if tree is None:
        base = ["valgrind", "--tool=none"]
    else:
        base = [os.path.join(tree, "vg-in-place"), "--tool=ws",
                "--ws-file=%s/%s.%s.ws" % (tmp, prog.name, tag)]
        base += shlex.split(opts)
    argv = list(prog.argv)
    if prog.scratch:             # each run its own scratch file
        mine = "%s.%s" % (prog.scratch, tag)
        if os.path.exists(mine):
            os.unlink(mine)
        argv = [mine if x == prog.scratch else x for x in argv]
    return base + argv


def start(cmd, stdin, core, env):
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    return subprocess.Popen(["taskset", "-c", str(core)] + cmd, stdin=fin,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)


def cpu_of(proc):
    _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = status
    return ru.ru_utime + ru.ru_stime, status


def main(argv):
    a = parse_args(argv)
    sizes = programs.SIZES["quick" if a.quick else "default"]
    os.makedirs(a.build, exist_ok=True)
    wanted = a.only.split(",")
    progs = [p for p in workloads.make_programs(a.build, sizes, {})
             if p.real and p.name in wanted]
    if not progs:
        print("pair.py: no real program among %s" % a.only, file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="ws-pair.")
    medians = {}
    for p in progs:
        env = dict(os.environ, **(p.env or {}))
        ratios = []
        for i in range(a.pairs):
            core = i % 2
            ca = command(a.a, a.a_opts, "a", p, tmp)
            cb = command(None if a.none else (a.b or a.a), a.b_opts, "b", p,
                         tmp)
            pa, pb = start(ca, p.stdin, core, env), start(cb, p.stdin, core,
                                                          env)
            ta, sa = cpu_of(pa)
            tb, sb = cpu_of(pb)
            if sa or sb:
                print("%s: pair %d: A status %d, B status %d"
                      % (p.name, i, sa, sb), flush=True)
            ratios.append(ta / tb if a.none else tb / ta)
        medians[p.name] = statistics.median(ratios)
        print("%-8s %s  median %.3f" % (p.name, " ".join("%.3f" % r
                                                         for r in ratios),
                                        medians[p.name]), flush=True)
    print("%s median over programs: %.3f"
          % ("ws(A)/none" if a.none else "B/A",
             statistics.median(medians.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
