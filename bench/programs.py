"""What the benchmark runs, as data tables: the tools (a launcher and
options each) and the programs they run (the targets), with the input
sizes; which program runs under which tool, which programs --only
selects, which ones cannot run here.  workloads.py makes the inputs and
turns the table's rows into Programs."""

import os

from common import VG_IN_PLACE, UsageError, have

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
class ProgramSpec:
    """One row of PROGRAMS.  argv, stdin, scratch and describe are
    templates, filled in by workloads.make_programs from the input sizes
    (SIZES), the inputs it writes (xz_in, bz_in, sql, py, db), the
    compiled programs (exe) and the row's own params."""

    def __init__(self, name, group, argv, describe, real=False, stdin=None,
                 env=None, tools=None, client_requests=False, needs=None,
                 scratch=None, exe=None, params=None):
        self.name = name
        self.group = group            # for --only: xz, scale, longrun, ...
        self.argv = argv
        self.describe = describe
        self.real = real              # one of the real Debian programs
        self.stdin = stdin
        self.env = env or {}
        self.tools = tools            # None: every tool; else names allowed
        self.client_requests = client_requests
        self.needs = needs            # (binary, debian package) or None
        self.scratch = scratch        # a file two runs at once must not share
        self.exe = exe                # the bench/progs program it runs
        self.params = params or {}


PROGRAMS = [
    ProgramSpec("xz", "xz", ["xz", "-9", "-T1", "-c", "{xz_in}"], real=True,
                needs=("xz", "xz-utils"),
                describe="xz -9 -T1 on {xz_size} of generated text+random data"),
    ProgramSpec("bzip2", "bzip2", ["bzip2", "-9", "-c", "{bz_in}"], real=True,
                needs=("bzip2", "bzip2"),
                describe="bzip2 -9 on {bz_size} of generated text+random data"),
    ProgramSpec("sqlite3", "sqlite3", ["sqlite3", "-batch", "{db}"], real=True,
                stdin="{sql}", needs=("sqlite3", "sqlite3"), scratch="{db}",
                describe="sqlite3: {sql_rows}-row table built by a recursive CTE, "
                "an index, queries (fresh db file each run)"),
    ProgramSpec("python3", "python3",
                ["/usr/bin/python3", "-s", "{py}", "{py_n}", "{py_rounds}"],
                real=True, env={"PYTHONHASHSEED": "0"},
                needs=("/usr/bin/python3", "python3"),
                describe="/usr/bin/python3 dict workload, n={py_n}, "
                "{py_rounds} round(s)"),
    ProgramSpec("scale-1k", "scale", ["{exe}", "{n}", "{scale_work}"],
                exe="scale", tools=WS_TOOLS_FOR_SYNTHETIC,
                params=dict(n=SCALE_SMALL),
                describe="scale.c: touch {n} pages once, then {scale_work} "
                "passes over 16 KiB"),
    ProgramSpec("scale-256k", "scale", ["{exe}", "{n}", "{scale_work}"],
                exe="scale", tools=WS_TOOLS_FOR_SYNTHETIC,
                params=dict(n=SCALE_LARGE),
                describe="scale.c: touch {n} pages once, then {scale_work} "
                "passes over 16 KiB"),
    ProgramSpec("longrun-x1", "longrun", ["{exe}", "{mult}", "{longrun_base}"],
                exe="longrun", tools=WS_TOOLS_FOR_SYNTHETIC, params=dict(mult=1),
                describe="longrun.c: {rounds} rounds of sliding window + "
                "malloc/mmap churn"),
    ProgramSpec("longrun-x10", "longrun", ["{exe}", "{mult}", "{longrun_base}"],
                exe="longrun", tools=WS_TOOLS_FOR_SYNTHETIC, params=dict(mult=10),
                describe="longrun.c: {rounds} rounds of sliding window + "
                "malloc/mmap churn"),
    ProgramSpec("sparse", "sparse", ["{exe}", "{sparse_gib}", "{sparse_passes}"],
                exe="sparse",
                describe="sparse.c: one byte every 3 MiB across {sparse_gib} GiB "
                "(MAP_NORESERVE)"),
    ProgramSpec("region", "region", ["{exe}", "{region_work}"], exe="region",
                tools=["none", "ws", "ws-atstart-no"], client_requests=True,
                describe="region.c: {region_work} passes over 16 KiB, "
                "WS_START/WS_STOP around 16 pages"),
]


class Program:
    """A row of TARGETS with its templates filled in: what one run of it
    is."""

    def __init__(self, name, group, argv, real=False, stdin=None, env=None,
                 tools=None, client_requests=False, needs=None, describe="",
                 scratch=None):
        self.name = name
        self.group = group
        self.argv = argv
        self.real = real
        self.stdin = stdin
        self.env = env or {}
        self.tools = tools
        self.client_requests = client_requests
        self.needs = needs
        self.describe = describe
        self.native = None            # RunResult of the reference run
        self.scratch = scratch

    def setup(self):
        """Before every run: a fresh scratch file (none of the files
        sqlite3 keeps beside it either)."""
        if self.scratch:
            remove_scratch(self.scratch)

    def private_argv(self, tag):
        """argv for one of two runs at the same time: its own scratch
        file (removed first, with the files sqlite3 keeps beside it)."""
        if not self.scratch:
            return self.argv
        mine = "%s.%s" % (self.scratch, tag)
        remove_scratch(mine)
        return [mine if x == self.scratch else x for x in self.argv]


def remove_scratch(path):
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


def applicable(prog, tool):
    if tool.client_requests and not prog.client_requests:
        return False
    return prog.tools is None or tool.name in prog.tools


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
