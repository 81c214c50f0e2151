"""The curve oracle (tests/curve_oracle.py): exact s(tau), m(tau) and the
LRU miss-ratio curve from a lackey trace.

First on hand-written traces whose answers are worked out by hand in the
comments; then against a brute-force reading of the definitions (every
window W(t, tau) built as a set, the LRU stack as a list) on random
traces; then on lackey's trace of tests/progs/knees, whose phases have
their knees where the program's source puts them (exactly: every figure
below is an integer the source fixes), and whose start-up (the dynamic
linker, libc) is a real program's trace that the curves of the whole
run are checked on against sliding windows and a list LRU, algorithms
that share nothing with the oracle's.
"""

import collections
import random

import pytest

import curve_oracle
import oracle
import wslib


def _compute(trace, **kw):
    return curve_oracle.compute(trace.splitlines(True), **kw)


# ----------------------------------------------------------------------
# Hand-written traces


def test_one_instruction_stream_by_hand():
    # code page 1 at t = 1..4, page 2 at t = 5, page 1 at t = 6..8: K = 8
    trace = "".join("I  %08x,4\n" % a for a in
                    (0x1000, 0x1004, 0x1008, 0x100c, 0x2000,
                     0x1010, 0x1014, 0x1018))
    c = _compute(trace).run[("insn", "page")]
    assert (c.k, c.units, c.refs) == (8, 2, 8)
    # |W(t,1)| = 1 at every t: 8.  |W(t,2)|: 1,1,1,1,2,2,1,1 = 10.
    # |W(t,4)| (t-3..t): 1,1,1,1,2,2,2,2 = 12; from tau = 8 on, every t
    # holds what was touched in [1, t]: 1,1,1,1,2,2,2,2 = 12
    assert [c.s_sum(tau) for tau in (1, 2, 4, 8, 16)] == [8, 10, 12, 12, 12]
    # misses: the 2 first touches, and page 1 at t = 6 after a gap of 2,
    # which misses only when tau < 2
    assert [c.misses(tau) for tau in (1, 2, 4)] == [3, 2, 2]
    assert c.m(1) == 3 * 1000 / 8
    # LRU: 1 1 1 1 2 1 1 1; the return to page 1 has distance 2
    assert [c.mrc_misses(size) for size in (1, 2)] == [3, 2]
    assert c.mrc() == [(1, 3 / 8), (2, 2 / 8)]


def test_the_contracts_taus_by_hand():
    """Data page X touched at t = 1, 101 and 300, page Y at t = 50; all
    instructions on one code page; K = 300."""
    touches = {1: 0x10000, 50: 0x20000, 101: 0x10008, 300: 0x10010}
    trace = "".join("I  %08x,4\n" % (0x1000 + 4 * (t % 1000))
                    + (" L %08x,8\n" % touches[t] if t in touches else "")
                    for t in range(1, 301))
    res = _compute(trace)
    d = res.run[("data", "page")]
    assert res.instructions == d.k == 300
    # X: gaps 100 and 199, tail 300 + 1 - 300 = 1; Y: tail 251.
    # tau = 64:  X 64 + 64 + 1, Y 64                =  193;  misses 2 + 2
    # tau = 128: X 100 + 128 + 1, Y 128             =  357;  misses 2 + 1
    # tau = 256: X 100 + 199 + 1, Y 251             =  551;  misses 2
    # tau = 512 (the first power of two >= K): the same
    assert curve_oracle.taus(300) == [64, 128, 256, 512]
    assert [d.s_sum(t) for t in (64, 128, 256, 512)] == [193, 357, 551, 551]
    assert [d.misses(t) for t in (64, 128, 256, 512)] == [4, 3, 2, 2]
    assert res.records()[:4] == [
        "curve run data line tau 64 s 0.643 m 13.333",
        "curve run data line tau 128 s 1.190 m 10.000",
        "curve run data line tau 256 s 1.837 m 6.667",
        "curve run data line tau 512 s 1.837 m 6.667"]
    # the code page, touched at every instruction: K * s = K, one miss
    i = res.run[("insn", "page")]
    assert [i.s_sum(t) for t in (64, 512)] == [300, 300]
    assert i.misses(64) == 1
    # references X Y X X: distances inf, inf, 2, 1
    assert d.mrc() == [(1, 3 / 4), (2, 2 / 4)]
    assert "mrc run data page size 2 miss 0.5000" in res.records()


# t1 straddles code pages 1 and 2 (lines 0x7f, 0x80) and modifies 8 bytes
# across data pages 0x10 and 0x11 (lines 0x43f, 0x440), then loads page
# 0x11 (line 0x440) again: no more touches.  Then a rep stosb of two
# iterations at 0x3000 (lackey: an I line per iteration and one for the
# last test), storing to lines 0x800 and 0x801 of page 0x20, and an
# instruction storing to page 0x10 (line 0x400).
STRADDLES = ("I  00001ffe,4\n M 00010ffc,8\n L 00011000,4\n"
             "I  00003000,2\n S 00020000,1\n"
             "I  00003000,2\n S 00020040,1\n"
             "I  00003000,2\n"
             "I  00003002,2\n S 00010000,1\n")


def test_units_touched_once_per_instruction_straddles_both():
    res = _compute(STRADDLES)
    assert res.instructions == 3
    units = {key: (c.units, c.refs) for key, c in res.run.items()}
    assert units == {("insn", "page"): (3, 4), ("insn", "line"): (3, 4),
                     ("data", "page"): (3, 4), ("data", "line"): (5, 5)}
    d = res.run[("data", "page")]
    # |W(t,1)|: 2, 1, 1 = 4; |W(t,2)|: 2, 3, 2 = 7.  Page 0x10 again at
    # t = 3 after a gap of 2: a miss at tau = 1 only
    assert [d.s_sum(t) for t in (1, 2)] == [4, 7]
    assert [d.misses(t) for t in (1, 2)] == [4, 3]
    # references 0x10 0x11 0x20 0x10: the last at distance 3
    assert [d.mrc_misses(c) for c in (1, 2, 4)] == [4, 4, 3]


def test_rep_iterations_one_instruction_or_each():
    each = _compute(STRADDLES, count_rep="each")
    assert each.instructions == 5
    d = each.run[("data", "page")]
    # page 0x20 at t = 2 and 3 (two references), page 0x10 at t = 1, 5
    assert (d.units, d.refs) == (3, 5)
    assert d.misses(2) == 4 and d.misses(4) == 3
    with pytest.raises(ValueError):
        _compute(STRADDLES, count_rep="twice")


def test_regions_between_markers_are_runs_of_their_own():
    mark = "SYSCALL[7,1](110) sys_getppid ()[sync] --> Success(0x1)\n"
    trace = ("I  00001000,4\n S 00050000,8\n" + mark
             + "I  00001004,4\n S 00050000,8\n"
             "I  00002000,4\n S 00060000,8\n" + mark
             + "I  00001008,4\n" + mark + "I  0000100c,4\n" + mark)
    res = _compute(trace, marker="sys_getppid")
    assert res.instructions == 5
    assert len(res.regions) == 2
    first, second = res.regions
    d = first[("data", "page")]
    # t = 1, 2 of the region; page 0x50 is a first touch again there
    assert (d.k, d.units, d.misses(64)) == (2, 2, 2)
    assert [d.s_sum(1), d.s_sum(2)] == [2, 3]
    assert second[("insn", "page")].k == 1
    assert second[("data", "page")].units == 0
    assert res.records("region:1")[0] == \
        "curve region:1 data line tau 64 s 0.000 m 0.000"
    with pytest.raises(oracle.LackeyError):
        _compute(trace + mark, marker="sys_getppid")


def test_refuses_what_it_does_not_understand():
    with pytest.raises(oracle.LackeyError):
        _compute("I  00001000,4\nX something\n")
    with pytest.raises(oracle.LackeyError):
        _compute(" L 00001000,4\n")
    with pytest.raises(oracle.LackeyError):
        _compute("I  00001000,0\n")
    with pytest.raises(ValueError):
        _compute("I  00001000,4\n", pagesize=3000)
    c = _compute("I  00001000,4\n").run[("insn", "page")]
    with pytest.raises(ValueError):
        c.s(100)


def test_taus_and_sizes_reach_the_run():
    assert curve_oracle.taus(1) == [64]
    assert curve_oracle.taus(64) == [64]
    assert curve_oracle.taus(65) == [64, 128]
    assert curve_oracle.sizes(0) == [1]
    assert curve_oracle.sizes(5) == [1, 2, 4, 8]


# ----------------------------------------------------------------------
# Against the definitions, on random traces


def _brute(instants, k, tau):
    """(K * s(tau), misses(tau)) from the definitions: W(t, tau) as a set
    at every t."""
    total = misses = 0
    for t in range(1, k + 1):
        window = set()
        for u in range(max(1, t - tau + 1), t + 1):
            window.update(instants[u - 1])
        before = set()
        for u in range(max(1, t - tau), t):
            before.update(instants[u - 1])
        total += len(window)
        misses += len(set(instants[t - 1]) - before)
    return total, misses


def _brute_lru(instants, size):
    stack, refs, misses = [], 0, 0
    for units in instants:
        for u in dict.fromkeys(units):
            refs += 1
            if u in stack:
                if len(stack) - stack.index(u) > size:
                    misses += 1
                stack.remove(u)
            else:
                misses += 1
            stack.append(u)
    return refs, misses


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_the_definitions_on_random_traces(seed):
    """Random instructions and accesses, straddling ones included, on a
    few pages; units per instruction worked out here with plain integer
    arithmetic.  A tiny LRU capacity makes the oracle renumber its
    positions hundreds of times."""
    rnd = random.Random(seed)
    lines, units = [], {key: [] for key in curve_oracle.KEYS}
    previous = None
    for _ in range(rnd.randrange(50, 160)):
        # two equal I lines in a row would be one instruction
        while True:
            ia = rnd.choice((0x1000, 0x1ffc, 0x2040, 0x3000)) \
                + rnd.randrange(8)
            isz = rnd.randrange(1, 9)
            if "I  %08x,%d\n" % (ia, isz) != previous:
                break
        previous = "I  %08x,%d\n" % (ia, isz)
        lines.append(previous)
        per = {key: [] for key in units}
        for name, shift in (("page", 12), ("line", 6)):
            per[("insn", name)] += range(ia >> shift,
                                         ((ia + isz - 1) >> shift) + 1)
        for _ in range(rnd.choice((0, 0, 1, 1, 2, 3))):
            da = rnd.randrange(0x10000, 0x14000)
            dsz = rnd.choice((1, 4, 8, 64, 200))
            lines.append(" %s %08x,%d\n" % (rnd.choice("LSM"), da, dsz))
            for name, shift in (("page", 12), ("line", 6)):
                per[("data", name)] += range(da >> shift,
                                             ((da + dsz - 1) >> shift) + 1)
        for key in units:
            units[key].append(per[key])
    res = curve_oracle.compute(lines, lru_capacity=4)
    k = res.instructions
    assert k == len(units[("insn", "page")])
    for key, instants in units.items():
        c = res.run[key]
        for j in range(9):
            tau = 1 << j
            assert (c.s_sum(tau), c.misses(tau)) == \
                _brute(instants, k, tau), (key, tau)
        for j in range(7):
            assert (c.refs, c.mrc_misses(1 << j)) == \
                _brute_lru(instants, 1 << j), (key, 1 << j)


# ----------------------------------------------------------------------
# tests/progs/knees: knees where the source puts them

# (stride, units, period, rounds) of each phase; knees.c says what each
# phase's curves are
PAGES = (4096, 64, 4096, 30)        # 64 pages, one line each, P = 4096
LINES = (64, 1024, 8192, 12)        # 1024 lines on 16 pages, P = 8192


@pytest.fixture(scope="module")
def knees_trace(tmp_path_factory):
    """lackey's trace of knees with both phases, kept in a file so that
    the tests below read it with different algorithms."""
    argv = [wslib.prog("knees")] + ["%d:%d:%d:%d" % p for p in (PAGES, LINES)]
    wslib.require_built(argv[0])
    path = tmp_path_factory.mktemp("knees") / "trace"

    def save(f):
        with open(path, "w") as out:
            for line in f:
                out.write(line)

    oracle.stream(wslib.VG_IN_PLACE, argv, save, cwd=str(path.parent))
    with open(path) as f:
        res = curve_oracle.compute(f, marker="sys_getppid")
    return path, res


def _s_sum_of_schedule(schedule, k, tau):
    """K * s(tau) of units touched at the given times: a unit is in the
    window from each touch for tau instructions or until its next touch,
    and after its last until K."""
    total = 0
    for times in schedule:
        for t, nxt in zip(times, times[1:] + [k + 1]):
            total += min(nxt - t, tau)
    return total


def test_knees_phase_of_pages(knees_trace):
    _, res = knees_trace
    stride, n, p, rounds = PAGES
    region = res.regions[0]
    k = rounds * p + 2
    # unit i is stored to at t = r * P + 3 + 4 * i (knees.c)
    schedule = [[r * p + 3 + 4 * i for r in range(rounds)] for i in range(n)]
    for unit in ("page", "line"):        # one line on each page
        c = region[("data", unit)]
        assert (c.k, c.units, c.refs) == (k, n, n * rounds)
        for tau in curve_oracle.taus(k):
            # the step: every store misses below tau = P, none from there
            assert c.misses(tau) == (n * rounds if tau < p else n), tau
            assert c.s_sum(tau) == _s_sum_of_schedule(schedule, k, tau), tau
        # LRU: distance N = 64 for every store after the first round
        for size in curve_oracle.sizes(n):
            assert c.mrc_misses(size) == (n * rounds if size < n else n)
    assert region[("data", "page")].m(2048) == 1000 * n * rounds / k
    assert region[("data", "page")].m(4096) == 1000 * n / k
    # the code: one line, touched at every instruction of the phase
    for unit in ("page", "line"):
        c = region[("insn", unit)]
        assert (c.units, c.misses(64), c.s_sum(64)) == (1, 1, k)


def test_knees_phase_of_lines(knees_trace):
    _, res = knees_trace
    stride, n, p, rounds = LINES
    region = res.regions[1]
    k = rounds * p + 2
    lines = region[("data", "line")]
    assert (lines.k, lines.units) == (k, n)
    for tau in curve_oracle.taus(k):
        assert lines.misses(tau) == (n * rounds if tau < p else n), tau
    for size in curve_oracle.sizes(n):
        assert lines.mrc_misses(size) == (n * rounds if size < n else n)
    # pages: 64 lines each, touched 4 instructions apart within a round
    # and P - 252 = 7940 apart across rounds: the step lies between
    # tau = 4096 and 8192 (below P - 252 and above it), LRU distance 16
    pages = region[("data", "page")]
    per_page = n // 64
    schedule = [[r * p + 3 + 4 * i for r in range(rounds)
                 for i in range(64 * j, 64 * j + 64)] for j in range(per_page)]
    assert (pages.units, pages.refs) == (per_page, n * rounds)
    for tau in curve_oracle.taus(k):
        assert pages.misses(tau) == (per_page * rounds if tau < p - 252
                                     else per_page), tau
        assert pages.s_sum(tau) == _s_sum_of_schedule(schedule, k, tau)
    for size in curve_oracle.sizes(per_page):
        assert pages.mrc_misses(size) == (per_page * rounds
                                          if size < per_page else per_page)


def _instants(path, shift, kind):
    """The units each instruction touches, read from the trace with the
    rules of oracle.py (rep iterations collapsed), one list per
    instruction."""
    last_i = None
    current = None
    with open(path) as f:
        for line in f:
            if line.startswith("I"):
                if line == last_i:
                    continue
                last_i = line
                if current is not None:
                    yield current
                current = []
                text = line[3:] if kind == "insn" else None
            elif line.startswith((" L", " S", " M")) and kind == "data":
                text = line[3:]
            else:
                continue
            if text is not None:
                a, size = text.split(",")
                a, size = int(a, 16), int(size)
                current += range(a >> shift, ((a + size - 1) >> shift) + 1)
    if current is not None:
        yield current


def _sliding(path, shift, kind, tau):
    """(K * s(tau), misses(tau)) by a window of the last tau
    instructions' units, moved one instruction at a time."""
    counts = collections.Counter()
    window = collections.deque()
    total = misses = 0
    for units in _instants(path, shift, kind):
        units = set(units)
        misses += sum(1 for u in units if not counts[u])
        window.append(units)
        counts.update(units)
        if len(window) > tau:
            for u in window.popleft():
                counts[u] -= 1
                if not counts[u]:
                    del counts[u]
        total += len(counts)
    return total, misses


@pytest.mark.parametrize("kind", ["insn", "data"])
def test_whole_run_against_sliding_windows_and_a_list_lru(knees_trace, kind):
    """The whole run, start-up and exit included: the curves at two taus
    and the page LRU, by algorithms that share nothing with the
    oracle's."""
    path, res = knees_trace
    for unit, shift in (("page", 12), ("line", 6)):
        c = res.run[(kind, unit)]
        for tau in (64, 8192):
            assert (c.s_sum(tau), c.misses(tau)) == \
                _sliding(path, shift, kind, tau), (unit, tau)
    c = res.run[(kind, "page")]
    instants = list(_instants(path, 12, kind))
    for size in (1, 4, 16, 64):
        assert (c.refs, c.mrc_misses(size)) == _brute_lru(instants, size)
