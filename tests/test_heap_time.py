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


# ----------------------------------------------------------------------
# Chunk records (--ws-heap-chunks): a site's heap-chunk lines

import pytest                                             # noqa: E402

import memoro_model                                       # noqa: E402


def model_chunks(out, exact):
    """memoro_model Chunks rebuilt from the records of every site whose
    chunks were all recorded, and those sites' ids.  Exact mode gives
    the reads and writes, and of the bytes accessed only the lowest and
    highest: every byte between is taken as accessed (so touched and
    usage come out as bounds).  By default the records say whether a
    chunk was accessed, not how: it is taken as read and written."""
    chunks, whole = [], []
    for h in out.heap_sites:
        if len(h.chunks) != h["chunks"]:
            continue
        whole.append(h.id)
        for c in h.chunks:
            accessed = range(c.lo, c.hi + 1) if c.lo is not None else ()
            if exact:
                reads, writes = c.values["reads"], c.values["writes"]
            else:
                assert "reads" not in c.values
                reads = writes = int(c.first is not None)
            chunks.append(memoro_model.Chunk(h.id, c.alloc, c.free, c.size,
                                             accessed, reads, writes,
                                             c.first, c.last))
    return chunks, whole


# the keys the records give exactly, in exact mode and by default
EXACT_KEYS = ("chunks", "bytes", "peak-live", "never", "read-only",
              "write-only", "lifetime", "first-delay", "idle-tail", "useful",
              "interval", "lifetime-score", "growth", "exit-live")
DEFAULT_KEYS = ("chunks", "bytes", "peak-live", "never", "lifetime",
                "first-delay", "idle-tail", "useful", "lifetime-score",
                "growth", "exit-live")


def check_sites(out, exact):
    run_end = out.samples[-1].t            # the final sample: the end
    chunks, whole = model_chunks(out, exact)
    assert whole
    figs = memoro_model.figures(chunks, run_end)
    for h in out.heap_sites:
        if h.id not in figs:
            continue
        want = figs[h.id].keys()
        for k in EXACT_KEYS if exact else DEFAULT_KEYS:
            got = "%.3f" % h[k] if isinstance(h[k], float) else h[k]
            assert got == want[k], (h.id, k, got, want[k])
        if exact:
            # every byte from lo to hi, a bound of those accessed
            assert h["touched"] <= figs[h.id].touched
            assert h["usage"] <= float(want["usage"])
    return whole


PROGRAMS = ["heap_regrow", "heap_churn", "heap_oneway", "heap_untouched",
            "heap_vector", "heap_offsets"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_records_rebuild_the_sites_exact(ws, name):
    """For every site whose chunks were all recorded, the Memoro model
    fed the records gives the heap-site line's figures exactly."""
    r = ws([wslib.prog(name)], "--ws-heap-usage=exact",
           "--ws-heap-chunks=1000000")
    assert all(len(h.chunks) == h["chunks"] for h in r.output.heap_sites)
    check_sites(r.output, True)


@pytest.mark.parametrize("name", ["heap_regrow", "heap_churn",
                                  "heap_vector"])
def test_records_rebuild_the_sites_by_default(ws, name):
    r = ws([wslib.prog(name)])
    check_sites(r.output, False)


def test_records_thinned_by_a_doubling_stride(ws):
    """heap_churn's site of 1,000 chunks keeps 63 of the default 100
    records: the chunks numbered 0, 16, 32, ... (the smallest power of
    two that leaves at most 100), as memoro_model.records() chooses them
    from every chunk's record."""
    full = ws([wslib.prog("heap_churn")], "--ws-heap-chunks=1000000").output
    (churn,) = [h for h in full.heap_sites if h["chunks"] == 1000]
    assert len(churn.chunks) == 1000
    every = [memoro_model.Chunk(churn.id, c.alloc, c.free, c.size)
             for c in churn.chunks]

    def facts(cs):
        return [(c.alloc, c.free, c.size) for c in cs]

    for limit, kept in ((100, 63), (1, 1), (999, 500), (1000, 1000)):
        out = ws([wslib.prog("heap_churn")],
                 "--ws-heap-chunks=%d" % limit).output
        (site,) = [h for h in out.heap_sites if h["chunks"] == 1000]
        assert len(site.chunks) == kept
        assert facts(site.chunks) == facts(memoro_model.records(every,
                                                                limit))
        # the other sites' one chunk each
        assert all(len(h.chunks) == 1 for h in out.heap_sites
                   if h is not site)


def test_no_records(ws):
    r = ws([wslib.prog("heap_churn")], "--ws-heap-chunks=0")
    assert all(h.chunks == [] for h in r.output.heap_sites)
    with open(r.out_path) as f:
        assert "heap-chunk" not in f.read()


def test_record_of_a_chunk_live_at_exit(ws):
    """heap_regrow's last chunk is live at exit: free '-'; with exact
    mode its reads and writes."""
    r = ws([wslib.prog("heap_regrow")], "--ws-heap-usage=exact")
    live = [c for h in r.output.heap_sites for c in h.chunks
            if c.free is None]
    assert len(live) == 1 and sum(h["exit-live"]
                                  for h in r.output.heap_sites) == 1
    (c,) = live
    assert c.first is not None and c.values["reads"] > 0 \
        and c.values["writes"] > 0


def lines_with(path, i, new):
    with open(path) as f:
        lines = f.read().split("\n")
    return "\n".join(lines[:i] + new + lines[i + 1:])


BAD_CHUNKS = [
    # (the line, what ws_print says)
    ("heap-chunk 1 alloc 10 free 5 size 8 first - last - lo - hi -",
     "a chunk is freed after its allocation"),
    ("heap-chunk 1 alloc 10 free - size 8 first 12 last 11 lo 0 hi 0",
     "a chunk is freed after its allocation"),
    ("heap-chunk 1 alloc 10 free - size 8 first 12 last 12 lo 3 hi 8",
     "lo and hi are offsets in an accessed chunk"),
    ("heap-chunk 1 alloc 10 free - size 8 first - last - lo 0 hi 1",
     "lo and hi are offsets in an accessed chunk"),
    ("heap-chunk 1 alloc 10 free - size 8 first - last -",
     "a heap-chunk line is 'heap-chunk SITE alloc T free T|- size N"),
    ("heap-chunk 1 free - alloc 10 size 8 first - last - lo - hi -",
     "a heap-chunk line is 'heap-chunk SITE alloc T free T|- size N"),
    ("heap-chunk 2 alloc 10 free - size 8 first - last - lo - hi -",
     "heap-chunk lines follow the heap-site line of their site"),
]


@pytest.mark.parametrize("line,why", BAD_CHUNKS,
                         ids=[str(i) for i in range(len(BAD_CHUNKS))])
def test_malformed_chunk_lines_refused(ws, tmp_path, line, why):
    """ws_print and wslib refuse a heap-chunk line that breaks the
    grammar or says what no run can, naming the line."""
    r = ws([wslib.prog("heap_steps"), "1000"], "--ws-heap-chunks=1")
    with open(r.out_path) as f:
        lines = f.read().split("\n")
    i = [k for k, l in enumerate(lines) if l.startswith("heap-chunk 1 ")][0]
    path = tmp_path / "bad.out"
    path.write_text(lines_with(r.out_path, i, [line]))
    p = subprocess.run([WS_PRINT, str(path)], capture_output=True, text=True)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith("ws_print: %s:%d: %s" % (path, i + 1, why)), \
        p.stderr
    with pytest.raises(wslib.FormatError):
        wslib.read_output(str(path))


# ----------------------------------------------------------------------
# The viewers: the chunk timeline, the severity colours, the marks

# the Memoro paper's 12 severity colours, blue (score 1) to red (0), as
# print/report-heap.js has them
SEVERITY = ["#2b6cb0", "#2f8fbf", "#38a9b4", "#3fae86", "#4fae55", "#84bd45",
            "#b7c93c", "#e2d23a", "#f2b736", "#ef9130", "#e3652b", "#cc3125"]


def severity(score):
    return SEVERITY[min(11, int((1000 - round(score * 1000)) * 12 // 1000))]


class _Marked:
    def __init__(self, h):
        self.peak_live, self.chunks = h["peak-live"], h["chunks"]


def marks(out):
    """{site id: the paper's marks}, by memoro_model.top_marks."""
    return memoro_model.top_marks({h.id: _Marked(h) for h in out.heap_sites})


def html(ws_out_path, tmp_path, query=""):
    from test_print import page_results
    report = str(tmp_path / "r.html")
    subprocess.run([WS_PRINT, "--html", report, ws_out_path], check=True)
    return page_results(report, query)[0]


def tip(site, k, c):
    n = "{:,}".format
    lines = ["record %d of %d (site %d): %s bytes"
             % (k + 1, len(site.chunks), site.id, n(c.size)),
             "allocated at t=%s i, %s" % (n(c.alloc), "live at exit"
                                         if c.free is None
                                         else "freed at t=%s i" % n(c.free)),
             "never accessed" if c.first is None
             else "first access t=%s i, last t=%s i" % (n(c.first),
                                                        n(c.last))]
    if c.lo is not None:
        lines.append("bytes %s\u2013%s accessed" % (n(c.lo), n(c.hi)))
    if "reads" in c.values:
        lines.append("%s reads, %s writes" % (n(c.values["reads"]),
                                              n(c.values["writes"])))
    return "\n".join(lines)


def test_html_chunk_timeline(ws, tmp_path):
    """heap_regrow's buffer doubled by realloc: a row per record, ticks at
    each accessed chunk's first and last access, tooltips with the
    record's figures, darker bars for larger chunks; the site's live
    bytes over the heap's curve (a point per allocation and free); the
    site chosen from the list."""
    r = ws([wslib.prog("heap_regrow")], "--ws-heap-usage=exact")
    out = r.output
    for k, site in enumerate(out.heap_sites):
        res = html(r.out_path, tmp_path, "heap:site:%d" % k)
        t = res["timeline"]
        assert (t["hidden"], t["site"], t["rows"]) == (False, site.id,
                                                       len(site.chunks))
        assert t["ticks"] == 2 * sum(c.first is not None
                                     for c in site.chunks)
        assert t["tips"] == [tip(site, i, c)
                             for i, c in enumerate(site.chunks)]
        # 1 + an allocation and a free per record (a live one: none)
        assert t["siteLine"] == 1 + sum(1 + (c.free is not None)
                                        for c in site.chunks)
        light = [int(f.split(",")[2].rstrip("%)")) for f in t["fills"]]
        by_size = sorted(zip([c.size for c in site.chunks], light))
        assert [l for _, l in by_size] == sorted(light, reverse=True)
    # site_long: seven chunks of 4 KiB doubled to 256 KiB, darkest last
    res = html(r.out_path, tmp_path, "heap:site:0")
    assert res["timeline"]["fills"][0] == "hsl(215,45%,80%)"
    assert res["timeline"]["fills"][-1] == "hsl(215,45%,30%)"


def test_html_no_timeline_without_records(ws, tmp_path):
    r = ws([wslib.prog("heap_regrow")], "--ws-heap-chunks=0")
    res = html(r.out_path, tmp_path)
    assert res["timeline"]["hidden"] and res["timeline"]["rows"] == 0
    assert not res["heapTime"]["hidden"]


def test_html_flame_severity_colours(ws, tmp_path):
    """By default the flame graph colours each site's frame by its score
    in the paper's 12 severity colours, with their legend."""
    r = ws([wslib.prog("heap_regrow")], "--ws-heap-usage=exact")
    out = r.output
    res = html(r.out_path, tmp_path)
    assert res["heapColour"] == "score" and res["heapLegend"] == 12
    for h in out.heap_sites:
        w = out.stacks[h.stack][0]
        name = "%s (%s)" % (w.function, w.location)
        # (sites may share their innermost frame: one of its frames)
        leaves = [f["fill"] for f in res["flame"] if f["name"] == name
                  and f["sites"] == 1 and f["value"] == h["bytes"]]
        assert severity(h["score"]) in leaves, (name, h["score"], leaves)
    # heap_regrow's scores span several colours
    assert len({severity(h["score"]) for h in out.heap_sites}) >= 3


def test_marks_in_text_and_html(ws, tmp_path):
    """The sites in the top 90th percentile of peak-live bytes or of
    chunks (memoro_model.top_marks) are marked in the text report and in
    the HTML report's table."""
    r = ws([wslib.prog("heap_offsets")], "--ws-heap-usage=exact")
    out = r.output
    want = marks(out)
    assert any(want.values()) and not all(want.values())
    text = subprocess.run([WS_PRINT, "--width", "200", r.out_path],
                          capture_output=True, text=True,
                          check=True).stdout.split("\n")
    n = sum(1 for m in want.values() if m)
    assert "  %d site%s marked: in the top 90th percentile of the sites by " \
        "peak-live bytes or by chunks, as the Memoro paper marks them" \
        % (n, "" if n == 1 else "s") in text
    words = {frozenset(["peak-live"]): "peak-live bytes",
             frozenset(["chunks"]): "chunks",
             frozenset(["peak-live", "chunks"]):
                 "peak-live bytes and of chunks"}
    # each site's block, where the text lists it in full
    for i, line in enumerate(text):
        if not line.startswith("  site ") or "(above)" in line:
            continue
        sid = int(line.split()[1].rstrip(":"))
        block = text[i + 1:i + 3]
        marked = [l for l in block if l.startswith("      marked:")]
        if want[sid]:
            assert marked == ["      marked: in the top 90th percentile of "
                              + words[frozenset(want[sid])]], block
        else:
            assert marked == [], block
    res = html(r.out_path, tmp_path)
    for row in res["heapSites"]:
        m = want[int(row[0])]
        assert row[-1] == ("\u2691 " + ", ".join(
            k for k in ("peak-live", "chunks") if k in m) if m else "")
