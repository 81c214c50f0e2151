"""Working sets that are known from a program's source and parameters.

The programs (tests/progs/) run their measured loops in assembly, each loop
alone on its own code page (see wsprog.h), with no stack access and no
call.  A window that lies entirely inside such a loop therefore has exactly
one instruction page, and its data pages are exactly the ones the loop's
accesses reach.  A window that overlaps start-up, main() or libc has more
instruction pages.  So "the samples with insn == 1" are exactly the samples
whose window lies inside a loop, and for those the data count is known
exactly; the tests also check that there are as many of them as the
program's length says there must be.

Time: every loop's instruction count per element is known (wsprog.h), so
phase lengths and window contents follow from the parameters.  T = 100000
instructions unless said otherwise; start-up of a dynamically linked
program takes about 130000 instructions under Valgrind (2 samples).
"""

import pytest

import oracle
import wslib

T = 100000
PAGE = 4096


P = wslib.prog


def inside(samples, insn=1):
    return [s for s in samples if s.insn == insn]


def longest_run(samples):
    """(insn, data) of the longest run of consecutive equal samples, and
    the run's length."""
    best, cur, n, bestn = None, None, 0, 0
    for s in samples:
        v = (s.insn, s.data)
        n = n + 1 if v == cur else 1
        cur = v
        if n > bestn:
            best, bestn = v, n
    return best, bestn


# ----------------------------------------------------------------------
# Phases with exact plateaus

# Three phases on disjoint pages of one mapping: 100 pages (pages 0..99),
# then 500 (100..599), then 50 (600..649), one byte written per page,
# delay 10 (25 instructions per page, so one sweep of the 500 pages takes
# 12504 instructions, well inside any window of T), each phase about
# 2,000,000 instructions = 20 samples.
PHASES = [P("touch"), "650",
          "st,0,100,4096,10,2000000",
          "st,%d,500,4096,10,2000000" % (100 * PAGE),
          "st,%d,50,4096,10,2000000" % (600 * PAGE)]


def _three_plateaus(out, min_len):
    runs = wslib.runs_of(out.samples, lambda s: s.insn == 1)
    assert len(runs) == 3, (
        "expected 3 runs of samples inside the phases (insn == 1), got %d: %s"
        % (len(runs), wslib.show(out.samples)))
    for run, pages in zip(runs, (100, 500, 50)):
        assert {s.data for s in run} == {pages}, (
            "phase of %d pages: data %s" % (pages, wslib.show(run)))
        assert len(run) >= min_len, (
            "phase of %d pages: only %d samples inside it: %s"
            % (pages, len(run), wslib.show(run)))
    return runs


def _between(out, a, b):
    """Samples strictly between runs a and b."""
    return [s for s in out.samples if a[-1].t < s.t < b[0].t]


def test_phases_tau_equals_T(ws):
    out = ws(PHASES, "--ws-every=%d" % T).output
    assert out.tau == T
    # 20 samples per phase; the window that contains a phase boundary has
    # insn 2 (main's page too); first and last windows may overlap main.
    runs = _three_plateaus(out, 18)
    for a, b, union in ((runs[0], runs[1], 600), (runs[1], runs[2], 550)):
        mid = _between(out, a, b)
        # With tau = T, one window (two if a boundary falls within a
        # superblock of a sample) contains the boundary; it holds at most
        # both phases' pages, plus main's stack frame and its return-address
        # slot: 3 pages at most.
        assert 1 <= len(mid) <= 2, wslib.show(mid)
        for s in mid:
            assert s.data <= union + 3, wslib.show(mid)


def test_phases_tau_3T(ws):
    """tau > T: windows overlap, so each phase boundary lies in three
    consecutive windows; in at least two of them the window reaches more
    than a full sweep into both phases (a sweep takes at most 12504
    instructions, the boundary is at least T - 12504 from one end of two
    of the windows) and holds both phases' pages: 600 = 100 + 500 and
    550 = 500 + 50, plus main's stack (at most 3 pages)."""
    out = ws(PHASES, "--ws-every=%d" % T, "--ws-tau=%d" % (3 * T)).output
    assert (out.every, out.tau) == (T, 3 * T)
    runs = _three_plateaus(out, 15)
    for a, b, union in ((runs[0], runs[1], 600), (runs[1], runs[2], 550)):
        mid = _between(out, a, b)
        assert 3 <= len(mid) <= 4, wslib.show(mid)
        full = [s for s in mid if union <= s.data <= union + 3]
        assert len(full) >= 2, (
            "expected >= 2 windows holding both phases (%d pages): %s"
            % (union, wslib.show(mid)))
        for s in mid:
            assert s.data <= union + 3, wslib.show(mid)


# ----------------------------------------------------------------------
# tau shorter and longer than T: a window holds one page per element it
# spans

# One sweep over 2048 pages, delay 100: E = 205 instructions per page, a
# sweep takes 419,844 instructions, longer than any window below, so a
# window of length L inside the loop holds floor(L/E) or floor(L/E) + 1
# pages (no page twice).  ws's window for a sample at t >= k*T starts at the
# first superblock boundary s >= k*T - tau, s < k*T - tau + 60, and t <
# k*T + 60 (oracle.SB_MAX), so L lies in (tau - 60, tau + 60): the count
# lies in [floor((tau - 60)/E), floor((tau + 60)/E) + 1].
SWEEP = [P("touch"), "2048", "st,0,2048,4096,100,3000000"]
E_SWEEP = wslib.per_element(100)


def _rate_check(out, tau, min_inside):
    lo = (tau - oracle.SB_MAX) // E_SWEEP
    hi = (tau + oracle.SB_MAX) // E_SWEEP + 1
    ins = inside(out.samples)
    assert len(ins) >= min_inside, wslib.show(out.samples)
    bad = [s for s in ins if not lo <= s.data <= hi]
    assert not bad, ("tau=%d: data must be in [%d, %d]: %s"
                     % (tau, lo, hi, wslib.show(bad)))


def test_tau_shorter_than_T(ws):
    tau = 20000                        # 97 or 98 pages
    out = ws(SWEEP, "--ws-every=%d" % T, "--ws-tau=%d" % tau).output
    assert (out.every, out.tau) == (T, tau)
    # 3,000,000 instructions: 30 samples, at most 2 overlap start-up
    _rate_check(out, tau, 27)


def test_tau_longer_than_T(ws):
    tau = 300000                       # 1463 or 1464 pages
    out = ws(SWEEP, "--ws-every=%d" % T, "--ws-tau=%d" % tau).output
    assert (out.every, out.tau) == (T, tau)
    # the first 4 windows reach back into start-up
    _rate_check(out, tau, 24)


# ----------------------------------------------------------------------
# Kinds of data access

# 10 pages, one access per page: every kind must count 10 data pages.
# atom is `lock xadd` (an atomic read-modify-write: a CAS in Valgrind's IR),
# fxs is fxsave and fld is fldt, both implemented by helper functions in
# Valgrind (the accesses are declared on the helper call, not as loads or
# stores in the IR).
@pytest.mark.parametrize("kind", ["st", "ld", "rmw", "atom", "fxs", "fld"])
def test_access_kinds(ws, kind):
    out = ws([P("touch"), "20", "%s,0,10,4096,10,1000000" % kind]).output
    ins = inside(out.samples)
    assert len(ins) >= 8, wslib.show(out.samples)
    assert {s.data for s in ins} == {10}, wslib.show(ins)


def test_data_access_straddles_pages(ws):
    """A 4-byte store at offset 4094 of every second page touches that page
    and the next: 10 stores, 20 pages (10 if straddling is ignored)."""
    out = ws([P("touch"), "22", "st4,4094,10,8192,10,1000000"]).output
    ins = inside(out.samples)
    assert len(ins) >= 8, wslib.show(out.samples)
    assert {s.data for s in ins} == {20}, wslib.show(ins)


def test_straddle_after_first_page_touched(ws):
    """Per element: a byte stored at the start of an even page, then 4 bytes
    at offset 4094 of it: the straddling store reaches the next page while
    its first page is already in the working set.  10 elements, 20 pages."""
    out = ws([P("touch"), "22", "pair,0,10,8192,10,1000000"]).output
    ins = inside(out.samples)
    assert len(ins) >= 8, wslib.show(out.samples)
    assert {s.data for s in ins} == {20}, wslib.show(ins)


# ----------------------------------------------------------------------
# Instruction pages

def test_code_pages(ws):
    """cp_drive (its own page) calls 8 functions, each alone on its own
    page: 9 instruction pages.  The only data page is the stack slot the
    calls push their return address to.  50000 iterations of 26
    instructions: 13 samples, 2 of them overlapping start-up."""
    out = ws([P("codepages"), "calls", "50000"]).output
    value, n = longest_run(out.samples)
    assert value == (9, 1) and n >= 10, (value, n, wslib.show(out.samples))


def test_instruction_straddles_pages(ws):
    """A loop whose jmp instruction starts 2 bytes before the end of the
    loop's page: 2 instruction pages (1 if straddling is ignored), no data.
    1,000,000 iterations of 3 instructions: 30 samples."""
    out = ws([P("codepages"), "straddle", "1000000"],
             "--ws-list-pages=yes").output
    value, n = longest_run(out.samples)
    assert value == (2, 0) and n >= 27, (value, n, wslib.show(out.samples))
    # the loop's page counts its 3 instructions a pass; the next page, no
    # instruction starting there, is first reached by the jmp, whose
    # address is where it was first touched (not the page's first byte)
    loop = [a for a, (n, _) in out.pages["insn"].items() if n == 3000000]
    assert len(loop) == 1, out.pages["insn"]
    accesses, where = out.pages["insn"][loop[0] + 4096]
    assert (accesses, where.ip) == (0, loop[0] + 4094)


def test_code_read_as_data(ws):
    """A loop that loads a byte from its own page and from 3 more code
    pages: 1 instruction page, 4 data pages (the loop's page is in both
    sets).  200000 iterations of 6 instructions: 12 samples."""
    out = ws([P("readcode"), "200000"]).output
    ins = inside(out.samples)
    assert len(ins) >= 10, wslib.show(out.samples)
    assert {s.data for s in ins} == {4}, wslib.show(ins)


# ----------------------------------------------------------------------
# Memory accessed by system calls

# read() of 20 pages from /dev/zero into pages the program never touches,
# 400 times, 10,005 instructions apart (delay 5000): 40 samples.  The loop
# itself makes no load or store: its windows hold the 20 pages if system
# call accesses count, none if not.
@pytest.mark.parametrize("syscalls,pages", [("yes", 20), ("no", 0)])
def test_syscall_read(ws, syscalls, pages):
    out = ws([P("sysread"), "20", "400", "5000"],
             "--ws-syscalls=%s" % syscalls).output
    assert out.header["syscalls"] == syscalls
    ins = inside(out.samples)
    assert len(ins) >= 36, wslib.show(out.samples)
    assert {s.data for s in ins} == {pages}, wslib.show(ins)


def test_short_read_counts_what_was_written(ws, tmp_path):
    """A read into 20 pages from a file of 5,000 bytes: the kernel writes
    5,000 bytes, pages 0 and 1 of the buffer; the other 18 are not
    touched (ws counts a write with the size the kernel wrote)."""
    small = tmp_path / "small"
    small.write_bytes(b"x" * 5000)
    out = ws([P("sysread"), "20", "400", "5000", str(small)]).output
    ins = inside(out.samples)
    assert len(ins) >= 36 and {s.data for s in ins} == {2}, wslib.show(ins)


# stat() 400 times, 10,005 instructions apart: the path name's 16 bytes
# end on page 0, its NUL is the first byte of page 1; the struct it
# fills straddles pages 2 and 3 (sysstat.c).
@pytest.mark.parametrize("syscalls,pages", [("yes", 4), ("no", 0)])
def test_stat_path_and_struct(ws, syscalls, pages):
    out = ws([P("sysstat"), "400", "5000"],
             "--ws-syscalls=%s" % syscalls).output
    ins = inside(out.samples)
    assert len(ins) >= 36 and {s.data for s in ins} == {pages}, \
        wslib.show(ins)


def test_syscalls_default_yes(ws):
    out = ws([P("sysread"), "20", "100", "5000"]).output
    assert out.header["syscalls"] == "yes"
    ins = inside(out.samples)
    assert len(ins) >= 7 and {s.data for s in ins} == {20}, wslib.show(ins)


# ----------------------------------------------------------------------
# Pages unmapped and mapped again

# remap MODE 50 2000000: 50 pages touched for ~2,000,000 instructions, the
# memory given back and taken again at the same address, the same pages
# touched again for ~2,000,000.  Mode m/b gives back the touched pages
# (munmap / brk shrink), control mode M/B gives back other pages with the
# same calls.  tau = 2T, so that some window reaches at least 50,000
# instructions (far more than a 1254-instruction sweep) both before and
# after the remapping.
@pytest.mark.parametrize("mode,control", [("m", "M"), ("b", "B")])
def test_remapped_page_is_new_in_totals(ws, mode, control):
    opts = ("--ws-every=%d" % T, "--ws-tau=%d" % (2 * T))
    new = ws([P("remap"), mode, "50", "2000000"], *opts)
    same = ws([P("remap"), control, "50", "2000000"], *opts)
    mids = []
    for r in (new, same):
        runs = wslib.runs_of(r.output.samples, lambda s: s.insn == 1)
        assert len(runs) == 2, (
            "expected 2 runs of samples inside the loop, before and after "
            "the remapping: %s" % wslib.show(r.output.samples))
        for run in runs:
            assert len(run) >= 15 and {s.data for s in run} == {50}, (
                wslib.show(run))
        mids.append(_between(r.output, runs[0], runs[1]))
    # totals: the 50 pages touched again after the remapping are new pages
    n_total = new.output.summary["data"][2]
    s_total = same.output.summary["data"][2]
    assert n_total - s_total == 50, (
        "data totals: %s %d, control %s %d: the difference must be the 50 "
        "remapped pages" % (mode, n_total, control, s_total))
    assert new.output.summary["insn"][2] == same.output.summary["insn"][2]
    # ... but a window that sees both lives of a page counts it once: the
    # windows around the remapping (tau = 2T: two of them) hold what the
    # control's hold (the 50 pages plus what munmap/mmap or sbrk touch, the
    # dynamic linker's lazy binding included), give or take one page for
    # the one-instruction difference between the modes.
    n_mid, s_mid = mids
    assert len(n_mid) == len(s_mid) == 2, (wslib.show(n_mid),
                                           wslib.show(s_mid))
    for a, b in zip(n_mid, s_mid):
        assert a.data <= b.data + 1, (
            "windows around the remapping: %s, control: %s: the remapped "
            "pages were counted twice in one window"
            % (wslib.show(n_mid), wslib.show(s_mid)))
        assert b.data < 100, wslib.show(s_mid)


# coderemap u|U: a code page run, unmapped and mapped again, written and run
# again, all in one epoch (T = 10^9): the second life of the page is new
# in the totals although its stamp is current (ws_codeslots.c keeps the
# code slot's stamp, which the inline check reads, equal to the page
# table's, which munmap marks).  The control unmaps another, untouched
# page with the same calls.
@pytest.mark.parametrize("pagesize", [4096, 64])
def test_remapped_code_page_is_new_in_totals(ws, pagesize):
    opts = ("--ws-every=1000000000", "--ws-pagesize=%d" % pagesize)
    new = ws([P("coderemap"), "u"], *opts).output.summary
    same = ws([P("coderemap"), "U"], *opts).output.summary
    assert (new["insn"][2] - same["insn"][2],
            new["data"][2] - same["data"][2]) == (1, 1), (new, same)


# ----------------------------------------------------------------------
# Threads

# threads 30 10 20 6000000: both threads write to 30 shared pages and to
# their own pages (tid 1: 10, tid 2: 20), taking strict turns (a turn word
# on a page of its own, read and written by both, and futex wait/wake); a
# round of both sweeps takes about 2310 instructions, so every window
# inside the loops holds dozens of both threads' sweeps: 61 data pages
# process-wide (30 + 10 + 20 + the turn word's page), 31 of them shared,
# tid 1 41, tid 2 51, and one instruction page (the loop both run: shared
# code is not counted in `shared`, which is about data).  About 2600
# rounds: 60 samples, the first two overlapping start-up.
THREADS = [P("threads"), "30", "10", "20", "6000000"]


def test_threads_process_wide(ws):
    out = ws(THREADS).output
    ins = inside(out.samples)
    assert len(ins) >= 55, wslib.show(out.samples)
    assert {s.data for s in ins} == {61}, (
        "a page touched by two threads counts once: 30 + 10 + 20 + 1 = 61: "
        "%s" % wslib.show(ins))


def test_threads_per_thread(ws):
    out = ws(THREADS, "--ws-per-thread=yes").output
    assert out.header["per-thread"] == "yes"
    starts = [e.args for e in out.events if e.kind == "thread-start"]
    exits = [e.args for e in out.events if e.kind == "thread-exit"]
    assert sorted(starts) == sorted(exits) == [["1"], ["2"]], out.events
    ins = inside(out.samples)
    assert len(ins) >= 55, out.samples
    bad = [s for s in ins
           if (s.data, s.shared, s.threads) != (61, 31, {1: (1, 41),
                                                         2: (1, 51)})]
    assert not bad, (
        "expected process 1/61 with 31 shared, tid 1: 1/41, tid 2: 1/51; "
        "got %r" % bad[:10])
    # one live thread before tid 2 starts: its triple only
    assert len(out.samples[0].threads) == 1, out.samples[0]


# ----------------------------------------------------------------------
# --ws-pagesize=64: pages are cache lines

@pytest.mark.parametrize("argv,expected,why", [
    ([P("touch"), "20", "st,0,1000,64,10,2000000"], (1, 1000),
     "1000 stores 64 bytes apart: 1000 lines; the loop is 37 bytes"),
    ([P("touch"), "22", "st4,62,10,8192,10,1000000"], (1, 20),
     "a 4-byte store at offset 62 straddles two lines: 10 stores, 20"),
    ([P("touch"), "22", "pair,0,10,8192,10,1000000"], (1, 30),
     "a byte in line 0, then 4 bytes straddling lines 63 and 64: 3 lines "
     "per element"),
    ([P("touch"), "20", "fxs,0,10,4096,10,1000000"], (1, 70),
     "fxsave writes bytes 0..415 of its area (FCW..XMM15; Valgrind does "
     "not write the reserved bytes 416..511): 7 lines, 10 areas"),
    ([P("codepages"), "calls", "50000"], (9, 1),
     "the driver loop (46 bytes) and 8 two-byte functions: 9 lines; one "
     "8-byte stack slot"),
    ([P("codepages"), "straddle", "1000000"], (3, 0),
     "line 0 (dec, jnz) and lines 63 and 64 (the straddling jmp)"),
])
def test_pagesize_64(ws, argv, expected, why):
    r = ws(argv, "--ws-pagesize=64")
    out = r.output
    assert out.pagesize == 64
    value, n = longest_run(out.samples)
    assert value == expected and n >= 8, (why, value, n,
                                          wslib.show(out.samples))
    wslib.check_trailer(r)


def test_pagesize_2M(ws):
    """Pages of 2 MiB: touch's mapping starts on a 2 MiB boundary, so 1024
    pages of 4 KiB are 2 huge pages; the loop's code is 1.  (At this size
    start-up's code is 1 page too, so insn == 1 does not tell the loop's
    windows: the loop's 20 samples are the longest run instead.)"""
    r = ws([P("touch"), "1024", "st,0,1024,4096,1,2000000"],
           "--ws-pagesize=2097152")
    out = r.output
    assert out.pagesize == 2097152
    value, n = longest_run(out.samples)
    assert value == (1, 2) and n >= 17, (value, n, wslib.show(out.samples))
    wslib.check_trailer(r)
