"""Heap usage per allocation site (docs/manual.md, "Heap usage"): the
trailer's heap-site lines, the heap-window lines of a peak, `ws heap`,
and ws_print's section, folded stacks and flame graph.

- Known answers: tests/progs/heap_known.c allocates page-aligned chunks of
  whole pages, so that page granularity is exact, each site used in a way
  whose figures follow from the program.
- Small chunks: tests/progs/heap_small.c and heap_small_cc.cc (C++ new
  and the standard containers) against tests/heap_oracle.py, which
  rebuilds every chunk's life from a lackey trace and the programs'
  allocation logs: at ws's granularity the counts are exact; at byte
  granularity ws errs on the side of use only.
- A real program (sqlite3): its sites' totals are the allocation counts
  ws's --stats=yes reports.
"""

import os
import re
import shutil
import subprocess

import pytest

import ctl_util
import dhat_oracle
import doclib
import heap_oracle
import oracle
import wslib

KNOWN = wslib.prog("heap_known")
SMALL = wslib.prog("heap_small")
SMALL_CC = wslib.prog("heap_small_cc")
SERVER = wslib.prog("heap_server")
SPIKE = wslib.prog("own_spike")
WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
PAGE = 4096
T = 100000

_STATS = re.compile(r"ws heap: (\d+) blocks allocated, (\d+) freed, (\d+) live")


def stats(stderr):
    """(allocated, freed, live) from --stats=yes."""
    m = _STATS.search(stderr)
    assert m, stderr[-3000:]
    return tuple(int(x) for x in m.groups())


def site_of(out, function, callee=None):
    """The heap-site line whose allocating stack goes through function
    (calling callee, when given)."""
    def names(h):
        return [f.function.split("(")[0] for f in out.stacks[h.stack]]
    found = [h for h in out.heap_sites
             if any(n == function and (callee is None
                                       or (i and names(h)[i - 1] == callee))
                    for i, n in enumerate(names(h)))]
    assert len(found) == 1, (function, found)
    return found[0]


def known_site(out, function):
    """heap_known's chunks all come from pages()."""
    return site_of(out, function, "pages")


def check_totals(run):
    """The sites add up to the allocations ws counted (--stats=yes)."""
    out = run.output
    allocated, freed, live = stats(run.stderr)
    assert sum(h["chunks"] for h in out.heap_sites) == allocated
    assert sum(h["exit-live"] for h in out.heap_sites) == live
    for h in out.heap_sites:
        # usage counts the touched bytes of chunks both read and written
        # (the Useless function): all of them when none is read-only or
        # write-only and none below the resolution (whose usage-max
        # counts them too)
        usage = h.values.get("usage", h.values.get("usage-max"))
        if h["bytes"]:
            touched = h["touched"] / h["bytes"]
            assert usage <= touched + 0.0005 + 1e-9, h
            if h["read-only"] + h["write-only"] == 0:
                assert abs(usage - touched) <= 0.0005 + 1e-9, h
        assert h["never-bytes"] <= h["bytes"] - h["touched"], h


# ----------------------------------------------------------------------
# Known answers

# heap_known's idle and busy stretches: many times T, so that the epoch
# ws knows a last access to (at most T) is small beside them.
IDLE = 40 * T


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    d = tmp_path_factory.mktemp("known")
    r = wslib.run_ws([KNOWN, str(IDLE)], ["--stats=yes"],
                     out_path=str(d / "ws.out"))
    wslib.check_trailer(r)
    return r


def test_known_header_and_totals(known):
    assert known.output.version == wslib.FORMAT_VERSION == 6
    assert known.output.header["heap-usage"] == "yes"
    check_totals(known)


def test_known_first_page_only(known):
    """4 chunks of 8 pages, one at a time, touched in their first byte
    (written and read): one 64-byte line each, usage 256 / 131072."""
    h = known_site(known.output, "site_first_page")
    assert (h["chunks"], h["bytes"], h["peak-live"]) == (4, 4 * 8 * PAGE,
                                                         8 * PAGE)
    assert (h["usage"], h["touched"], h["interval"]) == (0.002, 4 * 64,
                                                         4 * 64)
    assert (h["never"], h["read-only"], h["write-only"], h["threads"],
            h["exit-live"]) == (0, 0, 0, 0, 0)


def test_known_never_touched(known):
    h = known_site(known.output, "site_never")
    assert (h["chunks"], h["bytes"], h["peak-live"]) == (3, 3 * 4 * PAGE,
                                                         3 * 4 * PAGE)
    assert (h["usage"], h["touched"], h["never"], h["never-bytes"]) == (
        0.0, 0, 3, 3 * 4 * PAGE)
    # nothing to average over the accessed chunks
    assert (h["first-delay"], h["idle-tail"], h["useful"]) == (0, 0, 0.0)


def test_known_idle_before_free(known):
    """Filled at once, then idle for IDLE instructions before the free:
    useful lifetime near 0.  ws knows the last access to its epoch, at
    most T after it: the chunk's useful part is at most its filling (a
    few hundred instructions) and one epoch, out of a life of more than
    IDLE."""
    h = known_site(known.output, "site_idle")
    # a byte of each of its 16 pages written and read: a line of each
    assert (h["chunks"], h["usage"], h["touched"], h["never"]) == (
        1, 0.016, 16 * 64, 0)
    assert h["lifetime"] > IDLE
    assert h["first-delay"] < 100
    assert h["useful"] <= (T + 1000) / IDLE
    assert h["lifetime"] - T - 1000 <= h["idle-tail"] <= h["lifetime"]


def test_known_busy_throughout(known):
    """Written and read over and over until its free: usage and useful
    1.  The first access comes a few instructions after the allocation,
    the last (an upper bound within its epoch, never after the free) at
    the free."""
    h = known_site(known.output, "site_busy")
    assert (h["chunks"], h["usage"], h["touched"], h["never"]) == (
        1, 0.016, 16 * 64, 0)
    assert h["lifetime"] > IDLE / 2
    assert h["first-delay"] < 100 and h["idle-tail"] < 100
    assert h["useful"] >= 0.999


def test_known_read_and_write_only(known):
    """Chunks of two pages only written, only read (a byte a page): the
    paper's Useless function makes their usage 0."""
    w = known_site(known.output, "site_write_only")
    assert (w["chunks"], w["usage"], w["touched"], w["write-only"],
            w["read-only"]) == (2, 0.0, 4 * 64, 2, 0)
    r = known_site(known.output, "site_read_only")
    assert (r["chunks"], r["usage"], r["touched"], r["read-only"],
            r["write-only"]) == (2, 0.0, 4 * 64, 2, 0)
    k = known_site(known.output, "site_kept")
    assert (k["chunks"], k["exit-live"], k["write-only"]) == (1, 1, 1)


def test_known_threads(known):
    """A chunk written by one thread and read by another; one used by the
    second thread alone."""
    shared = known_site(known.output, "site_shared")
    assert (shared["chunks"], shared["threads"]) == (1, 1)
    alone = known_site(known.output, "second_thread")
    assert (alone["chunks"], alone["threads"], alone["usage"]) == (1, 0,
                                                                  0.016)


def test_known_at_cache_line_granularity(ws):
    """With 64-byte pages too the first_page chunks' touched bytes are
    one line each."""
    out = ws([KNOWN, "1000"], "--ws-pagesize=64").output
    h = known_site(out, "site_first_page")
    assert (h["touched"], h["usage"]) == (4 * 64, 0.002)
    assert known_site(out, "site_never")["never"] == 3
    assert known_site(out, "site_write_only")["write-only"] == 2


def test_heap_usage_off(ws):
    for opts in (["--ws-heap-usage=no"], ["--ws-heap=no"]):
        r = ws([KNOWN, "1000"], *opts)
        assert r.output.header["heap-usage"] == "no"
        assert r.output.heap_sites == []
        assert "Heap efficiency: not followed in this run" in subprocess.run(
            [WS_PRINT, r.out_path], capture_output=True, text=True).stdout


def test_heap_usage_option_checked(ws):
    r = ws([KNOWN, "1000"], "--ws-heap-usage=sometimes", check=False)
    assert r.returncode == 1
    assert ("--ws-heap-usage takes yes (a page's accesses, for its chunks), "
            "exact (each access) or no") in r.stderr


# ----------------------------------------------------------------------
# The heap owners of a peak: allocated vs touched now

def test_heap_window_at_peaks(ws):
    """own_spike writes one byte of each of the 2000 pages of its 8 MB
    block, which glibc puts 16 bytes into a mapping of its own: at every
    peak the block's site has its 8,192,000 bytes live, and the bytes of
    its pages in the window are the owner line's pages, less the 16
    bytes of the first page before the block."""
    r = ws([SPIKE])
    out = r.output
    # as docs/manual.md shows it
    assert "          2000  heap blocks from main (own_spike.c:65)\n" \
           "                8191984 of its 8192000 live bytes in the window\n" \
        in print_text(r.out_path).stdout
    seen = 0
    for p in out.peaks:
        heap = [(pages, o) for pages, o in p.owners if o.kind == "heap"]
        assert set(p.heap_window) == {o.stack for _, o in heap}
        for pages, o in heap:
            live, window = p.heap_window[o.stack]
            if any(f.location.startswith("own_spike.c:")
                   for f in out.stacks[o.stack]):
                seen += 1
                assert live == 2000 * PAGE
                assert window == pages * PAGE - 16
            assert window <= live
    assert seen > 0


# ----------------------------------------------------------------------
# Small chunks against the oracle

def tag_of(out, h, names):
    """The log's site number of heap-site h: a function of names on its
    stack, or Logged<T, N>::allocate (heap_small_cc.cc)."""
    for f in out.stacks[h.stack]:
        name = f.function.split("(")[0]
        if name in names:
            return names[name]
        m = re.search(r"Logged<.*, (\d+)l?>::allocate", f.function)
        if m:
            return int(m.group(1))
    return None


SMALL_SITES = {"site_node": 1, "site_string": 2, "site_oversized": 3,
               "site_written": 4, "site_unused": 5, "site_kept": 6,
               "make_node": 11}
GRANULES = (4096, 64)


@pytest.fixture(scope="module", params=["heap_small", "heap_small_cc"])
def small(request, tmp_path_factory):
    """ws at each page size, and the oracle at each and at bytes."""
    prog = wslib.prog(request.param)
    d = tmp_path_factory.mktemp(request.param)
    runs = {}
    for g in GRANULES:
        runs[g] = wslib.run_ws([prog], ["--ws-syscalls=no",
                                        "--ws-pagesize=%d" % g],
                               out_path=str(d / ("ws.out.%d" % g)))
    log = heap_oracle.parse_log(runs[GRANULES[0]].stdout)
    assert heap_oracle.parse_log(runs[GRANULES[1]].stdout) == log
    argv = [wslib.VG_IN_PLACE, "--tool=lackey", "--trace-mem=yes",
            *oracle.LACKEY_OPTIONS, "--log-file=/dev/stderr", prog]
    with open(str(d / "lackey.stdout"), "w+") as stdout:
        p = subprocess.Popen(argv, cwd=str(d), stdout=stdout,
                             stderr=subprocess.PIPE, text=True,
                             errors="replace")
        try:
            truth = heap_oracle.compute(p.stderr, log, GRANULES + (1,))
        except BaseException:
            p.kill()
            p.wait()
            raise
        assert p.wait(timeout=600) == 0
        stdout.seek(0)
        # the lackey run is the same run: its own log says so
        assert heap_oracle.parse_log(stdout.read()) == log
    return runs, truth


def ws_sums(out):
    """ws's heap-site lines summed by the log's site numbers."""
    sums = {}
    for h in out.heap_sites:
        tag = tag_of(out, h, SMALL_SITES)
        if tag is None:
            continue
        s = sums.setdefault(tag, {"chunks": 0, "bytes": 0, "touched": 0,
                                  "never": 0, "read-only": 0,
                                  "write-only": 0, "exit-live": 0,
                                  "lifetime": 0, "first-delay": 0,
                                  "idle-tail": 0, "useful": 0.0,
                                  "accessed": 0, "below": 0})
        s["below"] += h.values.get("below-resolution", 0)
        for k in ("chunks", "bytes", "touched", "never", "read-only",
                  "write-only", "exit-live"):
            s[k] += h[k]
        accessed = h["chunks"] - h["never"]
        s["accessed"] += accessed
        s["lifetime"] += h["lifetime"] * h["chunks"]
        s["first-delay"] += h["first-delay"] * accessed
        s["idle-tail"] += h["idle-tail"] * accessed
        s["useful"] += h["useful"] * h["chunks"]
    return sums


@pytest.mark.parametrize("granule", GRANULES)
def test_small_chunks_exact_at_line_resolution(small, granule):
    """At either page size (here 4096 and 64 bytes) the counts are the
    oracle's at line resolution exactly: chunks, bytes, bytes touched
    (a chunk's bytes on the 64-byte lines where its own bytes were
    accessed), chunks never touched, read-only and write-only (its own
    accesses), live at exit; but for the sites with chunks below the
    resolution (a page that gave up waiting: a tenth of a site's chunks
    or one at most here; heap_small_cc's long strings at 4096-byte pages
    have 28 of 300), whose figures are bounds on the side of use."""
    runs, truth = small
    sums = ws_sums(runs[granule].output)
    lines = truth[heap_oracle.LINES]
    assert set(sums) == set(lines), (sums, lines)
    for tag, t in lines.items():
        w = sums[tag]
        assert w["below"] <= max(1, t.chunks // 10), (tag, w, t)
        assert (w["chunks"], w["bytes"], w["exit-live"]) == (
            t.chunks, t.bytes, t.exit_live), (tag, w, t)
        if w["below"]:
            assert w["touched"] >= t.touched and w["never"] <= t.never \
                and w["read-only"] <= t.read_only \
                and w["write-only"] <= t.write_only, (tag, w, t)
        else:
            assert (w["touched"], w["never"], w["read-only"],
                    w["write-only"]) == (t.touched, t.never, t.read_only,
                                         t.write_only), (tag, w, t)


@pytest.mark.parametrize("granule", GRANULES)
def test_small_chunks_times(small, granule):
    """Times, as means over a site's chunks (ws writes them rounded to
    whole instructions).  ws dates a chunk from its allocation function's
    return and to its free's first instruction; the oracle from the log
    entries after and before them, a call to heaplog_note away (under 100
    instructions).  ws sees the first access to the chunk's own bytes
    (the truth at line resolution) at its superblock's start (at most
    oracle.SB_MAX earlier), and a last one as the end of the epoch of
    the latest access to a page where the chunk touched a line: after
    its own last access (the truth at line resolution), at most T after
    the page's (the truth at page granularity), never after the free."""
    runs, truth = small
    sums = ws_sums(runs[granule].output)
    slack = 100 + oracle.SB_MAX
    for tag, t in truth[heap_oracle.LINES].items():
        w, page = sums[tag], truth[granule][tag]
        n, a = t.chunks, t.accessed
        assert abs(w["lifetime"] - t.lifetime) <= (slack + 1) * n, (tag, w, t)
        if not a:
            continue
        assert -(oracle.SB_MAX + 1) * a <= w["first-delay"] - t.first_delay \
            <= (slack + 1) * a, (tag, w, t)
        assert page.idle_tail - (T + 1) * a <= w["idle-tail"] \
            <= t.idle_tail + (slack + 1) * a, (tag, w, t, page)
        # useful is (last - first) / lifetime: at least the truth's
        assert w["useful"] >= t.useful - 0.0005 * n - 0.01 * n, (tag, w, t)


@pytest.mark.parametrize("granule", GRANULES)
def test_small_chunks_err_on_the_side_of_use(small, granule):
    """Against byte granularity ws only over-states use: bytes touched
    at least the truth's, chunks never touched, never written (never or
    read-only) and never read (never or write-only) at most the
    truth's."""
    runs, truth = small
    sums = ws_sums(runs[granule].output)
    for tag, b in truth[1].items():
        w = sums[tag]
        assert w["touched"] >= b.touched, (tag, w, b)
        assert w["never"] <= b.never, (tag, w, b)
        assert w["never"] + w["read-only"] <= b.never + b.read_only
        assert w["never"] + w["write-only"] <= b.never + b.write_only


def test_small_chunks_alike_at_every_page_size(small):
    """The page size no longer decides what is found: of heap_small's
    200-byte buffers of which 16 bytes are used, both page sizes see at
    most a third used (each chunk's 16 bytes lie on one or two of its
    lines; 4096-byte pages saw them all used before lines), and of its
    32-byte chunks never touched, all are never or (4096-byte pages: the
    few whose page gave up waiting) below the resolution.  heap_small_cc
    has no such site."""
    runs, truth = small
    if 3 not in truth[1]:
        # heap_small_cc: its sites are new[]/vector's, none of the kind
        return
    for g in GRANULES:
        sums = ws_sums(runs[g].output)
        assert sums[3]["touched"] <= sums[3]["bytes"] / 3, (g, sums[3])
        assert sums[5]["never"] + sums[5]["below"] >= truth[1][5].never \
            == sums[5]["chunks"], (g, sums[5])


# ----------------------------------------------------------------------
# A real program

SQL = ("create table t(a, b); "
       "insert into t select value, hex(randomblob(20)) "
       "from generate_series(1, 20000); "
       "create index i on t(b); "
       "select count(*) from t where b like 'A%';")


def test_sqlite3(ws, tmp_path):
    sqlite3 = shutil.which("sqlite3")
    if not sqlite3:
        pytest.skip("sqlite3 is not installed")
    r = ws([sqlite3, str(tmp_path / "t.db"), SQL], "--stats=yes")
    wslib.check_trailer(r)
    out = r.output
    check_totals(r)
    assert len(out.heap_sites) > 50
    assert stats(r.stderr)[0] > 20000
    text = subprocess.run([WS_PRINT, "--width=120", r.out_path],
                          capture_output=True, text=True, check=True).stdout
    assert "\nHeap efficiency (" in text
    folded = subprocess.run([WS_PRINT, "--folded", "bytes", r.out_path],
                            capture_output=True, text=True,
                            check=True).stdout
    total = sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines())
    assert total == sum(h["bytes"] for h in out.heap_sites)


# ----------------------------------------------------------------------
# ws heap, live

def heap_server(tmp_path, options=(), platform="amd64"):
    """heap_server under ws, with the ctl_util.Server machinery."""
    s = ctl_util.Server.__new__(ctl_util.Server)
    s.dir = str(tmp_path)
    s.out_path = os.path.join(s.dir, "ws.out")
    s.prefix = os.path.join(s.dir, "vgdb")
    s.argv = wslib.ws_command([wslib.prog("heap_server", platform)],
                              ["--vgdb=yes", "--vgdb-prefix=" + s.prefix]
                              + list(options), s.out_path)
    s.stderr_path = os.path.join(s.dir, "stderr")
    s._stderr = open(s.stderr_path, "wb")
    s.p = subprocess.Popen(s.argv, cwd=s.dir, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=s._stderr)
    s.pid = s.p.pid
    assert s._answer() == "ready"
    s.wait_blocked()
    return s


def heap_reply_sites(text):
    """The sites of a `ws heap` reply: [(rank, value, lines)]."""
    sites = []
    for line in text.splitlines():
        m = re.match(r"  (\d+): ([\d,]+) ", line)
        if m:
            sites.append([int(m.group(1)), int(m.group(2).replace(",", "")),
                          [line]])
        elif sites and line.startswith("     "):
            sites[-1][2].append(line)
    return sites


@pytest.mark.parametrize("platform", wslib.platforms())
def test_ws_heap_live(tmp_path, platform):
    """Monitor commands (ws heap) to a program blocked on a pipe, a 32-bit
    one too."""
    wslib.require_built(wslib.prog("heap_server", platform))
    s = heap_server(tmp_path, platform=platform)
    try:
        before = ctl_util.parse_status(s.vgdb("ws status"))["heap"]
        assert s.cmd("alloc 3 4") == "ok"
        # ws status: the live heap bytes, the three chunks more
        assert ctl_util.parse_status(s.vgdb("ws status"))["heap"] == \
            before + 3 * 4 * PAGE
        reply = s.vgdb("ws heap 1")
        assert re.match(r"ws heap at t=\d+: the 1 worst of \d+ allocation "
                        r"sites by bytes never touched\n", reply), reply
        # as docs/control.md shows it
        assert "\n  (lines of 64 bytes; live chunks count as if freed " \
               "now; times in instructions)\n  1: 49,152 bytes never " \
               "touched\n" in reply, reply
        (rank, value, lines), = heap_reply_sites(reply)
        assert (rank, value) == (1, 3 * 4 * PAGE)
        assert re.match(r"     lifetime [\d,]+, first access after 0, idle "
                        r"before the end 0, useful 0.000\Z", lines[3]), lines
        assert "3 chunks, 49,152 bytes, peak live 49,152, live now 49,152 " \
               "in 3 chunks" in lines[1]
        assert "usage 0.000, never touched 3," in lines[2]
        assert any("alloc_chunks (heap_server.c:" in l for l in lines)
        assert s.cmd("write") == "ok"
        sites = heap_reply_sites(s.vgdb("ws heap 20 never"))
        assert all(v == 0 for _, v, _ in sites)
        site = [x for x in heap_reply_sites(s.vgdb("ws heap 20 bytes"))
                if any("alloc_chunks" in l for l in x[2])][0]
        # written, not read yet: the Useless function
        assert "usage 0.000, never touched 0, read-only 0, write-only 3," \
               in site[2][2]
        assert s.cmd("read") == "ok"
        site = [x for x in heap_reply_sites(s.vgdb("ws heap 20 bytes"))
                if any("alloc_chunks" in l for l in x[2])][0]
        assert "write-only 0," in site[2][2]
        # bad arguments: one line, nothing done
        for cmd, why in (("ws heap 0", "'0' is not a number of sites"),
                         ("ws heap 3 us", "'us' is ambiguous"),
                         ("ws heap bogus", "'bogus' is not a key"),
                         ("ws heap 3 bytes more",
                          "unexpected argument 'more'")):
            reply = s.vgdb(cmd)
            assert why in reply and reply.count("\n") == 1, (cmd, reply)
        help_text = s.vgdb("ws help")
        assert "  ws heap [<n>] [usage|useful|bytes|never|score]\n" in help_text
        assert s.cmd("free") == "ok"
        assert ctl_util.parse_status(s.vgdb("ws status"))["heap"] == before
        assert s.finish() == 0
    finally:
        s.kill()
    out = wslib.read_output(s.out_path)
    h = site_of(out, "alloc_chunks")
    # a byte of each page written and read: a line of each
    assert (h["chunks"], h["usage"], h["read-only"], h["write-only"]) == (
        3, 0.016, 0, 0)


def test_one_chunk_is_one_chunk(tmp_path):
    """A site of one chunk, one chunk live, one chunk never touched, in the
    singular: in `ws heap`'s reply and in ws_print's heap section
    (heap_server: one chunk of two pages, never touched)."""
    wslib.require_built(SERVER)
    s = heap_server(tmp_path)
    try:
        assert s.cmd("alloc 1 2") == "ok"
        site = [x for x in heap_reply_sites(s.vgdb("ws heap 20 bytes"))
                if any("alloc_chunks" in l for l in x[2])][0]
        assert site[2][1] == ("     1 chunk, 8,192 bytes, peak live 8,192, "
                              "live now 8,192 in 1 chunk"), site
        assert s.cmd("free") == "ok"
        assert s.finish() == 0
    finally:
        s.kill()
    out = wslib.read_output(s.out_path)
    assert sum(h["never"] for h in out.heap_sites) == 1
    chunks = sum(h["chunks"] for h in out.heap_sites)
    text = print_text(s.out_path, "--width=200").stdout
    assert "  %d allocation sites, %d chunks, " % (
        len(out.heap_sites), chunks) in text, text
    assert " bytes idle after their last use, 1 chunk never touched\n" \
        in text, text
    assert "  1 chunk, 8,192 bytes allocated" not in text
    assert re.search(r"\n      1 chunk, peak live 8,192 bytes, 0 live at "
                     r"exit\n", text), text


def test_ws_heap_when_not_followed(tmp_path):
    wslib.require_built(SERVER)
    s = heap_server(tmp_path, ["--ws-heap-usage=no"])
    try:
        assert "heap usage is not followed in this run" in s.vgdb("ws heap")
        assert s.finish() == 0
    finally:
        s.kill()


# ----------------------------------------------------------------------
# ws_print

def print_text(path, *args):
    p = subprocess.run([WS_PRINT] + list(args) + [path], capture_output=True,
                       text=True)
    return p


def test_print_heap_section(known):
    out = known.output
    text = print_text(known.out_path, "--width=200").stdout
    sec = text[text.index("\nHeap efficiency"):]
    n_chunks = sum(h["chunks"] for h in out.heap_sites)
    assert "  %d allocation sites, %s chunks, " % (
        len(out.heap_sites), "{:,}".format(n_chunks)) in sec
    # the worst by bytes never touched comes first (all but a line of
    # each of first_page's four chunks of 8 pages), never's 12 pages
    # later, each with its whole stack where it is first shown (the
    # ranking by score comes before: a site it showed is named "(above)")
    first_page = known_site(out, "site_first_page")
    never = known_site(out, "site_never")
    first = sec.index("  Worst by bytes never touched")
    blocks = sec[first:].split("\n\n")[0].split("\n  site ")
    assert re.match(r"%d( \(above\))?: 130,816 (of 131,072 )?bytes never "
                    r"touched \(usage 0\.002\)" % first_page.id,
                    blocks[1]), blocks[1]
    assert any(re.match(r"%d( \(above\))?: 49,152 (of 49,152 )?bytes never "
                        r"touched \(usage 0\.000\)" % never.id, b)
               for b in blocks[2:]), blocks
    (block,) = [b for b in sec.split("\n  site ")
                if b.startswith("%d: " % never.id)]
    frames = out.stacks[never.stack]
    assert len([l for l in block.splitlines()
                if re.match(r"      (at|by) 0x", l)]) == len(frames)
    idle = known_site(out, "site_idle")
    second = sec.index("  Worst by bytes idle after their last use")
    assert re.search(r"\n  site %d( \(above\))?: " % idle.id,
                     sec[second:].split("\n\n")[0] + "\n")


def test_print_folded(known):
    out = known.output
    for key, value in (("usage", lambda h: h["bytes"] - h["touched"]),
                       ("bytes", lambda h: h["bytes"]),
                       ("never", lambda h: h["never-bytes"]),
                       # bytes x (1 - score), rounded half up
                       ("score", lambda h: (h["bytes"] * (1000 - round(
                           h["score"] * 1000)) * 2 + 1000) // 2000)):
        p = print_text(known.out_path, "--folded-by=line", "--folded", key)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        got = {}
        for line in p.stdout.splitlines():
            stack, n = line.rsplit(" ", 1)
            got[stack] = int(n)
        want = {}
        for h in out.heap_sites:
            if value(h):
                frames = out.stacks[h.stack]
                want[";".join(f.words() for f in reversed(frames))] = \
                    value(h)
        assert got == want, key
    p = print_text(known.out_path, "--folded", "size")
    assert p.returncode == 1
    assert "--folded takes usage, useful, bytes, never or score, not 'size'" \
        in p.stderr


def test_print_reads_older_files_without_heap_lines():
    """A version 3 file (no heap lines: the ws_print golden recorded in
    that format) prints as before; --folded refuses it, saying why."""
    path = os.path.join(wslib.TOP_SRCDIR, "tests", "print_golden",
                        "spikes-v3.ws")
    assert open(path).readline() == "ws-output-format: 3\n"
    assert wslib.read_output(path).heap_sites == []
    p = print_text(path)
    assert p.returncode == 0 and "Heap efficiency" not in p.stdout
    p = print_text(path, "--folded", "bytes")
    assert p.returncode == 1 and p.stdout == ""
    assert "a format 3 file has no heap usage lines" in p.stderr


# Malformed heap lines: both readers refuse them, at the same line.
HEAP_MALFORMED = [
    (r"(heap-site \d+ \d+) chunks \d+", r"\1", "lacks the key chunks"),
    (r"(heap-site \d+ \d+ .*) usage [0-9.]+", r"\1 usage 1.500",
     "a fraction from 0.000 to 1.000"),
    (r"heap-site 1 ", "heap-site 2 ", "heap-site"),
    (r"(heap-site \d+) \d+ ", r"\1 999 ", "stack 999 is not defined"),
    (r"(heap-site \d+ \d+ .*) never (\d+)", r"\1 never 1000", "never"),
    # usage, or (chunks below the resolution) below-resolution and
    # usage-max in its place
    (r"(heap-site \d+ \d+ .*) usage ([0-9.]+)", r"\1 below-resolution 1",
     "usage, or below-resolution"),
    (r"(heap-site \d+ \d+ .*) usage ([0-9.]+)",
     r"\1 usage \2 below-resolution 1 usage-max \2",
     "usage, or below-resolution"),
    (r"(heap-site \d+ \d+ .*) usage ([0-9.]+)",
     r"\1 below-resolution 0 usage-max \2", "(at least 1)"),
]


@pytest.mark.parametrize("pattern,repl,why", HEAP_MALFORMED)
def test_malformed_heap_lines_refused(known, tmp_path, pattern, repl, why):
    text = open(known.out_path).read()
    bad = re.sub(pattern, repl, text, count=1)
    assert bad != text
    with pytest.raises(wslib.FormatError) as e:
        wslib.parse_output(bad)
    wslib_line = int(re.match(r"line (\d+): ", str(e.value)).group(1))
    path = tmp_path / "bad.out"
    path.write_text(bad)
    p = print_text(str(path))
    assert p.returncode == 1, p.stdout[-500:]
    m = re.match(r"ws_print: .*:(\d+): (.*)", p.stderr)
    assert m and int(m.group(1)) == wslib_line, (p.stderr, str(e.value))
    assert why in m.group(2) or why in str(e.value), (p.stderr, e.value)


def test_ws_heap_completion(tmp_path):
    """ws-monitor and the gdb script know ws heap and its keys, after the
    command or its count."""
    import test_monitor
    wslib.require_built(SERVER, test_monitor.MONITOR)
    s = heap_server(tmp_path)
    try:
        assert s.cmd("alloc 2 1") == "ok"
        c = test_monitor.Console(s, str(tmp_path))
        try:
            P = re.escape(c.prompt)
            c.expect(P)
            c.send("heap 2 b\t")
            c.expect("heap 2 bytes ")
            c.send("\r")
            c.expect(r"\nws heap at t=[0-9]+: the 2 worst of [0-9]+ "
                     r"allocation sites by bytes allocated\n.*" + P)
            c.send("hea n\t")
            c.expect("hea never ")
            c.send("\x15")
            assert c.finish() == 0
        finally:
            c.kill()
        rc, out, err = ctl_util.gdb_batch(
            SERVER, s.prefix, ["source " + test_monitor.GDB_SCRIPT,
                               "complete ws heap 3 us", "complete ws heap b",
                               "complete ws hea", "detach"])
        assert rc == 0, err
        assert "ws heap 3 usage\nws heap 3 useful\n" in out, out
        assert "ws heap bytes\n" in out, out
        assert "ws heap\n" in out, out
        s.wait_blocked()
        assert s.finish() == 0
    finally:
        s.kill()


# ----------------------------------------------------------------------
# The worked example (docs/heap-example.md), repeated

HEAP_DOC = os.path.join(wslib.TOP_SRCDIR, "docs", "heap-example.md")
PRINT_README = os.path.join(wslib.TOP_SRCDIR, "print", "README.md")
HEAPWASTE = os.path.join(wslib.TOP_BUILDDIR, "demo", "heapwaste")
HEAPWASTE_C = os.path.join(wslib.TOP_SRCDIR, "demo", "heapwaste.c")
ROWS_SQL = os.path.join(wslib.TOP_SRCDIR, "demo", "rows.sql")


@pytest.fixture(scope="module")
def heap_example(tmp_path_factory):
    """docs/heap-example.md's commands run as it shows them, from a folder
    that has the build's demo/heapwaste: (the doc's text, [(command,
    excerpts, output lines)], the folder).  demo/heapwaste measures only
    its own work from the middle of a stack page (its source says why), so
    that every figure is the same in any environment, and the doc shows
    the C library's addresses as `…`: the excerpts are compared exactly."""
    wslib.require_built(HEAPWASTE, WS_PRINT)
    where = tmp_path_factory.mktemp("heap-example")
    os.mkdir(where / "demo")
    os.symlink(HEAPWASTE, where / "demo" / "heapwaste")
    os.symlink(ROWS_SQL, where / "demo" / "rows.sql")
    with open(HEAP_DOC, encoding="utf-8") as f:
        text = f.read()
    runs = doclib.run_commands(text, where, {
        "./vg-in-place": wslib.VG_IN_PLACE, "print/ws_print": WS_PRINT})
    return text, runs, where


def test_worked_example_lines(heap_example):
    """Every line docs/heap-example.md quotes is in what its command
    printed, and its source excerpt is heapwaste.c's."""
    text, runs, _ = heap_example
    assert [c for c, _, _ in runs] == [
        "./vg-in-place --tool=ws --ws-instr-atstart=no --ws-out-file=ws.out "
        "demo/heapwaste", "print/ws_print ws.out",
        "print/ws_print --folded usage ws.out",
        "./vg-in-place --tool=ws --ws-heap-usage=exact "
        "--ws-out-file=sqlite.out sqlite3 :memory: \".read demo/rows.sql\"",
        "print/ws_print sqlite.out"]
    for command, excerpts, lines in runs:
        assert excerpts, command
        for excerpt in excerpts:
            doclib.find_excerpt(excerpt, lines, "docs/heap-example.md")
    (source,) = re.findall(r"```c\n(.*?)```", text, re.S)
    with open(HEAPWASTE_C) as f:
        assert source.strip() in f.read()


def test_worked_example_print_readme(heap_example):
    """print/README.md quotes the same run's heap section and folded
    stacks."""
    _, runs, _ = heap_example
    report, folded = runs[1][2], runs[2][2]
    with open(PRINT_README, encoding="utf-8") as f:
        blocks = doclib.doc_blocks(f.read())
    shown = [b for b in blocks if b[0].startswith("Heap efficiency")]
    assert len(shown) == 1
    doclib.find_excerpt(shown[0], report, "print/README.md")
    (shown,) = [b for b in blocks
                if b[0] == "$ print/ws_print --folded usage ws.out"]
    doclib.find_excerpt(shown[1:], folded, "print/README.md")


def test_worked_example_figures(heap_example):
    """The figures the text of docs/heap-example.md gives, from the run's
    output file."""
    text, runs, where = heap_example
    prose = re.sub(r"\s+", " ", text)
    out = wslib.read_output(str(where / "ws.out"))
    ps = out.pagesize
    sites = {out.stacks[h.stack][0].function: h for h in out.heap_sites}
    assert len(sites) == len(out.heap_sites) == 5
    buffers, sessions = sites["serve"], sites["open_sessions"]
    cache, index = sites["render"], sites["build_index"]
    lines = {name: out.stacks[h.stack][0].location
             for name, h in sites.items()}
    avg = out.summary["data"][0]

    def mega(n, unit):
        return "%.1f %s" % (n / 1e6, unit)
    want = [
        "opens %d sessions" % sessions["chunks"],
        "serves %d generated requests" % buffers["chunks"],
        "The data working set averages %d pages" % round(avg),
        "the program touches about %d kB" % round(avg * ps / 1024, -1),
        "Three of the five sites",
        "(usage %.3f, useful %.3f)" % (index["usage"], index["useful"]),
        "`chunks below the resolution`",
        "`serve` allocated {:,} chunks of {:,} bytes ({:,} / {:,}) at `{}`"
        .format(buffers["chunks"], buffers["bytes"] // buffers["chunks"],
                buffers["bytes"], buffers["chunks"], lines["serve"]),
        "peak live {:,}: each is freed".format(buffers["peak-live"]),
        "at most %.1f %% of them (`usage at most %.3f`)" % (
            100 * buffers["usage-max"], buffers["usage-max"]),
        "{:,} bytes a chunk on average".format(
            buffers["touched"] // buffers["chunks"]),
        "Line %s is" % lines["serve"].split(":")[1],
        "(%s asked for and never used)" % mega(
            buffers["bytes"] - buffers["touched"], "MB"),
        "`render` allocated {:,} chunks of {:,} bytes at `{}`".format(
            cache["chunks"], cache["bytes"] // cache["chunks"],
            lines["render"]),
        "(`write-only {:,}` of {:,} chunks)".format(cache["write-only"],
                                                   cache["chunks"]),
        "on average %d million instructions pass" % (
            cache["idle-tail"] // 10**6),
        "(`idle {:,} i`, of a lifetime of {} million: `useful {:.3f}`)"
        .format(cache["idle-tail"], round(cache["lifetime"] / 1e6),
                cache["useful"]),
        "%s of them were live (`peak live {:,} bytes`)".replace(
            "{:,}", "{:,}".format(cache["peak-live"]))
        % mega(cache["peak-live"], "MB"),
        "`open_sessions` allocated {} chunks of {:,} bytes at start-up "
        "(`{}`); {} of them were **never touched**".format(
            sessions["chunks"], sessions["bytes"] // sessions["chunks"],
            lines["open_sessions"], sessions["never"]),
        "first touched %s instructions after their allocation on average "
        "(`first access {:,} i`)".replace("{:,}", "{:,}".format(
            sessions["first-delay"]))
        % mega(sessions["first-delay"], "million"),
        "useful lifetime is %.1f %% of their life" % (
            100 * sessions["useful"]),
        "save most of these {:,} bytes".format(sessions["bytes"]),
        "not counted as never touched: %d, not %d" % (
            sessions["never"], sessions["never"] + 1),
        "(%d sessions are below the resolution" % sessions[
            "below-resolution"],
        "(%d of its chunks are below the resolution" % cache[
            "below-resolution"],
        "`usage at most %.3f`.)" % cache["usage-max"],
    ]
    for phrase in want:
        assert phrase in prose, phrase
    assert cache["write-only"] == cache["chunks"]
    # four sessions take the 1000 requests (heapwaste.c: r * 32 / 10000)
    assert "four of them take all 1,000 requests" in prose
    assert len({r * 32 // 10000 % 32 for r in range(1000)}) == 4
    assert sessions["chunks"] - sessions["never"] == 4 + 1
    # section 3: the most prominent peak the detector flagged, and the
    # largest data sample, the last before the final one at WS_STOP
    data = [p for p in out.peaks if p.kind == "data"]
    flagged = [p for p in data if "largest" not in p.why][0]
    shown = "  #%d  %d pages" % (flagged.n, flagged.size)
    assert shown in text, shown
    windows = {out.stacks[st][0].function: w
               for st, w in flagged.heap_window.items()}
    assert windows["build_index"] == (65536, 65536)
    assert "all of its {:,} bytes in that window".format(
        windows["build_index"][1]) in prose
    assert "the cache holds {:,} bytes by then, of which {:,}".format(
        *windows["render"]) in prose
    assert "of the {:,} bytes of sessions, {:,}".format(
        *windows["open_sessions"]) in prose
    (largest,) = [p for p in data if "largest" in p.why]
    assert out.samples[-1].t in out.finals
    assert largest.t == out.samples[-2].t
    assert out.samples[-1].data < largest.size
    freed = [pages for pages, o in largest.owners
             if o.kind == "freed" and o.stack == cache.stack]
    assert "holds %d pages of the freed cache" % freed[0] in prose


def test_worked_example_sqlite3(heap_example, tmp_path):
    """Section 5's figures (sqlite3 on demo/rows.sql), from the run's
    output file, and DHAT's count of the same site from its own run of
    the same command."""
    text, _, where = heap_example
    prose = re.sub(r"\s+", " ", text)
    out = wslib.read_output(str(where / "sqlite.out"))
    assert out.header["heap-usage"] == "exact"

    def through(h, function):
        return any(f.function == function for f in out.stacks[h.stack])
    insert = [h for h in out.heap_sites
              if through(h, "sqlite3BtreeInsert") and h["chunks"] == 571]
    scratch, page = [h for h in insert if h.id in (1, 2)]
    (sorter,) = [h for h in out.heap_sites
                 if through(h, "sqlite3VdbeSorterWrite")]
    assert sorter.id == 3
    for h in scratch, page:
        assert h["lifetime-score"] == 0.0 and h["growth"] == 0
        assert h["lifetime"] < 10000, h
    assert "one of each at a time (`peak live {:,} bytes` and `{:,} bytes`, " \
        "two chunks of site 2 at most)".format(
            scratch["peak-live"], page["peak-live"]) in prose
    assert page["peak-live"] == 2 * page["bytes"] // page["chunks"]
    assert "(`lifetime {:,} i` and `{:,} i`)".format(
        scratch["lifetime"], page["lifetime"]) in prose
    assert "it asks for {:,} bytes each time ({:,} / {:,}:".format(
        page["bytes"] // page["chunks"], page["bytes"], page["chunks"]) \
        in prose
    assert page["bytes"] % page["chunks"] == 0
    assert "see %.1f %% of their bytes (`usage %.3f`, %d bytes a chunk)" % (
        100 * page["usage"], page["usage"],
        round(page["touched"] / page["chunks"])) in prose
    assert "%.1f MB allocated for {:,} bytes ever used".format(
        page["touched"]) % (page["bytes"] / 1e6) in prose
    assert "{} chunks of growing size".format(sorter["chunks"]) in prose
    assert sorter["growth"] == 1
    assert "{:,} bytes allocated and copied along the way for a peak of " \
        "{:,} bytes live".format(sorter["bytes"], sorter["peak-live"]) \
        in prose
    assert "(`usage %.3f`)" % sorter["usage"] in prose

    # DHAT: the one site under sqlite3BtreeInsert with the page-sized
    # chunks' count and bytes (sites 1 and 2 have the same function names,
    # '???' included, so the count tells them apart)
    sqlite3 = shutil.which("sqlite3")
    os.mkdir(tmp_path / "demo")
    os.symlink(ROWS_SQL, tmp_path / "demo" / "rows.sql")
    prof = dhat_oracle.run(wslib.VG_IN_PLACE, [sqlite3, ":memory:",
                                               ".read demo/rows.sql"],
                           str(tmp_path / "dhat.json"))
    (dhat,) = [s for s in prof.sites
               if any(f.function.startswith("sqlite3BtreeInsert")
                      for f in s.frames)
               and (s.blocks, s.bytes) == (page["chunks"], page["bytes"])]
    assert "counts the same site's {:,} blocks and {:,} bytes, and {:,} " \
        "bytes read and {:,} written".format(dhat.blocks, dhat.bytes,
                                             dhat.reads, dhat.writes) in prose
    # every byte ws saw accessed, DHAT counted at least once
    assert page["touched"] <= dhat.reads + dhat.writes


def test_html_heap_section(known, tmp_path):
    """The HTML report's heap section: a table row per site, worst first
    by bytes never touched; the flame graph's frames sized by bytes (a
    frame is the sum of the sites above it) and coloured by usage; a
    click on a row or a frame shows the site's figures and stack."""
    import test_print
    out = known.output
    report = str(tmp_path / "report.html")
    subprocess.run([WS_PRINT, "--html", report, known.out_path], check=True)
    first_page = known_site(out, "site_first_page")
    never = known_site(out, "site_never")
    res, _ = test_print.page_results(report, "click:site:0")
    rows = res["heapSites"]
    assert len(rows) == len(out.heap_sites)
    assert rows[0][:2] == [str(first_page.id), "130,816"], rows[0]
    assert [str(never.id), "49,152"] in [r[:2] for r in rows], rows
    assert res["details"].startswith(
        "Site %d: 4 chunks, 131,072 bytes allocated, peak live 32,768 "
        "bytes, 0 live at exit.usage 0.002 (130,816 bytes never touched)"
        % first_page.id), res["details"]
    assert "at 0x" in res["details"] and "site_first_page (heap_known.c:" \
        in res["details"]
    flame = res["flame"]
    assert flame[0]["name"] == "all sites"
    assert flame[0]["value"] == sum(h["bytes"] for h in out.heap_sites)
    leaf = [f for f in flame if f["name"].startswith("site_never (")]
    assert len(leaf) == 1 and leaf[0]["value"] == 3 * 4 * PAGE
    # the never-touched site's frames are red: score 0 is the last of the
    # paper's severity colours (the default), usage 0 hue 0
    pages_frame = [f for f in flame if f["name"].startswith("pages (")
                   and f["sites"] == 1 and f["value"] == 3 * 4 * PAGE]
    assert pages_frame and pages_frame[0]["fill"] == "#cc3125"
    res, _ = test_print.page_results(report, "heap:colour:usage")
    pages_frame = [f for f in res["flame"] if f["name"].startswith("pages (")
                   and f["sites"] == 1 and f["value"] == 3 * 4 * PAGE]
    assert pages_frame and pages_frame[0]["fill"].startswith("hsl(0,")
    # sized by bytes never touched: the busy site's frame is the 15/16
    # of its chunk's lines it never touched
    busy = known_site(out, "site_busy")
    res, _ = test_print.page_results(report, "heap:size:wasted")
    assert [f["value"] for f in res["flame"]
            if f["name"].startswith("site_busy")] == [
                busy["bytes"] - busy["touched"]] == [65536 - 16 * 64]
    assert res["flame"][0]["value"] == sum(h["bytes"] - h["touched"]
                                           for h in out.heap_sites)


def test_html_flame_worst_colours(heap_example, tmp_path):
    """The flame graph's colours by the worst of usage, useful lifetime
    and chunks read (docs/heap-example.md's run): the cache that render()
    only writes (the text's worst site by idle bytes) is red, as are the
    request buffers and the sessions; the index, used from its
    allocation to its free, is green."""
    import test_print
    _, _, where = heap_example
    report = str(tmp_path / "report.html")
    subprocess.run([WS_PRINT, "--html", report, str(where / "ws.out")],
                   check=True)
    res, _ = test_print.page_results(report, "heap:colour:worst")
    out = wslib.read_output(str(where / "ws.out"))
    leaf = {}
    for h in out.heap_sites:
        w = out.stacks[h.stack][0]
        leaf[w.function] = "%s (%s)" % (w.function, w.location)

    def hue(function):
        (f,) = [f for f in res["flame"] if f["name"] == leaf[function]]
        return int(re.match(r"hsl\(([0-9]+),", f["fill"]).group(1))
    assert hue("render") == 0
    assert hue("serve") < 10 and hue("open_sessions") < 25
    assert hue("build_index") > 110
    # by usage alone the write-only cache is red too: usage 0 by the
    # paper's Useless function, which the default run applies (the index
    # stays green)
    res, _ = test_print.page_results(report, "heap:colour:usage")
    assert hue("render") == 0 and hue("build_index") > 110


def test_folded_on_the_fuzz_corpus_under_sanitizers(tmp_path):
    """--folded on every input of the fuzz corpus (which holds a version 4
    file with heap lines, seed-v4-heap.ws): exit status 0 or 1 and no
    sanitizer report."""
    import test_print
    asan = test_print.PRINT_ASAN
    wslib.require_built(asan)
    env = wslib.sanitizer_env()
    corpus = test_print.CORPUS
    assert "seed-v4-heap.ws" in os.listdir(corpus)
    for name in sorted(os.listdir(corpus)):
        for key in ("usage", "useful", "bytes", "never"):
            p = subprocess.run([asan, "--folded", key,
                                os.path.join(corpus, name)],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env, timeout=60)
            err = p.stderr.decode("latin-1")
            assert p.returncode in (0, 1), (name, key, err[-3000:])
            assert "Sanitizer" not in err and "runtime error" not in err, (
                name, err[-3000:])


@pytest.mark.parametrize("granule", GRANULES)
def test_heap_usage_alike_with_sampled_curves(tmp_path, granule):
    """--ws-curves=sampled observes windows of the run by trapping every
    data TLB entry (docs/design.md, "Sampled locality curves"), which
    the heap-usage watch uses too: a trapped access to a page that a
    chunk's mark watches must still reach the watcher.  heap_small runs
    its allocations in the windows' head (its first 131,072
    instructions, observed whole) and after it: every heap-site figure
    is the one of a run without curves."""
    sites = []
    for mode in ("no", "sampled"):
        r = wslib.run_ws([SMALL], ["--ws-syscalls=no", "--ws-curves=" + mode,
                                   "--ws-pagesize=%d" % granule],
                         out_path=str(tmp_path / ("ws.out." + mode)),
                         stdout=subprocess.DEVNULL)
        sites.append(sorted(str(h.values) for h in r.output.heap_sites))
    assert sites[0] and sites[0] == sites[1]
