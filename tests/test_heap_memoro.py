"""Heap usage as the Memoro paper defines it, with each access attributed
to its chunk (`--ws-heap-usage=exact`, docs/manual.md "Heap usage"): the
cases of tests/progs/heap_{oversized,untouched,oneway,regrow}.c give the
answers their sources work out (the paper's usage with its Useless
function, touched, interval, never, read-only and write-only), where
page resolution (the default) cannot tell neighbours apart; and the
option's refusals.
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


def test_default_page_resolution_differs(ws):
    """At the default's page resolution the neighbours' accesses are
    each chunk's: what exact mode is for (the same program)."""
    h = site(ws([wslib.prog("heap_untouched")]).output, "site_unused")
    assert h["never"] < 1000


def test_exact_needs_heap(ws):
    r = ws([wslib.prog("heap_untouched")], "--ws-heap-usage=exact",
           "--ws-heap=no", check=False)
    assert r.returncode == 1
    reasons = [l for l in r.stderr.splitlines() if "--ws-heap-usage" in l]
    assert reasons == ["valgrind: Bad option: --ws-heap-usage=exact needs "
                       "--ws-heap=yes"], r.stderr
