"""Gigabytes mapped and unmapped (rel_mmap): 40 x (map 1 GiB, touch a
page in each 256 KiB, unmap): each remap counts again in the totals
(exactly 4096 pages a round), and the peak resident size of the process
does not grow with the rounds."""

import re

import wslib


P = wslib.prog


# ----------------------------------------------------------------------
# Gigabytes mapped and unmapped

def _mmap_run(ws, n):
    argv = [P("rel_mmap"), str(n)]
    run = ws(argv)
    wslib.check_trailer(run)
    m = re.match(r"distinct ([0-9]+)\nhwm ([0-9]+)\n\Z", run.stdout)
    assert m, run.stdout
    return run.output, int(m.group(1)), int(m.group(2))


def test_map_unmap_gigabytes(ws):
    """Rounds of 1 GiB each, 4096 pages touched: 4 and then 40 rounds.
    Each round's pages are new pages for the totals (the mapping comes
    back at the same address, and ws marks unmapped pages so that they
    count again).  Resident memory: every round the program's 16 MiB come
    and go; what ws keeps for a GiB of address space (one 1 MiB chunk of
    stamps) is reused when the address comes back.  36 rounds more may
    not raise the peak resident size by more than 4 MiB (a leak of the
    chunk, or of the client's pages, would add 36 MiB or more)."""
    rc, stdout = wslib.none_run([P("rel_mmap"), "4"])
    assert rc == 0 and stdout.startswith("distinct 1\n"), stdout
    out4, distinct4, hwm4 = _mmap_run(ws, 4)
    out40, distinct40, hwm40 = _mmap_run(ws, 40)
    assert distinct4 == distinct40 == 1
    assert out40.summary["data"][2] - out4.summary["data"][2] == 36 * 4096
    assert out40.summary["insn"][2] == out4.summary["insn"][2]
    # a window inside a round: the loop page and 4096 data pages (less
    # the part of the round outside the window); never more
    assert max(s.data for s in out40.samples) <= 4096 + 100
    assert hwm40 - hwm4 < 4096, (hwm4, hwm40)
