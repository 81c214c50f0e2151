"""ws_print on the output files of long runs: its peak memory and time on
files of 25, 100 and 250 MB (by default), for the text report, --csv and
--html, and the same for an older ws_print given with --base; written as
a section of bench/RESULTS.md (replaced when it is there, else added at
the end), and printed.

    /usr/bin/python3 bench/print_memory.py
    /usr/bin/python3 bench/print_memory.py --base /tmp/old/ws_print \\
        --base-label a9979af --sizes 25,100,250

The files are valid format 4 output files that tests/bigfile.py makes
(about 18 bytes a sample: 250 MB is 13.5 million samples), kept in
bench/build/print/ for the next run.  Every command runs under
bench/progs/measure.c (peak RSS from wait4, not carrying this Python
process's pages).  Not part of make check: a 250 MB file takes a minute
to make and ws_print's runs take minutes more."""

import argparse
import os
import sys

import measure
from common import BENCH, TOP_BUILD, HarnessError, quote, write_section
from report import git_commit, load_average, machine_info
from workloads import compile_progs

sys.path.insert(0, os.path.join(os.path.dirname(BENCH), "tests"))
import bigfile  # noqa: E402

BYTES_PER_SAMPLE = 18.5            # of bigfile's lines, measured
MODES = [("text", ["--width=100", "--height=12"]), ("csv", ["--csv=@OUT"]),
         ("html", ["--html", "@OUT"])]
BEGIN, END = "<!-- print-memory -->", "<!-- /print-memory -->"


def make_file(d, mb):
    path = os.path.join(d, "long-%dMB.ws" % mb)
    n = int(mb * 1e6 / BYTES_PER_SAMPLE)
    if not os.path.exists(path):
        print("making %s (%d samples)" % (path, n), flush=True)
        bigfile.write(path + ".tmp", n)
        os.rename(path + ".tmp", path)
    return path, n


def run(binary, args, path, d, timeout):
    out = os.path.join(d, "out")
    argv = [binary] + [a.replace("@OUT", out) for a in args] + [path]
    r = measure.run_measured(argv, None, out + ".stdout", out + ".stderr",
                             d, {}, timeout)
    if r.failed() or r.status != 0:
        with open(out + ".stderr", errors="replace") as f:
            raise HarnessError("%s failed (%s): %s" % (
                " ".join(argv), r.problem or r.status, f.read()[-2000:]))
    return r


def section(rows, a, sizes):
    lines = [BEGIN, "## ws_print on long runs' output files", "",
             "- machine: %s; commit %s; load average before %s" % (
                 machine_info(), git_commit(),
                 "%.2f" % a.load if a.load is not None else "?"),
             "- command: `%s`" % quote(["/usr/bin/python3",
                                        "bench/print_memory.py"]
                                       + sys.argv[1:]),
             "",
             "Peak RSS (MB, from `wait4` through `bench/progs/measure.c`) and "
             "CPU seconds of `ws_print` on valid format 4 output files of "
             "%s MB made by `tests/bigfile.py` (about 18 bytes a sample): the "
             "text report (`--width=100 --height=12`), `--csv=FILE` and "
             "`--html FILE`.  ws_print keeps the samples while they take at "
             "most 8 MiB and reads them again past that "
             "(`print/wsp_series.c`), so its memory does not grow with the "
             "file." % ", ".join(str(s) for s in sizes), "",
             "| ws_print | file MB | samples | text MB | text s | csv MB | "
             "csv s | html MB | html s |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, mb, n, res in rows:
        cells = []
        for mode, _ in MODES:
            r = res[mode]
            cells += ["%.1f" % (r.maxrss_kb / 1024), "%.1f" % r.cpu]
        lines.append("| %s | %d | %s | %s |" % (label, mb, "{:,}".format(n),
                                               " | ".join(cells)))
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="25,100,250",
                   help="file sizes in MB, comma-separated [25,100,250]")
    p.add_argument("--print", dest="binary",
                   default=os.path.join(TOP_BUILD, "print", "ws_print"),
                   help="the ws_print to measure [this tree's]")
    p.add_argument("--base", help="an older ws_print to measure beside it")
    p.add_argument("--base-label", default="base",
                   help="what the table calls --base [base]")
    p.add_argument("--out", default=os.path.join(BENCH, "RESULTS.md"),
                   help="the markdown file to write the section into")
    p.add_argument("--timeout", type=float, default=1800)
    a = p.parse_args(argv)
    sizes = [int(s) for s in a.sizes.split(",")]
    build = os.path.join(BENCH, "build")
    d = os.path.join(build, "print")
    os.makedirs(d, exist_ok=True)
    measure.use_helper(compile_progs(build, [])["measure"])
    a.load = load_average()
    binaries = [("this tree", a.binary)]
    if a.base:
        binaries.insert(0, (a.base_label, a.base))
    rows = []
    for mb in sizes:
        path, n = make_file(d, mb)
        for label, binary in binaries:
            res = {}
            for mode, args in MODES:
                res[mode] = run(binary, args, path, d, a.timeout)
                print("%-10s %4d MB %-5s %8.1f MB %7.1f s" % (
                    label, mb, mode, res[mode].maxrss_kb / 1024,
                    res[mode].cpu), flush=True)
            rows.append((label, mb, n, res))
    write_section(a.out, BEGIN, END, section(rows, a, sizes))
    print("written to %s" % a.out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print("print_memory.py: %s" % e, file=sys.stderr)
        sys.exit(1)
