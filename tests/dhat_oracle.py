"""Heap figures per allocation site from DHAT (`valgrind --tool=dhat`), an
independent check of ws's heap-site figures (the Memoro paper's questions,
ws-interface.md sections 6 and 9).

run() runs a program under DHAT and read() reads the JSON file DHAT
writes (its format is described in a comment of dhat/dh_main.c, version
2).  Per allocation site ("program point") it gives what DHAT counts:

- blocks and bytes allocated (tbk, tb), the lifetimes' sum (tl, in DHAT's
  instructions), the bytes and blocks at the end (eb, ebk);
- max_bytes (mb): DHAT updates a site's "max" only when an allocation of
  that site (or a realloc of one of its blocks) sets a new maximum of the
  whole heap, so it is the site's live bytes the last time that happened,
  not always the site's own peak; it is the peak when the heap only grew
  until the site's peak (as in the programs of tests/progs/heap_*.c that
  say so), and 0 for a site whose allocations never made a maximum;
- reads and writes (rb, wb): bytes, counted per access (an 8-byte load
  counts 8; libc's memmove and memset may load or store some bytes twice,
  with overlapping vectors at the ends of a copy), including what system
  calls read or write in a block, and, for a realloc, the copy of the old
  block (read and written) as if the program had made it;
- histogram (acc): for a site whose blocks all had one size of at most
  1,024 bytes and were never resized, the number of accesses to each
  offset of that size, summed over the blocks.  Each block's count stops
  at 65,535, and DHAT writes the sums as 16-bit numbers (modulo 65,536):
  counts_exact() says when neither can have happened (the counts add up
  to the bytes read and written).  From it: the offsets accessed (by any
  block; an offset whose sum is a multiple of 65,536 looks unaccessed
  unless the counts are exact), and those rounded out to lines
  (rounded_out()).  The counts are summed over the blocks, so they say
  what each block had only where the program accesses every block alike
  (as tests/progs/heap_offsets.c does).

Sites are matched to ws's by their stacks: the function names and the
file:line of the frames, never addresses (DHAT's blocks come from its
own allocator, and its preload library moves the C library).  DHAT
replaces malloc, so its stacks begin with the replacement (a frame in
vgpreload_dhat-*.so, or vg_replace_malloc.c when the preload library has
debug information); ws follows the program's own malloc and records the
stack from the allocation function's caller.  Leaving the replacement's
frames out, both begin at the caller, with the same inlined frames; DHAT
spends one of its --num-callers frames on the replacement, so run()
gives DHAT one more than ws's (12 by default) and the stacks are the
same length.  Frames are written as ws writes them: `file:line`, or
`(object)` by the object's base name when there is no line information,
or `???`; a function without a symbol is `???` (ws_key() maps ws's
`object+0x<offset>` to it).

Known differences (ws-interface.md, docs/manual.md):
- a block of 0 bytes (malloc(0)) is 1 byte to DHAT, 0 to ws;
- realloc: DHAT keeps the block under the site that first allocated it
  (a block more and the new size in bytes there, its live bytes changed
  by the difference); ws ends the old chunk and begins a new one at the
  realloc's site.  They agree when every realloc of a block comes from
  the call that allocated it (realloc(NULL, n) and then realloc(p, n) in
  one place, as in tests/progs/heap_regrow.c);
- DHAT counts bytes accessed, ws (exact mode) accesses: compare zero
  against zero only (never, read-only, write-only);
- DHAT runs the C and C++ libraries' freeres at exit, which ws does not:
  run() turns them off (--run-libc-freeres=no, --run-cxx-freeres=no);
- the block a chunk is lies elsewhere under DHAT, so a chunk's lines are
  the same in both runs only when it is aligned to the line (the offsets
  rounded out with the chunk's start modulo the line, from ws).
"""

import json
import os
import re
import subprocess

RECORDED_FRAMES = 12           # ws's --num-callers, Valgrind's default
HISTOGRAM_LIMIT = 1024         # dh_main.c's HISTOGRAM_SIZE_LIMIT
LINE = 64

_FRAME = re.compile(r"0x[0-9A-Fa-f]+: (.*)\Z", re.S)
_LOCATED = re.compile(r"(.*) \((in [^()]+|[^():]+:\d+)\)\Z", re.S)

_SITE_KEYS = ("tb", "tbk", "tl", "mb", "mbk", "gb", "gbk", "eb", "ebk",
              "rb", "wb")


class DhatError(Exception):
    """DHAT's file is not what this reader understands, or a site is not
    found."""


class Frame:
    """One frame of a DHAT stack: function and location as ws writes
    them."""

    __slots__ = ("function", "location", "text")

    def __init__(self, text):
        m = _FRAME.match(text)
        if not m:
            raise DhatError("a frame is '0xADDRESS: FUNCTION (LOCATION)', "
                            "not %r" % text)
        self.text = text
        m2 = _LOCATED.match(m.group(1))
        if m2 is None:
            self.function, self.location = m.group(1), "???"
        elif m2.group(2).startswith("in "):
            self.function = m2.group(1)
            self.location = "(%s)" % os.path.basename(m2.group(2)[3:])
        else:
            self.function = m2.group(1)
            file, line = m2.group(2).rsplit(":", 1)
            self.location = "%s:%s" % (os.path.basename(file), line)

    def key(self):
        return (self.function, self.location)

    def is_replacement(self):
        """A frame of DHAT's malloc replacement (not the program's)."""
        return (self.location.startswith("(vgpreload_")
                or self.location.startswith("vg_replace_malloc.c:"))

    def __repr__(self):
        return "<%s %s>" % (self.function, self.location)


def decode_histogram(acc):
    """DHAT's run-length encoding: a negative -n is followed by a count
    that stands n times."""
    out = []
    i = 0
    while i < len(acc):
        v = acc[i]
        if not isinstance(v, int):
            raise DhatError("a histogram holds integers, not %r" % (v,))
        if v < 0:
            if i + 1 == len(acc) or not isinstance(acc[i + 1], int) \
                    or acc[i + 1] < 0:
                raise DhatError("a run length -%d is followed by a count"
                                % -v)
            out.extend([acc[i + 1]] * -v)
            i += 2
        else:
            out.append(v)
            i += 1
    return out


def rounded_out(offsets, size, line=LINE, start=0):
    """The bytes of a chunk of size bytes, starting at start (an address,
    or the address modulo line), that lie on the lines holding any of the
    offsets: what a chunk touched at those offsets counts at line
    resolution."""
    lines = {(start + o) // line for o in offsets}
    return sum(1 for o in range(size) if (start + o) // line in lines)


class Site:
    """One of DHAT's program points (see the module's docstring)."""

    def __init__(self, pp, frames):
        for k in _SITE_KEYS:
            if not isinstance(pp.get(k), int) or pp[k] < 0:
                raise DhatError("a program point has a count %s" % k)
        self.blocks, self.bytes = pp["tbk"], pp["tb"]
        self.lifetimes = pp["tl"]
        self.max_bytes, self.max_blocks = pp["mb"], pp["mbk"]
        self.end_bytes, self.end_blocks = pp["eb"], pp["ebk"]
        self.reads, self.writes = pp["rb"], pp["wb"]
        self.all_frames = frames
        n = 0
        while n < len(frames) and frames[n].is_replacement():
            n += 1
        self.frames = frames[n:]
        self.histogram = None
        if "acc" in pp:
            h = decode_histogram(pp["acc"])
            if not self.blocks or len(h) * self.blocks != self.bytes \
                    or len(h) > HISTOGRAM_LIMIT:
                raise DhatError("a histogram has one count per byte of "
                                "the site's one size, at most %d"
                                % HISTOGRAM_LIMIT)
            self.histogram = h

    @property
    def size(self):
        """The one size of the site's blocks, when it has a histogram."""
        return None if self.histogram is None else len(self.histogram)

    def key(self):
        return tuple(f.key() for f in self.frames)

    def counts_exact(self):
        """Whether the histogram's counts are the true sums: each access
        counts 1 at each of its offsets in the block and its size in the
        bytes read or written, so the counts add up to those bytes unless
        a count stopped or wrapped (or an access ran past the block)."""
        return sum(self.histogram) == self.reads + self.writes

    def accessed(self):
        """The offsets some block accessed."""
        return frozenset(o for o, n in enumerate(self.histogram) if n)

    def touched_bounds(self):
        """Bounds of the bytes accessed summed over the blocks (ws's
        touched in exact mode), from exact counts: at least each offset
        some block accessed, at most each offset in as many blocks as it
        had accesses (and there are blocks).  Equal when every block is
        accessed at the same offsets once each."""
        if not self.counts_exact():
            raise DhatError("the counts of this site stopped or wrapped")
        return (len(self.accessed()),
                sum(min(n, self.blocks) for n in self.histogram))

    def lines(self, line=LINE, start=0):
        """The lines of a block starting at start (modulo line) that hold
        an accessed offset, numbered from the block's first line."""
        return frozenset((start % line + o) // line for o in self.accessed())

    def line_bytes(self, line=LINE, start=0):
        """The bytes of one block on those lines."""
        return rounded_out(self.accessed(), self.size, line, start)

    def interval(self):
        """Highest - lowest accessed offset + 1 (0: none)."""
        a = self.accessed()
        return max(a) - min(a) + 1 if a else 0

    def __repr__(self):
        return "<dhat site %d blocks %d bytes %r>" % (
            self.blocks, self.bytes, self.frames[:2])


class Profile:
    """A DHAT heap profile: te (the run's length in DHAT's instructions),
    tg (the time of the heap's maximum), cmd, and sites."""

    def __init__(self, data):
        if not isinstance(data, dict) or data.get("dhatFileVersion") != 2:
            raise DhatError("not a DHAT file of version 2")
        if data.get("mode") != "heap" or data.get("bklt") is not True \
                or data.get("bkacc") is not True:
            raise DhatError("not a heap profile with block lifetimes and "
                            "accesses (DHAT's --mode=heap)")
        for k in ("te", "tg", "cmd", "pps", "ftbl"):
            if k not in data:
                raise DhatError("a DHAT file lacks %r" % k)
        self.te, self.tg, self.cmd = data["te"], data["tg"], data["cmd"]
        table = data["ftbl"]
        if not table or table[0] != "[root]":
            raise DhatError("the frame table begins with [root]")
        frames = [None] + [Frame(t) for t in table[1:]]
        self.sites = []
        for pp in data["pps"]:
            fs = pp.get("fs")
            if not isinstance(fs, list) or not fs \
                    or any(not isinstance(i, int) or not 0 < i < len(frames)
                           for i in fs):
                raise DhatError("a program point's frames index the frame "
                                "table")
            self.sites.append(Site(pp, [frames[i] for i in fs]))

    def matching(self, key):
        """The site whose stack (function and location of each frame,
        without the replacement's) is key; DhatError unless exactly one."""
        key = tuple(key)
        found = [s for s in self.sites if s.key() == key]
        if len(found) != 1:
            raise DhatError("%d DHAT sites have the stack %r"
                            % (len(found), key))
        return found[0]

    def find(self, function, caller=None):
        """The one site whose first frame is in function (called from
        caller, when given)."""
        found = [s for s in self.sites if s.frames
                 and s.frames[0].function.split("(")[0] == function
                 and (caller is None or len(s.frames) > 1
                      and s.frames[1].function.split("(")[0] == caller)]
        if len(found) != 1:
            raise DhatError("%d DHAT sites allocate in %s" % (len(found),
                                                               function))
        return found[0]


def ws_key(frames):
    """The stack key of ws's frames (wslib's Where: function, location);
    code without a symbol, which ws names by its object and offset, is
    "???" as DHAT names it."""
    return tuple(("???" if f.named_by_offset() else f.function, f.location)
                 for f in frames)


def parse(text):
    try:
        data = json.loads(text)
    except ValueError as e:
        raise DhatError("not JSON: %s" % e)
    return Profile(data)


def read(path):
    with open(path) as f:
        return parse(f.read())


def command(valgrind, argv, out_path, frames=RECORDED_FRAMES, options=()):
    """DHAT's command line for argv, its file written to out_path, its
    stacks as deep as ws's of `frames` frames."""
    return [valgrind, "--tool=dhat", "--dhat-out-file=" + out_path,
            "--num-callers=%d" % (frames + 1), "--run-libc-freeres=no",
            "--run-cxx-freeres=no", *options, *argv]


def run(valgrind, argv, out_path, *, frames=RECORDED_FRAMES, options=(),
        timeout=300):
    """Runs argv under DHAT (exit status 0 required) and reads its file."""
    p = subprocess.run(command(valgrind, argv, out_path, frames, options),
                       cwd=os.path.dirname(out_path) or ".",
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    if p.returncode != 0:
        raise DhatError("DHAT run of %s: exit status %d\n%s" % (
            argv[0], p.returncode, p.stderr.decode(errors="replace")[-2000:]))
    return read(out_path)
