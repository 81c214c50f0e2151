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

This file reads the options and runs the rest in order; the modules beside
it hold the parts:

    common.py     where the tree is, errors, small helpers
    programs.py   the tools and the programs (the targets) as tables
    workloads.py  the programs' inputs, bench/progs compiled, the table
                  filled in
    measure.py    one measured command; a program's reference, timed and
                  paired runs
    results.py    the runs of each program and tool, the ratios to none
    targets.py    the PASS/FAIL targets as a table, checked
    report.py     the terminal report and RESULTS.md

Python standard library only.
"""

import argparse
import datetime
import os
import shutil
import sys
import time

import measure
from common import BENCH, TOP_BUILD, HarnessError, UsageError, have
from programs import (SIZES, TOOLS, TOOL_BY_NAME, applicable, missing_programs,
                      select_programs)
from report import (failure_reports, git_commit, load_average, machine_info,
                    print_report, render_markdown, valgrind_version)
from results import Results
from targets import summarise
from workloads import compile_progs, make_programs


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


def probe_tools(tools, build, timeout, notes):
    """Probe every tool once so that a tool that cannot start is reported
    once, clearly, instead of failing every run: {name: report}."""
    failed_tools = {}
    for t in tools:
        problem = measure.probe_tool(t, build, timeout)
        if problem:
            failed_tools[t.name] = problem
            print("\nFAILED: --tool=%s configuration '%s' does not start:\n%s\n"
                  % ("ws" if t.ws else t.name, t.name, problem), flush=True)
            notes.append("tool '%s' did not start on /bin/true:\n%s" % (t.name, problem))
    if "none" in failed_tools:
        raise HarnessError("valgrind --tool=none does not work:\n" + failed_tools["none"])
    return failed_tools


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
    measure.use_helper(exes["measure"])
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

    failed_tools = probe_tools(tools, build, a.timeout, notes)
    res = Results(progs, tools)
    for p in progs:
        for t in tools:
            c = res.cell(p.name, t.name)
            if not applicable(p, t):
                c.not_run = "not applicable"
            elif t.name in failed_tools:
                c.not_run = "tool did not start"

    for p in progs:
        msg = measure.native_run(p, outdir, build, a.timeout)
        if msg:
            print("\nHARNESS ERROR: " + msg, flush=True)
            harness_errors.append(msg)
            for t in tools:
                res.cell(p.name, t.name).not_run = "program failed natively"
            continue
        active = [t for t in tools if not res.cell(p.name, t.name).not_run]
        measure.timed_runs(p, active, res, outdir, build, a.runs, a.timeout)
        measure.paired_runs(p, active, res, outdir, build, a.paired, a.timeout)

    elapsed = time.perf_counter() - t_start
    a.load_end = load_average()
    summary = summarise(res, a.tool_names, failed_tools)
    failures = failure_reports(res, progs, tools)
    print_report(a, res, summary, failures, notes, elapsed)

    md = render_markdown(a, argv, started, elapsed, res, sizes, summary, failures,
                         notes + harness_errors)
    try:
        with open(a.out, "w") as f:
            f.write(md)
    except OSError as e:
        raise HarnessError("cannot write %s: %s" % (a.out, e))
    print("Wrote %s" % a.out)
    return 1 if harness_errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print("run.py: harness error: %s" % e, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("run.py: interrupted", file=sys.stderr)
        sys.exit(130)
