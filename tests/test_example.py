"""docs/example.md, run again: every command it shows is run as it is
written (from a folder that has the build's demo/reindex as demo/reindex),
and every output line it quotes must be in that command's output; the
figures its prose quotes are recomputed from the run's output file.

The doc's conventions are tests/doclib.py's; `make docs`
(scripts/gen-docs) rewrites its excerpts from a new run.

demo/reindex measures only its requests (WS_START/WS_STOP with
--ws-instr-atstart=no) and starts them at the same offset in a stack page
whatever the environment, so the figures do not depend on the shell
(demo/reindex.cc says why), and this test compares them exactly.
"""

import os
import re
import subprocess

import pytest

import wslib
from doclib import find_excerpt, run_commands

DOC = os.path.join(wslib.TOP_SRCDIR, "docs", "example.md")
PROGRAM = os.path.join(wslib.TOP_BUILDDIR, "demo", "reindex")
SOURCE = os.path.join(wslib.TOP_SRCDIR, "demo", "reindex.cc")
WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """Run the doc's commands in a folder of their own; returns the doc's
    text, [(command, excerpts, output lines)] and the folder."""
    wslib.require_built(PROGRAM, WS_PRINT)
    where = tmp_path_factory.mktemp("example")
    os.mkdir(where / "demo")
    os.symlink(PROGRAM, where / "demo" / "reindex")
    os.symlink(SOURCE, where / "demo" / "reindex.cc")
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    runs = run_commands(text, where, {"./vg-in-place": wslib.VG_IN_PLACE,
                                      "print/ws_print": WS_PRINT})
    return text, runs, where


def test_commands_print_what_the_doc_quotes(example):
    text, runs, _ = example
    assert [c.split()[0] for c, _, _ in runs] == [
        "./vg-in-place", "print/ws_print", "./vg-in-place",
        "callgrind_annotate", "print/ws_print"]
    for command, excerpts, lines in runs:
        for excerpt in excerpts:
            find_excerpt(excerpt, lines, "docs/example.md")


def test_figures_in_the_prose(example):
    """The numbers the prose gives, from the run's output file."""
    text, _, where = example
    prose = re.sub(r"\s+", " ", text)
    out = wslib.read_output(str(where / "ws.out"))
    T = out.every
    data = [p for p in out.peaks if p.kind == "data"]
    insn = [p for p in out.peaks if p.kind == "insn"]
    big, small = data
    (final,) = out.finals
    assert out.found == len(out.peaks) == 4
    regular = [s for s in out.samples if s.t not in out.finals]
    flat = {s.data for s in regular if s.t not in (big.t, small.t)}
    assert flat == {65}
    want = [
        "averages %d pages but peaks at %s" % (
            round(out.summary["data"][0]), "{:,}".format(big.size)),
        "ws kept %d peaks" % len(out.peaks),
        "the detector found %d and every one is kept" % out.found,
        "a flat working set of about %d pages" % flat.pop(),
        "one sample at %.1f M instructions (peak %d)" % (small.t / 1e6,
                                                          small.n),
        "at %.1f M (peak %d, the largest" % (big.t / 1e6, big.n),
        "`WS_STOP` came at t = {:,}".format(final),
        "the last {:,} instructions".format(final - final // T * T),
        "`event %d final %d`" % (final, out.final_windows[final]),
        "`peak 2 data %d %d %d largest,region,detected rise %d 0`" % (
            big.t, big.size, big.baseline, big.stack),
        "`stack %d`'s `frame` lines" % big.stack,
        "The largest instruction sample is the same window, t = {:,}: "
        "{} pages against a baseline of {}".format(
            insn[0].t, insn[0].size, insn[0].baseline),
    ]
    for phrase in want:
        assert phrase in prose, phrase
    assert big.n == 2 and small.n == 3 and insn[0].n == 0
    assert big.t == insn[0].t
    # peak 2's owners: the new index live, the old one freed, the table
    owners = [(pages, o.kind, o.stack if o.kind in ("heap", "freed")
               else o.name) for pages, o in big.owners[:3]]
    alloc = owners[0][2]
    assert owners == [(4097, "heap", alloc), (4096, "freed", alloc),
                      (64, "global", "(anonymous namespace)::table")]
    frames = out.stacks[alloc]
    assert [(w.location, w.inline) for w in frames][-3:] == [
        ("reindex.cc:46", False), ("reindex.cc:67", False),
        ("reindex.cc:89", False)]
    assert "4,097 pages are the new index" in prose
    assert "4,096 more belong to a block from the same line" in prose
    assert [(pages, o.kind) for pages, o in small.owners[:1]] == [
        (4097, "heap")]
    assert not any(o.kind == "freed" for _, o in small.owners)
    # the source lines the prose names
    with open(SOURCE, encoding="utf-8") as f:
        source = f.read().splitlines()
    assert source[46 - 1].strip().startswith(
        "std::vector<std::uint32_t> fresh(kSlots);")
    assert "Line 46 is `std::vector<std::uint32_t> fresh(kSlots);`" in prose
    assert source[48 - 1].strip().startswith("fresh[i] = mix(")
    assert source[67 - 1].strip().startswith("rebuild(index, request);")


def test_miss_profile_shares(example):
    """The shares the prose gives for the miss profile: the callgrind
    file's own totals, rounded as the prose rounds them."""
    text, _, where = example
    prose = re.sub(r"\s+", " ", text)
    with open(where / "ws.miss", encoding="utf-8") as f:
        lines = f.read().splitlines()
    (summary,) = [l for l in lines if l.startswith("summary: ")]
    (events,) = [l.split()[1:] for l in lines if l.startswith("events: ")]
    data = 1 + events.index("WsDataMiss")    # the column of data misses
    data_total = int(summary.split()[data])
    names, fns, fn, call = {}, {}, None, False
    for line in lines:
        # a name is given once, at its number's first use, which may be a
        # callee's (cfn=) before any cost of its own
        m = re.match(r"(c?)fn=\(([0-9]+)\)(?: (.*))?\Z", line)
        if m and m.group(3) is not None:
            names.setdefault(m.group(2), m.group(3))
        if m and not m.group(1):
            fn = names.get(m.group(2))
        elif line.startswith("calls="):
            call = True             # the next cost line is the call's
        elif fn and re.match(r"0x[0-9a-f]+ [0-9]+ [0-9]+ [0-9]+\Z", line):
            if not call:
                fns[fn] = fns.get(fn, 0) + int(line.split()[1 + data])
            call = False
    memset = sum(v for k, v in fns.items() if "memset" in k)
    lookup = sum(v for k, v in fns.items() if "::lookup(" in k)
    rebuild = sum(v for k, v in fns.items() if "::rebuild(" in k)
    assert "57 % of the data pages" in prose
    assert round(100 * memset / data_total) == 57
    assert "`memset` (8,192 over the two rebuilds)" in prose
    assert memset == 8192
    assert round(100 * rebuild / data_total) == 29
    assert round(100 * lookup / data_total) == 14
    assert "29 % by line 48" in prose and "14 % by the lookups" in prose


def test_annotate_from_another_directory(example, tmp_path):
    """docs/manual.md, "Miss profile": demo/reindex is built with
    -fdebug-prefix-map, so its miss profile names ./demo/reindex.cc, which
    callgrind_annotate finds from the folder it ran in, from another one
    only with --include; tests/progs/miss, built the usual way, is
    annotated from any folder."""
    text, _, where = example
    manual = os.path.join(wslib.TOP_SRCDIR, "docs", "manual.md")
    with open(manual, encoding="utf-8") as f:
        prose = re.sub(r"\s+", " ", f.read())
    assert "give it `--include=DIR`" in prose

    def annotate(path, *options):
        p = subprocess.run(["callgrind_annotate", "--auto=yes"]
                           + list(options) + [str(path)], cwd=str(tmp_path),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=120)
        assert p.returncode == 0, p.stdout.decode()
        return p.stdout.decode()
    out = annotate(where / "ws.miss")
    missing = out.split("could not be found:\n")[1].split("\n\n")[0]
    assert "\n  ./demo/reindex.cc\n" in missing, out
    out = annotate(where / "ws.miss", "--include=%s" % where)
    assert "-- Auto-annotated source: %s/ + ./demo/reindex.cc\n" % where \
        in out, out
    miss = wslib.prog("miss")
    r = wslib.run_ws([miss, "16", "2", "4", "2"],
                     ("--ws-miss-file=%s" % (tmp_path / "m"),),
                     out_path=str(tmp_path / "ws.out"))
    assert r.returncode == 0, r.stderr
    out = annotate(tmp_path / "m")
    assert "-- Auto-annotated source: %s\n" % os.path.join(
        wslib.TOP_SRCDIR, "tests", "progs", "miss.c") in out, out


def test_html_report(example):
    """Section 8's command: the page has the controls the doc names."""
    text, _, where = example
    command = "print/ws_print --html ws.html ws.out"
    assert "`%s`" % command in text
    argv = command.split()
    argv[0] = WS_PRINT
    subprocess.run(argv, cwd=str(where), check=True, timeout=60)
    with open(where / "ws.html", encoding="utf-8") as f:
        page = f.read()
    assert "Jump to the largest peak" in page and "log scale" in page
