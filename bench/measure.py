"""The measurement: one command run and measured through the helper
progs/measure.c; a program's reference run without Valgrind, its timed
runs under each tool, and its paired runs (--paired: ws with none beside
it on one core); whether a run failed.

Every command is started through the helper, which forks it, waits with
wait4 and writes the wall time (CLOCK_MONOTONIC around fork .. wait4),
the command's ru_maxrss and its CPU time.  The helper exists because a
process forked straight from this ~20 MB Python process would carry
Python's resident pages into its high-water mark.  /usr/bin/valgrind is
a shell wrapper that execs valgrind.bin (same pid), and Valgrind runs the
client in its own process, so ru_maxrss is the peak RSS of tool + client
together.  (Should a launcher not exec, wait4 still reports the largest
RSS among the command and the descendants it reaped.)"""

import hashlib
import os
import re
import signal
import subprocess
import threading
import time

from common import VG_IN_PLACE, median, quote, tail

_helper = None      # the measure helper, compiled from progs/measure.c


def use_helper(path):
    global _helper
    _helper = path


class RunResult:
    def __init__(self, argv, wall, maxrss_kb, status, stderr_path,
                 stdout_path, timed_out=False):
        self.argv = argv
        self.wall = wall
        self.maxrss_kb = maxrss_kb
        self.status = status          # exit code, or -signal
        self.stderr_path = stderr_path
        self.stdout_path = stdout_path
        self.timed_out = timed_out
        self.problem = None           # text when the run counts as failed
        self.loop_seconds = None      # reported by scale.c
        self.cpu = None               # user + system seconds of the command

    def failed(self):
        return self.problem is not None


def run_measured(argv, stdin_path, stdout_path, stderr_path, cwd, env,
                 timeout):
    """Run argv through the measure helper; return a RunResult with the
    wall time and peak RSS of the command (see progs/measure.c for why
    the command is not forked from Python directly)."""
    resfile = stderr_path + ".measure"
    if os.path.exists(resfile):
        os.unlink(resfile)
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    full_env = dict(os.environ)
    full_env.update(env)
    timed_out = []
    try:
        with open(stdout_path, "wb") as fout, open(stderr_path, "wb") as ferr:
            t0 = time.perf_counter()
            p = subprocess.Popen([_helper, resfile] + argv, stdin=fin, stdout=fout,
                                 stderr=ferr, cwd=cwd, env=full_env,
                                 start_new_session=True)

            def kill():
                timed_out.append(True)
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            timer = threading.Timer(timeout, kill)
            timer.start()
            try:
                p.wait()
            except BaseException:
                # interrupted (^C): do not leave the command running
                timer.cancel()
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
                raise
            t1 = time.perf_counter()
            timer.cancel()
            if timed_out:
                # the helper is gone; make sure nothing of the group is left
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    finally:
        if stdin_path:
            fin.close()
    fields = {}
    try:
        with open(resfile) as f:
            for item in f.read().split():
                k, _, v = item.partition("=")
                fields[k] = float(v)
    except (OSError, ValueError):
        fields = {}
    if p.returncode == 0 and {"wall", "maxrss_kb", "status"} <= set(fields):
        r = RunResult(argv, fields["wall"], int(fields["maxrss_kb"]),
                      int(fields["status"]), stderr_path, stdout_path)
        r.cpu = fields.get("utime", 0) + fields.get("stime", 0)
        return r
    r = RunResult(argv, t1 - t0, 0, p.returncode if p.returncode else -1,
                  stderr_path, stdout_path, timed_out=bool(timed_out))
    if not timed_out:
        r.problem = "the measure helper failed (exit status %s)" % p.returncode
    return r


def run_pair(prog, tool, ref, base, build, timeout, cpu):
    """Run prog once under |tool| and, at the same time and pinned to the
    same core |cpu|, under |ref| over and over until |tool| is done.
    Return |tool|'s RunResult and those of the |ref| runs that ended
    while it ran (a failed one ends the list).  Sharing one core, the
    two see the same machine state throughout, so the ratio of their CPU
    times does not drift with the other tenants' load as the ratio of
    two wall times taken minutes apart does; and since the core is
    shared for the whole of every run counted, neither gets the caches
    to itself for part of its run."""
    done = threading.Event()
    out = {}

    def run(t, n):
        b = "%s.%s.%d" % (base, t.name, n)
        cmd = ["taskset", "-c", str(cpu)] + t.command(b) + prog.private_argv(t.name)
        return run_measured(cmd, prog.stdin, b + ".stdout", b + ".stderr",
                            build, prog.env, timeout)

    def main_run():
        out["tool"] = run(tool, 1)
        done.set()

    def ref_runs():
        out["ref"] = []
        n = 0
        while not done.is_set():
            n += 1
            r = run(ref, n)
            if done.is_set() and not r.failed():
                break               # ended after the tool's run: not shared throughout
            out["ref"].append(r)
            if r.failed():
                break
    threads = [threading.Thread(target=main_run), threading.Thread(target=ref_runs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return out["tool"], out["ref"]


TIMING_LINE = re.compile(rb"^(touch|loop)_seconds=.*$", re.M)


def stdout_digest(path):
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha256(TIMING_LINE.sub(b"", data)).hexdigest(), len(data)


def parse_loop_seconds(path):
    try:
        with open(path, "rb") as f:
            m = re.search(rb"^loop_seconds=([0-9.]+)", f.read(), re.M)
        return float(m.group(1)) if m else None
    except OSError:
        return None


def check_run(res, native):
    """Set res.problem if the run failed or its output differs from native."""
    if res.problem:
        pass
    elif res.timed_out:
        res.problem = "killed after the --timeout limit"
    elif res.status != 0:
        if res.status < 0:
            res.problem = "killed by signal %d" % -res.status
        else:
            res.problem = "exit status %d" % res.status
    elif native is not None:
        d, size = stdout_digest(res.stdout_path)
        nd, nsize = stdout_digest(native.stdout_path)
        if d != nd:
            res.problem = ("output differs from the run without Valgrind "
                           "(%d bytes vs %d)" % (size, nsize))
    res.loop_seconds = parse_loop_seconds(res.stdout_path)


def probe_tool(tool, build, timeout):
    """Start tool on /bin/true.  Return None if it works, else a report."""
    if tool.ws and not os.access(VG_IN_PLACE, os.X_OK):
        return "%s does not exist or is not executable" % VG_IN_PLACE
    out = os.path.join(build, "out", "probe.%s" % tool.name)
    argv = tool.command(out) + ["/bin/true"]
    res = run_measured(argv, None, out + ".stdout", out + ".stderr", build,
                       {}, timeout)
    check_run(res, None)
    if res.failed():
        return "\n".join(["command: " + quote(argv), "result: " + res.problem,
                          "last lines of stderr:"] +
                         ["    " + l for l in tail(res.stderr_path)])
    return None


# ---------------------------------------------------------------------------
# One program: the reference run, the timed runs, the paired runs
# ---------------------------------------------------------------------------
def native_run(p, outdir, build, timeout):
    """Reference run without Valgrind: warms the caches, checks that the
    program works, and gives the expected output.  Returns None, or what
    to report when the program fails."""
    base = os.path.join(outdir, "%s.native" % p.name)
    p.setup()
    r = run_measured(p.argv, p.stdin, base + ".stdout", base + ".stderr", build,
                     p.env, timeout)
    check_run(r, None)
    if r.failed():
        return ("%s fails without Valgrind (%s)\ncommand: %s\nlast lines of stderr:\n%s"
                % (p.name, r.problem, quote(p.argv),
                   "\n".join("    " + l for l in tail(r.stderr_path))))
    p.native = r
    print("\n[%s] %s\n[%s] native: %.2f s, %.0f MB"
          % (p.name, p.describe, p.name, r.wall, r.maxrss_kb / 1024), flush=True)
    return None


def timed_runs(p, active, res, outdir, build, runs, timeout):
    """|runs| runs of p under each tool of |active|, the order rotating
    from run to run; a tool that fails is not run on p again."""
    for i in range(runs):
        k = i % len(active) if active else 0
        for t in active[k:] + active[:k]:   # alternate the order run by run
            c = res.cell(p.name, t.name)
            if c.failure:
                continue            # do not repeat a failing tool
            base = os.path.join(outdir, "%s.%s.%d" % (p.name, t.name, i + 1))
            cmd = t.command(base) + p.argv
            p.setup()
            r = run_measured(cmd, p.stdin, base + ".stdout", base + ".stderr",
                             build, p.env, timeout)
            check_run(r, p.native)
            if r.failed():
                c.failure = r
                print("[%s] run %d/%d %-14s FAILED: %s\n    command: %s\n"
                      "    last lines of stderr (%s):\n%s"
                      % (p.name, i + 1, runs, t.name, r.problem, quote(cmd),
                         r.stderr_path,
                         "\n".join("      | " + l for l in tail(r.stderr_path))),
                      flush=True)
                continue
            c.runs.append(r)
            print("[%s] run %d/%d %-14s %7.2f s %7.0f MB"
                  % (p.name, i + 1, runs, t.name, r.wall, r.maxrss_kb / 1024),
                  flush=True)
            # ws output files of long runs can be large; keep only the last run's
            if t.out_opt and i + 1 < runs:
                f = "%s.%s" % (base, t.out_ext)
                if os.path.exists(f):
                    os.unlink(f)


def paired_runs(p, active, res, outdir, build, pairs, timeout):
    """--paired: a real program |pairs| times under ws with none beside
    it on one core (run_pair); each pair's ratio of CPU times goes to the
    ws cell.  A failed pair ends them, with none kept."""
    ws_tool = [t for t in active if t.name == "ws"]
    none_tool = [t for t in active if t.name == "none"]
    if not (pairs and p.real and ws_tool and none_tool):
        return
    c = res.cell(p.name, "ws")
    for i in range(pairs):
        cpu = i % (os.cpu_count() or 1)
        base = os.path.join(outdir, "%s.paired.%d" % (p.name, i + 1))
        rw, refs = run_pair(p, ws_tool[0], none_tool[0], base, build, timeout, cpu)
        for r in [rw] + refs:
            check_run(r, p.native)
        bad = [r for r in [rw] + refs if r.failed() or not r.cpu]
        if bad or not refs:
            print("[%s] pair %d/%d FAILED: %s\n    command: %s"
                  % (p.name, i + 1, pairs,
                     bad[0].problem or "no CPU time" if bad
                     else "no none run ended while ws ran",
                     quote(bad[0].argv if bad else rw.argv)), flush=True)
            c.paired = []
            break
        none_cpu = median([r.cpu for r in refs])
        c.paired.append(rw.cpu / none_cpu)
        print("[%s] pair %d/%d on core %d: CPU ws %.2f s, none %.2f s (median of "
              "%d run(s) beside it): %.2f"
              % (p.name, i + 1, pairs, cpu, rw.cpu, none_cpu, len(refs),
                 c.paired[-1]), flush=True)
