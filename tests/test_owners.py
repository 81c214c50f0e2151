"""Heap blocks and owners (issue 5 item 2): ws follows the program's own
malloc, free and C++ new/delete (--ws-heap=yes, ws/ws_heap.c) and names
what lives in the pages of the data working set (ws/ws_owners.c).

Programs (tests/progs/):
- own_heap: every C allocation function, N rounds (counts known from the
  source), or N blocks kept;
- own_new: every form of operator new and delete, N rounds.

Counts come from the "ws heap:" lines of --stats=yes.  A program's own
start-up allocates some blocks too (stdio, the dynamic linker), the same
whatever N is, so the tests compare runs with different N.
"""

import re

import wslib

OWN_HEAP = wslib.prog("own_heap")
OWN_NEW = wslib.prog("own_new")

STATS_RE = re.compile(
    r"ws heap: (\d+) blocks allocated, (\d+) freed, (\d+) live\n"
    r".*ws heap: (\d+) nested allocation calls, (\d+) frees of no known "
    r"block, (\d+) blocks overlapped by a newer one, (\d+) calls that "
    r"never returned\n")
STATS_KEYS = ("allocs", "frees", "live", "nested", "unknown_frees",
              "replaced", "dropped")


def heap_stats(argv, options=()):
    run = wslib.run_ws(argv, ("--stats=yes",) + tuple(options))
    m = STATS_RE.search(run.stderr)
    assert m, run.stderr[-3000:]
    return dict(zip(STATS_KEYS, map(int, m.groups())))


def delta(argv_of_n, n):
    """Heap statistics of the run with n rounds minus those with none."""
    base = heap_stats(argv_of_n(0))
    more = heap_stats(argv_of_n(n))
    return {k: more[k] - base[k] for k in STATS_KEYS}, more


# ----------------------------------------------------------------------
# Heap tracking

def test_every_c_allocation_function_is_followed():
    """malloc (twice), calloc, realloc(NULL, n) (malloc inside realloc), a
    realloc that moves, aligned_alloc, memalign, valloc and
    posix_memalign: 9 blocks per round, all freed again (the moving
    realloc frees one, realloc(p, 0) another); free(NULL) is ignored."""
    d, more = delta(lambda n: [OWN_HEAP, "calls", str(n)], 50)
    assert d == {"allocs": 450, "frees": 450, "live": 0, "nested": 0,
                 "unknown_frees": 0, "replaced": 0, "dropped": 0}, d
    assert more["unknown_frees"] == 0 and more["dropped"] == 0, more


def test_threads_allocating_at_once():
    """4 threads doing the same rounds: each thread's calls are followed
    on their own (glibc's frees of the chunks in a thread's cache when it
    exits are frees of no known block: those chunks were freed before)."""
    d, more = delta(lambda n: [OWN_HEAP, "threads", str(n)], 50)
    assert (d["allocs"], d["frees"], d["live"]) == (1800, 1800, 0), d
    assert (d["nested"], d["replaced"], d["dropped"]) == (0, 0, 0), d
    assert more["dropped"] == 0, more


def test_blocks_stay_live_until_freed():
    d, _ = delta(lambda n: [OWN_HEAP, "leak", str(n)], 300)
    assert (d["allocs"], d["frees"], d["live"]) == (300, 0, 300), d


def test_cxx_new_records_one_block_not_two():
    """Six forms of operator new per round (plain, [], nothrow, aligned,
    aligned [], the function itself), each calling malloc or
    aligned_alloc inside: 6 blocks, not 12; the six deletes (sized,
    aligned, [] ...) free them, each calling free inside."""
    d, more = delta(lambda n: [OWN_NEW, str(n)], 50)
    assert (d["allocs"], d["frees"], d["live"]) == (300, 300, 0), d
    # each new has at least one allocation call inside it
    assert d["nested"] >= 300, d
    assert (d["unknown_frees"], d["replaced"], d["dropped"]) == (0, 0, 0), d
    assert more["dropped"] == 0, more


def test_heap_no_follows_nothing():
    run = wslib.run_ws([OWN_HEAP, "calls", "5"],
                       ("--stats=yes", "--ws-heap=no"))
    assert "ws heap:" not in run.stderr
