"""The break moved down and up again (brkshrink): which pages a brk
shrink gives back, by the kernel's rule, in ws pages of 4 KiB, 64 bytes
and 8 KiB.

Valgrind reports a brk shrink as the bytes [new break, old break), not
rounded; the kernel keeps the page the new break falls in and gives back
its 4 KiB pages up to the end of the old break's page:
[round_up(new), round_up(old)).  A page given back and written again is
a new page for the totals; a ws page larger than the kernel's lives on
unless all of it was given back (docs/manual.md, Totals).

Each case runs brkshrink twice, moving the break down and up again and
with the break left where it is (SHRINK = GROW); both runs execute the
same code and write the same bytes, so their data totals differ by the
pages given back and written again, exactly.
"""

import pytest

import wslib

BRKSHRINK = wslib.prog("brkshrink")


def _total(ws, pagesize, grow, shrink, offsets):
    run = ws([BRKSHRINK, hex(grow), hex(shrink)] + [hex(o) for o in offsets],
             "--ws-pagesize=%d" % pagesize)
    wslib.check_trailer(run)
    return run.output.summary["data"][2]


# (pagesize, grow, shrink, offsets written, how many of them are new when
# written again).  Offsets are from the 64 KiB boundary the program puts
# its break above; the kernel's pages given back are worked out by hand
# in each comment.
CASES = {
    # [0x2000, 0x4000) given back: the pages at 0x2000 and 0x3000 (0x30ff
    # is beyond the old break, on the same page); 0x1000 and 0x1fff are on
    # the page of the new break, which the kernel keeps
    "4k": (4096, 0x3100, 0x1080,
           [0x0, 0x1000, 0x1fff, 0x2000, 0x3000, 0x30ff], 2),
    # both ends aligned: [0x1000, 0x3000) given back, the pages at 0x1000
    # (the new break is its first byte) and 0x2000
    "4k-aligned": (4096, 0x3000, 0x1000, [0x0, 0x1000, 0x2000], 2),
    # [0x2000, 0x4000) given back: in 64-byte lines 0x2000, 0x30c0, 0x3100
    # (beyond the old break) and 0x3fc0 die; 0x1040 below the new break,
    # 0x1080 at it, 0x10c0 and 0x1fc0 above it live on with their page
    "64": (64, 0x3100, 0x1080,
           [0x1040, 0x1080, 0x10c0, 0x1fc0, 0x2000, 0x30c0, 0x3100, 0x3fc0],
           4),
    # new and old break on the same kernel page: nothing given back, the
    # lines between them included
    "64-same-page": (64, 0x3100, 0x3080, [0x3040, 0x3080, 0x30c0], 0),
    # [0x3000, 0x6000) given back: the 8 KiB page at 0x4000 wholly, the
    # one at 0x2000 only half, so it lives on
    "8k": (8192, 0x5100, 0x2080, [0x0, 0x2000, 0x4000], 1),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_brk_shrink_gives_back_the_kernels_pages(ws, case):
    pagesize, grow, shrink, offsets, new = CASES[case]
    moved = _total(ws, pagesize, grow, shrink, offsets)
    kept = _total(ws, pagesize, grow, grow, offsets)
    assert moved - kept == new, (
        "%s: data total %d with the break moved to +%#x and back, %d with "
        "it kept at +%#x: %d pages written again are new, expected %d"
        % (case, moved, shrink, kept, grow, moved - kept, new))
