"""The programs of the per-routine footprint (tests/progs/rt_*.c, rtprog.h)
say in their sources what each routine's activations cost and read.  Here
those answers are checked before ws computes any: the programs run
natively and under --tool=none and check themselves; the one-threaded
ones run under lackey, and the reference model (routine_model.py), fed
with every instruction and access of the trace (routine_trace.py), must
give exactly the answers of the sources, activation by activation.

rt_prodcons (two threads: lackey's trace does not say which thread ran an
instruction) and rt_exc (the unwinder's code is libgcc's) are only run
here; their answers are argued in their sources."""

import random
import subprocess

import pytest

import routine_model as rm
import routine_trace
import wslib


def native(argv):
    wslib.require_built(argv[0])
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=120)
    return p.returncode, p.stdout.decode()


def said(stdout):
    """What a program printed, without its "rt" announcements."""
    return [x for x in stdout.splitlines() if not x.startswith("rt ")]


RUNS = [
    (["rt_growth", "lines", "1", "2", "3", "100"],
     ["lines 1 1", "lines 2 2", "lines 3 3", "lines 100 100"]),
    (["rt_growth", "quad", "1", "5", "30"],
     ["quad 1 1", "quad 5 25", "quad 30 900"]),
    (["rt_recur", "3", "5"], ["rec 3 5 36"]),
    (["rt_sysin", "4", "3"], ["sysin 4 3"]),
    (["rt_prodcons", "8", "50"], ["prodcons 8 50"]),
    (["rt_longjmp", "4"], ["longjmp 4 64"]),
    (["rt_exc", "4"], ["exc 4 thrown 4 destroyed 4"]),
]


@pytest.mark.parametrize("argv,want", RUNS, ids=[" ".join(r[0]) for r in RUNS])
def test_programs_check_themselves(argv, want):
    argv = [wslib.prog(argv[0])] + argv[1:]
    status, out = native(argv)
    assert (status, said(out)) == (0, want)
    status, out = wslib.none_run(argv)
    assert (status, said(out)) == (0, want)


@pytest.mark.parametrize("argv", [["rt_growth", "plus", "1"],
                                  ["rt_growth", "lines", "0"],
                                  ["rt_recur", "0", "1"],
                                  ["rt_sysin", "1", "x"],
                                  ["rt_prodcons", "1"],
                                  ["rt_longjmp"], ["rt_exc", "-1"]])
def test_bad_arguments(argv):
    status, _ = native([wslib.prog(argv[0])] + argv[1:])
    assert status == 2


def test_sysin_refuses_a_short_file(tmp_path):
    short = tmp_path / "short"
    short.write_bytes(b"x" * 100)
    status, _ = native([wslib.prog("rt_sysin"), "2", "1", str(short)])
    assert status == 3


def traced(tmp_path, argv, leave=()):
    """The model's activations for argv's announced routines (but those
    in |leave|), from its lackey trace, by the definitions and by both of
    ws's layouts."""
    wslib.require_built(wslib.prog(argv[0]))
    evs, stdout = routine_trace.run(
        wslib.VG_IN_PLACE, [wslib.prog(argv[0])] + argv[1:], tmp_path,
        leave)
    assert said(stdout)
    acts = rm.by_definition(evs)
    for computed in (rm.ws_algorithm(evs), rm.ws_compact(evs)):
        assert [a.key() for a in computed] == [a.key() for a in acts]
    return acts


def figures(a):
    return (a.cost, a.rms, a.trms, a.thread_induced, a.syscall_induced)


def test_sum_lines_is_linear(tmp_path):
    sizes = [1, 2, 3, 8, 100, 300, 1000]
    acts = traced(tmp_path, ["rt_growth", "lines"] + [str(n) for n in sizes])
    assert [figures(a) for a in acts] == \
        [(4 * n + 2, n, n, 0, 0) for n in sizes]
    exponent, r2 = rm.summarize(acts)["rt_sum_lines"].fit()
    # 4n + 2 against n (the rows of 300 and 1000 are those of their
    # buckets, 288 and 992): a little below 1, and a little off a
    # straight line, from the constant
    assert 0.9 < exponent < 1.0
    assert r2 > 0.998


def test_quad_is_quadratic(tmp_path):
    sizes = [4, 8, 16, 32, 64, 128]
    acts = traced(tmp_path, ["rt_growth", "quad"] + [str(n) for n in sizes])
    assert [figures(a) for a in acts] == \
        [(4 * n * n + 4 * n + 3, n, n, 0, 0) for n in sizes]
    exponent, r2 = rm.summarize(acts)["rt_quad"].fit()
    # 4n^2 + 4n + 3 against n: its slope on a log-log plot is
    # (8n^2 + 4n) / (4n^2 + 4n + 3), 1.73 at n = 4 and 1.992 at 128
    assert 1.9 < exponent < 2.0
    assert r2 > 0.999


@pytest.mark.parametrize("k,d", [(1, 0), (3, 5), (20, 12)])
def test_recursion_counts_its_lines_once(tmp_path, k, d):
    acts = traced(tmp_path, ["rt_recur", str(k), str(d)])
    # innermost first: the activation with e levels below it closes
    # e-th
    assert [(a.depth, figures(a)) for a in acts] == \
        [(d + 1 - e, (e * (8 * k + 10) + 8 * k + 7, k, k, 0, 0))
         for e in range(d + 1)]


def test_syscall_refilled_buffer(tmp_path):
    b, r = 5, 7
    acts = traced(tmp_path, ["rt_sysin", str(b), str(r)])
    assert [figures(a) for a in acts] == \
        [(r * (4 * b + 9) + 3, b, r * b, 0, r * b)]


def test_longjmp_out_of_nested_calls(tmp_path):
    """The own jump's routines, and rt_lj_after after each landing (the
    glibc half is left out: the bridge knows only rt_setjmp's landing)."""
    n = 3
    acts = traced(tmp_path, ["rt_longjmp", str(n)],
                  leave=("rt_gl_a", "rt_gl_b", "rt_gl_c"))
    by = {}
    for a in acts:
        by.setdefault(a.routine, []).append((a.depth, figures(a)))
    assert by["rt_longjmp"] == [(4, (3, 1, 1, 0, 0))] * n
    assert by["rt_lj_c"] == [(3, (7, 4, 4, 0, 0))] * n
    assert by["rt_lj_b"] == [(2, (10, 6, 6, 0, 0))] * n
    assert by["rt_lj_a"] == [(1, (12, 7, 7, 0, 0))] * n
    assert by["rt_lj_after"] == [(1, (36, 8, 8, 0, 0))] * (2 * n)
    # the jumps close the four in one go, deepest first, before the
    # next routine begins
    names = [a.routine for a in acts if a.routine != "rt_setjmp"]
    assert names[:5] == ["rt_longjmp", "rt_lj_c", "rt_lj_b", "rt_lj_a",
                         "rt_lj_after"]


def prodcons_events(b, r, seed):
    """rt_prodcons's memory accesses, instruction by instruction as its
    source has them, under a random interleaving of its two threads
    (Valgrind switches threads at superblock boundaries, a subset of
    these; a read sees the value of the moment it is yielded).  Lines:
    buf 0 .. b-1, the flag's 100, each thread's return address 200 + tid
    (written by the call; the `ret`'s read of it is no input)."""
    FLAG = 100
    mem = {FLAG: 0}

    def call(tid, name):
        yield ("write", tid, 200 + tid)    # the caller's `call`
        yield ("call", tid, name)

    def ret(tid):
        yield ("ret", tid)

    def consumer():
        while True:                        # main's C loop
            seen = mem[FLAG]
            yield ("read", 1, FLAG)
            if seen == 1:
                break
        yield from call(1, "rt_consume")
        for rnd in range(1, r + 1):
            while True:
                seen = mem[FLAG]
                yield ("read", 1, FLAG)
                if seen == rnd:
                    break
            for x in range(b):
                yield ("read", 1, x)
            mem[FLAG] = -rnd
            yield ("write", 1, FLAG)
        yield from ret(1)

    def producer():
        yield from call(2, "rt_produce")
        for rnd in range(1, r + 1):
            while rnd > 1:
                seen = mem[FLAG]
                yield ("read", 2, FLAG)
                if seen == -(rnd - 1):
                    break
            for x in range(b):
                yield ("write", 2, x)
            mem[FLAG] = rnd
            yield ("write", 2, FLAG)
        yield from ret(2)

    rng = random.Random(seed)
    threads = [consumer(), producer()]
    out = []
    while threads:
        t = rng.choice(threads)
        for _ in range(rng.randint(1, 3 * b)):
            ev = next(t, None)
            if ev is None:
                threads.remove(t)
                break
            out.append(ev)
    return out


@pytest.mark.parametrize("b,r", [(1, 1), (3, 4), (8, 10)])
def test_prodcons_answers_hold_for_every_interleaving(b, r):
    """rt_prodcons.c's answers, which its source argues, on the model for
    200 random interleavings of its threads each."""
    for seed in range(200):
        acts = {a.routine: a for a in
                rm.by_definition(prodcons_events(b, r, seed))}
        c, p = acts["rt_consume"], acts["rt_produce"]
        assert (c.rms, c.trms, c.thread_induced, c.syscall_induced) == \
            (b + 1, r * (b + 1), r * b + r - 1, 0), seed
        assert (p.rms, p.trms, p.thread_induced, p.syscall_induced) == \
            (0, r - 1, r - 1, 0), seed
