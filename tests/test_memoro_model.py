"""tests/memoro_model.py, the reference for the Memoro paper's heap figures
(ws-interface.md sections 6, 9 and 13), on chunk lists made by hand: every
expected value below is worked out in the test from the chunks' facts, not
taken from the model."""

from fractions import Fraction

import pytest

import memoro_model as mm
from memoro_model import Chunk


def one(chunks, run_end, **kw):
    figs = mm.figures(chunks, run_end, **kw)
    assert len(figs) == 1
    return next(iter(figs.values()))


# ----------------------------------------------------------------------
# Usage and the Useless function, touched, interval, the means

def four_chunks():
    """Four chunks of 100 bytes, one after another (each freed when the
    next is allocated): read and written in 20 bytes at both ends; written
    whole and never read; read in one byte and never written; never
    touched."""
    return [
        Chunk("s", 0, 100, 100, set(range(10)) | set(range(90, 100)),
              reads=3, writes=2, first=10, last=20),
        Chunk("s", 100, 200, 100, range(100), writes=5, first=110,
              last=150),
        Chunk("s", 200, 300, 100, {50}, reads=1, first=250, last=250),
        Chunk("s", 300, 400, 100),
    ]


def test_usage_counts_only_chunks_both_read_and_written():
    f = one(four_chunks(), 1000)
    assert (f.chunks, f.bytes, f.never, f.read_only, f.write_only) == (
        4, 400, 1, 1, 1)
    # touched: 20 + 100 + 1; interval: 0..99, 0..99, 50..50
    assert (f.touched, f.interval) == (121, 201)
    # only the first chunk was both read and written: 20 of 400 bytes
    # (121 / 400 = 0.303 without the Useless function)
    assert f.usage == Fraction(20, 400)
    assert f.keys()["usage"] == "0.050"
    assert "usage-max" not in f.keys() and "below-resolution" not in f.keys()


def test_means_and_useful():
    f = one(four_chunks(), 1000)
    # lifetimes 100 each; first-delay (10 + 10 + 50) / 3 = 23.3; idle-tail
    # (80 + 50 + 50) / 3 = 60; useful (0.1 + 0.4 + 0 + 0) / 4
    assert (f.lifetime, f.first_delay, f.idle_tail) == (100, 23, 60)
    assert f.useful == Fraction(1, 8)
    assert f.keys()["useful"] == "0.125"


def test_peak_live_frees_first_at_one_instant():
    """Each chunk is freed at the instant the next is allocated (as
    realloc does): never two live at once."""
    assert one(four_chunks(), 1000).peak_live == 100
    overlapping = four_chunks()[:2]
    overlapping[0] = Chunk("s", 0, 101, 100)
    assert one(overlapping, 1000).peak_live == 200


def test_score_is_the_geometric_mean():
    """Four chunks 100 apart, a threshold of 1 (0.1 % of 1000): four
    groups of one chunk, each scoring its lifetime over itself, 1; score
    (1 x 1/20 x 1/8)^(1/3) = 0.18420."""
    f = one(four_chunks(), 1000)
    assert f.lifetime_score == 1 and f.growth == 0
    assert f.keys()["score"] == "0.184"


def test_live_at_exit_ends_at_the_run_end():
    c = Chunk("s", 100, None, 10, range(10), reads=1, writes=1, first=100,
              last=150)
    f = one([c], 300)
    # lifetime 200, idle-tail 150, useful 50 / 200
    assert (f.lifetime, f.idle_tail, f.exit_live) == (200, 150, 1)
    assert f.useful == Fraction(1, 4)


def test_a_site_of_empty_chunks_wastes_nothing():
    f = one([Chunk("z", 0, 10, 0), Chunk("z", 20, 30, 0)], 100)
    assert (f.bytes, f.usage, f.never) == (0, 1, 2)
    # but its chunks were never accessed: useful 0, and so score 0
    assert (f.useful, f.score_milli) == (0, 0)


# ----------------------------------------------------------------------
# The lifetime score

def grouped():
    """Allocations at 0, 10, 20 and 31: at a threshold of 10, the first
    three make a group (10 apart, the threshold itself), the fourth one
    of its own (11 after the third)."""
    return [Chunk("g", 0, 20, 8), Chunk("g", 10, 15, 8),
            Chunk("g", 20, 40, 8), Chunk("g", 31, 81, 8)]


def test_lifetime_score_groups_at_the_threshold():
    # run of 10000: threshold 10.  Group 1: lifetimes 20, 5, 20 (mean 15)
    # over a span of 0..40: 3/8; group 2: 50 / 50 = 1; mean 11/16 =
    # 0.6875, written 0.688
    f = one(grouped(), 10000)
    assert f.lifetime_score == Fraction(11, 16)
    assert f.keys()["lifetime-score"] == "0.688"


def test_lifetime_score_threshold_is_a_fraction_of_the_run():
    # threshold 1 % of 10000 = 100: one group; lifetimes 20 + 5 + 20 + 50
    # = 95, mean 95/4, over 0..81
    f = one(grouped(), 10000, threshold=Fraction(1, 100))
    assert f.lifetime_score == Fraction(95, 4 * 81)
    # run of 9999: threshold 9.999, below every gap (10, 10, 11): four
    # groups of one chunk, each scoring its lifetime over itself
    assert one(grouped(), 9999).lifetime_score == 1


def test_lifetime_score_of_a_group_with_no_span():
    f = one([Chunk("z", 5, 5, 8), Chunk("z", 5, 5, 8)], 1000)
    assert f.lifetime_score == 1


def test_growth_counts_runs_of_three_growing_sizes():
    def growth(sizes):
        return one([Chunk("v", t, t + 1, s) for t, s in enumerate(sizes)],
                   100).growth
    # [1 2 3] [1 2] [1 2 3 4] [4 5 6]: three runs of three or more
    assert growth([1, 2, 3, 1, 2, 1, 2, 3, 4, 4, 5, 6]) == 3
    assert growth([1, 2]) == 0
    assert growth([3, 2, 1]) == 0
    assert growth([1, 1, 2]) == 0         # equal sizes do not grow
    assert growth([8 * 2 ** k for k in range(15)]) == 1


# ----------------------------------------------------------------------
# Rounding

def test_fractions_round_half_up():
    assert mm.text3(mm.milli(Fraction(1373, 2000))) == "0.687"   # 0.6865
    assert mm.text3(mm.milli(Fraction(1371, 2000))) == "0.686"   # 0.6855
    assert mm.text3(mm.milli(1)) == "1.000"
    assert mm.half_up(Fraction(47, 2)) == 24
    assert mm.half_up(Fraction(7, 3)) == 2


def test_roots_round_half_up_exactly():
    assert mm.root_milli(Fraction(1, 8), 3) == 500
    exact = Fraction(1373, 2000) ** 3            # root exactly 0.6865
    assert mm.root_milli(exact, 3) == 687
    assert mm.root_milli(exact - Fraction(1, 10 ** 30), 3) == 686
    assert mm.root_milli(Fraction(0), 3) == 0
    assert mm.root_milli(Fraction(1), 5) == 1000


# ----------------------------------------------------------------------
# Over the sites: heap-scores, marks, ranking

def test_heap_scores_are_geometric_means_over_sites():
    a = Chunk("a", 0, 100, 8, range(8), reads=1, writes=1, first=0,
              last=50)                    # usage 1, useful 1/2
    b = Chunk("b", 200, 300, 8, {0, 1}, reads=1, writes=1, first=200,
              last=300)                   # usage 1/4, useful 1
    figs = mm.figures([a, b], 1000)
    # lifetime (1 x 1)^(1/2); usage (1 x 1/4)^(1/2) = 0.5; useful
    # (1/2 x 1)^(1/2) = 0.70711
    assert mm.heap_scores_line(figs) == \
        "heap-scores lifetime 1.000 usage 0.500 useful 0.707"
    # the paper's global score is 0 as soon as one site scores 0
    c = Chunk("c", 400, 500, 8)
    figs = mm.figures([a, b, c], 1000)
    assert mm.heap_scores(figs)["useful"] == 0
    with pytest.raises(mm.ModelError):
        mm.heap_scores({})


def sites_of(values):
    """One site per value v: v one-byte chunks, all live at once (peak-live
    v, chunks v)."""
    chunks = []
    t = 0
    for i, v in enumerate(values):
        for _ in range(v):
            chunks.append(Chunk(i, t, 10 ** 6, 1))
            t += 1
    return mm.figures(chunks, 10 ** 6)


def test_top_percentile_marks():
    # ten sites of 1..10: floor(0.9 x 10) = 9, the value at position 9
    # (from 0, ascending) is 10: only the largest
    marks = mm.top_marks(sites_of(range(1, 11)))
    assert {s for s, m in marks.items() if m} == {9}
    assert marks[9] == {"peak-live", "chunks"}
    # twenty: positions 18 and 19
    marks = mm.top_marks(sites_of(range(1, 21)))
    assert {s for s, m in marks.items() if m} == {18, 19}
    # equal values are marked alike
    marks = mm.top_marks(sites_of([3, 3, 3, 3, 3]))
    assert all(m == {"peak-live", "chunks"} for m in marks.values())


def test_top_marks_need_a_value():
    figs = mm.figures([Chunk("z", 0, 10, 0)], 100)       # peak-live 0
    assert mm.top_marks(figs) == {"z": {"chunks"}}


def test_ranking_by_bytes_times_one_minus_score():
    # a: 1000 bytes, usage 1/2, useful 1, lifetime 1: score 0.79370
    # (0.5^(1/3)): (1000 - 794) x 1000 = 206000; b: 100 bytes never
    # touched, score 0: 1000 x 100 = 100000; c: as b, allocated later
    a = Chunk("a", 0, 100, 1000, range(500), reads=1, writes=1, first=0,
              last=100)
    b = Chunk("b", 10, 20, 100)
    c = Chunk("c", 30, 40, 100)
    figs = mm.figures([a, b, c], 1000)
    assert figs["a"].score_milli == 794
    assert mm.ranked(figs) == ["a", "b", "c"]


# ----------------------------------------------------------------------
# Resolution

def test_accessed_bytes_on_lines():
    # bytes at addresses 48..147: 16 on line 0, 64 on line 1, 20 on line 2
    assert mm.on_lines(48, 100, {0, 2}) == frozenset(range(16)) | \
        frozenset(range(80, 100))
    assert len(mm.on_lines(48, 100, {1})) == 64


def test_below_resolution_makes_usage_a_bound():
    chunks = [Chunk("s", 0, 10, 32, range(32), reads=1, writes=1, first=1,
                    last=2, below=True),
              Chunk("s", 20, 30, 64, range(64), reads=1, first=21,
                    last=22)]
    keys = one(chunks, 100).keys()
    assert keys["below-resolution"] == 1
    assert keys["usage-max"] == "0.333"          # 32 of 96
    assert "usage" not in keys


# ----------------------------------------------------------------------
# Chunk records

def test_records_are_spread_over_the_allocations():
    chunks = [Chunk("s", t, t + 1, 8) for t in range(10)]
    assert [c.alloc for c in mm.records(chunks, 4)] == [0, 4, 8]
    assert [c.alloc for c in mm.records(chunks, 5)] == [0, 2, 4, 6, 8]
    assert len(mm.records(chunks, 10)) == 10
    with pytest.raises(mm.ModelError):
        mm.records(chunks, 0)


def test_chunk_line():
    c = Chunk("s", 5, None, 16, {2, 10}, writes=1, first=7, last=9)
    assert mm.chunk_line(3, c) == \
        "heap-chunk 3 alloc 5 free - size 16 first 7 last 9 lo 2 hi 10"
    assert mm.chunk_line(1, Chunk("s", 0, 4, 0)) == \
        "heap-chunk 1 alloc 0 free 4 size 0 first - last - lo - hi -"


# ----------------------------------------------------------------------
# Facts no run produces

@pytest.mark.parametrize("kw,why", [
    (dict(accessed={16}, writes=1, first=1, last=1), "outside the chunk"),
    (dict(free=-1), "after its allocation"),
    (dict(reads=1, first=1, last=1), "accessed bytes"),
    (dict(accessed={0}, reads=1), "first and last"),
    (dict(accessed={0}, reads=1, first=3, last=2), "the first before"),
    (dict(accessed={0}, reads=1, first=1, last=20), "after the free"),
])
def test_impossible_facts_are_refused(kw, why):
    args = dict(site="s", alloc=0, free=10, size=16)
    args.update(kw)
    with pytest.raises(mm.ModelError) as e:
        Chunk(**args)
    assert why in str(e.value)


def test_a_run_ends_after_its_events():
    with pytest.raises(mm.ModelError):
        mm.figures([Chunk("s", 0, 50, 8)], 40)


# ----------------------------------------------------------------------
# The cases of tests/progs/heap_*.c, in miniature: the paper's answers

def test_case_oversized_buffers():
    """heap_oversized: 256-byte chunks of which 16 bytes are written (two
    8-byte stores) and none read."""
    n = 1000
    chunks = [Chunk("o", i, 10 ** 6, 256, range(16), writes=2, first=i,
                    last=i) for i in range(n)]
    f = one(chunks, 10 ** 6)
    assert (f.write_only, f.touched, f.interval) == (n, 16 * n, 16 * n)
    keys = f.keys()
    assert (keys["usage"], keys["score"]) == ("0.000", "0.000")


def test_case_churn():
    """heap_churn: 1000 chunks, each living 13 instructions, one every 150,
    in a run of 20 million: one group (150 <= 20000), scoring 13 over
    999 x 150 + 13; useful 11/13; score (13 / 149863 x 11/13)^(1/3) =
    0.04185.  In a run of 149999 instructions the threshold is just below
    150: a group per chunk, each scoring 1."""
    chunks = [Chunk("c", 150 * i, 150 * i + 13, 32, range(32), reads=4,
                    writes=4, first=150 * i + 1, last=150 * i + 12)
              for i in range(1000)]
    f = one(chunks, 20 * 10 ** 6)
    assert f.lifetime_score == Fraction(13, 999 * 150 + 13)
    assert (f.keys()["lifetime-score"], f.keys()["usage"],
            f.keys()["score"]) == ("0.000", "1.000", "0.042")
    assert one(chunks, 149999).lifetime_score == 1


def test_case_regrown_buffer():
    """heap_regrow's site_long: realloc from 4 KiB to 256 KiB, each chunk
    freed when the next is allocated; the first six written in their new
    part only, the last written in its new half and read whole."""
    chunks = []
    old = 0
    for k in range(7):
        size = 4096 << k
        last = k == 6
        chunks.append(Chunk("r", 10 * k, 10 * k + 10, size,
                            range(0 if last else old, size),
                            reads=1 if last else 0, writes=1,
                            first=10 * k, last=10 * k + 5))
        old = size
    f = one(chunks, 1000)
    assert (f.chunks, f.bytes, f.peak_live, f.growth) == (
        7, 520192, 262144, 1)
    assert (f.write_only, f.touched, f.interval) == (6, 393216, 393216)
    assert f.keys()["usage"] == "0.504"          # 262144 / 520192
