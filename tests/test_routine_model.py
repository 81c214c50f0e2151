"""The reference model of the per-routine footprint (routine_model.py) on
the aprof-trms paper's own examples (Figures 1a, 1b, 2 and 3, Section 3's
activations of cost i, Invariant 2), then its three computations (the
definitions, the paper's algorithm, ws's data structures with stamps
renumbered at 8 bits) against each other on random traces, then the
per-routine records: size buckets, ws's logarithm, the fit and its
ranking.  These need no run of ws; they pin down the answers ws's
--ws-routines=yes must give."""

import math
import random

import pytest

import routine_model as rm

COMPUTATIONS = [rm.by_definition, rm.paper, rm.ws_algorithm,
                lambda ev: rm.ws_algorithm(ev, stamp_bits=8), rm.ws_compact,
                lambda ev: rm.ws_compact(ev, stamp_bits=8)]
IDS = ["definition", "paper", "ws", "ws-8-bits", "compact", "compact-8-bits"]


def closed(events, how):
    """Activations by routine name (each name used once in these cases)."""
    out = {}
    for a in how(events):
        assert a.routine not in out
        out[a.routine] = a
    return out


def figures(a):
    return (a.rms, a.trms, a.thread_induced, a.syscall_induced)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_figure_1a(how):
    """f in T1 reads x twice; g in T2 writes x in between: RMS_f = 1,
    TRMS_f = 2 (Example 1), the second read induced by a thread."""
    acts = closed(rm.parse_events("""
        call 1 f
        read 1 100
        call 2 g
        write 2 100
        ret 2
        read 1 100
        ret 1
    """), how)
    assert figures(acts["f"]) == (1, 2, 1, 0)
    assert figures(acts["g"]) == (0, 0, 0, 0)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_figure_1b(how):
    """f reads x, T2 writes x, f's subroutine h reads x, f reads x again:
    RMS_h = RMS_f = 1, TRMS_f = 2, TRMS_h = 1 (Example 2); h's read is
    induced for both, f's third read for neither."""
    acts = closed(rm.parse_events("""
        call 1 f
        read 1 100
        call 2 g
        write 2 100
        ret 2
        call 1 h
        read 1 100
        ret 1
        read 1 100
        ret 1
    """), how)
    assert figures(acts["h"]) == (1, 1, 1, 0)
    assert figures(acts["f"]) == (1, 2, 1, 0)


def producer_consumer(n):
    """Figure 2 with the semaphores' accesses left out, as the paper
    does: the producer writes x, the consumer's consumeData reads it, n
    times."""
    ev = [("call", 1, "consumer"), ("call", 2, "producer")]
    for _ in range(n):
        ev += [("call", 2, "produceData"), ("write", 2, 100), ("ret", 2),
               ("call", 1, "consumeData"), ("read", 1, 100), ("ret", 1)]
    return ev + [("ret", 1), ("ret", 2)]


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
@pytest.mark.parametrize("n", [1, 2, 7, 100])
def test_figure_2_producer_consumer(how, n):
    """RMS_consumer = 1 while TRMS_consumer = n, every read induced by the
    producer's thread; each consumeData reads one value."""
    acts = how(producer_consumer(n))
    consumer = [a for a in acts if a.routine == "consumer"]
    assert [figures(a) for a in consumer] == [(1, n, n, 0)]
    each = [figures(a) for a in acts if a.routine == "consumeData"]
    assert each == [(1, 1, 1, 0)] * n
    producer = [a for a in acts if a.routine == "producer"][0]
    assert figures(producer) == (0, 0, 0, 0)


def external_read(n):
    """Figure 3: b is two lines, the kernel loads both, consumeData reads
    b[0], n times."""
    ev = [("call", 1, "externalRead")]
    for _ in range(n):
        ev += [("kwrite", 200), ("kwrite", 201),
               ("call", 1, "consumeData"), ("read", 1, 200), ("ret", 1)]
    return ev + [("ret", 1)]


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
@pytest.mark.parametrize("n", [1, 3, 50])
def test_figure_3_external_read(how, n):
    """RMS_externalRead = 1, TRMS_externalRead = n: the loads themselves
    are not reads, only the n reads of b[0] are input, syscall-induced."""
    acts = how(external_read(n))
    outer = [a for a in acts if a.routine == "externalRead"]
    assert [figures(a) for a in outer] == [(1, n, 0, n)]


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_section_3_activations_of_cost_i(how):
    """Section 3: activation r_i costs i and makes i reads, ceil(i/2)
    first accesses and floor(i/2) induced: TRMS = i, RMS = ceil(i/2).
    Against trms the worst-case cost grows as x (exponent 1, exact);
    against rms it would seem to grow as 2x."""
    ev, line = [], 0
    n = 40
    for i in range(1, n + 1):
        ev.append(("call", 1, "r"))
        mine = []
        for k in range(i):
            if k % 2 == 0:
                line += 1
                mine.append(line)
                ev.append(("read", 1, line))
            else:
                ev += [("write", 2, mine[-1]), ("read", 1, mine[-1])]
        ev += [("insns", 1, i), ("ret", 1)]
    acts = how(ev)
    assert [(a.trms, a.rms, a.cost) for a in acts] == \
        [(i, (i + 1) // 2, i) for i in range(1, n + 1)]
    r = rm.summarize(acts)["r"]
    exponent, r2 = r.fit()
    assert exponent == pytest.approx(1.0, abs=1e-12)
    assert r2 == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_invariant_2_partial_sums(how):
    """A line the caller read is not input for it again when its callee
    reads it, but is the callee's; lines first written are no input."""
    acts = closed(rm.parse_events("""
        call 1 f
        read 1 1      # f's input
        write 1 2     # f's own value
        call 1 h
        read 1 1      # h's input, f's already
        read 1 2      # h's input (f wrote it before h began), not f's
        read 1 3      # input of both
        write 1 4
        read 1 4      # h wrote it first: no one's input
        ret 1
        read 1 4      # f's descendant wrote it first
        ret 1
    """), how)
    assert figures(acts["h"]) == (3, 3, 0, 0)
    assert figures(acts["f"]) == (2, 2, 0, 0)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
@pytest.mark.parametrize("depth", [1, 2, 5, 30])
def test_recursion_counts_input_once(how, depth):
    """Every level of a recursion reads the same 4 lines, before and
    after its recursive call: each activation's input is 4 lines, and its
    cost its own 10 instructions plus its callees'.  The routine's total
    cost is the outermost activation's (the others are inside it); every
    activation has its row."""
    ev = []
    for d in range(depth):
        ev += [("call", 1, "rec")] + [("read", 1, x) for x in range(4)]
        ev.append(("insns", 1, 5))
    for d in range(depth):
        ev += [("read", 1, x) for x in range(4)]
        ev += [("insns", 1, 5), ("ret", 1)]
    acts = how(ev)
    assert [(a.depth, a.nested, a.rms, a.trms, a.cost) for a in acts] == \
        [(depth - k, k < depth - 1, 4, 4, 10 * (k + 1))
         for k in range(depth)]
    rec = rm.summarize(acts)["rec"]
    assert (rec.calls, rec.cost) == (depth, 10 * depth)
    assert [(s, r.count) for s, r in rec.rows.items()] == [(4, depth)]


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_induced_classification(how):
    """Which counted reads are induced (the paper's line 2 of Figure 11):
    only when the reading thread has not touched the line since another
    writer's latest write.  f reads after T2's write (induced), then its
    callee h reads: for h that is a first access, counted as plain input;
    the kernel's write then makes h's next read syscall-induced."""
    acts = closed(rm.parse_events("""
        call 2 g
        write 2 9
        ret 2
        call 1 f
        read 1 9
        call 1 h
        read 1 9
        kwrite 9
        read 1 9
        ret 1
        ret 1
    """), how)
    assert figures(acts["h"]) == (1, 2, 0, 1)
    assert figures(acts["f"]) == (1, 2, 1, 1)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_kernel_reads_are_the_threads(how):
    """A system call's reads (write()'s buffer) are reads by the calling
    thread's top activation; a thread's own store is not induced input
    for it, another thread's is."""
    acts = closed(rm.parse_events("""
        call 1 f
        write 1 5
        kread 1 5     # f wrote it first
        kread 1 6     # input
        call 2 g
        write 2 6
        ret 2
        kread 1 6     # induced by T2
        ret 1
    """), how)
    assert figures(acts["f"]) == (1, 2, 1, 0)


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_cost_is_inclusive_and_per_thread(how):
    acts = closed(rm.parse_events("""
        call 1 f
        insns 1 3
        call 2 other
        insns 2 100
        call 1 g
        insns 1 7
        ret 1
        insns 2 1
        insns 1 2
        ret 1
        ret 2
    """), how)
    assert acts["g"].cost == 7
    assert acts["f"].cost == 12
    assert acts["other"].cost == 101


@pytest.mark.parametrize("how", COMPUTATIONS, ids=IDS)
def test_exit_and_end_close_pending(how):
    """A thread's exit closes its activations, deepest first; so does the
    end of the events, thread by thread in order of appearance."""
    acts = how(rm.parse_events("""
        call 1 a
        call 2 b
        call 1 c
        call 2 d
        read 2 1
        exit 2
        read 1 1
    """))
    assert [(a.tid, a.routine, a.trms) for a in acts] == \
        [(2, "d", 1), (2, "b", 1), (1, "c", 1), (1, "a", 1)]


def test_events_parse_and_refuse():
    assert rm.parse_events("call 3 main  # comment\nkwrite 0x40\n") == \
        [("call", 3, "main"), ("kwrite", 64)]
    for bad in ["jump 1 2", "read 1", "ret", "insns 1 two"]:
        with pytest.raises(ValueError):
            rm.parse_events(bad)
    with pytest.raises(ValueError):
        rm.ws_algorithm(rm.parse_events("exit 1\nread 1 1"))


# ---------------------------------------------------------------------------
# The three computations against each other
# ---------------------------------------------------------------------------
def random_events(seed, n=400, threads=3, lines=6, depth=5):
    """Threads calling, returning (sometimes several frames at once, as a
    longjmp), reading and writing a few shared lines, the kernel reading
    and writing them, threads ending."""
    r = random.Random(seed)
    ev = []
    depths = {t: 0 for t in range(1, threads + 1)}
    alive = set(depths)
    for _ in range(n):
        t = r.choice(sorted(alive))
        x = r.random()
        if x < 0.15 and depths[t] < depth:
            ev.append(("call", t, r.choice("fgh")))
            depths[t] += 1
        elif x < 0.27 and depths[t] > 0:
            k = 1 if r.random() < 0.8 else r.randint(1, depths[t])
            ev += [("ret", t)] * k
            depths[t] -= k
        elif x < 0.55:
            ev.append(("read", t, r.randrange(lines)))
        elif x < 0.72:
            ev.append(("write", t, r.randrange(lines)))
        elif x < 0.78:
            ev.append(("kwrite", r.randrange(lines)))
        elif x < 0.82:
            ev.append(("kread", t, r.randrange(lines)))
        elif x < 0.995 or len(alive) == 1:
            ev.append(("insns", t, r.randint(1, 9)))
        else:
            ev.append(("exit", t))
            alive.discard(t)
    return ev


def test_computations_agree_on_random_traces():
    """400 traces: the definitions, the paper's algorithm and ws's data
    structures (both layouts) give the same activations, also with 8-bit
    stamps (which renumber every few dozen events: counted, so that the
    renumbering is known to have run)."""
    renumberings = 0
    fast = 0
    for seed in range(400):
        ev = random_events(seed)
        want = [a.key() for a in rm.by_definition(ev)]
        assert [a.key() for a in rm.paper(ev)] == want, seed
        assert [a.key() for a in rm.ws_algorithm(ev)] == want, seed
        for model in (rm.WsModel, rm.WsCompact):
            assert [a.key() for a in model().run(ev)] == want, seed
            small = model(stamp_bits=8)
            assert [a.key() for a in small.run(ev)] == want, seed
            renumberings += small.renumberings
            fast += small.fast
    assert renumberings > 800
    assert fast > 2000


def test_fast_path_is_taken_where_nothing_can_count():
    """One thread reading 10 lines 100 times in one activation: the slow
    path once per line, every other access inline."""
    ev = [("call", 1, "f")]
    for _ in range(100):
        ev += [("read", 1, x) for x in range(10)]
    for model in (rm.WsModel, rm.WsCompact):
        w = model()
        acts = w.run(ev + [("ret", 1)])
        assert (acts[0].rms, acts[0].trms) == (10, 10)
        assert (w.slow, w.fast) == (10, 990)


# ---------------------------------------------------------------------------
# The per-routine records
# ---------------------------------------------------------------------------
def test_size_keys():
    assert [rm.size_key(s) for s in (0, 1, 255)] == [0, 1, 255]
    assert [rm.size_key(s) for s in (256, 271, 272, 511, 512, 543, 544)] \
        == [256, 256, 272, 496, 512, 512, 544]
    assert rm.size_key(1000) == 992
    assert rm.size_key(2 ** 40 + 12345) == 2 ** 40
    for s in range(256, 100000, 37):
        k = rm.size_key(s)
        assert k <= s < k + max(1, k // 16)
    # at most 16 rows per power of two above the exact sizes
    assert len({rm.size_key(s) for s in range(256, 1 << 20)}) == 12 * 16


def test_ln_without_libm():
    for x in list(range(1, 5000)) + [2 ** 40 + 3, 10 ** 15, 2 ** 62 - 1]:
        assert rm.ln(x) == pytest.approx(math.log(x), rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("power", [0.5, 1, 2, 3])
def test_fit_of_exact_powers(power):
    points = [(x, round(5 * x ** power)) for x in (16, 64, 256, 1024, 4096)]
    exponent, r2 = rm.fit(points)
    assert exponent == pytest.approx(power, abs=2e-3)
    assert r2 > 0.9999


def test_fit_needs_three_sizes_of_at_least_one():
    assert rm.fit([(0, 9), (1, 5), (2, 10)]) is None
    assert rm.fit([(1, 5), (2, 10), (4, 0)]) is None
    assert rm.fit([(3, 7), (5, 7), (9, 7)]) == (0.0, 1.0)
    exponent, r2 = rm.fit([(1, 1), (2, 10), (3, 2), (4, 20)])
    assert 0 < r2 < 1


def test_records():
    """Rows per size (trms), mean rounded halves up, the induced parts
    summed over activations, '-' for a routine with no fit."""
    acts = []
    for cost, trms, induced in [(10, 3, 1), (11, 3, 0), (40, 12, 2),
                                (90, 27, 0), (300, 300, 0), (310, 290, 0)]:
        a = rm.Activation(1, "f", 1, len(acts))
        a.cost, a.trms, a.rms, a.thread_induced = cost, trms, trms, induced
        acts.append(a)
    g = rm.Activation(1, "g", 1, 99)
    g.cost, g.trms, g.rms, g.syscall_induced = 5, 2, 1, 1
    lines = rm.records(rm.summarize(acts + [g]))
    f_exp, f_r2 = rm.summarize(acts)["f"].fit()
    assert lines == [
        "routine 1 1 calls 6 cost 761 rms-max 300 trms-max 300 "
        "thread-induced 3 syscall-induced 0 exponent %.3f r2 %.3f"
        % (f_exp, f_r2),
        "routine-size 1 3 count 2 min 10 mean 11 max 11",
        "routine-size 1 12 count 1 min 40 mean 40 max 40",
        "routine-size 1 27 count 1 min 90 mean 90 max 90",
        "routine-size 1 288 count 2 min 300 mean 305 max 310",
        "routine 2 2 calls 1 cost 5 rms-max 1 trms-max 2 thread-induced 0 "
        "syscall-induced 1 exponent - r2 -",
        "routine-size 2 2 count 1 min 5 mean 5 max 5",
    ]


def test_rank_by_weighted_growth_then_cost():
    def routine(name, power, scale, sizes=(10, 100, 1000)):
        acts = []
        for s in sizes:
            a = rm.Activation(1, name, 1, 0)
            a.trms, a.cost = s, int(scale * s ** power)
            acts.append(a)
        return acts
    scattered = []
    for s, c in ((10, 1000), (20, 900000), (40, 100), (80, 800000),
                 (160, 950000)):
        a = rm.Activation(1, "scattered", 1, 0)
        a.trms, a.cost = s, c
        scattered.append(a)
    acts = (routine("linear", 1, 50) + routine("quadratic", 2, 1)
            + routine("cubic_small", 3, 1e-3) + routine("linear_big", 1, 900)
            + routine("cubic_tiny", 3, 1e-3, sizes=(10, 20, 40, 80))
            + routine("two_sizes", 2, 1, sizes=(10, 20))
            + routine("narrow", 5, 1e-3, sizes=(30, 35, 40)) + scattered)
    order = [r.name for r in rm.rank(rm.summarize(acts))]
    # costs: scattered 2,651,100 (the costliest; its exponent 1.96 has r2
    # 0.24: not called out), quadratic 1,010,100, cubic_small 1,001,001,
    # linear_big 999,000, linear 55,500, cubic_tiny 585 (under 1 % of the
    # costliest: not called out, though its exponent is 3 over sizes
    # that span 8); weights exponent x share: cubic_small 3 x 0.378,
    # quadratic 2 x 0.381, linear_big 1 x 0.377, linear 1 x 0.021.
    # narrow's exponent 5 is over sizes that span less than 4: it
    # follows by its cost, 179,221, among those not called out
    assert order == ["cubic_small", "quadratic", "linear_big", "linear",
                     "scattered", "narrow", "cubic_tiny", "two_sizes"]
