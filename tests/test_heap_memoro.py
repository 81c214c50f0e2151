"""Heap usage as the Memoro paper defines it, with each access attributed
to its chunk (`--ws-heap-usage=exact`, docs/manual.md "Heap usage"): the
cases of tests/progs/heap_{oversized,untouched,oneway,regrow}.c give the
answers their sources work out (the paper's usage with its Useless
function, touched, interval, never, read-only and write-only); the
default run gives the same at line resolution, at every page size, or
says which chunks are below the resolution; and the option's refusals.
"""

import pytest

import wslib


def site(out, function):
    """The heap-site line whose allocating stack goes through function."""
    found = [h for h in out.heap_sites
             if any(f.function.split("(")[0] == function
                    for f in out.stacks[h.stack])]
    assert len(found) == 1, (function, found)
    return found[0]


def figures(h, *keys):
    return tuple(h[k] for k in keys)


KEYS = ("chunks", "bytes", "peak-live", "usage", "touched", "interval",
        "never", "read-only", "write-only")


def exact(ws, name):
    r = ws([wslib.prog(name)], "--ws-heap-usage=exact")
    assert r.output.header["heap-usage"] == "exact"
    return r.output


def test_oversized(ws):
    """200,000 x malloc(256), 16 bytes written, none read: usage 0 (never
    read), and the worst site by bytes never used, far ahead of stdio's
    buffer."""
    out = exact(ws, "heap_oversized")
    h = site(out, "site_oversized")
    assert figures(h, *KEYS) == (200000, 51200000, 51200000, 0.0, 3200000,
                                 3200000, 0, 0, 200000)
    assert out.heap_sites[0] is h


def test_untouched(ws):
    """1,000 chunks of 32 bytes never touched between 1,000 used ones of
    the same size (neighbours on every line): all 1,000 never touched."""
    out = exact(ws, "heap_untouched")
    assert figures(site(out, "site_unused"), *KEYS) == (
        1000, 32000, 32000, 0.0, 0, 0, 1000, 0, 0)
    assert figures(site(out, "site_used"), *KEYS) == (
        1000, 32000, 32000, 1.0, 32000, 32000, 0, 0, 0)


def test_oneway(ws):
    """Chunks only written, only read (calloc's zeroing is the
    allocator's), and both, interleaved: the Useless function gives the
    first two usage 0."""
    out = exact(ws, "heap_oneway")
    whole = (1000, 256000, 256000)
    assert figures(site(out, "site_written"), *KEYS) == whole + (
        0.0, 256000, 256000, 0, 0, 1000)
    assert figures(site(out, "site_read"), *KEYS) == whole + (
        0.0, 256000, 256000, 0, 1000, 0)
    assert figures(site(out, "site_both"), *KEYS) == whole + (
        1.0, 256000, 256000, 0, 0, 0)


def test_regrow(ws):
    """A buffer doubled by realloc (free + allocation at the realloc's
    site; its copy is the allocator's): each old chunk only written."""
    out = exact(ws, "heap_regrow")
    assert figures(site(out, "site_long"), *KEYS) == (
        7, 520192, 262144, 0.504, 393216, 393216, 0, 0, 6)
    assert figures(site(out, "site_twice"), *KEYS) == (
        6, 57344, 16384, 0.571, 49152, 49152, 0, 0, 4)
    assert figures(site(out, "site_short"), *KEYS) == (
        4, 24576, 8192, 0.667, 24576, 24576, 0, 0, 2)


# The default run knows a chunk's bytes to a cache line (64 bytes) at
# every page size: its own lines from the lines the core settles, the
# lines it shares and its kinds from trapped accesses with their exact
# addresses (docs/manual.md, "Heap usage").
PAGE_SIZES = [(), ("--ws-pagesize=64",), ("--ws-pagesize=2097152",)]


def default(ws, name, options=()):
    r = ws([wslib.prog(name)], *options)
    assert r.output.header["heap-usage"] == "yes"
    return r.output


@pytest.mark.parametrize("options", PAGE_SIZES)
def test_default_untouched(ws, options):
    """Every 64-byte line holds parts of used and unused chunks: the
    trapped accesses say whose, so the default gives exact mode's
    answers, never guessed from the neighbours."""
    out = default(ws, "heap_untouched", options)
    assert figures(site(out, "site_unused"), *KEYS) == (
        1000, 32000, 32000, 0.0, 0, 0, 1000, 0, 0)
    assert figures(site(out, "site_used"), *KEYS) == (
        1000, 32000, 32000, 1.0, 32000, 32000, 0, 0, 0)


@pytest.mark.parametrize("options", PAGE_SIZES)
def test_default_oneway(ws, options):
    """Neighbours of the other sites share each chunk's first and last
    lines; the kinds come from its own accesses: exact mode's answers."""
    out = default(ws, "heap_oneway", options)
    whole = (1000, 256000, 256000)
    assert figures(site(out, "site_written"), *KEYS) == whole + (
        0.0, 256000, 256000, 0, 0, 1000)
    assert figures(site(out, "site_read"), *KEYS) == whole + (
        0.0, 256000, 256000, 0, 1000, 0)
    assert figures(site(out, "site_both"), *KEYS) == whole + (
        1.0, 256000, 256000, 0, 0, 0)


@pytest.mark.parametrize("options", PAGE_SIZES)
def test_default_oversized(ws, options):
    """usage and the kinds are exact mode's; touched is at line
    resolution: the first line of each chunk holds its bytes 0..15 and
    64 - (start mod 64) of its bytes, glibc's chunks lie 272 bytes apart
    (16 mod 64), so four in a row hold 48 + 32 + 16 + 64 bytes there: 40
    a chunk, 8,000,000 for the 200,000, less 32 for the first chunk
    (which follows stdio's buffer at another offset) -- whatever the
    page size."""
    out = default(ws, "heap_oversized", options)
    h = site(out, "site_oversized")
    assert figures(h, *KEYS) == (200000, 51200000, 51200000, 0.0, 7999968,
                                 7999968, 0, 0, 200000)
    assert out.heap_sites[0] is h


@pytest.mark.parametrize("options,below,touched", [
    ((), (6, 6, 4), (393376, 49216, 24576)),
    (("--ws-pagesize=64",), (0, 0, 0), (393376, 49216, 24576)),
    (("--ws-pagesize=2097152",), (7, 6, 4), (393536, 49280, 24576)),
])
def test_default_regrow(ws, options, below, touched):
    """memset writes each new part of a regrown buffer many times over a
    page whose chunk's first line (shared with the allocator's header)
    waits for an access: the page gives up trapping writes, and that
    line is a bound (below-resolution: usage-max, which is exact mode's
    usage since the old chunks were never read, a certain fact: reads
    stay trapped).  Pages of a line trap only the lines in question, so
    nothing is below the resolution there."""
    out = default(ws, "heap_regrow", options)
    for f, n, usage, wo, t in zip(("site_long", "site_twice", "site_short"),
                                  below, (0.504, 0.571, 0.667), (6, 4, 2),
                                  touched):
        h = site(out, f)
        key = "usage-max" if n else "usage"
        assert "usage" not in h.values if n else \
            "below-resolution" not in h.values, h
        assert figures(h, "below-resolution" if n else "never", key,
                       "never", "read-only", "write-only", "touched") == (
            n, usage, 0, 0, wo, t), h


def test_html_bounds_below_resolution(ws, tmp_path):
    """The HTML report says a site's usage is a bound when some of its
    chunks are below the resolution, as the text does: "at most" in its
    details, a line counting those chunks, "\u2264" in the tables; a site
    resolved exactly is shown plainly (the default run at 4 KiB pages,
    test_default_regrow's figures)."""
    import os
    import subprocess
    import test_print
    r = ws([wslib.prog("heap_regrow")])
    report = str(tmp_path / "report.html")
    subprocess.run([os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print"),
                    "--html", report, r.out_path], check=True)
    res, _ = test_print.page_results(report, "click:site:0")
    rows = {row[0]: row for row in res["heapSites"]}
    for function, below, usage in (("site_long", 6, "0.504"),
                                   ("site_short", 4, "0.667")):
        h = site(r.output, function)
        assert h["below-resolution"] == below
        assert rows[str(h.id)][5] == "\u2264 " + usage, rows
    exact_site = [h for h in r.output.heap_sites
                  if "below-resolution" not in h.values]
    assert exact_site, r.output.heap_sites
    assert rows[str(exact_site[0].id)][5] == "%.3f" % exact_site[0]["usage"]
    # site_long leaves the most bytes untouched: the first row, clicked
    assert res["heapSites"][0][0] == str(site(r.output, "site_long").id)
    assert "usage at most 0.504 (" in res["details"], res["details"]
    assert "6 chunks below the resolution (their figures are bounds)." \
        in res["details"], res["details"]


def test_exact_needs_heap(ws):
    r = ws([wslib.prog("heap_untouched")], "--ws-heap-usage=exact",
           "--ws-heap=no", check=False)
    assert r.returncode == 1
    reasons = [l for l in r.stderr.splitlines() if "--ws-heap-usage" in l]
    assert reasons == ["valgrind: Bad option: --ws-heap-usage=exact needs "
                       "--ws-heap=yes"], r.stderr


def test_churn_lifetime_score(ws):
    """1,000 chunks of 32 bytes, each freed a few instructions after its
    allocation, one after another within 0.1 % of the run: one group
    whose mean lifetime (37 instructions) is a tiny part of its span (999
    turns of about 180): lifetime-score 0.000, flagged by score 0.000
    (its accesses share a superblock, so useful is 0 too), where usage
    is 1.000."""
    out = exact(ws, "heap_churn")
    h = site(out, "site_churn")
    assert figures(h, "chunks", "peak-live", "usage", "lifetime-score",
                   "growth", "score") == (1000, 32, 1.0, 0.0, 0, 0.0)
    # the default: the same figures of lines and times but for useful (a
    # last access is known to the epoch by default: its end, after the
    # chunk's free), hence the score
    h = site(default(ws, "heap_churn"), "site_churn")
    assert figures(h, "chunks", "peak-live", "usage", "touched", "interval",
                   "lifetime-score", "growth", "score") == (
        1000, 32, 1.0, 32000, 32000, 0.0, 0, 0.057)


def test_regrow_growth(ws):
    """Runs of three or more chunks of growing size (realloc's new chunks
    at its site): one run of 7 (site_long), two of 3 (site_twice, called
    twice), none for runs of 2 (site_short)."""
    for r in (exact(ws, "heap_regrow"), ws([wslib.prog("heap_regrow")]).output):
        assert [site(r, f)["growth"]
                for f in ("site_long", "site_twice", "site_short")] == [1, 2, 0]


def geo_mean_milli(values):
    """The geometric mean of fractions, in thousandths rounded half up, as
    ws decides it: the m with ((2m-1)/2000)^n <= product < ((2m+1)/2000)^n
    (memoro_model.root_milli on the values as written, so within one
    thousandth of ws's, which works from the values unrounded)."""
    from fractions import Fraction
    import memoro_model
    product = Fraction(1)
    for v in values:
        product *= Fraction(round(v * 1000), 1000)
    return memoro_model.root_milli(product, len(values)) / 1000


def test_scores(ws):
    """score is the geometric mean of lifetime-score, usage and useful;
    the heap-scores line the geometric mean of each over the sites."""
    out = exact(ws, "heap_regrow")
    for h in out.heap_sites:
        mean = geo_mean_milli([h["lifetime-score"], h["usage"], h["useful"]])
        assert abs(h["score"] - mean) <= 0.001 + 1e-9, h
    for key, site_key in (("lifetime", "lifetime-score"), ("usage", "usage"),
                          ("useful", "useful")):
        mean = geo_mean_milli([h[site_key] for h in out.heap_sites])
        assert abs(out.heap_scores[key] - mean) <= 0.001 + 1e-9, key
    # one site never used makes the global usage 0 (the paper's rule)
    assert exact(ws, "heap_untouched").heap_scores["usage"] == 0.0


def test_print_reads_heap_scores(ws, tmp_path):
    """ws_print shows the heap-scores line in its heap section, says that
    each access was attributed, and refuses a malformed line."""
    import os
    import subprocess
    ws_print = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
    r = ws([wslib.prog("heap_regrow")], "--ws-heap-usage=exact")
    s = r.output.heap_scores
    text = subprocess.run([ws_print, r.out_path], capture_output=True,
                          text=True, check=True).stdout
    assert "Heap efficiency (each access attributed to its chunk;" in text
    flat = " ".join(text.split())
    assert ("global scores (the Memoro paper's geometric means over the "
            "sites): lifetime %.3f, usage %.3f, useful %.3f"
            % (s["lifetime"], s["usage"], s["useful"])) in flat
    with open(r.out_path) as f:
        lines = f.read().split("\n")
    (i,) = [i for i, l in enumerate(lines) if l.startswith("heap-scores ")]
    for bad in ("heap-scores lifetime 0.5 usage 0.100 useful 0.100",
                "heap-scores usage 0.100 lifetime 0.100 useful 0.100"):
        path = tmp_path / "bad.out"
        path.write_text("\n".join(lines[:i] + [bad] + lines[i + 1:]))
        p = subprocess.run([ws_print, str(path)], capture_output=True,
                           text=True)
        assert p.returncode != 0
        assert "%s:%d: a heap-scores line is 'heap-scores lifetime F usage " \
               "F useful F'" % (path, i + 1) in p.stderr, p.stderr
        with pytest.raises(wslib.FormatError):
            wslib.read_output(str(path))


def test_ranked_by_score(ws):
    """Sites worst first by bytes x (1 - score), as the paper ranks them:
    heap_churn's site, whose every byte is used (usage 1.000) but whose
    chunks churn, comes before the site of one chunk never touched and
    stdio's buffer, in ws_print's first ranking and in `ws_print --folded
    score` (ws's trailer stays ranked by bytes never touched)."""
    import os
    import subprocess
    ws_print = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
    r = ws([wslib.prog("heap_churn")], "--ws-heap-usage=exact")
    churn = site(r.output, "site_churn")
    text = subprocess.run([ws_print, r.out_path], capture_output=True,
                          text=True, check=True).stdout
    head = "  Worst by the Memoro paper's score, bytes x (1 - score):\n"
    assert head + "  site %d: 32,000 bytes x (1 - score 0.000) of 32,000 " \
        "bytes\n" % churn.id in text
    folded = subprocess.run([ws_print, "--folded", "score", r.out_path],
                            capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert max(folded, key=lambda l: int(l.rsplit(" ", 1)[1])).endswith(
        "site_churn 32000")
