"""The report: the table of medians and ratios, the targets' rows and the
failures, printed on the terminal and written as markdown (RESULTS.md),
with the machine, the Valgrind version and the commit they come from."""

import os
import platform
import subprocess

from common import TOP, fmt_ratio, fmt_s, median, quote, tail


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


def failure_reports(res, progs, tools):
    """A text for every tool run that failed: what, the command and the
    last lines of its stderr."""
    failures = []
    for p in progs:
        for t in tools:
            c = res.cell(p.name, t.name)
            if c.failure:
                f = c.failure
                failures.append("%s under %s: %s\ncommand: %s\nlast lines of stderr (%s):\n%s"
                                % (p.name, t.name, f.problem, quote(f.argv), f.stderr_path,
                                   "\n".join("    " + l for l in tail(f.stderr_path))))
    return failures


def print_report(a, res, summary, failures, notes, elapsed):
    """The end of the terminal output: the table, the targets, what
    failed and what was not run."""
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

