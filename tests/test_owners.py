"""Heap blocks and owners (issue 5 item 2): ws follows the program's own
malloc, free and C++ new/delete (--ws-heap=yes, ws/analyses/ws_heap.c) and names
what lives in the pages of the data working set (ws/analyses/ws_owners.c).

Programs (tests/progs/):
- own_heap: every C allocation function, N rounds (counts known from the
  source), or N blocks kept, also in 4 threads at once;
- own_new: every form of operator new and delete, N rounds;
- own_spike (and the same built without -g, and stripped): a steady
  working set, then a burst on a 2,000-page heap block, a 300-page global
  array and a 100-page local array, for a data peak whose owner lines the
  source predicts (see the comment at its top);
- cxxglobals: C++ data symbols of twelve kinds (namespaces, an anonymous
  namespace, static members, templates' statics, statics of functions,
  of a template function, of a const method and of a lambda), each on
  its page, dumped: the owners' names are the symbols demangled
  (ws/analyses/ws_demangle.c) as binutils' c++filt writes them.

Counts come from the "ws heap:" lines of --stats=yes.  A program's own
start-up allocates some blocks too (stdio, the dynamic linker), the same
whatever N is, so the tests compare runs with different N.  The peaks and
their owner lines are read with tests/wslib.py, which checks their
grammar and rules (the sum, the order, at most 10 lines, `rest` last).
"""

import os
import re
import subprocess

import pytest

import wslib

OWN_HEAP = wslib.prog("own_heap")
OWN_NEW = wslib.prog("own_new")
OWN_SPIKE = wslib.prog("own_spike")
OWN_SPIKE_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs",
                             "own_spike.c")
HEAP_PAGES, GLOBAL_PAGES, STACK_PAGES = 2000, 300, 100

STATS_RE = re.compile(
    r"ws heap: (\d+) blocks allocated, (\d+) freed, (\d+) live\n"
    r".*ws heap: (\d+) nested allocation calls, (\d+) frees of no known "
    r"block, (\d+) blocks overlapped by a newer one, (\d+) calls that "
    r"never returned\n")
STATS_KEYS = ("allocs", "frees", "live", "nested", "unknown_frees",
              "replaced", "dropped")


def heap_stats(ws, argv, options=()):
    run = ws(argv, "--stats=yes", *options)
    m = STATS_RE.search(run.stderr)
    assert m, run.stderr[-3000:]
    return dict(zip(STATS_KEYS, map(int, m.groups())))


def delta(ws, argv_of_n, n):
    """Heap statistics of the run with n rounds minus those with none."""
    base = heap_stats(ws, argv_of_n(0))
    more = heap_stats(ws, argv_of_n(n))
    return {k: more[k] - base[k] for k in STATS_KEYS}, more


# ----------------------------------------------------------------------
# Heap tracking

@pytest.mark.parametrize("platform", wslib.platforms())
def test_every_c_allocation_function_is_followed(ws, platform):
    """malloc (twice), calloc, realloc(NULL, n) (malloc inside realloc), a
    realloc that moves, aligned_alloc, memalign, valloc and
    posix_memalign: 9 blocks per round, all freed again (the moving
    realloc frees one, realloc(p, 0) another); free(NULL) is ignored.
    On x86 the arguments are on the stack, not in registers."""
    own_heap = wslib.prog("own_heap", platform)
    d, more = delta(ws, lambda n: [own_heap, "calls", str(n)], 50)
    assert d == {"allocs": 450, "frees": 450, "live": 0, "nested": 0,
                 "unknown_frees": 0, "replaced": 0, "dropped": 0}, d
    assert more["unknown_frees"] == 0 and more["dropped"] == 0, more


def test_reallocarray_and_pvalloc_are_followed(ws):
    """reallocarray from NULL, pvalloc and a reallocarray that moves: 3
    blocks per round, all freed again; a reallocarray whose size
    overflows changes nothing."""
    d, more = delta(ws, lambda n: [OWN_HEAP, "more", str(n)], 50)
    # glibc makes one allocation call inside another in each round (the
    # nesting is glibc's; what counts is that it records one block)
    del d["nested"]
    assert d == {"allocs": 150, "frees": 150, "live": 0,
                 "unknown_frees": 0, "replaced": 0, "dropped": 0}, d
    assert more["unknown_frees"] == 0 and more["dropped"] == 0, more


@pytest.mark.parametrize("platform", wslib.platforms())
def test_threads_allocating_at_once(ws, platform):
    """4 threads doing the same rounds: each thread's calls are followed
    on their own (glibc's frees of the chunks in a thread's cache when it
    exits are frees of no known block: those chunks were freed before)."""
    own_heap = wslib.prog("own_heap", platform)
    d, more = delta(ws, lambda n: [own_heap, "threads", str(n)], 50)
    assert (d["allocs"], d["frees"], d["live"]) == (1800, 1800, 0), d
    assert (d["nested"], d["replaced"], d["dropped"]) == (0, 0, 0), d
    assert more["dropped"] == 0, more


def test_blocks_stay_live_until_freed(ws):
    d, _ = delta(ws, lambda n: [OWN_HEAP, "leak", str(n)], 300)
    assert (d["allocs"], d["frees"], d["live"]) == (300, 0, 300), d


@pytest.mark.parametrize("platform", wslib.platforms())
def test_cxx_new_records_one_block_not_two(ws, platform):
    """Six forms of operator new per round (plain, [], nothrow, aligned,
    aligned [], the function itself), each calling malloc or
    aligned_alloc inside: 6 blocks, not 12; the six deletes (sized,
    aligned, [] ...) free them, each calling free inside."""
    own_new = wslib.prog("own_new", platform)
    d, more = delta(ws, lambda n: [own_new, str(n)], 50)
    assert (d["allocs"], d["frees"], d["live"]) == (300, 300, 0), d
    # each new has at least one allocation call inside it
    assert d["nested"] >= 300, d
    assert (d["unknown_frees"], d["replaced"], d["dropped"]) == (0, 0, 0), d
    assert more["dropped"] == 0, more


def test_heap_no_follows_nothing(ws):
    run = ws([OWN_HEAP, "calls", "5"], "--stats=yes", "--ws-heap=no")
    assert "ws heap:" not in run.stderr


# ----------------------------------------------------------------------
# The owner lines of a peak

def _source_line(marker):
    with open(OWN_SPIKE_SRC) as f:
        for n, line in enumerate(f, 1):
            if marker in line:
                return n
    raise AssertionError("no %r in %s" % (marker, OWN_SPIKE_SRC))


def _burst_peak(ws, prog, options=()):
    """own_spike's data peak at the burst (the largest data sample): its
    owner lines as [(pages, owner text)], and the file's stacks as
    {id: [(ip, location, function)]}."""
    out = ws([prog], *options).output
    (p,) = [q for q in out.peaks if q.kind == "data" and "largest" in q.why]
    assert p.size > HEAP_PAGES, out.peaks
    stacks = {sid: [(w.ip, w.location, w.function) for w in frames]
              for sid, frames in out.stacks.items()}
    return (p.size, [(n, str(o)) for n, o in p.owners]), stacks


def test_peak_owners_heap_global_stack(ws):
    """At the burst's peak every page of the heap block, of burst_global
    and of the local array is in the window: the block's 2,000 pages are
    the largest owner, summed under the stack that allocated it (main, at
    the malloc's line), then the 300 pages of burst_global, then the main
    thread's stack: the 100-page array spans 100 or 101 pages, the frames
    a few more."""
    (data, owners), stacks = _burst_peak(ws, OWN_SPIKE)
    (p0, o0), (p1, o1), (p2, o2) = owners[:3]
    assert (p0, o0.split()[0]) == (HEAP_PAGES, "heap"), owners
    frames = stacks[int(o0.split()[1])]
    assert frames[0][1:] == ("own_spike.c:%d" % _source_line(
        "/* own_spike: malloc */"), "main"), frames
    assert (p1, o1) == (GLOBAL_PAGES, "global burst_global"), owners
    assert o2 == "stack 1" and STACK_PAGES <= p2 <= STACK_PAGES + 4, owners
    assert not any(o == "heap-other" and p >= 50 for p, o in owners), owners


def test_block_owns_its_pages_not_the_next(ws):
    """tests/progs/blockedge: a block of 16 pages that ends at a page
    boundary, and the next page read too.  The largest data sample's
    owners give the block (the one heap owner of 16 pages or more)
    exactly its 16 pages: the page that starts where it ends is not its
    own (a mutant that counted it passed every other test)."""
    run = ws([wslib.prog("blockedge")], "--ws-every=1000000")
    (line,) = run.stdout.splitlines()
    word, addr, size = line.split()
    assert word == "block" and int(addr, 16) % 4096 == 0 and \
        int(size) == 16 * 4096, line
    out = run.output
    (peak,) = [p for p in out.peaks
               if p.kind == "data" and "largest" in p.why]
    big = [(n, o) for n, o in peak.owners if o.kind == "heap" and n >= 16]
    assert [n for n, _ in big] == [16], peak.owners
    assert sum(n for n, _ in peak.owners) == peak.size, peak.owners


def test_peak_owners_without_heap_tracking(ws):
    """--ws-heap=no: no heap owner at all; the block is anonymous memory
    (glibc mmapped it on its own)."""
    (data, owners), _ = _burst_peak(ws, OWN_SPIKE, ("--ws-heap=no",))
    assert not any(o.startswith("heap") for _, o in owners), owners
    assert owners[0][1] == "anon" and owners[0][0] >= HEAP_PAGES, owners


def test_peak_owners_without_debug_info(ws):
    """Built without -g: the block and its stack are still known (the
    frames without file:line), the global is named from the symbol
    table."""
    (data, owners), stacks = _burst_peak(ws, wslib.prog("own_spike_nodebug"))
    (p0, o0), (p1, o1) = owners[:2]
    assert (p0, o0.split()[0]) == (HEAP_PAGES, "heap"), owners
    assert stacks[int(o0.split()[1])][0][2] == "main", stacks
    assert (p1, o1) == (GLOBAL_PAGES, "global burst_global"), owners


def test_peak_owners_of_a_stripped_program(ws):
    """No symbol table: the block's stack names the program's own frames
    by the object and the offset inside it, which addr2line maps to the
    malloc's line in own_spike (the same code with its symbols: the
    stripped one is it linked with -s), and the global array is only a
    mapping of the program's file or anonymous memory (its .bss)."""
    (data, owners), stacks = _burst_peak(ws, wslib.prog("own_spike_stripped"))
    p0, o0 = owners[0]
    assert (p0, o0.split()[0]) == (HEAP_PAGES, "heap"), owners
    _, location, function = stacks[int(o0.split()[1])][0]
    m = re.fullmatch(r"own_spike_stripped\+0x([0-9a-f]+)", function)
    assert location == "(own_spike_stripped)" and m, stacks
    where = subprocess.run(["addr2line", "-e", OWN_SPIKE, "0x" + m.group(1)],
                           stdout=subprocess.PIPE, check=True,
                           universal_newlines=True).stdout.split()[0]
    assert where.rsplit("/", 1)[-1] == "own_spike.c:%d" % _source_line(
        "/* own_spike: malloc */"), where
    assert not any(o.startswith("global burst") for _, o in owners), owners
    assert any(p >= GLOBAL_PAGES and o.split()[0] in ("anon", "file")
               for p, o in owners[1:]), owners


# ----------------------------------------------------------------------
# Data symbols' names, demangled

CXXGLOBALS = wslib.prog("cxxglobals")


def _mangled_data_symbols(prog):
    """The program's own C++ data symbols (nm's b, B, d, D, v, V)."""
    nm = subprocess.run(["nm", "--defined-only", prog], check=True,
                        capture_output=True, text=True).stdout
    return sorted(f[2] for f in (line.split() for line in nm.splitlines())
                  if len(f) == 3 and f[1] in "bBdDvV"
                  and f[2].startswith("_Z"))


def _global_owners(ws, *options):
    out = ws([CXXGLOBALS], *options).output
    (dump,) = out.dumps
    return {p.owner.name for p in dump.pages
            if p.kind == "data" and p.owner.kind == "global"}


def test_global_owners_are_demangled_as_cplusplus_filt_does(ws):
    """Each of the program's C++ data symbols names its page's owner,
    demangled as `c++filt -i` demangles it."""
    mangled = _mangled_data_symbols(CXXGLOBALS)
    assert len(mangled) == 12, mangled
    filt = subprocess.run(["c++filt", "-i"], input="\n".join(mangled),
                          check=True, capture_output=True, text=True)
    names = filt.stdout.splitlines()
    assert "Pool<std::pair<int, char> >::slots" in names, names
    assert "main::{lambda(int)#1}::operator()(int) const::seen" in names
    owners = _global_owners(ws)
    assert set(names) <= owners, sorted(set(names) - owners)


def test_global_owners_mangled_with_demangle_no(ws):
    """--demangle=no (Valgrind's option) keeps the symbols as they are."""
    mangled = _mangled_data_symbols(CXXGLOBALS)
    owners = _global_owners(ws, "--demangle=no")
    assert set(mangled) <= owners, sorted(set(mangled) - owners)
