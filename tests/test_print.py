"""ws_print (print/): the text report, --csv, --html and its errors.

- golden charts: ws_print --width 72 --height 16 on the output files of
  real runs in tests/print_golden/ must print exactly the checked-in
  NAME.txt.  record.sh records the runs again with the ws of the tree
  (format 4); phases-v2.ws and spikes-v3.ws stay as older ws wrote them.
  After a deliberate change to the report, write the charts again with
  WS_PRINT_REGEN=1 (the run rewrites them and fails) and review the diff:
      WS_PRINT_REGEN=1 make check PYTEST_FLAGS='-k golden'
- --csv gives exactly the samples tests/wslib.py reads from the same file;
- files from fresh ws runs (marks, regions, a dump; per-thread columns);
- malformed files: `ws_print: FILE:LINE: what is wrong`, exit status 1;
  a file cut short by a killed run: shown, with a note, exit status 0;
- the fuzz corpus (tests/print_corpus/) replayed through ws_print_asan
  (ASan + UBSan): exit status 0 or 1, no sanitizer report;
- the HTML report in headless Chromium: no console errors, one chart
  point per sample, the hover shows the sample's values (through the
  page's ?test= hook), a screenshot in tests/print_out/ of the build tree.
"""

import bisect
import collections
import csv
import html
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import zlib

import pytest

import test_output
import wslib

PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
PRINT_ASAN = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print_asan")
GOLDEN = GOLDEN_DIR = os.path.join(wslib.TESTS_DIR, "print_golden")
CORPUS = os.path.join(wslib.TESTS_DIR, "print_corpus")
OUT_DIR = os.path.join(wslib.TOP_BUILDDIR, "tests", "print_out")
GOLDEN_FILES = sorted(f[:-3] for f in os.listdir(GOLDEN) if f.endswith(".ws"))
ERROR_LINE = re.compile(r"ws_print: (.+):(\d+): (.+)\n\Z")


def ws_print(*args, prog=PRINT, cwd=None, stdin=None):
    if not wslib.built(prog):
        raise AssertionError("not built: %s (run `make check` from the top "
                             "of the tree)" % prog)
    p = subprocess.run([prog] + list(args), cwd=cwd, input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60, env=wslib.sanitizer_env()
                       if prog == PRINT_ASAN else None)
    assert p.returncode in (0, 1), (
        "ws_print %s: exit status %d\n%s" % (" ".join(args), p.returncode,
                                             p.stderr.decode(errors="replace")))
    return p


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("latin-1")


def parsed(path):
    """wslib's reading of a file, cut or not."""
    return wslib.parse_output(read_text(path), complete=False)


# ----------------------------------------------------------------------
# Golden charts

@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_golden_chart(name):
    p = ws_print("--width", "72", "--height", "16", name + ".ws", cwd=GOLDEN)
    assert p.returncode == 0, p.stderr
    got = p.stdout.decode()
    expected_path = os.path.join(GOLDEN, name + ".txt")
    with open(expected_path) as f:
        expected = f.read()
    if got != expected and os.environ.get("WS_PRINT_REGEN"):
        # written for review, and still a failure: a run that rewrote a
        # golden chart has compared nothing
        with open(expected_path, "w") as f:
            f.write(got)
        pytest.fail("%s rewritten: review `git diff` and run the tests "
                    "again without WS_PRINT_REGEN" % expected_path)
    assert got == expected, (
        "ws_print's report of %s.ws differs from %s.txt (if the change is "
        "meant, regenerate with WS_PRINT_REGEN=1 and review the diff)"
        % (name, name))
    assert max(len(line) for line in got.splitlines()
               if not line.startswith("Command:")) <= 72
    out = parsed(os.path.join(GOLDEN, name + ".ws"))
    if out.complete:
        assert p.stderr == b""
    else:
        assert p.stderr.decode() == (
            "ws_print: %s.ws: note: the run did not finish (the file has no "
            "trailer); showing its %d samples\n" % (name, len(out.samples)))


def test_regen_writes_and_still_fails(tmp_path, monkeypatch):
    """WS_PRINT_REGEN=1 rewrites a golden chart that differs, and the run
    fails all the same: a run that rewrote a chart has compared nothing.
    Once rewritten, the same run compares and passes."""
    shutil.copy(os.path.join(GOLDEN, "phases.ws"), tmp_path)
    stale = tmp_path / "phases.txt"
    stale.write_text("an old report\n")
    monkeypatch.setitem(globals(), "GOLDEN", str(tmp_path))
    monkeypatch.setenv("WS_PRINT_REGEN", "1")
    with pytest.raises(pytest.fail.Exception, match="rewritten"):
        test_golden_chart("phases")
    with open(os.path.join(GOLDEN_DIR, "phases.txt")) as f:
        assert stale.read_text() == f.read()
    test_golden_chart("phases")


ZERO_PADDED = re.compile(r"\b0x0[0-9a-f]")


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_one_vocabulary(tmp_path, name):
    """ws_print speaks as ws does (issue 19 item 12): addresses unpadded
    (0x109000, as memcheck prints them) in the text report, --csv and the
    HTML report; hot pages under "Hot instruction pages" and "Hot data
    pages"; a mapped file is "file X", never "mapping of X"."""
    path = os.path.join(GOLDEN, name + ".ws")
    report = str(tmp_path / "r.html")
    text = ws_print("--width=250", path).stdout.decode()
    page = ws_print("--html", report, path) and open(report).read()
    for out in (text, ws_print("--csv", path).stdout.decode(), page):
        assert not ZERO_PADDED.search(out), ZERO_PADDED.search(out)
        assert "mapping of" not in out
    if any(parsed(path).hot.values()):
        assert re.search(r"^Hot (instruction|data) pages \(", text, re.M)
    assert "Hot instruction pages (accesses: " in page
    assert "Hot data pages (accesses: " in page


def chart_rows(text, title):
    """The plot rows of one chart (top row first) and its axis line."""
    lines = text.splitlines()
    i = lines.index(title)
    rows = []
    for line in lines[i + 1:]:
        if re.match(r" *0 \+", line):
            return rows, line
        rows.append(line)
    raise AssertionError("no axis under %r" % title)


@pytest.mark.parametrize("name", ["phases", "pageramp", "threads"])
def test_chart_scale(name):
    """The y axis runs from 0 to the peak, which the '#' column reaches;
    the summary is the trailer's, in ws's own words."""
    path = os.path.join(GOLDEN, name + ".ws")
    out = parsed(path)
    text = ws_print("--width=100", "--height=10", path).stdout.decode()
    for kind, title in (("insn", "Instruction working set"),
                        ("data", "Data working set")):
        rows, axis = chart_rows(text, title + ", pages of %d bytes"
                                % out.pagesize)
        assert len(rows) == 10
        peak = max(getattr(s, kind) for s in out.samples)
        assert re.match(r" *%d \^" % peak, rows[0]), rows[0]
        assert "#" in rows[0] and all("#" in r for r in rows)
        assert len(axis) <= 100 and axis.endswith(">Mi")
        avg, pk, total = out.summary[kind]
        assert "  %s avg/peak/total: %.1f/%d/%d pages (" % (
            kind.capitalize(), avg, pk, total) in text


def test_summary_is_ws_own(tmp_path):
    """The summary ws_print gives, in text and in the HTML report, is the
    one ws printed at exit, kB included: demo/reindex averages 477.4 data
    pages, 1909.5 kB unrounded less a little, which ws prints as 1909 and
    which the rounded 477.4 would make 1910 (at 4 KiB pages, an average's
    kB from the rounded figure is off for a fifth of all averages)."""
    reindex = os.path.join(wslib.TOP_BUILDDIR, "demo", "reindex")
    wslib.require_built(reindex)
    r = wslib.run_ws([reindex], ("--ws-instr-atstart=no",),
                     out_path=str(tmp_path / "ws.out"))
    said = [re.sub(r"^==\d+== ", "", l) for l in r.stderr.splitlines()
            if re.match(r"==\d+== (Insn|Data) avg/peak/total", l)]
    assert len(said) == 2, r.stderr
    text = ws_print(r.out_path).stdout.decode()
    shown = [l.strip() for l in text.splitlines()
             if re.match(r"  (Insn|Data) avg/peak/total", l)]
    assert shown == said, (shown, said)
    report = str(tmp_path / "r.html")
    ws_print("--html", report, r.out_path)
    res, _ = page_results(report, "")
    for row, line in zip(res["summaryRows"], said):
        m = re.search(r": ([0-9.]+)/(\d+)/(\d+) pages \((\d+)/(\d+)/(\d+) kB",
                      line)
        assert [c.replace(",", "").replace(" kB", "") for c in row[1:]] \
            == list(m.groups()), (row, line)
    # the lines, and the density, as ws printed them
    assert len(res["summaryLineRows"]) == 2, res
    for row, line in zip(res["summaryLineRows"], said):
        m = re.search(r"kB\), ([0-9.]+)/(\d+)/(\d+) lines", line)
        assert [c.replace(",", "") for c in row[1:]] == list(m.groups()), (
            row, line)
    density = re.search(r"density (\d\.\d{3})", said[1]).group(1)
    assert "Data density " + density in res["summaryText"], res


# print/README.md's excerpts of the text report: the file each quotes
# (by the excerpt's first line), at 80 columns and charts of 16 rows
README_EXCERPTS = {"Data working set, pages of 4096 bytes": "phases.ws",
                   "Peaks: 4 (2 insn, 2 data); the detector found 4":
                       "reindex.ws",
                   "Peaks: 4 (1 insn, 3 data), by call stack:":
                       "spikes-v3.ws"}


def test_readme_excerpts():
    """Every excerpt of the text report in print/README.md is what
    ws_print prints for the file it quotes (a line '...' leaves lines
    out); the heap section's excerpts are test_heap_usage.py's."""
    import doclib
    with open(os.path.join(wslib.TOP_SRCDIR, "print", "README.md"),
              encoding="utf-8") as f:
        blocks = doclib.doc_blocks(f.read())
    quoted = [b for b in blocks if b[0] in README_EXCERPTS]
    assert len(quoted) == len(README_EXCERPTS)
    for block in quoted:
        name = README_EXCERPTS[block[0]]
        text = ws_print("--width=80", "--height=16",
                        os.path.join(GOLDEN, name)).stdout.decode()
        doclib.find_excerpt(["..." if l.strip() == "..." else l
                             for l in block], text.splitlines(),
                            "print/README.md (%s)" % name)


def test_terminal_size_from_environment():
    path = os.path.join(GOLDEN, "phases.ws")
    env = dict(os.environ, COLUMNS="123", LINES="30")
    p = subprocess.run([PRINT, path], stdout=subprocess.PIPE, env=env,
                       timeout=60)
    lines = p.stdout.decode().splitlines()
    assert lines[0] == "-" * 123
    rows, axis = chart_rows(p.stdout.decode(),
                            "Data working set, pages of 4096 bytes")
    assert len(rows) == 30 - 7 and len(axis) <= 123


V3_FILES = [n for n in GOLDEN_FILES
            if read_text(os.path.join(GOLDEN, n + ".ws")).startswith(
                "ws-output-format: 3\n")]


def section(text, title, end_titles):
    """The lines of text from the line starting with title to the next
    line starting with one of end_titles (or the end)."""
    lines = text.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith(title))
    j = next((k for k in range(i + 1, len(lines))
              if lines[k].startswith(end_titles)), len(lines))
    return lines[i:j]


def where_text(w):
    return w.words()


@pytest.mark.parametrize("name", V3_FILES)
def test_text_peaks_owners_and_hot_pages(name):
    """Wide enough not to cut anything: every peak (number, time, kind,
    size) under its stack, peaks with the same stack folded with their
    count, the stack's frames with inlined ones marked; each peak's owner
    lines in the file's order; the hot pages as the file has them; each
    peak's number under its chart."""
    path = os.path.join(GOLDEN, name + ".ws")
    out = parsed(path)
    text = ws_print("--width=250", "--height=10", path).stdout.decode()
    assert V3_FILES and out.version == 3
    unit = "ms" if out.time_unit == "ms" else "i"

    def kb(pages):
        k = pages * out.pagesize / 1024
        return "%.0f" % k if k >= 100 or k == int(k) else "%.1f" % k

    def peak_text(n):
        p = out.peaks[n]
        return "#%d at %d %s: %s %d pages (%s kB)" % (n, p.t, unit, p.kind,
                                                     p.size, kb(p.size))

    if not out.peaks:
        assert "\nPeaks: none\n" in text
    peaks = section(text, "Peaks: ", ("Data working set at each peak",
                                      "Hot ", "Events:"))
    if not out.peaks:
        peaks = ["Peaks: 0 (0 insn, 0 data), by call stack:", ""]
    assert peaks[0] == "Peaks: %d (%d insn, %d data), by call stack:" % (
        len(out.peaks), sum(p.kind == "insn" for p in out.peaks),
        sum(p.kind == "data" for p in out.peaks))
    want = []
    for n, p in enumerate(out.peaks):
        if any(q.stack == p.stack for q in out.peaks[:n]):
            continue
        same = [m for m, q in enumerate(out.peaks) if q.stack == p.stack]
        want += ["", "  %d peak%s with stack %d:" % (
            len(same), "s" if len(same) > 1 else "", p.stack)]
        want += ["    " + peak_text(m) for m in same[:10]]
        for k, w in enumerate(out.stacks[p.stack]):
            want.append("      %s 0x%x: %s%s" % (
                "by" if k else "at", w.ip, where_text(w),
                " [inlined]" if w.inline else ""))
    assert peaks[1:] == want + [""]

    owners = section(text, "Data working set at each peak",
                     ("Hot ", "Events:", "Per thread")) if out.peaks else [""]
    got = []
    for l in owners[1:]:
        if l.startswith("  #"):
            got.append((l.split()[0][1:], []))
        elif l.startswith("    ") and l.split()[0].isdigit():
            got[-1][1].append(int(l.split()[0]))
        elif l.strip():
            # a heap owner's allocation stack, in full, under its line
            assert re.match(r" +(at|by) 0x[0-9a-f]+: ", l), l
    assert got == [(str(n), [pages for pages, _ in p.owners])
                   for n, p in enumerate(out.peaks)]

    for kind, title in (("insn", "Hot instruction pages"),
                        ("data", "Hot data pages")):
        rows = [l.split()[:3] for l in section(
                    text, title, ("Hot ", "Every page", "Per thread",
                                  "Events:"))[2:]
                if not l.strip().startswith(("owner:", "at 0x", "by 0x"))
                and l.strip()]
        assert rows == [[str(h.rank), str(h.accesses), "0x%x" % h.addr]
                        for h in out.hot[kind]], (kind, rows)
        assert len(out.hot[kind]) > 0

    for kind, title in (("insn", "Instruction working set"),
                        ("data", "Data working set")):
        rows, axis = chart_rows(text, title + ", pages of %d bytes"
                                % out.pagesize)
        chart = text.split(title, 1)[1]
        under = chart.split(axis + "\n", 1)[1].split("\n")
        peak_row = under[2] if any(e.kind in ("mark", "start", "stop")
                                   for e in out.events) else under[1]
        mine = [n for n, p in enumerate(out.peaks) if p.kind == kind]
        if not mine:
            continue
        nums = [int(x) for x in re.findall(r"[0-9]+", peak_row)]
        # numbers that would touch give way to a '*'
        if "*" in peak_row:
            assert nums == sorted(nums) and set(nums) <= set(mine), peak_row
        else:
            assert nums == mine, (kind, peak_row)


# ----------------------------------------------------------------------
# The ranked peaks of a version 4 file

def owner_text(out, o):
    """An owner in ws_print's words (a heap owner by the line that names
    its allocation stack)."""
    if o.kind in ("heap", "freed"):
        what = "heap" if o.kind == "heap" else "freed"
        if o.block is not None:
            head = "%s block 0x%x (%d bytes) from " % (what, o.block, o.size)
        else:
            head = "%s blocks from " % what
        return head + where_text(naming(out.stacks[o.stack], None))
    return {"heap-other": "heap outside live blocks (allocator data, free "
                          "memory)",
            "stack": "stack of thread %s" % o.tid,
            "anon": "anonymous memory", "unknown": "unknown",
            "rest": "the other owners"}.get(o.kind) or (
        "global " + o.name if o.kind == "global" else
        "file " + o.name if o.kind == "file" else
        "%s in %s" % (o.name, o.object))


def naming(frames, own):
    """The frame that names a stack: the program's own line, else the
    first in a source file (not a header), else the innermost."""
    if own is not None:
        return frames[own]
    for w in frames:
        loc = w.location
        if ":" in loc and not loc.startswith("(") and not re.search(
                r"\.(h|hh|hpp|hxx|tcc)(:|$)", loc.rsplit(":", 1)[0]
                + ":") and "." in loc.split(":")[0]:
            return w
    return frames[0]


def stack_lines(frames, own, indent):
    return ["%s%s 0x%x: %s%s" % (
        indent[:-3] + "-> " if k == own else indent, "by" if k else "at",
        w.ip, where_text(w), " [inlined]" if w.inline else "")
        for k, w in enumerate(frames)]


def kb_text(pages, pagesize):
    k = pages * pagesize / 1024
    return "%.0f" % k if k >= 100 or k == int(k) else "%.1f" % k


def why_text(p):
    largest = "largest" in p.why or p.regions
    parts = ""
    if largest:
        parts = "the largest %s sample of " % p.kind
        if "largest" in p.why:
            parts += "the run" + (" and of " if p.regions else "")
        for i, label in enumerate(p.regions):
            parts += ("" if i == 0 else " and " if i + 1 == len(p.regions)
                      else ", ") + "region '%s'" % label
    if "detected" in p.why:
        parts += "; detected too" if largest else "flagged by the detector"
    return parts


def v4_peaks_text(out):
    """The Peaks section ws_print must print for a version 4 file, wide
    enough to cut nothing."""
    unit = "ms" if out.time_unit == "ms" else "i"
    n_insn = sum(p.kind == "insn" for p in out.peaks)
    lines = ["Peaks: %d (%d insn, %d data); the detector found %d" % (
        len(out.peaks), n_insn, len(out.peaks) - n_insn, out.found)]
    for kind, title in (("insn", "Instruction peaks:"),
                        ("data", "Data peaks:")):
        mine = [p for p in out.peaks if p.kind == kind]
        if not mine:
            continue
        lines += ["", title]
        for i, p in enumerate(mine):
            if i:
                lines.append("")
            head = "  #%d  %d pages (%s kB) at t=%d %s" % (
                p.n, p.size, kb_text(p.size, out.pagesize), p.t, unit)
            if p.size >= p.baseline:
                head += ", %d above a baseline of %d" % (
                    p.size - p.baseline, p.baseline)
            frames = out.stacks[p.stack]
            lines += [head, "      " + why_text(p),
                      "      %s %s:" % (
                          "The working set rose in" if p.origin == "rise"
                          else "At the sample, the program was in",
                          where_text(naming(frames, p.own)))]
            lines += stack_lines(frames, p.own, "        ")
            if p.owners:
                lines.append("      By %s (pages):" % (
                    "owner" if kind == "data" else
                    "code owner, the function that brought each page in"))
            for pages, o in p.owners:
                lines.append("      %8d  %s" % (pages, owner_text(out, o)))
                if o.kind == "heap" and o.stack in p.heap_window:
                    live, window = p.heap_window[o.stack]
                    lines.append(" " * 16 + "%d of its %d live bytes in the "
                                 "window" % (window, live))
                if o.kind in ("heap", "freed"):
                    lines += stack_lines(out.stacks[o.stack], None,
                                         " " * 18)
    return lines


@pytest.mark.parametrize("argv,options", [
    (["vecgrow", "262144"], ()),
    (["endburst", "stop", "2000"], ("--ws-instr-atstart=no",)),
    (["memspike", "3000"], ("--ws-peaks=2",)),
    (["owntwo"], ()),
], ids=["vecgrow", "endburst-region", "memspike-2", "owntwo"])
def test_text_peaks_v4(ws, argv, options):
    """A fresh run's peaks as ws_print shows them: the largest samples
    first (where to jump), then per kind each peak ranked as the file
    has it, its baseline, why it is kept, where its window rose with
    every stack line ("->" on the program's own), its owners in the
    file's order with every heap owner's whole allocation stack."""
    r = ws([wslib.prog(argv[0])] + argv[1:], *options)
    out = r.output
    assert out.version == wslib.FORMAT_VERSION
    text = ws_print("--width=1000", "--height=8",
                    r.out_path).stdout.decode()
    got = section(text, "Peaks: ", ("Hot ", "Events:", "Per thread"))
    # after the count, the line that says how peaks are ranked (one line
    # at this width: it is wrapped to the report's width)
    assert got[0] == v4_peaks_text(out)[0]
    assert got[1] == (
        "  Of each kind the largest samples, then the peaks that stand out "
        "most (pages above the detector's baseline), the most prominent "
        "first; \"->\" marks the first line of a stack in the program's own "
        "code.")
    assert got[2:] == v4_peaks_text(out)[1:] + [""], "\n".join(got)
    largest = section(text, "Largest samples", ("\n",))[:3]
    want = ["Largest samples (Peaks below has them in full):"]
    for kind in ("insn", "data"):
        for p in out.peaks:
            if p.kind == kind and "largest" in p.why:
                want.append("  %s %d pages (%s kB) at t=%d i, #%d in %s" % (
                    kind, p.size, kb_text(p.size, out.pagesize), p.t, p.n,
                    where_text(naming(out.stacks[p.stack], p.own))))
    assert largest == want


V4_CPP = """ws-output-format: 4
tool: ws 0.1.0
command: ./x
pid: 1
ppid: 0
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
count-rep: once
columns: t insn data
100000 1 9000
stack 1 3
inline 0x1000 stl_algobase.h:922 std::__fill_a1<unsigned int*, std::less<int> >(unsigned int*, unsigned int*, unsigned int const&)
frame 0x1000 reindex.cc:46 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int) [clone .constprop.0]
frame 0x2000 reindex.cc:89 std::vector<int, std::allocator<int> >::operator<(std::vector<int, std::allocator<int> > const&) const
peak 0 data 100000 9000 1 largest,detected rise 1 1
owner 0 9000 anon
peaks 1 found 1
summary insn 1.0 1 1
summary data 9000.0 9000 9000
samples 1
end
"""


@pytest.mark.parametrize("width,lines", [
    (200, ["     -> by 0x1000: (anonymous namespace)::rebuild((anonymous "
           "namespace)::Index&, unsigned int) [clone .constprop.0] "
           "(reindex.cc:46)",
           "        by 0x2000: std::vector<int, std::allocator<int> >::"
           "operator<(std::vector<int, std::allocator<int> > const&) const "
           "(reindex.cc:89)"]),
    # parameters first, as "(...)"
    (100, ["     -> by 0x1000: (anonymous namespace)::rebuild(...) "
           "[clone .constprop.0] (reindex.cc:46)",
           "        by 0x2000: std::vector<int, std::allocator<int> >::"
           "operator<(...) const (reindex.cc:89)"]),
    # then template arguments, as "<...>" (not operator<'s '<')
    (80, ["        at 0x1000: std::__fill_a1<...>(...) (stl_algobase.h:922) "
          "[inlined]",
          "        by 0x2000: std::vector<...>::operator<(...) const "
          "(reindex.cc:89)"]),
    # then the scopes and the clone suffix; past that, cut with "..."
    (60, ["     -> by 0x1000: rebuild(...) (reindex.cc:46)",
          "        at 0x1000: __fill_a1<...>(...) (stl_algobase.h:92...",
          "  data 9000 pages (36000 kB) at t=100000 i, #0 in rebuild...",
          "      The working set rose in rebuild(...) (reindex.cc:46):"]),
])
def test_long_cpp_names_made_to_fit(tmp_path, width, lines):
    """A demangled C++ name is made shorter only as far as the line needs
    to keep its file:line in view: parameter lists, then template
    arguments, then scopes and a compiler's clone suffix."""
    text = ws_print("--width=%d" % width, "--height=5",
                    write(tmp_path, V4_CPP)).stdout.decode()
    got = section(text, "Largest samples", ("Instruction working",)) \
        + section(text, "Data peaks:", ("Hot ",))
    for line in lines:
        assert line in got, (line, text)
    assert max(len(l) for l in got) <= width


# ----------------------------------------------------------------------
# --csv

def csv_rows(text):
    return list(csv.reader(io.StringIO(text)))


def check_csv(text, out):
    """The samples' columns as tests/wslib.py reads them: t, insn, data,
    the lines and the live heap when the file has them, then shared and
    each thread's pair."""
    rows = csv_rows(text)
    head, body = rows[0], rows[1:]
    assert len(body) == len(out.samples)

    def columns(s):
        lines = (s.insn_lines, s.data_lines) \
            if s.insn_lines is not None else ()
        heap = (s.heap,) if s.heap is not None else ()
        return (s.t, s.insn, s.data) + lines + heap
    want = ["t", "insn", "data"]
    if wslib._has_lines(out):
        want += ["insn_lines", "data_lines"]
    if wslib._has_heap(out):
        want.append("heap")
    n = len(want)
    if not out.per_thread:
        assert head == want
        assert [tuple(map(int, r)) for r in body] == [
            columns(s) for s in out.samples]
        return
    tids = sorted({tid for s in out.samples for tid in s.threads})
    want.append("shared")
    for tid in tids:
        want += ["tid%d_insn" % tid, "tid%d_data" % tid]
    assert head == want
    for r, s in zip(body, out.samples):
        assert tuple(map(int, r[:n + 1])) == columns(s) + (s.shared,)
        threads = {}
        for k, tid in enumerate(tids):
            i, d = r[n + 1 + 2 * k], r[n + 2 + 2 * k]
            assert (i == "") == (d == "")
            if i:
                threads[tid] = (int(i), int(d))
        assert threads == s.threads


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_csv_round_trip(name, tmp_path):
    path = os.path.join(GOLDEN, name + ".ws")
    p = ws_print("--csv", path)
    assert p.returncode == 0
    check_csv(p.stdout.decode(), parsed(path))
    # --csv=FILE writes the same, and nothing on stdout
    q = ws_print("--csv=%s" % (tmp_path / "s.csv"), path)
    assert q.returncode == 0 and q.stdout == b""
    assert (tmp_path / "s.csv").read_bytes() == p.stdout


# ----------------------------------------------------------------------
# Fresh runs

def test_fresh_run_with_marks_regions_and_dump(ws):
    """ctl_macros: regions alpha (twice) and beta, marks, a dump, a
    parameter change; ws_print shows each as the file has it."""
    r = ws([wslib.prog("ctl_macros")], "--ws-instr-atstart=no",
           "--ws-every=20000")
    out = r.output
    text = ws_print("--width", "80", "--height", "12",
                    r.out_path).stdout.decode()
    assert "Run:          finished" in text
    assert "Samples:      %d" % len(out.samples) in text
    # the legend: one letter per label, in the order of their first mark
    labels = []
    for e in out.events:
        if e.kind == "mark" and " ".join(e.args) not in labels:
            labels.append(" ".join(e.args))
    for k, label in enumerate(labels):
        times = [e.t for e in out.events
                 if e.kind == "mark" and " ".join(e.args) == label]
        assert "  %s  %s at %s\n" % (
            "abcdefghij"[k], label,
            ", ".join("%d i" % t for t in times[:4])) in text
    # regions, as the trailer has them
    for label, (n, samples, ins, dat) in out.regions.items():
        line = "%9d %8d  %-22s %-22s %s" % (
            n, samples, "%.1f/%d/%d" % ins, "%.1f/%d/%d" % dat, label)
        assert line in text, (line, text)
        ins, dat = out.region_lines[label]
        line = "%9d %8d  %-22s %-22s %s" % (
            n, samples, "%.1f/%d/%d" % ins, "%.1f/%d/%d" % dat, label)
        assert line in text.split("Regions (lines):")[1], (line, text)
    d = out.dumps[0]
    assert "WS_DUMP alpha: %d insn and %d data pages" % (
        d.count("insn"), d.count("data")) in text
    sets = [e for e in out.events if e.kind == "set"]
    assert sets and all("at %d i: %s\n" % (e.t, " ".join(e.args)) in text
                        for e in sets)
    check_csv(ws_print("--csv", r.out_path).stdout.decode(), out)


def test_fresh_run_per_thread(ws):
    r = ws([wslib.prog("threads"), "3", "2", "2", "400000"],
           "--ws-per-thread=yes", "--ws-every=10000")
    out = r.output
    check_csv(ws_print("--csv", r.out_path).stdout.decode(), out)
    text = ws_print("--width=72", "--height=6", r.out_path).stdout.decode()
    for tid in (1, 2):
        n = sum(1 for s in out.samples if tid in s.threads)
        assert re.search(r"\n +%d +%d  " % (tid, n), text), text


# ----------------------------------------------------------------------
# Killed runs, malformed files, options

GOOD = read_text(os.path.join(CORPUS, "seed-events.ws"))


def write(tmp_path, data, name="f.ws"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def test_cut_files_are_shown(tmp_path):
    text = read_text(os.path.join(GOLDEN, "phases.ws"))
    lines = text.split("\n")
    for cut in (len(text) // 3, len(text) // 2 + 7, text.index("region"),
                text.index("\nend") + 1):
        path = write(tmp_path, text[:cut])
        p = ws_print("--width=72", path)
        assert p.returncode == 0, p.stderr
        assert "Run:          did not finish" in p.stdout.decode()
        out = wslib.parse_output(text[:cut], complete=False)
        assert re.match(r"ws_print: .*: note: the run did not finish .*"
                        r"showing its %d samples\n\Z" % len(out.samples),
                        p.stderr.decode())
        check_csv(ws_print("--csv", path).stdout.decode(), out)
    # cut inside the header: nothing to draw, still not an error
    p = ws_print(write(tmp_path, "\n".join(lines[:5]) + "\npagesi"))
    assert p.returncode == 0
    assert "the file ends inside its header" in p.stdout.decode()
    # `end` without its newline is a complete file
    p = ws_print(write(tmp_path, text.rstrip("\n")))
    assert p.returncode == 0 and p.stderr == b""


def test_output_cut_by_the_size_limit_is_removed(tmp_path):
    """ulimit -f at 2,000 bytes, less than the HTML report and the CSV of
    pageramp.ws: ws_print is not killed by SIGXFSZ, leaving half a file
    (status 153 before); it says why in one line, exits 1 and leaves no
    file (it writes under a temporary name, which it removes).  Written
    to standard output, the one line and status 1."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    src = os.path.join(GOLDEN, "pageramp.ws")
    for args, path in ((["--html", "r.html"], "r.html"),
                       (["--csv=r.csv"], "r.csv")):
        p = subprocess.run([PRINT] + args + [src], cwd=str(tmp_path),
                           capture_output=True, timeout=60, preexec_fn=cap)
        assert (p.returncode, p.stderr.decode()) == (
            1, "ws_print: error writing %s: File too large (nothing was "
            "written)\n" % path)
        assert os.listdir(tmp_path) == []
    with open(str(tmp_path / "out.csv"), "wb") as f:
        p = subprocess.run([PRINT, "--csv", src], stdout=f,
                           stderr=subprocess.PIPE, timeout=60,
                           preexec_fn=cap)
    assert (p.returncode, p.stderr) == (
        1, b"ws_print: error writing standard output: File too large\n")


@pytest.mark.parametrize("labels,legend", [
    (1, "Time axis: [ start, ] stop, | both, marks a, * several:"),
    (5, "Time axis: [ start, ] stop, | both, marks a-e, * several:"),
    (27, "Time axis: [ start, ] stop, | both, marks a-z then A, * several:"),
    (52, "Time axis: [ start, ] stop, | both, marks a-z then A-Z, * "
         "several:"),
    (60, "Time axis: [ start, ] stop, | both, marks a-z then A-Z, * "
         "several:")])
def test_mark_legend_says_the_letters(tmp_path, labels, legend):
    """The legend names the letters the axis uses: a-z, then A-Z, then '*'
    for the labels past Z (counted in the legend's last line)."""
    events = "".join("event %d mark m%d\n" % (1100 + 5 * k, k)
                     for k in range(labels))
    text = GOOD.replace("event 1500 mark phase two\n", events)
    p = ws_print("--width=200", "--height=5", write(tmp_path, text))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.decode().split("\n")
    i = lines.index(legend)
    letters = [chr(ord("a") + k) for k in range(26)] + \
        [chr(ord("A") + k) for k in range(26)]
    shown = min(labels, 52)
    assert [l.split(" at ")[0] for l in lines[i + 1:i + 1 + shown]] == [
        "  %s  m%d" % (letters[k], k) for k in range(shown)]
    more = labels - shown
    assert lines[i + 1 + shown] == ("  *  %d more labels" % more if more
                                    else "")


def huge(n):
    return GOOD.replace("1003 2 5", "%d 2 5" % n, 1)


# (file text, line, part of the message, wslib accepts it too)
MALFORMED = [
    ("", 1, "the file is empty", False),
    ("ws-output-format: 2", 1, "no complete line", False),
    ("garbage\nmore garbage\n", 1, "not a ws output file", False),
    (GOOD.replace("format: 2", "format: 7", 1), 1,
     "format version 7; this ws_print reads versions 2 to 6", False),
    (GOOD.replace("format: 2", "format: 1", 1), 1, "format version 1", False),
    (GOOD.replace("ws-output-format: 2", "ws-dump-format: 2", 1), 1,
     "dump format version 2; this ws_print reads versions 4 to 5", False),
    (GOOD.replace("\n", "\r\n"), 1, "CR LF", False),
    (GOOD.replace("pagesize: 4096\n", ""), 14, "lacks the key pagesize",
     False),
    (GOOD.replace("tau: 1000\npagesize: 4096", "pagesize: 4096\ntau: 1000"),
     9, "header key 'tau' comes after 'pagesize'", False),
    (GOOD.replace("pagesize: 4096", "pagesize: 4000"), 9,
     "not a power of two", False),
    (GOOD.replace("every: 1000", "every: 18446744073709551616"), 7,
     "too large", True),
    (huge(2 ** 64), 17, "too large", False),
    (huge(10 ** 30), 17, "too large", False),
    (GOOD.replace("1003 2 5", "1003 2 -5"), 17, "single spaces", False),
    (GOOD.replace("1003 2 5", "1003 2"), 17, "3 columns", False),
    (GOOD.replace("2000 3 7", "1003 3 7"), 33, "sample times must increase",
     False),
    (GOOD.replace("# a comment", ""), 16, "an empty line", False),
    # a NUL byte is refused as it is read, before any line is parsed
    (GOOD.replace("# a comment", "\x00\x01\xff\xfe binary"), 16,
     "a NUL byte: not a ws output file", False),
    (GOOD.replace("event 1500 mark phase two",
                  "event 1500 mark phase\ttwo"), 18, "control character",
     False),
    (GOOD.replace("event 1500 mark phase two", "event 1500 mark"), 18,
     "a mark event needs a label", False),
    (GOOD.replace("event 1500 start", "event 1500 start now"), 26,
     "a start or stop event takes no arguments", False),
    (GOOD.replace("dump-end 1 2", "dump-end 1 3"), 32, "dump-end says",
     False),
    (GOOD.replace("dump-page data 0x4a2c000 1003",
                  "dump-page data 0x4a2e000 1003"), 31,
     "increasing address order", False),
    (GOOD.replace("dump-begin 1500\n", ""), 28,
     "must be followed by its dump block", False),
    (GOOD.replace("summary insn 2.5 3 4", "summary insn 2.50 3 4"), 36,
     "one decimal", False),
    (GOOD.replace("samples 2\n", "samples 3\n"), 38,
     "the trailer says 3 samples, the file has 2", True),
    (GOOD.replace("samples 2\n", "samples two\n"), 38,
     "expected 'samples N'", False),
    (test_output.GOOD.replace("peaks 2\n", "peaks 3\n"), 53,
     "the trailer says 3 peaks, the file has 2", False),
    (test_output.GOOD.replace("peaks 2\n", "peaks x\n"), 53,
     "expected 'peaks N'", False),
    (GOOD.replace("summary insn", "# late\nsummary insn"), 36,
     "only region, summary and 'samples N' lines may follow", False),
    (GOOD + "1 2 3\n", 40, "nothing may follow 'end'", False),
]


@pytest.mark.parametrize("text,line,why,lib_accepts", MALFORMED,
                         ids=[str(i) for i in range(len(MALFORMED))])
def test_malformed(tmp_path, text, line, why, lib_accepts):
    """One line on stderr, naming the file and the line; exit status 1.
    Where wslib accepts the file, ws_print is stricter on purpose: it
    checks what docs/output-format.md says beyond the line shapes."""
    path = write(tmp_path, text.encode("latin-1"))
    for args in ([], ["--csv"], ["--html", str(tmp_path / "r.html")]):
        p = ws_print(*(args + [path]))
        assert p.returncode == 1 and p.stdout == b""
        m = ERROR_LINE.match(p.stderr.decode("latin-1"))
        assert m, p.stderr
        assert (m.group(1), int(m.group(2))) == (path, line), p.stderr
        assert why in m.group(3), p.stderr
    try:
        wslib.parse_output(text, complete=False)
        accepted = True
    except wslib.FormatError:
        accepted = False
    assert accepted == lib_accepts


@pytest.mark.parametrize("old,new,why", test_output.REFUSED,
                         ids=[str(i) for i in range(len(test_output.REFUSED))])
def test_refused_like_wslib(tmp_path, old, new, why):
    """Every malformed version 3 file of test_output.py: where wslib names
    the line, ws_print refuses the file naming the same line; a file that
    is only cut short (no trailer) is shown."""
    text = test_output.GOOD.replace(old, new, 1)
    path = write(tmp_path, text)
    p = ws_print("--csv", path)
    with pytest.raises(wslib.FormatError) as e:
        wslib.parse_output(text)
    lib = re.match(r"line (\d+): ", str(e.value))
    if "ends without its trailer" in str(e.value):
        assert p.returncode == 0 and "did not finish" in p.stderr.decode()
        return
    assert p.returncode == 1 and p.stdout == b""
    m = ERROR_LINE.match(p.stderr.decode("latin-1"))
    assert m and m.group(1) == path, p.stderr
    if lib:
        assert m.group(2) == lib.group(1), (str(e.value), p.stderr)


def test_per_thread_samples_like_wslib(tmp_path):
    """Every malformed per-thread sample of test_output.py (a last triple
    without its data, ...) is refused at its line, as wslib refuses it;
    the good one is read."""
    p = ws_print("--csv", write(tmp_path, test_output.PER_THREAD))
    assert p.returncode == 0 and p.stderr == b"", p.stderr
    check_csv(p.stdout.decode(), wslib.parse_output(test_output.PER_THREAD))
    for bad in test_output.PER_THREAD_REFUSED:
        path = write(tmp_path, test_output.PER_THREAD.replace(
            test_output.PER_THREAD_SAMPLE, bad))
        for args in ([], ["--csv"]):
            p = ws_print(*(args + [path]))
            m = ERROR_LINE.match(p.stderr.decode("latin-1"))
            assert p.returncode == 1 and p.stdout == b"" and m, (bad, p.stderr)
            assert (m.group(1), int(m.group(2))) == (
                path, test_output.PER_THREAD_LINE), (bad, p.stderr)


def test_owner_lines_like_wslib(tmp_path):
    for n, lines in test_output.OWNERS_GOOD:
        p = ws_print("--csv", write(tmp_path, test_output.owners(n, *lines)))
        assert p.returncode == 0 and p.stderr == b"", (lines, p.stderr)
    for n, lines in test_output.OWNERS_REFUSED:
        path = write(tmp_path, test_output.owners(n, *lines))
        p = ws_print("--csv", path)
        assert p.returncode == 1 and ERROR_LINE.match(p.stderr.decode()), (
            lines, p.stderr)


def test_version_3_and_2_read(tmp_path):
    for text in (test_output.GOOD, test_output.GOOD_V2):
        p = ws_print("--csv", write(tmp_path, text))
        assert p.returncode == 0 and p.stderr == b"", p.stderr
        check_csv(p.stdout.decode(), wslib.parse_output(text))


PAGES = ("page insn 0x109000 90312 0x1091a0 pageramp.c:38 touch_pages\n"
         "page insn 0x10a000 512 0x10a000 (pageramp) ???\n"
         "page data 0x4a2c000 5242 0x1091c4 pageramp.c:40 touch_pages\n"
         "page data 0x4a2d000 0 0x0 ??? ???\n")


@pytest.mark.parametrize("old,new,line,why", [
    ("\npage insn 0x10a000", "\npage insn 0x109000", 54, "increasing address"),
    ("\npage data 0x4a2d000", "\npage data 0x4a2b000", 56, "increasing address"),
    ("\npage data 0x4a2d000", "\npage insn 0x4a2d000", 56, "instruction pages "
     "are listed before data pages"),
    ("\npage data 0x4a2d000 0 0x0 ??? ???", "\npage data 0x4a2d000 0", 56,
     "a page line is"),
    ("\npage data 0x4a2d000", "\npage code 0x4a2d000", 56, "a page line is"),
    ("\npage data 0x4a2d000 0 0x0 ??? ???\n",
     "\npage data 0x4a2d000 0 0x0 ??? ???\nhot insn 3 1 0x1 0x1 ??? ???\n", 57,
     "only page lines and 'peaks N' may follow a page line"),
    ("\npage data 0x4a2d000 0 0x0 ??? ???\n",
     "\npage data 0x4a2d000 0 0x0 ??? ???\nhot-owner anon\n", 57,
     "only page lines and 'peaks N' may follow a page line"),
])
def test_page_lines(tmp_path, old, new, line, why):
    """--ws-list-pages=yes: a page line per page ever touched, after the
    hot lines, instruction pages first, each kind in address order."""
    good = test_output.GOOD.replace("peaks 2\n", PAGES + "peaks 2\n")
    p = ws_print("--width=100", write(tmp_path, good))
    assert p.returncode == 0 and p.stderr == b"", p.stderr
    assert ("\nEvery page (--ws-list-pages=yes): the file lists 2 "
            "instruction and 2 data pages\n") in p.stdout.decode()
    assert old in good
    path = write(tmp_path, good.replace(old, new, 1))
    p = ws_print(path)
    m = ERROR_LINE.match(p.stderr.decode())
    assert p.returncode == 1 and m, p.stderr
    assert (m.group(1), int(m.group(2))) == (path, line) and why in m.group(3)


def test_huge_numbers_that_fit(tmp_path):
    big = 2 ** 64 - 1
    text = GOOD.replace("2000 3 7", "%d %d %d" % (big, big, big)).replace(
        "event 2500 thread-exit 1", "event %d thread-exit 1" % big).replace(
        "pagesize: 4096", "pagesize: %d" % 2 ** 63)
    path = write(tmp_path, text)
    for args in (["--width=30", "--height=4"], ["--csv"],
                 ["--html", str(tmp_path / "r.html")]):
        p = ws_print(*(args + [path]), prog=PRINT_ASAN)
        assert p.returncode == 0, p.stderr
        assert p.stderr == b""
    assert str(big) in ws_print("--csv", path).stdout.decode()


def test_options_and_missing_file(tmp_path):
    good = os.path.join(GOLDEN, "phases.ws")
    missing = str(tmp_path / "nothing")
    for args, msg in (
            ([missing], "ws_print: cannot open '%s': No such file or "
             "directory" % missing),
            ([str(tmp_path)], "ws_print: cannot read '%s': Is a directory"
             % tmp_path),
            ([], "ws_print: no output file given"),
            ([good, good], "ws_print: one output file at a time"),
            (["--bogus", good], "ws_print: unknown option '--bogus'"),
            (["--width", "5", good], "ws_print: --width takes a number from "
             "30 to 1000, not '5'"),
            (["--height=x", good], "ws_print: --height takes a number"),
            ([good, "--html"], "ws_print: --html needs a file name"),
            (["--csv=", good], "ws_print: --csv= needs a file name"),
            (["--html", str(tmp_path / "no" / "r.html"), good],
             "ws_print: cannot create")):
        p = ws_print(*args)
        err = p.stderr.decode()
        assert p.returncode == 1 and p.stdout == b"", (args, err)
        assert err.startswith(msg) and err.count("\n") == 1, (args, err)
    p = ws_print("--help")
    assert p.returncode == 0 and p.stdout.startswith(b"usage: ws_print")
    help_sections(p.stdout.decode())
    p = ws_print("--version")
    assert p.returncode == 0 and re.match(rb"ws_print \(ws\) \d+\.\d+\.\d+",
                                          p.stdout)
    # '-' reads standard input
    with open(good, "rb") as f:
        data = f.read()
    p = ws_print("--csv", "-", stdin=data)
    assert p.returncode == 0 and p.stdout == ws_print("--csv", good).stdout


# What ws_print --help says the text report shows, and the report's own
# heading of each, in the report's order
REPORT_SECTIONS = [("largest samples", "Largest samples"),
                   ("working sets over time", "Instruction working set"),
                   ("the summary", "Summary (from the trailer)"),
                   ("the regions", "Regions"),
                   ("the peaks", "Peaks:"),
                   ("the hot pages", "Hot instruction pages"),
                   ("the heap usage", "Heap efficiency"),
                   ("the events", "Events:")]


def help_sections(text):
    """--help names every section of the text report, in the report's
    order (reindex.ws has them all)."""
    said = re.sub(r"\s+", " ", text.split("options:")[0])
    at = [said.find(words) for words, _ in REPORT_SECTIONS]
    assert -1 not in at and at == sorted(at), (said, REPORT_SECTIONS)
    report = ws_print(os.path.join(GOLDEN, "reindex.ws")).stdout.decode()
    heads = [next(i for i, l in enumerate(report.splitlines())
                  if l.startswith(head)) for _, head in REPORT_SECTIONS]
    assert heads == sorted(heads), heads


def test_html_or_csv_named_after_a_ws_file(tmp_path):
    """`ws_print --html ws.out` (the report's name forgotten) names what
    --html takes, and never writes a report over a file ws wrote (an
    output file or a dump file); --csv=FILE likewise."""
    out = tmp_path / "ws.m.out"
    shutil.copy(os.path.join(GOLDEN, "phases.ws"), out)
    dump = tmp_path / "dump.1"
    dump.write_bytes(b"ws-dump-format: 4\npid: 1\n")
    before = {p: p.read_bytes() for p in (out, dump)}
    for args, msg in (
            (["--html", str(out)],
             "--html takes the report's file name first, and '%s' is a "
             "file ws wrote (ws_print --html report.html %s)" % (out, out)),
            (["--html=%s" % out],
             "--html takes the report's file name first"),
            (["--html", str(dump), str(out)],
             "--html takes the report's file name first, and '%s' is a "
             "file ws wrote (ws_print --html report.html %s)"
             % (dump, out)),
            (["--csv=%s" % out, str(out)],
             "--csv=<file> names the CSV file to write, and '%s' is a file "
             "ws wrote (ws_print --csv=samples.csv %s)" % (out, out))):
        p = ws_print(*args)
        err = p.stderr.decode()
        assert p.returncode == 1 and p.stdout == b"", (args, err)
        assert err.startswith("ws_print: " + msg) and err.count("\n") == 1, \
            (args, err)
        assert {p: p.read_bytes() for p in (out, dump)} == before
    # any other file there is replaced, as before
    report = tmp_path / "r.html"
    report.write_text("old")
    p = ws_print("--html", str(report), str(out))
    assert p.returncode == 0, p.stderr
    assert report.read_text().startswith("<!DOCTYPE html>")


# ----------------------------------------------------------------------
# The fuzz corpus, under ASan and UBSan

def test_fuzz_corpus_under_sanitizers(tmp_path):
    """Every input: exit status 0 or 1 and no sanitizer report.  And
    ws_print is never laxer than wslib: what wslib refuses (read as a
    file that may be cut), ws_print refuses too."""
    files = sorted(os.listdir(CORPUS))
    assert len(files) >= 20, files
    env = wslib.sanitizer_env()
    statuses = {0: 0, 1: 0}
    for name in files:
        path = os.path.join(CORPUS, name)
        dump = read_text(path).startswith("ws-dump-format:")
        for args in (["--width=40", "--height=5"],
                     ["--csv=" + str(tmp_path / "c")] if dump else
                     ["--csv=" + str(tmp_path / "c"),
                      "--html", str(tmp_path / "h")]):
            p = subprocess.run([PRINT_ASAN] + args + [path],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env, timeout=60)
            err = p.stderr.decode("latin-1")
            assert p.returncode in (0, 1), (name, p.returncode, err[-3000:])
            assert "Sanitizer" not in err and "runtime error" not in err, (
                name, err[-3000:])
            if p.returncode == 1:
                assert ERROR_LINE.match(err), (name, err)
            statuses[p.returncode] += 1
        try:
            if dump:
                wslib.parse_dump_file(read_text(path))
            else:
                wslib.parse_output(read_text(path), complete=False)
        except wslib.FormatError as e:
            assert p.returncode == 1, (name, str(e))
    # the corpus holds both kinds
    assert statuses[0] and statuses[1], statuses


# ----------------------------------------------------------------------
# The HTML report in headless Chromium

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(url, *args):
    # a missing tool is a failure, not a skip (tests/README.md)
    assert CHROMIUM, ("chromium is not installed (scripts/install-deps.sh "
                      "installs Debian's chromium package)")
    with tempfile.TemporaryDirectory(prefix="ws-chromium-") as profile:
        p = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--user-data-dir=" + profile,
             "--window-size=1200,800", "--enable-logging=stderr", "--v=0"]
            + list(args) + [url],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    console = [line for line in p.stderr.decode(errors="replace").splitlines()
               if "CONSOLE" in line]
    assert not console, console
    return p


def page_results(html_path, query):
    """Open the report with ?test=QUERY; the page writes what it did
    (and any script error) into <pre id="ws-test">."""
    p = chromium("file://%s?test=%s" % (html_path, query), "--dump-dom")
    dom = p.stdout.decode()
    m = re.search(r'<pre id="ws-test"[^>]*>(.*?)</pre>', dom, re.S)
    assert m, dom[-2000:]
    text = html.unescape(m.group(1))
    assert "ERROR" not in text, text
    return json.loads(text), dom


def commas(n):
    return "{:,}".format(n)


def pages(n):
    return "%s page%s" % (commas(n), "" if n == 1 else "s")


def check_hover(res, out, i, pagesize):
    s = out.samples[i]
    assert res["hoverSample"] == i
    assert res["hover"].split("\n") == [
        "sample %s of %s" % (commas(i + 1), commas(len(out.samples))),
        "t     %s i" % commas(s.t),
        "insn  %s (%s kB)" % (pages(s.insn), commas(s.insn * pagesize // 1024)),
        "data  %s (%s kB)" % (pages(s.data), commas(s.data * pagesize // 1024))]


@pytest.mark.parametrize("name", ["phases", "pageramp"])
def test_html_report(name, tmp_path):
    path = os.path.join(GOLDEN, name + ".ws")
    out = parsed(path)
    report = str(tmp_path / (name + ".html"))
    p = ws_print("--html", report, path)
    assert p.returncode == 0 and p.stdout == b"" and p.stderr == b""
    with open(report) as f:
        page = f.read()
    # self-contained: nothing to fetch
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    assert not re.search(r"url\((?!\"? *#)|@import|"
                         r"https?://(?!www\.w3\.org/2000/svg)", page)
    n = len(out.samples)
    i = n * 2 // 3
    res, dom = page_results(report, "hover:%d" % i)
    assert res["samples"] == n
    assert res["pointsAll"] == {"insn": n, "data": n}
    check_hover(res, out, i, out.pagesize)
    # zoomed to the middle third, one point per sample in view (and the
    # one on each side that carries the line to the edge)
    t0, t1 = out.samples[n // 3].t, out.samples[i].t
    res, dom = page_results(report, "zoom:%d:%d;hover:%d" % (t0, t1, i - 1))
    inside = sum(1 for s in out.samples if t0 <= s.t <= t1)
    assert res["points"] == {"insn": inside + 2, "data": inside + 2}
    check_hover(res, out, i - 1, out.pagesize)


def test_html_marks_and_regions(tmp_path):
    """phases.ws: the regions table is the trailer's; clicking a mark's
    flag or a region's tab shows its details."""
    path = os.path.join(GOLDEN, "phases.ws")
    out = parsed(path)
    report = str(tmp_path / "phases.html")
    ws_print("--html", report, path)
    marks = [e for e in out.events if e.kind == "mark"]
    res, dom = page_results(report, "click:mark:1")
    m = marks[1]
    label = " ".join(m.args)
    n, samples, ins, dat = out.regions[label]
    region = ("Region \u201c%s\u201d (all regions of this name): %d region(s), "
              "%s samples; insn avg/peak/total %.1f/%d/%d, data avg/peak/"
              "total %.1f/%d/%d pages." % ((label, n, commas(samples))
                                           + ins + dat))
    assert res["details"] == ("Mark \u201c%s\u201d at t = %s i.%sZoom to it"
                              % (label, commas(m.t), region))
    for label, (n, samples, ins, dat) in out.regions.items():
        row = "".join("<td[^>]*>%s</td>" % re.escape(str(c)) for c in (
            label, n, commas(samples), "%.1f/%d/%d" % ins,
            "%.1f/%d/%d" % dat))
        assert re.search(row, dom), row
    # the third region (start to stop), named by its latest mark
    starts = [e.t for e in out.events if e.kind == "start"]
    stops = [e.t for e in out.events if e.kind == "stop"]
    res, dom = page_results(report, "click:span:2")
    assert res["details"].startswith(
        "A region from t = %s to %s i, named \u201c%s\u201d by its latest "
        "mark." % (commas(starts[2]), commas(stops[2]),
                   " ".join(marks[2].args)))


def test_html_region_that_began_while_measuring(tmp_path):
    """A WS_START while measurement is on begins a region (a region-start
    event): the page draws the region from there to its stop, not from
    the start of the run, and the measurement that ran from start-up is
    no region of its own (docs/control.md, "Regions")."""
    run = wslib.run_ws([wslib.prog("ctl_macros")], (),
                       out_path=str(tmp_path / "ws.out"))
    out = parsed(run.out_path)
    kinds = [e.kind for e in out.events]
    t0 = out.events[kinds.index("region-start")].t
    stop = out.events[kinds.index("stop")].t
    assert kinds.index("region-start") < kinds.index("stop")
    report = str(tmp_path / "macros.html")
    p = ws_print("--html", report, run.out_path)
    assert p.returncode == 0, p.stderr
    res, dom = page_results(report, "click:span:0")
    assert res["details"].startswith(
        "A region from t = %s to %s i, named \u201calpha\u201d by its latest "
        "mark." % (commas(t0), commas(stop))), res["details"]
    # one region per start or region-start that a stop ends (or the end)
    spans = len(re.findall(r'<g class="span"', dom))
    assert spans == kinds.count("start") + kinds.count("region-start")


def test_html_parameter_changes(tmp_path):
    """After a change of tau (ctl_macros: WS_SET... while it runs) the
    header gives the new tau and from when, and the chart has a flag named
    after the change at its time, whose click says so."""
    run = wslib.run_ws([wslib.prog("ctl_macros")], (),
                       out_path=str(tmp_path / "ws.out"))
    out = parsed(run.out_path)
    sets = [e for e in out.events if e.kind == "set"]
    assert [e.args[0] for e in sets] == ["tau"], sets
    value, t = int(sets[0].args[1]), sets[0].t
    report = str(tmp_path / "r.html")
    ws_print("--html", report, run.out_path)
    res, _ = page_results(report, "click:set:0")
    assert "\u00b7 \u03c4 = %s i, %s i from t = %s i \u00b7" % (
        commas(out.tau), commas(value), commas(t)) in res["meta"], res["meta"]
    assert res["setFlags"] == [{"set": 0, "text": "\u03c4 = %s i"
                                % commas(value)}]
    assert res["details"].startswith("\u03c4 = %s i from t = %s i on" % (
        commas(value), commas(t))), res["details"]


@pytest.mark.parametrize("name", ["reindex", "pageramp"])
def test_html_jump_to_the_largest_peak(name, tmp_path):
    """"Jump to the largest peak" zooms in to the largest data peak: the
    view holds its sample and its window (tau back from it) and no more
    than two samples on either side, and its details open."""
    path = os.path.join(GOLDEN, name + ".ws")
    out = parsed(path)
    (peak,) = [p for p in out.peaks if p.kind == "data"
               and "largest" in p.why]
    report = str(tmp_path / "r.html")
    ws_print("--html", report, path)
    res, _ = page_results(report, "jump")
    t0, t1 = res["view"]
    assert t0 <= peak.t - out.tau and peak.t <= t1, (res["view"], peak.t)
    ts = [s.t for s in out.samples]
    i = ts.index(peak.t)
    assert t0 >= min(ts[max(i - 2, 0)], peak.t - out.tau), res["view"]
    assert t1 <= ts[min(i + 2, len(ts) - 1)], res["view"]
    assert t1 - t0 < 0.2 * ts[-1], (res["view"], ts[-1])
    assert res["details"].startswith("Peak #%d: data" % peak.n), \
        res["details"]


HEADER_EXTENSIONS = ("h", "hh", "hpp", "hxx", "h++", "tcc", "inl", "ipp",
                     "tpp")


def naming_frame(out, sid, own=None):
    """The line that names a stack in a phrase (the text report's and the
    page's rule): the program's own line when the file gives it, else the
    first whose location is a source file (not a header, an object or
    ???), else the innermost."""
    stack = out.stacks[sid]
    if own is not None:
        return stack[own]
    for w in stack:
        m = re.match(r"[^(]+\.([A-Za-z+]+):[0-9]+\Z", w.location)
        if m and m.group(1).lower() not in HEADER_EXTENSIONS:
            return w
    return stack[0]


def page_owner_text(out, o):
    """An owner in the page's words (the text report's too)."""
    if o.kind in ("heap", "freed"):
        where = where_text(naming_frame(out, o.stack))
        if o.block is None:
            return "%s blocks from %s" % (o.kind, where)
        return "%s block 0x%x (%s bytes) from %s" % (o.kind, o.block,
                                                    commas(o.size), where)
    if o.kind == "code":
        return "%s in %s" % (o.name, o.object)
    return {"heap-other": "heap outside live blocks (allocator data, free "
                          "memory)",
            "global": "global %s" % o.name, "stack": "stack of thread %s"
            % o.tid, "file": "file %s" % o.name, "anon": "anonymous memory",
            "unknown": "unknown", "rest": "the other owners"}[o.kind]


def frames_text(out, sid, own=-1):
    """A stack as the page shows it: "at"/"by" lines, "->" on own."""
    return "\n".join("%s%s 0x%x: %s%s" % (
        "->" if k == own else "  ", "by" if k else "at", w.ip, where_text(w),
        " [inlined]" if w.inline else "")
        for k, w in enumerate(out.stacks[sid]))


@pytest.mark.parametrize("name", V3_FILES)
def test_html_peaks_and_hot_pages(name, tmp_path):
    """A marker per peak; clicking one shows the peak, its stack's
    functions innermost first and its owner lines; the hot tables hold
    the file's hot lines, in order."""
    path = os.path.join(GOLDEN, name + ".ws")
    out = parsed(path)
    report = str(tmp_path / "r.html")
    ws_print("--html", report, path)
    for n in (0, len(out.peaks) - 1):
        p = out.peaks[n]
        res, dom = page_results(report, "click:peak:%d" % n)
        assert res["peakMarkers"] == len(out.peaks)
        d = res["details"]
        assert d.startswith("Peak #%d: %s %s (%s kB) at t = %s i." % (
            n, p.kind, pages(p.size), commas(p.size * out.pagesize // 1024),
            commas(p.t)))
        frames = frames_text(out, p.stack)
        assert frames in d, (frames, d)
        at = d.index(frames) + len(frames)
        owners = "".join("%s%s kB%s" % (commas(pages_), commas(
            pages_ * out.pagesize // 1024), page_owner_text(out, o))
            for pages_, o in p.owners)
        # then each heap owner's whole allocation stack
        stacks = "".join("%s pages of %s blocks, allocated at:%s" % (
            commas(pages_), o.kind, frames_text(out, o.stack))
            for pages_, o in p.owners if o.kind in ("heap", "freed"))
        assert d[at:] == ("The data working set at this sample, by owner:"
                          "pageskBowner" + owners + stacks + "Zoom to it"), \
            d[at:]
    for kind in ("insn", "data"):
        want = []
        for h in out.hot[kind]:
            row = [str(h.rank), commas(h.accesses), "0x%x" % h.addr,
                   where_text(h.where)]
            if kind == "data":
                row.append(page_owner_text(out, h.owner))
            want.append(row)
        assert res["hot"][kind] == want


def test_html_one_site_one_chunk(tmp_path):
    """phases.ws allocated one chunk at one site: the heap section of the
    HTML report says so in the singular, as the text report does."""
    report = str(tmp_path / "r.html")
    ws_print("--html", report, os.path.join(GOLDEN, "phases.ws"))
    res, _ = page_results(report, "")
    assert res["heapHint"].startswith(
        "1 allocation site, 1 chunk, 4,096 bytes allocated: "), res["heapHint"]


@pytest.mark.parametrize("name", ["phases", "pageramp", "threads"])
def test_html_peak_labels_apart(name, tmp_path):
    """Every peak marker has its number, and no two numbers overlap or
    leave the plot (phases.ws has peaks two samples apart, pageramp.ws
    and threads.ws a peak at the last sample, whose number went past the
    plot's right edge)."""
    path = os.path.join(GOLDEN, name + ".ws")
    report = str(tmp_path / "r.html")
    ws_print("--html", report, path)
    res, _ = page_results(report, "")
    labels, (lo, hi) = res["peakLabels"], res["plot"]
    assert len(labels) == res["peakMarkers"] == len(parsed(path).peaks)
    for a in labels:
        assert a["text"].startswith("#%d" % a["peak"]), a
        assert lo <= a["box"][0] and a["box"][2] <= hi, (a, lo, hi)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["box"], b["box"]
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, \
                (a, b)


def test_html_threads(tmp_path):
    """Per-thread columns: a toggle per thread id, and with all on, a
    line per thread id in each panel."""
    path = os.path.join(GOLDEN, "threads.ws")
    out = parsed(path)
    tids = sorted({tid for s in out.samples for tid in s.threads})
    report = str(tmp_path / "t.html")
    ws_print("--html", report, path)
    res, dom = page_results(report, "threads:on")
    assert len(tids) >= 2
    assert res["threadToggles"] == len(tids)
    assert res["threadSeries"] == {str(t): 2 for t in tids}
    # a file without per-thread columns has none
    report = str(tmp_path / "p.html")
    ws_print("--html", report, os.path.join(GOLDEN, "phases.ws"))
    res, dom = page_results(report, "threads:on")
    assert (res["threadToggles"], res["threadSeries"]) == (0, {})


def read_png(path):
    """(width, height, rows) of an 8-bit RGB or RGBA PNG without
    interlacing (what Chromium writes); rows[y][x] is (r, g, b)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG: %s" % path
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            head = body
        elif kind == b"IDAT":
            idat += body
    width, height = (int.from_bytes(head[i:i + 4], "big") for i in (0, 4))
    depth, color, interlace = head[8], head[9], head[12]
    assert (depth, interlace) == (8, 0) and color in (2, 6), head
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


# The colours of report.html's lines (--insn, --data), give or take the
# anti-aliasing over the region tints
def is_data_line(p):
    return p[0] > 150 and p[1] < 110 and p[2] < 90 and p[0] - p[1] > 80


def is_insn_line(p):
    return p[2] > 140 and p[0] < 90 and p[2] - p[0] > 80


def line_columns(rows, pred):
    """{x: [y, ...]} of the pixels of a line, by column."""
    cols = {}
    for y, row in enumerate(rows):
        for x, p in enumerate(row):
            if pred(p):
                cols.setdefault(x, []).append(y)
    return cols


def check_chart_pixels(png, out):
    """What the picture shows: the data line runs across the chart from
    the first sample to the last, and in every column where it is not
    steep its height is the same linear function of the sample's value (larger
    values higher up) to within 2 pixels; the instruction line, a
    constant 1 page in phases-v2.ws, is one straight line above it."""
    width, height, rows = read_png(png)
    data = line_columns(rows, is_data_line)
    insn = line_columns(rows, is_insn_line)
    x0, x1 = min(data), max(data)
    assert x1 - x0 > width // 2, (x0, x1)
    ts = [s.t for s in out.samples]
    vals = [s.data for s in out.samples]

    def value_at(x):        # the polyline between the samples at column x
        t = ts[0] + (x - x0) / (x1 - x0) * (ts[-1] - ts[0])
        i = min(max(bisect.bisect_right(ts, t), 1), len(ts) - 1)
        f = (t - ts[i - 1]) / (ts[i] - ts[i - 1])
        return vals[i - 1] + f * (vals[i] - vals[i - 1])

    pts = []
    for x in range(x0 + 3, x1 - 2):
        ys = data.get(x)
        if not ys:
            continue            # under the hover's box, or a gap
        # not a steep stretch: there the stroke's width and the column's
        # rounding move the pixels more than the value does
        if max(ys) - min(ys) <= 3 and abs(value_at(x + 3) - value_at(
                x - 3)) <= 0.02 * max(vals):
            pts.append((value_at(x), sum(ys) / len(ys)))
    assert len(pts) > (x1 - x0) // 3, len(pts)
    n = len(pts)
    mv = sum(v for v, _ in pts) / n
    my = sum(y for _, y in pts) / n
    slope = (sum((v - mv) * (y - my) for v, y in pts)
             / sum((v - mv) ** 2 for v, _ in pts))
    assert slope < 0, "larger values are drawn lower (slope %g)" % slope
    worst = max(abs(y - (my + slope * (v - mv))) for v, y in pts)
    assert worst <= 2, "the data line is off its values by %.1f px" % worst
    # the instruction line: one row across the data line's columns (the
    # checkboxes above the chart are blue too)
    rows_hit = collections.Counter(y for x in range(x0, x1 + 1)
                                   for y in insn.get(x, ()))
    row = rows_hit.most_common(1)[0][0]
    across = [x for x in range(x0, x1 + 1)
              if any(abs(y - row) <= 1 for y in insn.get(x, ()))]
    assert len(across) > 0.9 * (x1 - x0), (row, len(across))
    assert row < my + slope * (max(vals) - mv)


def test_html_screenshot(tmp_path):
    """Pictures of the report, hovering a sample and with a peak's
    details open, for people to look at: tests/print_out/ws-report.png
    and ws-report-peak.png in the build tree; and the chart's pixels
    checked against the file (phases-v2.ws: check_chart_pixels wants its
    instruction line, constant at 1 page)."""
    path = os.path.join(GOLDEN, "phases-v2.ws")
    out = parsed(path)
    report = str(tmp_path / "phases.html")
    ws_print("--html", report, path)
    png = str(tmp_path / "ws-report.png")
    n = len(out.samples)
    chromium("file://%s?test=hover:%d" % (report, n // 2),
             "--screenshot=" + png)
    check_chart_pixels(png, out)
    os.makedirs(OUT_DIR, exist_ok=True)
    shutil.copy(png, os.path.join(OUT_DIR, "ws-report.png"))
    print("screenshot: %s" % os.path.join(OUT_DIR, "ws-report.png"))
    # and a version 3 report with a peak's details open: the peak
    # markers (#e8a400) are in the picture
    report = str(tmp_path / "spikes.html")
    ws_print("--html", report, os.path.join(GOLDEN, "spikes-v3.ws"))
    png = str(tmp_path / "ws-report-peak.png")
    chromium("file://%s?test=click:peak:0" % report, "--screenshot=" + png,
             "--window-size=1200,1300")
    _, _, rows = read_png(png)
    marker = sum(1 for row in rows for p in row
                 if abs(p[0] - 0xe8) + abs(p[1] - 0xa4) + p[2] < 30)
    assert marker >= 20, marker
    shutil.copy(png, os.path.join(OUT_DIR, "ws-report-peak.png"))
