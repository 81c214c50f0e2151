"""The heap over time (docs/manual.md, "The heap over time"): the live
heap bytes in every sample (the `heap` column), as ws_print draws them in
text and HTML.  tests/progs/heap_steps.c allocates and frees in known
steps with long idle stretches between them, so the live bytes at each
sample are known from its source.
"""

import os
import subprocess

import wslib

WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")

# heap_steps.c's live heap bytes after each step (its header)
STEPS = [0, 1000, 31000, 30000, 50000, 0]
# its idle stretches, and T: about 20 samples in each
IDLE = 2000000
EVERY = 100000


def steps(ws, *options):
    return ws([wslib.prog("heap_steps"), str(IDLE)],
              "--ws-every=%d" % EVERY, *options)


def runs(values):
    """The values, equal neighbours merged, and how many each run has."""
    out = []
    for v in values:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return out


def test_heap_column_in_every_sample(ws):
    r = steps(ws)
    out = r.output
    assert out.header["columns"] == "t insn data insn-lines data-lines heap"
    got = runs([s.heap for s in out.samples])
    assert [v for v, _ in got] == STEPS, got
    # each idle stretch holds several samples (IDLE / T of them, give or
    # take the steps' own instructions and the start-up's)
    assert all(n >= IDLE // EVERY // 2 for _, n in got), got


def test_heap_column_with_per_thread_columns_and_without_lines(ws):
    """The column comes after the lines' (when there are lines) and before
    the per-thread group, named in the header either way."""
    r = steps(ws, "--ws-per-thread=yes", "--ws-linesize=0")
    out = r.output
    assert out.header["columns"] == "t insn data heap shared {tid insn data}..."
    assert [v for v, _ in runs([s.heap for s in out.samples])] == STEPS
    assert all(s.shared is not None and s.threads for s in out.samples)


def test_no_heap_column_without_the_heap(ws):
    r = steps(ws, "--ws-heap=no")
    assert r.output.header["columns"] == "t insn data insn-lines data-lines"
    assert all(s.heap is None for s in r.output.samples)


def test_heap_column_without_heap_usage(ws):
    """--ws-heap-usage=no still follows the blocks (--ws-heap=yes): the
    live bytes are known."""
    r = steps(ws, "--ws-heap-usage=no")
    assert r.output.header["heap-usage"] == "no"
    assert [v for v, _ in runs([s.heap for s in r.output.samples])] == STEPS


def text_chart(path):
    text = subprocess.run([WS_PRINT, path], capture_output=True, text=True,
                          check=True).stdout
    lines = text.split("\n")
    i = lines.index("Live heap, bytes the program asked for")
    return lines[i + 1:]


def test_text_chart(ws):
    """ws_print draws the live bytes as a third chart, massif's curve: its
    top is the most live bytes, and its columns rise and fall with the
    steps (the tallest column is the 50,000 bytes' stretch)."""
    r = steps(ws)
    chart = text_chart(r.out_path)
    top = chart[0]
    assert top.split()[0] == "50000" and top.split()[1] == "^"
    height = [i for i, row in enumerate(chart)
              if row.lstrip().startswith("0 +")][0]
    rows = chart[:height]
    # the columns, left to right: how many rows each fills
    plot_at = rows[0].index("^") + 1
    width = max(len(row) for row in rows) - plot_at
    filled = []
    for c in range(width):
        filled.append(sum(1 for row in rows
                          if len(row) > plot_at + c
                          and row[plot_at + c] in ":#"))
    levels = [v for v, _ in runs(filled) if v > 0]
    # 1,000 of 50,000 bytes rounds to no row (a '.' on the axis): the
    # steps seen are 31,000, 30,000 and 50,000 bytes, in rows of 2,500
    assert levels == [round(31000 * height / 50000),
                      round(30000 * height / 50000), height], filled
    assert "#" in "".join(rows)


def test_text_chart_absent_without_heap(ws):
    r = steps(ws, "--ws-heap=no")
    text = subprocess.run([WS_PRINT, r.out_path], capture_output=True,
                          text=True, check=True).stdout
    assert "Live heap" not in text


def test_html_curve(ws, tmp_path):
    """The HTML report draws the live bytes of every sample on an axis of
    their own, and names the most."""
    from test_print import page_results
    r = steps(ws)
    report = str(tmp_path / "r.html")
    subprocess.run([WS_PRINT, "--html", report, r.out_path], check=True)
    res, _ = page_results(report, "")
    n = len(r.output.samples)
    peak = [s for s in r.output.samples if s.heap == 50000][0]
    assert res["heapTime"] == {
        "hidden": False, "points": n,
        "peak": "the most live heap bytes: 50,000 at t=%s i"
                % "{:,}".format(peak.t)}


def test_html_no_curve_without_heap(ws, tmp_path):
    from test_print import page_results
    r = steps(ws, "--ws-heap=no")
    report = str(tmp_path / "r.html")
    subprocess.run([WS_PRINT, "--html", report, r.out_path], check=True)
    res, _ = page_results(report, "")
    assert res["heapTime"] == {"hidden": True, "points": 0, "peak": None}
