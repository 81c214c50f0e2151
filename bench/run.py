#!/usr/bin/python3
"""Benchmark harness for ws: `make bench`, or /usr/bin/python3 bench/run.py.

Runs real programs that ship with Debian (xz -9, bzip2, sqlite3, a python3
dict workload) and synthetic scale cases (bench/progs/*.c) under
--tool=none, memcheck, cachegrind and ws (defaults, --ws-pagesize=64, and
--ws-instr-atstart=no on a program with a tiny measured region), alternating
the tools run by run, and reports median wall-time and peak-RSS ratios
against --tool=none, with the project's targets marked PASS/FAIL.  The
result is printed and written as markdown to bench/RESULTS.md.

Not part of the test suite: it is a report.  It exits 0 even when targets
fail or a tool crashes; non-zero only when the harness itself cannot work
(bad arguments, no valgrind or gcc, a benchmark program that fails without
Valgrind, results that cannot be written).

Measurement: every command is started through a small helper
(progs/measure.c) that forks it, waits with wait4 and writes the wall time
(CLOCK_MONOTONIC around fork .. wait4) and the command's ru_maxrss.  The
helper exists because a process forked straight from this ~20 MB Python
process would carry Python's resident pages into its high-water mark.
/usr/bin/valgrind is a shell wrapper that execs valgrind.bin (same pid), and
Valgrind runs the client in its own process, so ru_maxrss is the peak RSS of
tool + client together.  (Should a launcher not exec, wait4 still reports
the largest RSS among the command and the descendants it reaped.)

Python standard library only.
"""

import argparse
import datetime
import hashlib
import os
import platform
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
# `make bench` passes WS_TOP_SRCDIR, WS_TOP_BUILDDIR and WS_VG_IN_PLACE (the
# tree may be built out of the source folder); run by hand, the defaults are
# this source tree.
TOP = os.path.abspath(os.environ.get("WS_TOP_SRCDIR") or os.path.dirname(BENCH))
TOP_BUILD = os.path.abspath(os.environ.get("WS_TOP_BUILDDIR") or TOP)
PROGS = os.path.join(BENCH, "progs")
VG_IN_PLACE = os.path.abspath(os.environ.get("WS_VG_IN_PLACE")
                              or os.path.join(TOP_BUILD, "vg-in-place"))
WS_HEADER = os.path.join(TOP, "include", "valgrind", "ws.h")
MEASURE = None      # the measure helper, compiled from progs/measure.c

# ---------------------------------------------------------------------------
# Targets (from the issue); checked in summarise().
# ---------------------------------------------------------------------------
TARGET_WS_MEDIAN = 2.0        # ws wall / none, median over the real programs
TARGET_WS_EACH = 2.5          # ws wall / none, every real program
TARGET_WS64_MEDIAN = 3.0      # --ws-pagesize=64 wall / none, median
TARGET_SCALE = 1.2            # ws t(N=262144) / t(N=1024)
TARGET_LONGRUN_RSS = 1.05     # ws peak RSS, 10x longer run / 1x
TARGET_WS_RSS = 1.5           # ws peak RSS / none, every real program

SCALE_SMALL, SCALE_LARGE = 1024, 262144

# Input sizes.  Default: --tool=none takes roughly 1-4 s per real program
# on a 2-core Xeon VM (python3's start-up alone is ~2 s under Valgrind).
SIZES = {
    "default": dict(xz_bytes=1 << 20, bz_bytes=2 << 20, sql_rows=100000,
                    py_n=100000, py_rounds=2, scale_work=250000,
                    longrun_base=400, region_work=100000,
                    sparse_gib=4, sparse_passes=20),
    "quick": dict(xz_bytes=256 << 10, bz_bytes=512 << 10, sql_rows=20000,
                  py_n=30000, py_rounds=1, scale_work=40000,
                  longrun_base=100, region_work=20000,
                  sparse_gib=4, sparse_passes=5),
}


# ---------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------
class Tool:
    def __init__(self, name, label, argv, ws=False, client_requests=False,
                 out_opt=None, out_ext=None):
        self.name = name              # as given to --tools
        self.label = label            # column heading
        self.argv = argv              # launcher + options (no output file)
        self.ws = ws                  # run through ./vg-in-place
        self.client_requests = client_requests  # only programs that use them
        self.out_opt = out_opt        # option naming the tool's output file
        self.out_ext = out_ext

    def command(self, out_base):
        cmd = list(self.argv)
        if self.out_opt:
            cmd.append("%s=%s.%s" % (self.out_opt, out_base, self.out_ext))
        return cmd


TOOLS = [
    Tool("none", "none", ["valgrind", "--tool=none"]),
    Tool("memcheck", "memcheck", ["valgrind", "--tool=memcheck"]),
    Tool("cachegrind", "cachegrind", ["valgrind", "--tool=cachegrind"],
         out_opt="--cachegrind-out-file", out_ext="cg.out"),
    Tool("ws", "ws", [VG_IN_PLACE, "--tool=ws"], ws=True,
         out_opt="--ws-file", out_ext="ws.out"),
    Tool("ws64", "ws pg=64", [VG_IN_PLACE, "--tool=ws", "--ws-pagesize=64"],
         ws=True, out_opt="--ws-file", out_ext="ws.out"),
    Tool("ws-atstart-no", "ws atstart=no",
         [VG_IN_PLACE, "--tool=ws", "--ws-instr-atstart=no"], ws=True,
         client_requests=True, out_opt="--ws-file", out_ext="ws.out"),
]
TOOL_BY_NAME = {t.name: t for t in TOOLS}
WS_TOOLS_FOR_SYNTHETIC = ["none", "ws", "ws64"]


# ---------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------
class Program:
    def __init__(self, name, group, argv, real=False, stdin=None, env=None,
                 tools=None, setup=None, client_requests=False,
                 needs=None, describe="", scratch=None):
        self.name = name
        self.group = group            # for --only: xz, scale, longrun, ...
        self.argv = argv
        self.real = real              # one of the real Debian programs
        self.stdin = stdin
        self.env = env or {}
        self.tools = tools            # None: every tool; else names allowed
        self.setup = setup            # called before every run
        self.client_requests = client_requests
        self.needs = needs            # (binary, debian package) or None
        self.describe = describe
        self.native = None            # RunResult of the reference run
        self.scratch = scratch        # a file of argv two runs at once must not share

    def private_argv(self, tag):
        """argv for one of two runs at the same time: its own scratch
        file (removed first, with the files sqlite3 keeps beside it)."""
        if not self.scratch:
            return self.argv
        mine = "%s.%s" % (self.scratch, tag)
        for suffix in ("", "-journal", "-wal", "-shm"):
            if os.path.exists(mine + suffix):
                os.unlink(mine + suffix)
        return [mine if x == self.scratch else x for x in self.argv]


def write_if_changed(path, data):
    if isinstance(data, str):
        data = data.encode()
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with open(path, "wb") as f:
        f.write(data)


def gen_text_and_random(size, seed):
    """Deterministic compressible input: Zipf-distributed made-up words with
    numbers, in lines, mixed with chunks of random bytes."""
    rng = random.Random(seed)
    syll = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "en", "al",
            "or", "qu", "th", "be", "di", "ex"]
    vocab = ["".join(rng.choice(syll) for _ in range(rng.randint(1, 4)))
             for _ in range(3000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    out = bytearray()
    while len(out) < size:
        if rng.random() < 0.08:
            out += rng.randbytes(rng.randint(64, 4096))
        else:
            words = rng.choices(vocab, weights, k=rng.randint(50, 400))
            line = []
            for w in words:
                line.append(w)
                if rng.random() < 0.08:
                    line.append(str(rng.randint(0, 99999)))
            out += " ".join(line).encode() + b".\n"
    return bytes(out[:size])


SQL_SCRIPT = """\
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
BEGIN;
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, name TEXT NOT NULL, v REAL);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {rows})
INSERT INTO t(id, k, name, v)
  SELECT x, (x * 7919) % 100003, printf('name-%08x', (x * 2654435761) % 4294967296), x * 0.5
  FROM c;
CREATE INDEX t_k ON t(k);
COMMIT;
SELECT count(*), sum(v) FROM t WHERE k BETWEEN 1000 AND 50000;
SELECT count(*) FROM t AS a JOIN t AS b ON b.k = a.id WHERE a.id % 10 = 0;
SELECT name FROM t WHERE k = 4242;
"""

PY_DICT = """\
# dict-heavy workload for the ws benchmark: build, probe, invert, delete.
import sys
n = int(sys.argv[1])
rounds = int(sys.argv[2])
total = 0
for r in range(rounds):
    d = {}
    for i in range(n):
        d["k%d" % (i * 7 + r)] = i
    for i in range(0, n, 3):
        total += d.get("k%d" % i, -1)
    inv = {v: k for k, v in d.items()}
    for i in range(0, n, 2):
        del d[inv[i]]
    total += len(d) + len(inv)
print(total)
"""


def make_programs(build, sizes, exes):
    """The benchmark programs; exes maps C program name -> binary (or None)."""
    inputs = os.path.join(build, "inputs")
    tmp = os.path.join(build, "tmp")
    os.makedirs(inputs, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    progs = []

    xz_in = os.path.join(inputs, "xz-%d.bin" % sizes["xz_bytes"])
    if not os.path.exists(xz_in):
        write_if_changed(xz_in, gen_text_and_random(sizes["xz_bytes"], 1))
    progs.append(Program(
        "xz", "xz", ["xz", "-9", "-T1", "-c", xz_in], real=True,
        needs=("xz", "xz-utils"),
        describe="xz -9 -T1 on %s of generated text+random data"
        % human_bytes(sizes["xz_bytes"])))

    bz_in = os.path.join(inputs, "bzip2-%d.bin" % sizes["bz_bytes"])
    if not os.path.exists(bz_in):
        write_if_changed(bz_in, gen_text_and_random(sizes["bz_bytes"], 2))
    progs.append(Program(
        "bzip2", "bzip2", ["bzip2", "-9", "-c", bz_in], real=True,
        needs=("bzip2", "bzip2"),
        describe="bzip2 -9 on %s of generated text+random data"
        % human_bytes(sizes["bz_bytes"])))

    sql = os.path.join(inputs, "sqlite-%d.sql" % sizes["sql_rows"])
    write_if_changed(sql, SQL_SCRIPT.format(rows=sizes["sql_rows"]))
    db = os.path.join(tmp, "bench.db")

    def fresh_db():
        for p in (db, db + "-journal", db + "-wal", db + "-shm"):
            if os.path.exists(p):
                os.unlink(p)
    progs.append(Program(
        "sqlite3", "sqlite3", ["sqlite3", "-batch", db], real=True, stdin=sql,
        setup=fresh_db, needs=("sqlite3", "sqlite3"), scratch=db,
        describe="sqlite3: %d-row table built by a recursive CTE, an index, "
        "queries (fresh db file each run)" % sizes["sql_rows"]))

    py = os.path.join(inputs, "dict.py")
    write_if_changed(py, PY_DICT)
    progs.append(Program(
        "python3", "python3",
        ["/usr/bin/python3", "-s", py, str(sizes["py_n"]), str(sizes["py_rounds"])],
        real=True, env={"PYTHONHASHSEED": "0"}, needs=("/usr/bin/python3", "python3"),
        describe="/usr/bin/python3 dict workload, n=%d, %d round(s)"
        % (sizes["py_n"], sizes["py_rounds"])))

    if exes.get("scale"):
        for n, tag in ((SCALE_SMALL, "1k"), (SCALE_LARGE, "256k")):
            progs.append(Program(
                "scale-" + tag, "scale",
                [exes["scale"], str(n), str(sizes["scale_work"])],
                tools=WS_TOOLS_FOR_SYNTHETIC,
                describe="scale.c: touch %d pages once, then %d passes over 16 KiB"
                % (n, sizes["scale_work"])))
    if exes.get("longrun"):
        for mult in (1, 10):
            progs.append(Program(
                "longrun-x%d" % mult, "longrun",
                [exes["longrun"], str(mult), str(sizes["longrun_base"])],
                tools=WS_TOOLS_FOR_SYNTHETIC,
                describe="longrun.c: %d rounds of sliding window + malloc/mmap churn"
                % (mult * sizes["longrun_base"])))
    if exes.get("sparse"):
        progs.append(Program(
            "sparse", "sparse",
            [exes["sparse"], str(sizes["sparse_gib"]), str(sizes["sparse_passes"])],
            describe="sparse.c: one byte every 3 MiB across %d GiB (MAP_NORESERVE)"
            % sizes["sparse_gib"]))
    if exes.get("region"):
        progs.append(Program(
            "region", "region", [exes["region"], str(sizes["region_work"])],
            tools=["none", "ws", "ws-atstart-no"], client_requests=True,
            describe="region.c: %d passes over 16 KiB, WS_START/WS_STOP around "
            "16 pages" % sizes["region_work"]))
    return progs


# ---------------------------------------------------------------------------
# Running one command
# ---------------------------------------------------------------------------
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
            p = subprocess.Popen([MEASURE, resfile] + argv, stdin=fin, stdout=fout,
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


def tail(path, n=12):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return ["(cannot read %s: %s)" % (path, e)]
    lines = data.decode("utf-8", "replace").rstrip("\n").split("\n")
    return lines[-n:] if lines != [""] else ["(empty)"]


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


def quote(argv):
    out = []
    for a in argv:
        if re.fullmatch(r"[\w@%+=:,./-]+", a):
            out.append(a)
        else:
            out.append("'" + a.replace("'", "'\\''") + "'")
    return " ".join(out)


# ---------------------------------------------------------------------------
# Set-up: packages, compiling, probing ws
# ---------------------------------------------------------------------------
def have(binary):
    return shutil.which(binary) is not None


def missing_programs(progs, selected):
    """Programs whose executable is missing, to skip: {name: why}.
    Installing is scripts/install-deps.sh's job (`make bench` runs it
    first)."""
    skip = {}
    for p in progs:
        if p.name in selected and p.needs and not have(p.needs[0]):
            why = ("%s not found (Debian package %s; scripts/install-deps.sh "
                   "installs it)" % (p.needs[0], p.needs[1]))
            print("SKIP %s: %s" % (p.name, why), flush=True)
            skip[p.name] = why
    return skip


def compile_progs(build, notes):
    """Compile bench/progs/*.c with gcc -O2 -g; return name -> binary."""
    exes = {}
    bindir = os.path.join(build, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name in ("measure", "scale", "longrun", "sparse", "region"):
        src = os.path.join(PROGS, name + ".c")
        exe = os.path.join(bindir, name)
        cmd = ["gcc", "-O2", "-g", "-Wall", "-o", exe, src]
        if name == "region":
            if not os.path.exists(WS_HEADER):
                notes.append("region.c not built: %s does not exist yet, so "
                             "the --ws-instr-atstart=no case was not run"
                             % os.path.relpath(WS_HEADER, TOP))
                continue
            cmd[1:1] = ["-I", os.path.join(TOP, "include"),
                        "-I", os.path.join(TOP, "include", "valgrind"),
                        "-idirafter", "/usr/include/valgrind"]
        if (os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src)
                and (name != "region" or
                     os.path.getmtime(exe) >= os.path.getmtime(WS_HEADER))):
            exes[name] = exe
            continue
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            msg = r.stdout.decode("utf-8", "replace").strip()
            if name == "region":
                # the client-request header is still being written: a ws
                # problem to report, not a harness error
                notes.append("region.c did not compile against %s:\n%s"
                             % (os.path.relpath(WS_HEADER, TOP), msg))
                print("FAILED to compile region.c:\n" + msg, flush=True)
                continue
            raise HarnessError("cannot compile %s:\n$ %s\n%s" % (src, quote(cmd), msg))
        exes[name] = exe
    return exes


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


class HarnessError(Exception):
    pass


# ---------------------------------------------------------------------------
# Formatting helpers
# ---------------------------------------------------------------------------
def human_bytes(n):
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f:
            v = n / f
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.1f %s" % (v, unit))
    return "%d B" % n


def fmt_ratio(x):
    return "-" if x is None else "%.2f" % x


def fmt_s(x):
    return "-" if x is None else "%.2f" % x


def median(xs):
    return statistics.median(xs) if xs else None


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
class Cell:
    """All runs of one program under one tool."""

    def __init__(self):
        self.runs = []          # successful RunResults
        self.failure = None     # first failing RunResult
        self.not_run = None     # reason the tool was not run at all
        self.paired = []        # CPU time / none's in runs at the same time

    def wall(self):
        return None if self.failure or not self.runs else median([r.wall for r in self.runs])

    def rss(self):
        return None if self.failure or not self.runs else median([r.maxrss_kb for r in self.runs])

    def cpu_best(self):
        """The least user + system time of the runs: what Valgrind's own
        perf/vg_perf reports.  On a shared machine the wall time of one
        command varies by tens of per cent from run to run (other
        tenants, frequency); the best CPU time varies much less."""
        xs = [r.cpu for r in self.runs if r.cpu is not None]
        return None if self.failure or not xs else min(xs)

    def loop(self):
        xs = [r.loop_seconds for r in self.runs if r.loop_seconds is not None]
        return None if self.failure or not xs else median(xs)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


class Results:
    def __init__(self, progs, tools):
        self.progs = progs
        self.tools = tools
        self.cells = {(p.name, t.name): Cell() for p in progs for t in tools}

    def cell(self, prog, tool):
        return self.cells.get((prog, tool))

    def time_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.wall(), n.wall()) if c and n else None

    def rss_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.rss(), n.rss()) if c and n else None

    def cpu_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.cpu_best(), n.cpu_best()) if c and n else None

    def paired_ratio(self, prog, tool):
        c = self.cell(prog, tool)
        return median(c.paired) if c and c.paired else None


def applicable(prog, tool):
    if tool.client_requests and not prog.client_requests:
        return False
    return prog.tools is None or tool.name in prog.tools


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------
def summarise(res, tool_names, failed_tools):
    """Return list of (status, text) rows; status PASS, FAIL, n/a or info."""
    rows = []
    real = [p.name for p in res.progs if p.real and res.cell(p.name, "none").wall()]
    names = {p.name for p in res.progs}

    def tool_state(t):
        if t not in tool_names:
            return "n/a", "%s not selected" % t
        if t in failed_tools:
            return "FAIL", "%s did not start" % t
        return None, None

    def per_real(t, fn):
        vals, missing = {}, []
        for p in real:
            v = fn(p, t)
            if v is None:
                missing.append(p)
            else:
                vals[p] = v
        return vals, missing

    def no_data(t, what, missing):
        return ("FAIL", "%s: no %s data for %s (runs failed)" % (what, t, ", ".join(missing)))

    # the same ratios in CPU time, best of the runs (information: the
    # targets are on wall time)
    for t in ("ws", "memcheck", "ws64"):
        if t in tool_names and t not in failed_tools:
            vals, _ = per_real(t, res.cpu_ratio)
            if vals:
                rows.append(("info", "%s CPU / none (user+sys, best of the runs), median over "
                             "real programs: %.2f (%s)" % (t, median(list(vals.values())),
                             ", ".join("%s %.2f" % (p, vals[p]) for p in real if p in vals))))

    # ws and none run at the same time on one core (--paired)
    vals, missing = per_real("ws", res.paired_ratio)
    if vals and "ws" not in failed_tools:
        n_pairs = max(len(res.cell(p, "ws").paired) for p in vals)
        detail = ", ".join("%s %.2f" % (p, vals[p]) for p in real if p in vals)
        m = median(list(vals.values()))
        worst = max(vals, key=vals.get)
        rows.append(("PASS" if m <= TARGET_WS_MEDIAN and not missing else "FAIL",
                     "ws CPU / none in paired runs (ws with none beside it on one core, median of "
                     "%d pairs), median over real programs <= %.1f: %.2f (%s)"
                     % (n_pairs, TARGET_WS_MEDIAN, m, detail)))
        rows.append(("PASS" if vals[worst] <= TARGET_WS_EACH and not missing else "FAIL",
                     "ws CPU / none in paired runs, each real program <= %.1f: worst "
                     "%.2f (%s)" % (TARGET_WS_EACH, vals[worst], worst)))

    # reference: medians of the classic tools
    for t in ("memcheck", "cachegrind"):
        if t in tool_names:
            vals, _ = per_real(t, res.time_ratio)
            if vals:
                rows.append(("info", "%s wall / none, median over real programs: %.2f "
                             "(range %.2f-%.2f)" % (t, median(list(vals.values())),
                                                    min(vals.values()), max(vals.values()))))

    # ws wall median and each
    st, why = tool_state("ws")
    if not real:
        rows.append(("n/a", "ws wall / none: no real program was run"))
    elif st:
        rows += [(st, "ws wall / none, median over real programs <= %.1f: %s" % (TARGET_WS_MEDIAN, why)),
                 (st, "ws wall / none, each real program <= %.1f: %s" % (TARGET_WS_EACH, why)),
                 (st if "memcheck" in tool_names else "n/a",
                  "ws wall below memcheck, each real program: %s" % why)]
    else:
        vals, missing = per_real("ws", res.time_ratio)
        if missing:
            rows.append(no_data("ws", "ws wall / none", missing))
        if vals:
            m = median(list(vals.values()))
            rows.append(("PASS" if m <= TARGET_WS_MEDIAN and not missing else "FAIL",
                         "ws wall / none, median over real programs <= %.1f: %.2f"
                         % (TARGET_WS_MEDIAN, m)))
            worst = max(vals, key=vals.get)
            rows.append(("PASS" if vals[worst] <= TARGET_WS_EACH and not missing else "FAIL",
                         "ws wall / none, each real program <= %.1f: worst %.2f (%s)"
                         % (TARGET_WS_EACH, vals[worst], worst)))
        if "memcheck" in tool_names and vals:
            mc, _ = per_real("memcheck", res.time_ratio)
            slower = [p for p in vals if p in mc and vals[p] >= mc[p]]
            unknown = [p for p in vals if p not in mc]
            detail = ", ".join("%s %.2f vs %.2f" % (p, vals[p], mc[p]) for p in vals if p in mc)
            if slower or missing or unknown:
                rows.append(("FAIL", "ws wall below memcheck, each real program: %s%s%s"
                             % (detail, "; not below on " + ", ".join(slower) if slower else "",
                                "; no memcheck data for " + ", ".join(unknown) if unknown else "")))
            else:
                rows.append(("PASS", "ws wall below memcheck, each real program: " + detail))
        elif "memcheck" not in tool_names:
            rows.append(("n/a", "ws wall below memcheck, each real program: memcheck not selected"))

    # ws64
    st, why = tool_state("ws64")
    if real and st:
        rows.append((st, "ws --ws-pagesize=64 wall / none, median <= %.1f: %s" % (TARGET_WS64_MEDIAN, why)))
    elif real:
        vals, missing = per_real("ws64", res.time_ratio)
        if missing:
            rows.append(no_data("ws64", "ws --ws-pagesize=64 wall / none", missing))
        if vals:
            m = median(list(vals.values()))
            rows.append(("PASS" if m <= TARGET_WS64_MEDIAN and not missing else "FAIL",
                         "ws --ws-pagesize=64 wall / none, median over real programs <= %.1f: "
                         "%.2f (range %.2f-%.2f)" % (TARGET_WS64_MEDIAN, m, min(vals.values()),
                                                     max(vals.values()))))

    # scale
    if {"scale-1k", "scale-256k"} <= names:
        base = []
        for t in ("none", "ws64"):
            if t in tool_names:
                r = ratio(res.cell("scale-256k", t).wall(), res.cell("scale-1k", t).wall())
                if r is not None:
                    base.append("%s %.2f" % (t, r))
        loop = []
        for t in ("none", "ws", "ws64"):
            if t in tool_names:
                r = ratio(res.cell("scale-256k", t).loop(), res.cell("scale-1k", t).loop())
                if r is not None:
                    loop.append("%s %.2f" % (t, r))
        extra = []
        if base:
            extra.append("for comparison " + ", ".join(base))
        if loop:
            extra.append("loop phase alone (timed by the program): " + ", ".join(loop))
        extra = (" (" + "; ".join(extra) + ")") if extra else ""
        st, why = tool_state("ws")
        label = "scale: ws t(N=%d) / t(N=%d) <= %.1f" % (SCALE_LARGE, SCALE_SMALL, TARGET_SCALE)
        if st:
            rows.append((st, "%s: %s%s" % (label, why, extra)))
        else:
            r = ratio(res.cell("scale-256k", "ws").wall(), res.cell("scale-1k", "ws").wall())
            if r is None:
                rows.append(("FAIL", "%s: no data (ws runs failed)%s" % (label, extra)))
            else:
                rows.append(("PASS" if r <= TARGET_SCALE else "FAIL",
                             "%s: %.2f%s" % (label, r, extra)))
    else:
        rows.append(("n/a", "scale: scale-1k and scale-256k not both run"))

    # long run
    if {"longrun-x1", "longrun-x10"} <= names:
        label = "long run: ws peak RSS x10 / x1 <= %.2f" % TARGET_LONGRUN_RSS
        extra = []
        for t in ("none", "ws64"):
            if t in tool_names:
                r = ratio(res.cell("longrun-x10", t).rss(), res.cell("longrun-x1", t).rss())
                if r is not None:
                    extra.append("%s %.3f" % (t, r))
        extra = (" (for comparison " + ", ".join(extra) + ")") if extra else ""
        st, why = tool_state("ws")
        if st:
            rows.append((st, "%s: %s%s" % (label, why, extra)))
        else:
            r = ratio(res.cell("longrun-x10", "ws").rss(), res.cell("longrun-x1", "ws").rss())
            if r is None:
                rows.append(("FAIL", "%s: no data (ws runs failed)%s" % (label, extra)))
            else:
                rows.append(("PASS" if r <= TARGET_LONGRUN_RSS else "FAIL",
                             "%s: %.3f%s" % (label, r, extra)))
    else:
        rows.append(("n/a", "long run: longrun-x1 and longrun-x10 not both run"))

    # tool memory
    st, why = tool_state("ws")
    label = "ws peak RSS / none (4 KiB pages), each real program <= %.1f" % TARGET_WS_RSS
    if real and st:
        rows.append((st, "%s: %s" % (label, why)))
    elif real:
        vals, missing = per_real("ws", res.rss_ratio)
        if missing:
            rows.append(no_data("ws", "ws peak RSS / none", missing))
        if vals:
            worst = max(vals, key=vals.get)
            rows.append(("PASS" if vals[worst] <= TARGET_WS_RSS and not missing else "FAIL",
                         "%s: worst %.2f (%s), median %.2f" % (label, vals[worst], worst,
                                                               median(list(vals.values())))))
        vals64, _ = per_real("ws64", res.rss_ratio) if "ws64" in tool_names else ({}, [])
        if vals64:
            rows.append(("info", "ws --ws-pagesize=64 peak RSS / none: median %.2f, worst %.2f (%s)"
                         % (median(list(vals64.values())), max(vals64.values()),
                            max(vals64, key=vals64.get))))

    # sparse
    if "sparse" in names:
        for t in ("ws", "ws64"):
            st, why = tool_state(t)
            label = "sparse 4 GiB address space works under %s" % t
            if st:
                rows.append((st, "%s: %s" % (label, why)))
                continue
            c = res.cell("sparse", t)
            if c.failure:
                rows.append(("FAIL", "%s: %s" % (label, c.failure.problem)))
            elif c.runs:
                rows.append(("PASS", "%s: %.2f s, %.0f MB peak RSS" % (label, c.wall(), c.rss() / 1024)))
            else:
                rows.append(("FAIL", "%s: not run" % label))
    else:
        rows.append(("n/a", "sparse: not run"))

    # region
    if "region" in names:
        st, why = tool_state("ws-atstart-no")
        label = "region (--ws-instr-atstart=no, tiny measured region): ws wall / none"
        if st:
            rows.append(("n/a" if st == "n/a" else st, "%s: %s" % (label, why)))
        else:
            r = res.time_ratio("region", "ws-atstart-no")
            full = res.time_ratio("region", "ws")
            if r is None:
                rows.append(("FAIL", "%s: no data (runs failed)" % label))
            else:
                rows.append(("info", "%s: %.2f%s" % (label, r, "" if full is None else
                                                     " (measuring everything: %.2f)" % full)))
    return rows


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------
def table_rows(res):
    """Header and rows of the main table (strings)."""
    others = [t for t in res.tools if t.name != "none"]
    head = ["program", "native s", "none s", "none MB"]
    for t in others:
        head += [t.label + " time", t.label + " RSS"]
    rows = []
    for p in res.progs:
        n = res.cell(p.name, "none")
        row = [p.name, fmt_s(p.native.wall if p.native else None),
               fmt_s(n.wall()) if not n.failure else "FAIL",
               "-" if n.rss() is None else "%.0f" % (n.rss() / 1024)]
        for t in others:
            c = res.cell(p.name, t.name)
            if c.not_run == "not applicable":
                row += ["", ""]
            elif c.not_run or c.failure:
                row += ["FAIL", "FAIL"]
            else:
                row += [fmt_ratio(res.time_ratio(p.name, t.name)),
                        fmt_ratio(res.rss_ratio(p.name, t.name))]
        rows.append(row)
    return head, rows


def text_table(head, rows, groups=None):
    """Fixed-width table; groups: list of (label, ncols) spanning columns
    from the right end (drawn as an extra header line above)."""
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    out = []
    if groups:
        # widen pairs so their group label fits, then draw the label line
        col = len(head) - sum(n for _, n in groups)
        line = "  ".join(" " * w for w in widths[:col])
        for label, n in groups:
            span = sum(widths[col:col + n]) + 2 * (n - 1)
            if len(label) > span:
                widths[col + n - 1] += len(label) - span
                span = len(label)
            line += "  " + label.center(span)
            col += n
        out.append(line.rstrip())
    for j, r in enumerate([head] + rows):
        cells = [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, len(r))]
        out.append("  ".join(cells).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join([" --- "] + [" ---: "] * (len(head) - 1)) + "|"]
    for r in rows:
        out.append("| " + " | ".join(c if c else " " for c in r) + " |")
    return "\n".join(out)


def raw_rows(res):
    head = ["program", "tool", "runs", "median s", "min s", "max s", "median CPU s",
            "median peak RSS MB"]
    rows = []
    for p in res.progs:
        if p.native:
            rows.append([p.name, "(native)", "1", fmt_s(p.native.wall), "", "",
                         fmt_s(p.native.cpu), "%.1f" % (p.native.maxrss_kb / 1024)])
        for t in res.tools:
            c = res.cell(p.name, t.name)
            if c.not_run == "not applicable":
                continue
            if c.not_run:
                rows.append([p.name, t.name, "0", "not run: " + c.not_run, "", "", "", ""])
                continue
            if c.failure:
                rows.append([p.name, t.name, "%d ok" % len(c.runs), "FAIL: " + c.failure.problem,
                             "", "", "", ""])
                continue
            if not c.runs:
                continue
            ws = [r.wall for r in c.runs]
            cpu = [r.cpu for r in c.runs if r.cpu is not None]
            rows.append([p.name, t.name, str(len(c.runs)), fmt_s(median(ws)),
                         fmt_s(min(ws)), fmt_s(max(ws)), fmt_s(median(cpu)),
                         "%.1f" % (c.rss() / 1024)])
    return head, rows


# ---------------------------------------------------------------------------
# Environment description
# ---------------------------------------------------------------------------
def machine_info():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = "%.1f GiB" % (int(line.split()[1]) / (1 << 20))
                    break
    except OSError:
        pass
    return "%s, %d cores, %s RAM, Linux %s" % (cpu, os.cpu_count() or 0, mem,
                                               platform.release())


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def git_commit():
    try:
        rev = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True).stdout.decode().strip()
    except (subprocess.CalledProcessError, OSError):
        return "none (no commit yet)"
    st = subprocess.run(["git", "-C", TOP, "status", "--porcelain", "--untracked-files=no",
                         "--", ".", ":(exclude)bench/RESULTS.md"],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    return rev + ("-dirty" if st.strip() else "")


def valgrind_version():
    try:
        return subprocess.run(["valgrind", "--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT).stdout.decode().strip()
    except OSError:
        return "unknown"


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------
def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="ws benchmark harness: wall-time and peak-RSS ratios against "
        "--tool=none, written to bench/RESULTS.md.")
    ap.add_argument("--runs", type=int, default=None,
                    help="timed runs per program and tool (default 3, --quick 1)")
    ap.add_argument("--quick", action="store_true",
                    help="1 run each with smaller inputs (a smoke test, not a measurement)")
    ap.add_argument("--only", default=None, metavar="NAME[,NAME...]",
                    help="programs to run: xz, bzip2, sqlite3, python3, scale, longrun, "
                    "sparse, region, or a full name such as scale-256k; "
                    "'real' and 'synthetic' name the two groups")
    ap.add_argument("--tools", default=None, metavar="TOOL[,TOOL...]",
                    help="tools to run: %s (default all; none is always run, "
                    "ratios are against it)" % ", ".join(t.name for t in TOOLS))
    ap.add_argument("--paired", type=int, default=0, metavar="N",
                    help="also run each real program N times under ws with none "
                    "running it over and over beside it on the same core, and report "
                    "the median ratio of their CPU times: both see the same machine "
                    "state, so this ratio stays steady where wall times on a shared "
                    "machine do not (default 0: off)")
    ap.add_argument("--timeout", type=float, default=900,
                    help="seconds before one run is killed (default 900)")
    ap.add_argument("--build", default=os.path.join(TOP_BUILD, "bench", "build"),
                    help="build folder for programs, inputs and logs (default bench/build)")
    ap.add_argument("--out", default=os.path.join(BENCH, "RESULTS.md"),
                    help="markdown report (default bench/RESULTS.md)")
    a = ap.parse_args(argv)
    if a.runs is None:
        a.runs = 1 if a.quick else 3
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    if a.paired < 0:
        ap.error("--paired must be 0 or more")
    if a.tools:
        names = [x.strip() for x in a.tools.split(",") if x.strip()]
        bad = [x for x in names if x not in TOOL_BY_NAME]
        if bad:
            ap.error("unknown tool(s) %s; choose from %s"
                     % (", ".join(bad), ", ".join(TOOL_BY_NAME)))
        if "none" not in names:
            names.insert(0, "none")
        a.tool_names = [t.name for t in TOOLS if t.name in names]
    else:
        a.tool_names = [t.name for t in TOOLS]
    a.only = [x.strip() for x in a.only.split(",") if x.strip()] if a.only else None
    return a


def select_programs(progs, only):
    if not only:
        return progs
    known = set()
    for p in progs:
        known |= {p.name, p.group, "real" if p.real else "synthetic"}
    known |= {"scale", "longrun", "sparse", "region", "real", "synthetic"}
    bad = [x for x in only if x not in known]
    if bad:
        raise UsageError("unknown program(s) for --only: %s; choose from %s"
                         % (", ".join(bad), ", ".join(sorted(known))))
    return [p for p in progs
            if p.name in only or p.group in only
            or ("real" if p.real else "synthetic") in only]


class UsageError(Exception):
    pass


def main(argv):
    a = parse_args(argv)
    started = datetime.datetime.now().astimezone()
    t_start = time.perf_counter()
    build = os.path.abspath(a.build)
    outdir = os.path.join(build, "out")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    sizes = SIZES["quick" if a.quick else "default"]
    notes = []                  # things not run, shown in the report
    harness_errors = []

    for b in ("valgrind", "gcc"):
        if not have(b):
            raise HarnessError("%s not found; scripts/install-deps.sh "
                               "installs it" % b)

    exes = compile_progs(build, notes)
    global MEASURE
    MEASURE = exes["measure"]
    progs = make_programs(build, sizes, exes)
    try:
        progs = select_programs(progs, a.only)
    except UsageError as e:
        print("run.py: error: %s" % e, file=sys.stderr)
        return 2
    skip = missing_programs(progs, {p.name for p in progs})
    for name, why in skip.items():
        notes.append("%s skipped: %s" % (name, why))
    progs = [p for p in progs if p.name not in skip]
    tools = [TOOL_BY_NAME[n] for n in a.tool_names]

    print("ws benchmark: %d program(s) x %d tool(s), %d run(s) each%s"
          % (len(progs), len(tools), a.runs, " (quick)" if a.quick else ""))
    print("machine: %s; %s; commit %s" % (machine_info(), valgrind_version(), git_commit()))
    print("logs and tool output: %s" % outdir, flush=True)
    a.load_start = load_average()
    if a.load_start is not None and a.load_start > 0.5:
        print("warning: load average %.2f before starting on %d cores; other work on "
              "this machine makes the timings noisy" % (a.load_start, os.cpu_count() or 0),
              flush=True)

    # Probe every tool once so that a tool that cannot start is reported
    # once, clearly, instead of failing every run.
    failed_tools = {}
    for t in tools:
        problem = probe_tool(t, build, a.timeout)
        if problem:
            failed_tools[t.name] = problem
            print("\nFAILED: --tool=%s configuration '%s' does not start:\n%s\n"
                  % ("ws" if t.ws else t.name, t.name, problem), flush=True)
            notes.append("tool '%s' did not start on /bin/true:\n%s" % (t.name, problem))
    if "none" in failed_tools:
        raise HarnessError("valgrind --tool=none does not work:\n" + failed_tools["none"])

    res = Results(progs, tools)
    for p in progs:
        for t in tools:
            c = res.cell(p.name, t.name)
            if not applicable(p, t):
                c.not_run = "not applicable"
            elif t.name in failed_tools:
                c.not_run = "tool did not start"

    for p in progs:
        # Reference run without Valgrind: warms the caches, checks that the
        # program works, and gives the expected output.
        base = os.path.join(outdir, "%s.native" % p.name)
        if p.setup:
            p.setup()
        r = run_measured(p.argv, p.stdin, base + ".stdout", base + ".stderr", build,
                         p.env, a.timeout)
        check_run(r, None)
        if r.failed():
            msg = ("%s fails without Valgrind (%s)\ncommand: %s\nlast lines of stderr:\n%s"
                   % (p.name, r.problem, quote(p.argv),
                      "\n".join("    " + l for l in tail(r.stderr_path))))
            print("\nHARNESS ERROR: " + msg, flush=True)
            harness_errors.append(msg)
            for t in tools:
                res.cell(p.name, t.name).not_run = "program failed natively"
            continue
        p.native = r
        print("\n[%s] %s\n[%s] native: %.2f s, %.0f MB"
              % (p.name, p.describe, p.name, r.wall, r.maxrss_kb / 1024), flush=True)

        active = [t for t in tools if not res.cell(p.name, t.name).not_run]
        for i in range(a.runs):
            k = i % len(active) if active else 0
            for t in active[k:] + active[:k]:   # alternate the order run by run
                c = res.cell(p.name, t.name)
                if c.failure:
                    continue            # do not repeat a failing tool
                base = os.path.join(outdir, "%s.%s.%d" % (p.name, t.name, i + 1))
                cmd = t.command(base) + p.argv
                if p.setup:
                    p.setup()
                r = run_measured(cmd, p.stdin, base + ".stdout", base + ".stderr",
                                 build, p.env, a.timeout)
                check_run(r, p.native)
                if r.failed():
                    c.failure = r
                    print("[%s] run %d/%d %-14s FAILED: %s\n    command: %s\n"
                          "    last lines of stderr (%s):\n%s"
                          % (p.name, i + 1, a.runs, t.name, r.problem, quote(cmd),
                             r.stderr_path,
                             "\n".join("      | " + l for l in tail(r.stderr_path))),
                          flush=True)
                    continue
                c.runs.append(r)
                print("[%s] run %d/%d %-14s %7.2f s %7.0f MB"
                      % (p.name, i + 1, a.runs, t.name, r.wall, r.maxrss_kb / 1024),
                      flush=True)
                # ws output files of long runs can be large; keep only the last run's
                if t.out_opt and i + 1 < a.runs:
                    f = "%s.%s" % (base, t.out_ext)
                    if os.path.exists(f):
                        os.unlink(f)

        ws_tool = [t for t in active if t.name == "ws"]
        none_tool = [t for t in active if t.name == "none"]
        if a.paired and p.real and ws_tool and none_tool:
            c = res.cell(p.name, "ws")
            for i in range(a.paired):
                cpu = i % (os.cpu_count() or 1)
                base = os.path.join(outdir, "%s.paired.%d" % (p.name, i + 1))
                rw, refs = run_pair(p, ws_tool[0], none_tool[0], base, build, a.timeout, cpu)
                for r in [rw] + refs:
                    check_run(r, p.native)
                bad = [r for r in [rw] + refs if r.failed() or not r.cpu]
                if bad or not refs:
                    print("[%s] pair %d/%d FAILED: %s\n    command: %s"
                          % (p.name, i + 1, a.paired,
                             bad[0].problem or "no CPU time" if bad
                             else "no none run ended while ws ran",
                             quote(bad[0].argv if bad else rw.argv)), flush=True)
                    c.paired = []
                    break
                none_cpu = median([r.cpu for r in refs])
                c.paired.append(rw.cpu / none_cpu)
                print("[%s] pair %d/%d on core %d: CPU ws %.2f s, none %.2f s (median of "
                      "%d run(s) beside it): %.2f"
                      % (p.name, i + 1, a.paired, cpu, rw.cpu, none_cpu, len(refs),
                         c.paired[-1]), flush=True)

    elapsed = time.perf_counter() - t_start
    a.load_end = load_average()
    summary = summarise(res, a.tool_names, failed_tools)
    failures = []
    for p in progs:
        for t in tools:
            c = res.cell(p.name, t.name)
            if c.failure:
                f = c.failure
                failures.append("%s under %s: %s\ncommand: %s\nlast lines of stderr (%s):\n%s"
                                % (p.name, t.name, f.problem, quote(f.argv), f.stderr_path,
                                   "\n".join("    " + l for l in tail(f.stderr_path))))

    head, rows = table_rows(res)
    short = ["program", "native s", "none s", "none MB"]
    groups = []
    for t in res.tools:
        if t.name != "none":
            short += ["time", "RSS"]
            groups.append((t.label, 2))
    print("\n" + "=" * 78)
    print("Median of %d run(s).  none: wall seconds and peak RSS in MB; other tools:"
          % a.runs)
    print("wall time and peak RSS as ratios to none.")
    print(text_table(short, rows, groups))
    print("\nTargets:")
    for st, text in summary:
        print("  %-4s  %s" % (st, text))
    if failures:
        print("\n%d tool run(s) failed (details above and in %s)" % (len(failures),
                                                                    os.path.relpath(a.out)))
    if notes:
        print("\nNotes:")
        for n in notes:
            print("  - " + n.replace("\n", "\n    "))
    print("\nTotal time %.0f s" % elapsed)

    md = render_markdown(a, argv, started, elapsed, res, sizes, summary, failures,
                         notes + harness_errors)
    try:
        with open(a.out, "w") as f:
            f.write(md)
    except OSError as e:
        raise HarnessError("cannot write %s: %s" % (a.out, e))
    print("Wrote %s" % a.out)
    return 1 if harness_errors else 0


def render_markdown(a, argv, started, elapsed, res, sizes, summary, failures, notes):
    out = ["# ws benchmark results", ""]
    out.append("- date: %s" % started.strftime("%Y-%m-%d %H:%M %Z"))
    out.append("- machine: %s" % machine_info())
    out.append("- valgrind: %s (ws through ./vg-in-place)" % valgrind_version())
    out.append("- commit: %s" % git_commit())
    out.append("- command: `/usr/bin/python3 bench/run.py%s`" % ("".join(" " + x for x in argv)))
    out.append("- %d run(s) per program and tool, tools alternated run by run; "
               "medians; total %.0f s%s" % (a.runs, elapsed,
                                           "; --quick (smaller inputs)" if a.quick else ""))
    if a.load_start is not None:
        out.append("- load average (1 min) before / after: %.2f / %.2f%s"
                   % (a.load_start, a.load_end,
                      " — other work was running, timings are noisy"
                      if a.load_start > 0.5 or (a.load_end or 0) > 1.5 else ""))
    out.append("")
    out.append("Wall time of `valgrind --tool=none` in seconds and its peak RSS in MB; "
               "for every other tool the ratio of its median wall time (\"time\") and "
               "median peak RSS (\"RSS\") to those of `--tool=none`. "
               "\"ws pg=64\" is `--ws-pagesize=64`; \"ws atstart=no\" is "
               "`--ws-instr-atstart=no` on a program that measures a tiny region with "
               "`WS_START`/`WS_STOP`. An empty cell: not run for that program.")
    out.append("")
    head, rows = table_rows(res)
    out.append(md_table(head, rows))
    out.append("")
    out.append("## Targets")
    out.append("")
    out.append("| | target and measurement |")
    out.append("| --- | --- |")
    for st, text in summary:
        out.append("| %s | %s |" % ("**FAIL**" if st == "FAIL" else st,
                                    text.replace("|", "\\|").replace("<=", "≤")))
    out.append("")
    out.append("## Programs")
    out.append("")
    for p in res.progs:
        out.append("- **%s**: %s" % (p.name, p.describe))
    out.append("")
    if failures:
        out.append("## Failed tool runs")
        out.append("")
        for f in failures:
            out.append("```")
            out.append(f)
            out.append("```")
        out.append("")
    if notes:
        out.append("## Notes")
        out.append("")
        for n in notes:
            if "\n" in n:
                first, rest = n.split("\n", 1)
                out.append("- " + first)
                out.append("")
                out.append("  ```")
                out += ["  " + l for l in rest.split("\n")]
                out.append("  ```")
            else:
                out.append("- " + n)
        out.append("")
    out.append("## All runs")
    out.append("")
    h, r = raw_rows(res)
    out.append(md_table(h, r))
    out.append("")
    out.append("Every command is started by `bench/progs/measure.c`, which forks it and "
               "reports the wall time (`CLOCK_MONOTONIC` from fork to `wait4`) and "
               "`ru_maxrss` from `wait4`: the peak RSS of the valgrind process itself "
               "(the Debian `valgrind` wrapper script execs `valgrind.bin`, and Valgrind "
               "runs the client in-process). Forking from a small helper rather than from "
               "the Python harness keeps Python's own pages out of the high-water mark. "
               "Regenerate with `make bench`; logs and tool output of the last run are in "
               "`bench/build/out/`.")
    out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print("run.py: harness error: %s" % e, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("run.py: interrupted", file=sys.stderr)
        sys.exit(130)
