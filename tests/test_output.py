"""The output file (docs/output-format.md, version 4; the reader's tests
on hand-written files are of version 3, which it still reads) and the
stderr summary.

The first tests check the reader itself (tests/wslib.py) on hand-written
files: it must accept the grammar and refuse anything else, or the other
tests could pass on a malformed file.  The rest check files ws writes.
"""

import os
import re
import signal
import subprocess
import time

import pytest

import wslib

T = 100000

GOOD = """\
ws-output-format: 3
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatever: with colons
columns: t insn data
event 0 thread-start 1
# a comment
1003 2 5
stack 1 3
inline 0x1091c8 spike.c:21 fill
frame 0x1091c8 spike.c:30 spike
frame 0x109243 spike.c:55 main
event 1003 peak 0 data 5 1
stack 2 1
frame 0x4011f0 (libfoo.so) operator new(unsigned long)
owner 0 3 heap 2
owner 0 1 global my table
owner 0 1 stack 1
event 1003 peak 1 insn 2 1
owner 1 3 heap 2
owner 1 2 file /usr/lib/my lib.so
event 1500 mark phase two
event 1500 dump label phase two
dump-begin 1500
dump-page insn 0x10b000 1000 912 0x10b1a0 marker.c:41 main
dump-page data 0x4a2c000 1003 40 0x10b1c4 marker.c:44 main
stack 3 1
frame 0x401200 alloc.c:7 make_table
dump-owner heap 3 0x4a2c040 8192
dump-page data 0x4a2d000 0 0 0x0 ??? ???
dump-owner unknown
dump-end 1 2
2000 3 7
event 2500 thread-exit 1
region 2 1 insn 3.0 3 4 data 7.0 7 9 label phase two
hot insn 1 90312 0x109000 0x1091a0 pageramp.c:38 touch_pages
hot insn 2 512 0x10a000 0x10a000 (pageramp) ???
hot data 1 5242 0x4a2c000 0x1091c4 pageramp.c:40 touch_pages
stack 4 1
frame 0x401300 alloc.c:9 make_other
hot-owner heap 4 0x4a2c040 8192
hot data 2 5242 0x4a2d000 0x1091c4 pageramp.c:40 touch_pages
hot-owner anon
peaks 2
summary insn 2.5 3 4
summary data 6.0 7 9
samples 2
end
"""


def test_reader_accepts_good_file():
    out = wslib.parse_output(GOOD)
    assert out.complete
    assert out.header["command"] == "./prog a b"
    assert out.header["some-future-key"] == "whatever: with colons"
    assert [(s.t, s.insn, s.data) for s in out.samples] == [(1003, 2, 5),
                                                              (2000, 3, 7)]
    assert [(e.t, e.kind, e.args) for e in out.events] == [
        (0, "thread-start", ["1"]), (1003, "peak", ["0", "data", "5", "1"]),
        (1003, "peak", ["1", "insn", "2", "1"]),
        (1500, "mark", ["phase", "two"]),
        (1500, "dump", ["label", "phase", "two"]),
        (2500, "thread-exit", ["1"])]
    W = wslib.Where
    assert out.stacks == {
        1: [W(0x1091c8, "spike.c:21", "fill", True),
            W(0x1091c8, "spike.c:30", "spike"),
            W(0x109243, "spike.c:55", "main")],
        2: [W(0x4011f0, "(libfoo.so)", "operator new(unsigned long)")],
        3: [W(0x401200, "alloc.c:7", "make_table")],
        4: [W(0x401300, "alloc.c:9", "make_other")]}
    assert [(p.n, p.t, p.kind, p.size, p.stack,
             [(n, str(o)) for n, o in p.owners]) for p in out.peaks] == [
        (0, 1003, "data", 5, 1,
         [(3, "heap 2"), (1, "global my table"), (1, "stack 1")]),
        (1, 1003, "insn", 2, 1,
         [(3, "heap 2"), (2, "file /usr/lib/my lib.so")])]
    o = out.peaks[0].owners
    assert (o[0][1].kind, o[0][1].stack, o[0][1].block) == ("heap", 2, None)
    assert (o[1][1].kind, o[1][1].name) == ("global", "my table")
    assert (o[2][1].kind, o[2][1].tid) == ("stack", 1)
    [d] = out.dumps
    assert d.t == 1500
    assert [(p.kind, p.addr, p.since, p.accesses, p.where, str(p.owner))
            for p in d.pages] == [
        ("insn", 0x10b000, 1000, 912, W(0x10b1a0, "marker.c:41", "main"),
         "None"),
        ("data", 0x4a2c000, 1003, 40, W(0x10b1c4, "marker.c:44", "main"),
         "heap 3 0x4a2c040 8192"),
        ("data", 0x4a2d000, 0, 0, W(0, "???", "???"), "unknown")]
    assert (d.pages[1].owner.block, d.pages[1].owner.size) == (0x4a2c040,
                                                               8192)
    assert out.regions == {"phase two": (2, 1, (3.0, 3, 4), (7.0, 7, 9))}
    assert [(h.rank, h.accesses, h.addr, h.where.function, h.owner)
            for h in out.hot["insn"]] == [
        (1, 90312, 0x109000, "touch_pages", None), (2, 512, 0x10a000, "???",
                                                    None)]
    assert [(h.rank, h.accesses, h.addr, str(h.owner))
            for h in out.hot["data"]] == [
        (1, 5242, 0x4a2c000, "heap 4 0x4a2c040 8192"),
        (2, 5242, 0x4a2d000, "anon")]
    assert out.npeaks == 2
    assert out.summary == {"insn": (2.5, 3, 4), "data": (6.0, 7, 9)}
    assert out.nsamples == 2
    # `end` may lack its newline (the grammar puts none after it)
    assert wslib.parse_output(GOOD.rstrip("\n")).complete


PER_THREAD = GOOD.replace("per-thread: no", "per-thread: yes").replace(
    "columns: t insn data",
    "columns: t insn data shared {tid insn data}...").replace(
    "1003 2 5", "1003 2 5 1 1 2 3 2 4 2").replace("2000 3 7", "2000 3 7 0 1 3 7")
PER_THREAD_SAMPLE = "1003 2 5 1 1 2 3 2 4 2"
PER_THREAD_LINE = 17
# per-thread samples that break the grammar: too short, a last triple
# without its data or its insn and data, thread ids not increasing
PER_THREAD_REFUSED = ["1003 2 5", "1003 2 5 1", "1003 2 5 1 1 2",
                      "1003 2 5 1 1 2 3 2 4", "1003 2 5 1 1 2 3 2",
                      "1003 2 5 1 2 2 3 1 4 2", "1003 2 5 1 1 2 3 1 4 2"]


def test_reader_per_thread():
    out = wslib.parse_output(PER_THREAD)
    assert out.per_thread
    assert out.samples[0].lineno == PER_THREAD_LINE
    assert (out.samples[0].shared, out.samples[0].threads) == (
        1, {1: (2, 3), 2: (4, 2)})
    assert (out.samples[1].shared, out.samples[1].threads) == (0, {1: (3, 7)})
    for bad in PER_THREAD_REFUSED:
        with pytest.raises(wslib.FormatError) as e:
            wslib.parse_output(PER_THREAD.replace(PER_THREAD_SAMPLE, bad))
        assert str(e.value).startswith("line %d: " % PER_THREAD_LINE), bad


GOOD_V2 = """\
ws-output-format: 2
tool: ws 0.1.0
command: ./prog
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
1003 2 5
event 1003 peak 0 data 5 1
event 1500 dump label x
dump-begin 1500
dump-page insn 0x10b000 1000
dump-page data 0x4a2c000 1003
dump-end 1 1
region 1 1 insn 2.0 2 2 data 5.0 5 5 label x
summary insn 2.0 2 2
summary data 5.0 5 5
samples 1
end
"""


def test_reader_version_2():
    """Files from before version 3 are read by their own grammar: the old
    dump-page form, no peaks line; a peak event is an unknown kind."""
    out = wslib.parse_output(GOOD_V2)
    assert out.version == 2 and out.complete
    assert [(p.kind, p.addr, p.since, p.accesses) for p in out.dumps[0].pages
            ] == [("insn", 0x10b000, 1000, None), ("data", 0x4a2c000, 1003,
                                                   None)]
    assert out.peaks == [] and out.npeaks is None
    for old, new in (
            ("dump-page data 0x4a2c000 1003",
             "dump-page data 0x4a2c000 1003 4 0x1 ??? ???"),
            ("dump-end 1 1", "dump-owner anon\ndump-end 1 1"),
            ("samples 1", "peaks 0\nsamples 1"),
            ("1003 2 5\n", "1003 2 5\nstack 1 1\nframe 0x1 ??? ???\n"),
            ("summary insn", "hot insn 1 1 0x1000 0x1000 ??? ???\n"
             "summary insn")):
        assert old in GOOD_V2
        with pytest.raises(wslib.FormatError):
            wslib.parse_output(GOOD_V2.replace(old, new))


def test_reader_peak_goes_on():
    """A peak that grows over the next samples writes its event again,
    same number, with its owner lines; out.peaks has the largest."""
    more = ("2000 3 7\nevent 2000 peak 0 data 7 1\nowner 0 7 anon\n")
    out = wslib.parse_output(GOOD.replace("2000 3 7\n", more))
    assert [(p.n, p.t, p.kind, p.size, [(n, str(o)) for n, o in p.owners])
            for p in out.peaks] == [
        (0, 2000, "data", 7, [(7, "anon")]),
        (1, 1003, "insn", 2, [(3, "heap 2"), (2, "file /usr/lib/my lib.so")])]
    for bad in (more.replace("data 7 1", "data 5 1").replace("2000 3 7",
                                                             "2000 3 5")
                .replace("0 7 anon", "0 5 anon"),              # not larger
                more.replace("peak 0 data 7", "peak 1 data 7"),  # other kind
                more.replace("peak 0 data 7", "peak 3 data 7")):
        with pytest.raises(wslib.FormatError):
            wslib.parse_output(GOOD.replace("2000 3 7\n", bad))
    # only the latest peak of its kind goes on
    text = GOOD.replace("2000 3 7\n", "2000 3 7\nevent 2000 peak 2 data 7 1\n"
                        "owner 2 7 anon\n2400 3 8\n"
                        "event 2400 peak 0 data 8 1\nowner 0 8 anon\n")
    text = text.replace("peaks 2", "peaks 3").replace("samples 2",
                                                      "samples 3")
    with pytest.raises(wslib.FormatError, match="not the latest data peak"):
        wslib.parse_output(text)
    wslib.parse_output(text.replace("peak 0 data 8", "peak 2 data 8")
                       .replace("owner 0 8", "owner 2 8"))


def owners(n, *lines):
    """GOOD with peak 0's owner lines replaced by lines (PAGES OWNER), the
    data column of its sample made their sum, and peak 1 (same sample) one
    owner of that many pages."""
    total = sum(int(l.split(" ")[0]) for l in lines)
    text = GOOD.replace("1003 2 5\n", "1003 2 %d\n" % total).replace(
        "event 1003 peak 0 data 5 1", "event 1003 peak 0 data %d 1" % total)
    text = text.replace("owner 1 3 heap 2\nowner 1 2 file /usr/lib/my lib.so",
                        "owner 1 %d anon" % total)
    old = ("owner 0 3 heap 2\nowner 0 1 global my table\n"
           "owner 0 1 stack 1\n")
    return text.replace(old, "".join("owner %d %s\n" % (n, l)
                                     for l in lines))


TEN = ["%d heap 2" % 10, "9 heap-other", "8 global a", "7 global b",
       "6 stack 1", "5 stack 2", "4 file /a", "3 file /b", "2 anon"]
# (peak, owner lines) for owners(): good, then malformed breakdowns
# (tests/test_print.py gives them to ws_print too)
OWNERS_GOOD = [
    (0, TEN + ["1 unknown"]), (0, TEN + ["50 rest"]),
    # ties in the order of the owner table
    (0, ["2 heap 2", "2 heap-other", "2 global x", "2 stack 1", "2 file /f",
         "2 anon", "2 unknown"]),
    # two globals or files whose names are written alike
    (0, ["2 global a_b", "2 global a_b", "1 file /a_b", "1 file /a_b"])]
OWNERS_REFUSED = [
    (0, TEN + ["1 unknown", "1 rest"]),         # 11 lines
    (0, TEN + ["1 unknown", "1 global c"]),
    (0, ["1 heap 2", "2 anon"]),                # not largest first
    (0, ["2 anon", "2 heap 2"]),                # tie out of table order
    (0, ["2 anon", "1 rest"]),                  # rest without 9 others
    (0, ["2 anon", "0 unknown"]),               # no pages
    (0, ["2 anon", "2 anon"]),                  # twice
    (0, ["2 heap 2", "2 heap 2"]), (0, ["2 stack 1", "2 stack 1"]),
    (0, ["2 heap 2 0x4a2c040 8192"]),           # a block in a breakdown
    (0, ["2 heap 9"]),                          # stack 9 undefined
    (0, ["2 heap  2"]), (0, ["2 global a  b"]), (0, ["2 stack x"]),
    (0, ["2 file"]), (0, ["2 heap-other 3"]), (0, ["2 code"]),
    (1, ["5 anon"])]                            # not the peak's number


def test_reader_owner_lines():
    for n, lines in OWNERS_GOOD:
        out = wslib.parse_output(owners(n, *lines))
        assert [(p, str(o)) for p, o in out.peaks[0].owners] == [
            (int(l.split(" ", 1)[0]), l.split(" ", 1)[1]) for l in lines]
    for n, lines in OWNERS_REFUSED:
        with pytest.raises(wslib.FormatError):
            wslib.parse_output(owners(n, *lines))


# (old, new, why): GOOD with old replaced by new breaks the grammar
# (tests/test_print.py checks that ws_print refuses these too)
REFUSED = [
    ("ws-output-format: 3", "ws-output-format: 2", "version 2 with v3 lines"),
    ("ws-output-format: 3", "ws-output-format: 1", "version 1"),
    ("ws-output-format: 3", "ws-output-format: 5", "unknown version"),
    ("ws-output-format: 3\n", "", "no version line"),
    ("instr-atstart: yes", "instr-atstart: maybe", "bad instr-atstart"),
    ("dump-end 1 2", "dump-end 1 3", "dump-end counts wrong"),
    ("dump-page data 0x4a2d000 0 0", "dump-page code 0x4a2d000 0 0",
     "unknown dump-page kind"),
    ("dump-page data 0x4a2d000 0", "dump-page data 4a2d000 0",
     "dump address without 0x"),
    ("dump-page data 0x4a2d000 0 0 0x0 ??? ???", "dump-page data 0x4a2d000 0",
     "the version 2 form of dump-page"),
    ("0x4a2d000 0 0 0x0 ??? ???", "0x4a2d000 0 0x0 ??? ???",
     "dump-page without accesses"),
    ("0x4a2d000 0 0 0x0 ??? ???", "0x4a2d000 0 0 0x0 ??? ",
     "dump-page without a function"),
    ("0x4a2d000 0 0 0x0 ??? ???", "0x4a2d000 0 0 0x0 ???",
     "dump-page without a location"),
    ("0x4a2d000 0 0 0x0 ??? ???", "0x4a2d000 0 0 0 ??? ???",
     "dump-page ip without 0x"),
    ("0x10b1c4 marker.c:44 main", "0x10b1c4 marker.c main",
     "location without a line"),
    ("0x10b1c4 marker.c:44 main", "0x10b1c4 marker c:44 main",
     "blank in a location"),
    ("dump-page data 0x4a2c000 1003", "dump-page data 0x4a2c000 1501",
     "since after the dump"),
    ("dump-owner unknown\n", "", "data page without its owner"),
    ("dump-owner unknown\n", "dump-owner rest\n", "rest as a page's owner"),
    ("dump-owner unknown\n", "dump-owner heap 7\n", "undefined heap stack"),
    ("dump-owner unknown\n", "hot-owner unknown\n", "hot-owner in a dump"),
    ("912 0x10b1a0 marker.c:41 main\n",
     "912 0x10b1a0 marker.c:41 main\ndump-owner anon\n",
     "an owner after an insn page"),
    ("dump-owner unknown\ndump-end 1 2",
     "dump-owner unknown\ndump-page insn 0x10c000 0 1 0x10c000 ??? ???\n"
     "dump-end 2 2", "insn pages before data pages"),
    ("dump-page data 0x4a2d000", "dump-page data 0x4a2c000",
     "addresses increase"),
    ("dump-end 1 2\n", "", "dump without its end"),
    ("stack 1 3", "stack 1 4", "stack shorter than it says"),
    ("stack 1 3", "stack 1 2", "stack longer than it says"),
    ("stack 1 3", "stack 0 3", "stack id 0"),
    ("stack 1 3\ninline 0x1091c8 spike.c:21 fill\n"
     "frame 0x1091c8 spike.c:30 spike\n", "stack 1 2\n"
     "frame 0x1091c8 spike.c:30 spike\ninline 0x1091c8 spike.c:21 fill\n",
     "a stack ending with an inline line"),
    ("stack 2 1\nframe 0x4011f0 (libfoo.so) operator new(unsigned long)\n",
     "stack 2 0\n", "stack without frames"),
    ("stack 2 1", "stack 1 1", "stack id given twice"),
    ("stack 1 3", "stack 1 3 x", "junk after a stack line"),
    ("stack 4 1\n", "stack 4 1\nstack 5 1\n", "a stack inside a stack"),
    ("peaks 2\n", "peaks 2\nstack 9 1\nframe 0x1 ??? ???\n",
     "a stack after the peaks line"),
    ("dump-owner heap 3", "dump-owner heap 4", "a stack used before it is "
     "defined (in the trailer)"),
    ("inline 0x1091c8 spike.c:21 fill", "inline 0x1091c9 spike.c:21 fill",
     "inline with another ip than its caller's line"),
    ("frame 0x109243 spike.c:55 main", "frame 0x109243 spike.c:55 main  x",
     "double space in a function"),
    ("frame 0x109243 spike.c:55 main", "frame 0x109243 spike.c:55 main ",
     "trailing space in a function"),
    ("frame 0x109243 spike.c:55 main", "frame 0x109243 spike.c:55 ma\tin",
     "control character in a function"),
    ("frame 0x109243 spike.c:55 main", "call 0x109243 spike.c:55 main",
     "unknown frame keyword"),
    ("event 1003 peak 0 data 5 1", "event 1003 peak 0 data 5 3",
     "peak with an undefined stack"),
    ("stack 1 3\ninline 0x1091c8 spike.c:21 fill\n"
     "frame 0x1091c8 spike.c:30 spike\nframe 0x109243 spike.c:55 main\n"
     "event 1003 peak 0 data 5 1",
     "event 1003 peak 0 data 5 1\nstack 1 3\ninline 0x1091c8 spike.c:21 fill\n"
     "frame 0x1091c8 spike.c:30 spike\nframe 0x109243 spike.c:55 main",
     "stack defined after its use"),
    ("event 1003 peak 0 data 5 1", "event 1003 peak 1 data 5 1",
     "peaks not numbered from 0"),
    ("event 1003 peak 1 insn 2 1", "event 1003 peak 2 insn 2 1",
     "a peak number skipped"),
    ("event 1003 peak 1 insn 2 1", "event 1003 peak 0 insn 2 1",
     "a peak going on as another kind"),
    ("event 1003 peak 0 data 5 1", "event 1003 peak 0 data 4 1",
     "peak size not the sample's"),
    ("event 1003 peak 0 data 5 1", "event 1003 peak 0 both 5 1",
     "unknown peak kind"),
    ("event 1003 peak 0 data 5 1", "event 1003 peak 0 data 5",
     "peak without a stack"),
    ("event 1003 peak 0 data 5 1", "event 1004 peak 0 data 5 1",
     "peak later than its sample"),
    ("event 1003 peak 0 data 5 1",
     "event 1003 mark x\nevent 1003 peak 0 data 5 1",
     "an event between a sample and its peak"),
    ("owner 0 1 stack 1\n", "", "owner lines do not sum to the sample"),
    ("owner 0 1 stack 1\n", "owner 0 1 stack 1\n# c\nowner 0 1 anon\n",
     "owner lines sum to more than the sample"),
    ("owner 0 3 heap 2", "owner 0 3 heap 2 x", "junk in an owner"),
    ("owner 1 2 file /usr/lib/my lib.so\n",
     "owner 1 2 file /usr/lib/my lib.so\n2000 3 7\nowner 1 1 anon\n",
     "owner line after the next sample"),
    ("event 1500 mark phase two\n",
     "event 1500 mark phase two\nowner 1 1 anon\n",
     "owner line after another event"),
    ("# a comment", "owner 0 1 anon", "owner line before any peak"),
    ("hot insn 2 512", "hot insn 3 512", "hot rank skipped"),
    ("hot insn 1 90312", "hot insn 1 90", "hot pages not hottest first"),
    ("hot data 2 5242 0x4a2d000", "hot data 2 5242 0x4a2b000",
     "hot tie not in address order"),
    ("hot-owner anon\n", "", "hot data page without its owner"),
    ("hot-owner anon\n", "hot-owner anon\nhot-owner anon\n", "two owners"),
    ("hot-owner anon\n", "dump-owner anon\n", "dump-owner after a hot line"),
    ("hot insn 2 512 0x10a000 0x10a000 (pageramp) ???\n",
     "hot insn 2 512 0x10a000 0x10a000 (pageramp) ???\nhot-owner anon\n",
     "an owner after an insn hot line"),
    ("peaks 2\n", "region 1 1 insn 3.0 3 4 data 7.0 7 9 label x\npeaks 2\n",
     "a region line after the hot lines"),
    ("peaks 2\n", "", "no peaks line"),
    ("peaks 2", "peaks 3", "peaks count wrong"),
    ("peaks 2\nsummary insn 2.5 3 4", "summary insn 2.5 3 4\npeaks 2",
     "peaks after the summary"),
    ("samples 2\nend", "peaks 2\nsamples 2\nend", "peaks twice"),
    ("region 2 1 insn 3.0 3 4", "region 2 1 insn 3 3 4", "region avg"),
    ("label phase two", "label  phase two", "region label double space"),
    ("label phase two", "label phase  two", "region label double space inside"),
    ("summary insn 2.5 3 4", "event 3000 mark x\nsummary insn 2.5 3 4",
     "an event after a region line"),
    ("hot insn 1", "3000 1 1\nhot insn 1", "a sample after a region line"),
    ("pagesize: 4096\n", "", "a header key missing"),
    ("tau: 1000\npagesize: 4096", "pagesize: 4096\ntau: 1000", "key order"),
    ("time-unit: i", "time-unit: s", "bad time unit"),
    ("every: 1000", "every: 1e3", "non-integer every"),
    ("pagesize: 4096", "pagesize: 4000", "pagesize not a power of two"),
    ("columns: t insn data", "columns: t insn", "wrong columns"),
    ("2000 3 7", "2000 3", "too few columns"),
    ("2000 3 7", "2000 3 7 6", "too many columns"),
    ("2000 3 7", "2000  3 7", "double space"),
    ("2000 3 7", "2000 3 7 ", "trailing space"),
    ("2000 3 7", "2000 3 -7", "negative"),
    ("2000 3 7", "2000 3 7x", "junk in a sample"),
    ("2000 3 7", "1003 3 7", "time not increasing"),
    ("2000 3 7", "900 3 7", "time going back"),
    ("# a comment", "", "a blank line"),
    ("# a comment", "Event 5 x", "unknown keyword"),
    ("# a comment", "event x thread-start 1", "event without time"),
    ("event 2500 thread-exit 1", "event 2500 thread-exit", "event lacks tid"),
    ("event 2500 thread-exit 1", "event 1500 thread-exit 1",
     "event out of time order"),
    ("summary insn 2.5 3 4", "summary insn 2.50 3 4", "avg with 2 decimals"),
    ("summary insn 2.5 3 4", "summary insn 2 3 4", "avg without decimal"),
    ("summary insn 2.5 3 4", "summary code 2.5 3 4", "unknown summary kind"),
    ("samples 2\nend", "end", "no samples line"),
    ("samples 2\nend", "samples 2", "no end"),
    ("samples 2\nend\n", "samples 2\nend\n1 2 3\n", "a line after end"),
    ("summary data 6.0 7 9\n", "summary data 6.0 7 9\n3000 1 1\n",
     "a sample in the trailer"),
    ("tool: ws 0.1.0", "tool: valgrind", "tool is not ws"),
]


@pytest.mark.parametrize("old,new,why", REFUSED)
def test_reader_refuses(old, new, why):
    assert old in GOOD
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(GOOD.replace(old, new, 1))


def test_reader_cut_file():
    cut = GOOD[:GOOD.index("2000 3 7") + 4]          # "2000" without newline
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(cut)
    out = wslib.parse_output(cut, complete=False)
    assert not out.complete
    assert [s.t for s in out.samples] == [1003]
    # a cut file must still be well-formed in its complete lines
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(cut.replace("1003 2 5", "1003 2"), complete=False)


def test_stderr_summary_reader():
    err = ("==77== Command: x\n==77== \n"
           "==77== Insn avg/peak/total: 2.1/40/57 pages (8/160/228 kB)\n"
           "==77== Data avg/peak/total: 348.5/534/1098 pages "
           "(1394/2136/4392 kB)\n"
           "==77== Samples: 12\n==77== Output file: /tmp/ws.out.77\n")
    s = wslib.parse_summary(err)
    assert s["insn"] == (2.1, 40, 57) and s["data"] == (348.5, 534, 1098)
    assert s["insn_kb"] == (8, 160, 228) and s["samples"] == 12
    assert s["output_file"] == "/tmp/ws.out.77" and s["pid"] == 77
    with pytest.raises(wslib.FormatError):
        wslib.parse_summary(err.replace("348.5/", "348.55/"))
    with pytest.raises(wslib.FormatError):
        wslib.parse_summary(err.replace("==77== Samples: 12\n", ""))


# ----------------------------------------------------------------------
# Files written by ws

PHASES = [wslib.prog("touch"), "650", "st,0,100,4096,10,2000000",
          "st,409600,500,4096,10,2000000", "st,2457600,50,4096,10,2000000"]


def test_output_file_of_a_run(ws):
    r = ws(PHASES)
    out = r.output
    h = out.header
    assert h["tool"].startswith("ws ")
    assert h["command"] == " ".join(PHASES)
    assert int(h["pid"]) == r.summary["pid"]      # the ==pid== of stderr
    assert int(h["ppid"]) > 0
    assert (h["time-unit"], out.every, out.tau, out.pagesize) == ("i", T, T,
                                                                  4096)
    assert (h["syscalls"], h["per-thread"]) == ("yes", "no")
    assert (h["linesize"], h["columns"]) == (
        "64", "t insn data insn-lines data-lines heap")
    # about 6,130,000 instructions: 61 samples
    assert 60 <= len(out.samples) <= 62, len(out.samples)
    wslib.check_sample_times(out)
    wslib.check_trailer(r)


def test_every_and_tau_other_than_default(ws):
    r = ws(PHASES, "--ws-every=30000", "--ws-tau=70000")
    out = r.output
    assert (out.every, out.tau) == (30000, 70000)
    assert 200 <= len(out.samples) <= 206, len(out.samples)
    wslib.check_sample_times(out)
    wslib.check_trailer(r)
    # phase of 500 pages: one sweep takes 12504 instructions < tau; its
    # stores touch one line of each page (and the loop's stack slots none
    # beyond), so that the window's data density is 1/64 there
    assert max(s.data for s in out.samples if s.insn == 1) == 500
    assert max(s.data_lines for s in out.samples if s.insn == 1) == 500


def test_run_shorter_than_T(ws):
    """No multiple of T comes: the only sample is the final one at exit,
    whose window is the whole run; the trailer says so, with the totals
    (every code page ever touched is in that window)."""
    r = ws([wslib.prog("codepages"), "calls", "1000"], "--ws-every=100000000")
    out = r.output
    (final,) = out.samples
    assert out.nsamples == 1 and list(out.finals) == [final.t]
    exits = [e.t for e in out.events if e.kind == "thread-exit"]
    assert exits == [final.t]
    # ~156,000 instructions of start-up, main and 9 code pages of the loop
    assert out.summary["insn"][2] >= 9 + 1
    assert out.summary["data"][2] >= 1
    assert final.insn == out.summary["insn"][2]
    assert 1 <= final.data <= out.summary["data"][2]
    wslib.check_trailer(r)


def test_pid_in_file_name(ws, tmp_path):
    r = ws([wslib.prog("codepages"), "calls", "1000"],
           out_path=str(tmp_path / "w.%p.out"))
    pid = r.summary["pid"]
    path = tmp_path / ("w.%d.out" % pid)
    assert path.is_file(), os.listdir(tmp_path)
    assert r.summary["output_file"] == str(path)
    assert int(wslib.read_output(str(path)).header["pid"]) == pid


def test_env_var_in_file_name(ws, tmp_path):
    """%q{VAR} is the value of the environment variable VAR (as in
    Valgrind's --log-file)."""
    env = dict(os.environ, WS_TEST_NAME="abc")
    r = ws([wslib.prog("codepages"), "calls", "1000"],
           out_path=str(tmp_path / "w.%q{WS_TEST_NAME}.out"), env=env)
    path = tmp_path / "w.abc.out"
    assert path.is_file(), os.listdir(tmp_path)
    assert r.summary["output_file"] == str(path)
    assert wslib.read_output(str(path)).nsamples == 2    # and the final one


def test_out_file_alias(tmp_path):
    wslib.require_built(wslib.prog("codepages"))
    path = tmp_path / "alias.out"
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws",
                        "--ws-out-file=%s" % path,
                        wslib.prog("codepages"), "calls", "20000"],
                       cwd=tmp_path, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    out = wslib.read_output(str(path))
    # 20000 iterations of 26 instructions after ~130,000 of start-up
    assert out.complete and 6 <= len(out.samples) <= 7, out.samples
    assert (out.samples[-2].insn, out.samples[-2].data) == (9, 1)


def test_default_file_name(tmp_path):
    wslib.require_built(wslib.prog("codepages"))
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws",
                        wslib.prog("codepages"), "calls", "1000"],
                       cwd=tmp_path, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    summ = wslib.parse_summary(p.stderr.decode())
    name = "ws.out.%d" % summ["pid"]
    assert os.listdir(tmp_path) == [name]
    assert os.path.basename(summ["output_file"]) == name
    out = wslib.read_output(str(tmp_path / name))
    assert out.complete and int(out.header["pid"]) == summ["pid"]
    assert (out.every, out.tau, out.pagesize) == (100000, 100000, 4096)
    # one sample at T and the final one at exit
    assert out.nsamples == summ["samples"] == len(out.samples) == 2


def test_time_unit_ms(tmp_path):
    """Milliseconds: about 200,000,000 instructions of a 10-page loop
    after start-up, sampled every 10 ms.  What does not depend on the
    machine's speed: t strictly increasing, at most one sample per
    multiple of 10 ms, never early, never later than the run itself
    lasted (measured around it here); and every window inside the loop
    (1 code page) holds its 10 data pages.  However fast the machine, the
    loop lasts well over 2T, so some window lies inside it."""
    T = 10
    argv = [wslib.prog("touch"), "20", "st,0,10,4096,10,200000000"]
    t0 = time.monotonic()
    r = wslib.run_ws(argv, ("--ws-time-unit=ms", "--ws-every=%d" % T),
                     out_path=str(tmp_path / "ws.out"))
    elapsed_ms = (time.monotonic() - t0) * 1000
    out = r.output
    assert (out.time_unit, out.every, out.tau) == ("ms", T, T)
    assert list(out.finals) == [out.samples[-1].t]
    # the final sample at exit may fall in the multiple of the last one
    multiples = [s.t // T for s in out.samples[:-1]]
    assert all(a < b for a, b in zip(multiples, multiples[1:])), (
        "two samples for one multiple of T: %s" % wslib.show(out.samples))
    for k, s in enumerate(out.samples[:-1], 1):
        assert s.t >= T * k, "sample %d at %d ms, before %d" % (k, s.t, T * k)
    assert out.samples[-1].t <= elapsed_ms, (out.samples[-1].t, elapsed_ms)
    loop = [s for s in out.samples if s.insn == 1]
    assert loop and {s.data for s in loop} == {10}, wslib.show(out.samples)
    wslib.check_trailer(r)


def _sample_lines(path):
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return 0
    return len(re.findall(r"^[0-9][0-9 ]*\n", text, re.M))


def test_killed_run_leaves_valid_file(tmp_path):
    """A run killed with SIGKILL after many samples: the header and every
    complete sample line parse, the samples are right, and there is no
    trailer.  blocker writes to 10 pages for ~6,000,000 instructions (60
    samples) and then blocks reading a pipe that this test holds open."""
    wslib.require_built(wslib.prog("blocker"))
    path = str(tmp_path / "ws.out")
    cmd = wslib.ws_command([wslib.prog("blocker"), "10", "6000000"], (), path)
    rd, wr = os.pipe()
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdin=rd,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(rd)
    try:
        # wait until the samples stop coming (the program blocks)
        deadline = time.monotonic() + 30
        last, stable = -1, 0
        while time.monotonic() < deadline:
            n = _sample_lines(path)
            stable = stable + 1 if n == last else 0
            last = n
            if n >= 55 and stable >= 5:
                break
            assert proc.poll() is None, "ws exited before it was killed"
            time.sleep(0.1)
        assert last >= 55, (
            "after the program ran ~6,000,000 instructions, the file has %d "
            "complete sample lines (samples must be written as they are "
            "taken)" % last)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(wr)
    with open(path) as f:
        text = f.read()
    out = wslib.parse_output(text, complete=False)
    assert not out.complete
    # the whole header is there (keys this reader does not know may be
    # mixed in: readers ignore them)
    assert [k for k in out.header if k in wslib.HEADER_KEYS] == list(
        wslib.HEADER_KEYS)
    assert len(out.samples) >= 55
    wslib.check_sample_times(out)
    loop = [s for s in out.samples if s.insn == 1]
    assert len(loop) >= 55 and {s.data for s in loop} == {10}, \
        wslib.show(out.samples)


# ----------------------------------------------------------------------
# How to look at the files: the summary's last lines

def _view_hints(err):
    return [l.split("== ", 1)[1] for l in err.splitlines()
            if re.match(r"==\d+== To view ", l)]


@pytest.mark.parametrize("name", ["w.out", "it's a (file)"])
def test_view_hint(tmp_path, name):
    """After the file names, as DHAT does, the commands that show them,
    with their actual (shell-quoted) names; each one shown runs as it is
    and shows the file: ws_print's text report and HTML page, and
    callgrind_annotate on the miss profile."""
    out = str(tmp_path / name)
    miss = str(tmp_path / ("m " + name))
    r = wslib.run_ws([wslib.prog("codepages"), "calls", "1000"],
                     ["--ws-miss-file=" + miss], out_path=out)
    q = lambda s: "'%s'" % s.replace("'", "'\\''") if " " in s else s
    html = os.path.basename(out) + ".html"
    # run from the build tree (./vg-in-place), ws_print is the tree's,
    # named with its path: the command works as shown, with no PATH set up
    ws_print = q(os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print"))
    assert _view_hints(r.stderr) == [
        "To view the working sets: %s %s (text), %s --html %s "
        "%s (a web page)" % (ws_print, q(out), ws_print, q(html), q(out)),
        "To view the misses per function: callgrind_annotate %s" % q(miss)]
    # the hints come last, after the names of the files they show
    tail = r.stderr.rstrip("\n").split("\n")[-4:]
    assert tail[0].endswith("Output file: " + out)
    assert tail[1].endswith("Miss profile: " + miss)
    env = dict(os.environ)
    text, page = _view_hints(r.stderr)[0].split(": ", 1)[1].split(", ")
    for hint, shows in ((text.replace(" (text)", ""), "Data"),
                        (page.replace(" (a web page)", ""), ""),
                        (_view_hints(r.stderr)[1].split(": ", 1)[1],
                         "WsDataMiss")):
        p = subprocess.run(hint, shell=True, cwd=str(tmp_path), env=env,
                           capture_output=True, timeout=120)
        assert p.returncode == 0, (hint, p.stderr.decode())
        assert shows in p.stdout.decode(), hint
    assert "<html" in (tmp_path / html).read_text().lower()


def test_view_hint_without_files(tmp_path):
    """No hint for a file that is not there or not complete."""
    r = wslib.run_ws([wslib.prog("codepages"), "calls", "1000"],
                     out_path="/dev/full")
    assert "Output file: /dev/full (incomplete" in r.stderr
    assert _view_hints(r.stderr) == []
    r = wslib.run_ws([wslib.prog("codepages"), "calls", "1000"],
                     out_path=str(tmp_path / "w.out"))
    assert len(_view_hints(r.stderr)) == 1     # no miss profile asked for
