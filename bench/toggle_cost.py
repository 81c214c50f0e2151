"""The cost of starting and stopping measurement: CPU time per
WS_START / WS_STOP pair under ws, paired against --tool=none, and the same
for an older tree given with --base; written as a section of
bench/RESULTS.md (replaced when it is there, else added at the end), and
printed.

    /usr/bin/python3 bench/toggle_cost.py
    /usr/bin/python3 bench/toggle_cost.py --base /tmp/old --base-label 8c71465 \\
        --base-pairs-n 300

bench/progs/toggle.c makes N pairs (--ws-instr-atstart=no: each start and
each stop is one); the cost of a pair is (CPU(N) - CPU(0)) / N.  Each run
of ws is paired as bench/run.py --paired pairs them: pinned with taskset to
one core (alternating from round to round) while `valgrind --tool=none`
runs the same command over and over beside it on that core, whose CPU is
the median of the runs that ended while ws ran (else of the one run).  The
table gives the medians over the rounds.  Not part of make check."""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from common import (BENCH, PROGS, TOP, VG_IN_PLACE, HarnessError, quote,
                    write_section)
from report import git_commit, load_average, machine_info

BEGIN, END = "<!-- toggle-cost -->", "<!-- /toggle-cost -->"


def compile_toggle(build):
    exe = os.path.join(build, "bin", "toggle")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = ["gcc", "-O2", "-g", "-Wall", "-I", os.path.join(TOP, "include"),
           "-idirafter", "/usr/include/valgrind", "-o", exe,
           os.path.join(PROGS, "toggle.c")]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise HarnessError("cannot compile toggle.c:\n$ %s\n%s" % (
            quote(cmd), r.stdout.decode("utf-8", "replace")))
    return exe


def start(argv, core):
    return subprocess.Popen(["taskset", "-c", str(core)] + argv,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def cpu_of(argv, status, ru):
    if status != 0:
        raise HarnessError("%s failed (wait status %d)" % (quote(argv), status))
    return ru.ru_utime + ru.ru_stime


def paired(ws_argv, none_argv, core):
    """ws's CPU seconds, and none's beside it."""
    ws = start(ws_argv, core)
    nones = []
    while True:
        other = start(none_argv, core)
        _, status, ru = os.wait4(other.pid, 0)
        nones.append(cpu_of(none_argv, status, ru))
        pid, status, ru = os.wait4(ws.pid, os.WNOHANG)
        if pid != 0:
            break
    # the last none run had the core to itself for a while
    if len(nones) > 1:
        nones.pop()
    return cpu_of(ws_argv, status, ru), statistics.median(nones)


def per_pair(vg, exe, n, none_n, rounds, tmp):
    """Median CPU seconds per pair, of ws (making |n| pairs) and of none
    (|none_n|, as many as for this tree: none's cost of a pair is too small
    to be seen over a few hundred), over |rounds|."""
    ws, none = [], []
    for r in range(rounds):
        core = r % 2
        cpu = {}
        for big in (True, False):
            wsv = [vg, "--tool=ws", "--ws-instr-atstart=no",
                   "--ws-file=%s/toggle.ws" % tmp, exe, str(n if big else 0)]
            nonev = ["valgrind", "--tool=none", exe,
                     str(none_n if big else 0)]
            cpu[big] = paired(wsv, nonev, core)
        ws.append((cpu[True][0] - cpu[False][0]) / n)
        none.append((cpu[True][1] - cpu[False][1]) / none_n)
        print("  round %d: ws %.1f us, none %.1f us a pair" % (
            r + 1, ws[-1] * 1e6, none[-1] * 1e6), flush=True)
    return statistics.median(ws), statistics.median(none)


def section(rows, a):
    lines = [BEGIN, "## Starting and stopping measurement", "",
             "- machine: %s; commit %s; load average before %s" % (
                 machine_info(), git_commit(),
                 "%.2f" % a.load if a.load is not None else "?"),
             "- command: `%s`" % quote(["/usr/bin/python3",
                                        "bench/toggle_cost.py"]
                                       + sys.argv[1:]),
             "",
             "CPU time of one `WS_START` / `WS_STOP` pair "
             "(`bench/progs/toggle.c`, `--ws-instr-atstart=no`): "
             "(CPU(N pairs) - CPU(0 pairs)) / N, each ws run paired with "
             "`--tool=none` runs of the program on the same core (%s pairs "
             "for none's figure); medians over %d rounds.  Before, every "
             "start and stop threw all translations away: a pair cost the "
             "discard and a translation of every superblock run next, which "
             "grows with the code the program runs (this program runs "
             "little; the issue's toggling threads took about 4 ms a "
             "toggle)." % ("{:,}".format(a.pairs_n), a.rounds), "",
             "| ws | N | ws µs a pair | none µs a pair | ws - none µs |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label, n, ws, none in rows:
        lines.append("| %s | %s | %.1f | %.1f | %.1f |" % (
            label, "{:,}".format(n), ws * 1e6, none * 1e6,
            (ws - none) * 1e6))
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs-n", type=int, default=20000,
                   help="pairs a run of this tree makes [20000]")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--base", help="an older tree (its vg-in-place) to "
                   "measure beside this one")
    p.add_argument("--base-label", default="base")
    p.add_argument("--base-pairs-n", type=int, default=300,
                   help="pairs a run of --base makes [300]")
    p.add_argument("--out", default=os.path.join(BENCH, "RESULTS.md"))
    a = p.parse_args(argv)
    exe = compile_toggle(os.path.join(BENCH, "build"))
    a.load = load_average()
    trees = [("this tree", VG_IN_PLACE, a.pairs_n)]
    if a.base:
        trees.insert(0, (a.base_label, os.path.join(a.base, "vg-in-place"),
                         a.base_pairs_n))
    rows = []
    with tempfile.TemporaryDirectory(prefix="toggle.") as tmp:
        for label, vg, n in trees:
            print("%s, %d pairs:" % (label, n), flush=True)
            ws, none = per_pair(vg, exe, n, a.pairs_n, a.rounds, tmp)
            rows.append((label, n, ws, none))
    write_section(a.out, BEGIN, END, section(rows, a))
    print("written to %s" % a.out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print("toggle_cost.py: %s" % e, file=sys.stderr)
        sys.exit(1)
