"""Heap usage per allocation site, computed independently of ws from a
lackey trace of every access and the program's own allocation log.

The programs (tests/progs/heap_small*.c*, heaplog.h) note, in a global
array, each call of the allocator: `call` before malloc or new, `alloc`
after it returns, `free` before free or delete, `back` after it returns;
and print the array at exit: `heaplog ADDRESS ENTRY_SIZE N` then
`I call|alloc|free|back PTR SIZE SITE` per entry, every number in
hexadecimal.  In lackey's trace
(`--trace-mem=yes`: an `I` line per instruction, ` L`/` S`/` M` lines per
load, store and modify) the first store into entry I marks when it
happened.  Runs under Valgrind are deterministic, so the log printed by the
ws run describes the lackey run too; the oracle checks that every entry is
marked, in order.

For every chunk, from its allocation to its free (or the end), and at each
granularity asked for (a page size; 1 is byte granularity), the oracle
finds what ws defines (docs/manual.md, "Heap usage"): the bytes of the
chunk on granules accessed while it lived, whether those granules were
read and written, and the first and last access to them, in instructions
(the number of `I` lines so far).  As for ws, the allocator's own
accesses (between a `call` and its `alloc`, a `free` and its `back`) do
not count as the use of a chunk.  Lackey does not see the memory that
system calls access: compare with ws run with `--ws-syscalls=no`.

Sites are summed by the SITE number of the log; chunks the log does not
name (the C library's own) are not the oracle's business.
"""

import collections
import re

_HEX = r"(0x[0-9a-f]+)"
_LOG_HEAD = re.compile(r"heaplog %s %s %s\Z" % (_HEX, _HEX, _HEX))
_LOG_LINE = re.compile(r"%s (call|alloc|free|back) %s %s %s\Z"
                       % (_HEX, _HEX, _HEX, _HEX))


class OracleError(Exception):
    """The log or the trace is not what the oracle understands."""


def parse_log(stdout):
    """(array address, entry size, [(kind, ptr, size, site), ...])."""
    lines = stdout.splitlines()
    heads = [i for i, l in enumerate(lines) if l.startswith("heaplog ")]
    if len(heads) != 1:
        raise OracleError("no single 'heaplog' line in the output")
    m = _LOG_HEAD.match(lines[heads[0]])
    if not m:
        raise OracleError("bad heaplog line %r" % lines[heads[0]])
    base, esize, n = (int(m.group(k), 16) for k in (1, 2, 3))
    events = []
    for i, l in enumerate(lines[heads[0] + 1:heads[0] + 1 + n]):
        m = _LOG_LINE.match(l)
        if not m or int(m.group(1), 16) != i:
            raise OracleError("bad heaplog entry %r" % l)
        events.append((m.group(2), int(m.group(3), 16), int(m.group(4), 16),
                       int(m.group(5), 16)))
    if len(events) != n:
        raise OracleError("the log has %d entries, says %d" % (len(events), n))
    return base, esize, events


class Chunk:
    __slots__ = ("start", "size", "site", "alloc_t", "alloc_seq", "end_t",
                 "live_at_exit", "first", "got")

    def __init__(self, start, size, site):
        self.start, self.size, self.site = start, size, site
        self.alloc_t = self.alloc_seq = self.end_t = None
        self.live_at_exit = False
        self.first = {}          # granularity -> time of first access
        self.got = {}            # granularity -> (touched, read, written,
                                 #                 last_t)


class SiteSums:
    """What ws's heap-site line sums, at one granularity (times in
    instructions, sums rather than means)."""

    __slots__ = ("chunks", "bytes", "touched", "never", "read_only",
                 "write_only", "accessed", "lifetime", "first_delay",
                 "idle_tail", "useful", "exit_live")

    def __init__(self):
        for k in self.__slots__:
            setattr(self, k, 0)

    def add(self, c, g):
        touched, read, written, last = c.got[g]
        life = c.end_t - c.alloc_t
        self.chunks += 1
        self.bytes += c.size
        self.touched += touched
        self.lifetime += life
        self.exit_live += c.live_at_exit
        first = c.first.get(g)
        if first is None:
            self.never += 1
            return
        self.accessed += 1
        self.read_only += read and not written
        self.write_only += written and not read
        self.first_delay += first - c.alloc_t
        self.idle_tail += c.end_t - last
        self.useful += (last - first) / life if life else 1.0

    def __repr__(self):
        return "SiteSums(%s)" % ", ".join("%s=%r" % (k, getattr(self, k))
                                          for k in self.__slots__)


class _Granule:
    """The accesses to one granularity's granules that chunks need."""

    def __init__(self, size):
        self.shift = size.bit_length() - 1
        self.last = {}           # granule -> time of the latest access
                                 # that is not the allocator's
        self.used = {}           # ... and its seq
        self.read = {}           # ... of those, the latest read
        self.write = {}          # ... and the latest write
        self.waiting = collections.defaultdict(list)

    def access(self, a, n, reads, writes, seq, t, own):
        s = self.shift
        for gr in range((a >> s), ((a + n - 1) >> s) + 1):
            if own:
                continue
            self.last[gr] = t
            self.used[gr] = seq
            if reads:
                self.read[gr] = seq
            if writes:
                self.write[gr] = seq
            w = self.waiting.pop(gr, None)
            if w:
                for c in w:
                    c.first.setdefault(1 << s, t)

    def born(self, c):
        s = self.shift
        for gr in range(c.start >> s, ((c.start + c.size - 1) >> s) + 1):
            self.waiting[gr].append(c)

    def ended(self, c):
        s, g = self.shift, 1 << self.shift
        touched, read, written, last = 0, False, False, None
        for gr in range(c.start >> s, ((c.start + c.size - 1) >> s) + 1):
            w = self.waiting.get(gr)
            if w and c in w:
                w.remove(c)
                if not w:
                    del self.waiting[gr]
            if self.used.get(gr, 0) <= c.alloc_seq:
                continue
            lo, hi = max(gr << s, c.start), min((gr + 1) << s,
                                                c.start + c.size)
            touched += hi - lo
            t = self.last[gr]
            last = t if last is None else max(last, t)
            read |= self.read.get(gr, 0) > c.alloc_seq
            written |= self.write.get(gr, 0) > c.alloc_seq
        c.got[g] = (touched, read, written, last)
        if g == 1:
            self.ended_in_lines(c, read, written, last)

    def ended_in_lines(self, c, read, written, last):
        """At byte granularity, also what ws's default finds at line
        resolution (LINE): the chunk's bytes on the lines where its own
        bytes were accessed, its own kinds."""
        lines = {b >> LINE_SHIFT
                 for b in range(c.start, c.start + c.size)
                 if self.used.get(b, 0) > c.alloc_seq}
        touched = sum(1 for b in range(c.start, c.start + c.size)
                      if b >> LINE_SHIFT in lines)
        c.got[LINES] = (touched, read, written, last)
        if 1 in c.first:
            c.first[LINES] = c.first[1]


# ws's default resolution: 64-byte lines, found with byte granularity
# (compute's result under the key LINES).
LINE_SHIFT = 6
LINES = "lines"


def empty(c, g):
    """A chunk of 0 bytes."""
    c.got[1 << g.shift] = (0, False, False, None)
    if g.shift == 0:
        c.got[LINES] = (0, False, False, None)


def compute(lines, log, granularities):
    """Stream lackey's trace `lines` with the allocation `log` (from
    parse_log); returns {granularity: {site: SiteSums}}, and with
    granularity 1 {LINES: ...} too."""
    base, esize, events = log
    end_of_log = base + esize * len(events)
    grans = [_Granule(g) for g in granularities]
    # Only accesses that reach a logged chunk's granules matter.
    ps = max(granularities)
    lo = min((p for k, p, n, s in events if k == "alloc"), default=0)
    hi = max((p + n for k, p, n, s in events if k == "alloc"), default=0)
    lo, hi = lo & ~(ps - 1), (hi + ps - 1) & ~(ps - 1)
    live = {}
    chunks = []
    next_ev = 0
    icount = seq = 0
    own = False              # inside the allocator
    for line in lines:
        c0 = line[:1]
        if c0 == "I":
            icount += 1
            continue
        if c0 != " ":
            continue
        kind = line[1]
        comma = line.index(",", 3)
        a = int(line[3:comma], 16)
        if base <= a < end_of_log and kind == "S":
            i = (a - base) // esize
            if i == next_ev:
                seq += 1
                k, p, n, site = events[i]
                own = k in ("call", "free")
                if k == "alloc":
                    c = Chunk(p, n, site)
                    c.alloc_t, c.alloc_seq = icount, seq
                    if p in live:
                        raise OracleError("entry %d: %#x allocated twice"
                                          % (i, p))
                    live[p] = c
                    chunks.append(c)
                    if n:
                        for g in grans:
                            g.born(c)
                elif k == "free":
                    c = live.pop(p, None)
                    if c is None:
                        raise OracleError("entry %d frees %#x, not live"
                                          % (i, p))
                    c.end_t = icount
                    for g in grans:
                        if c.size:
                            g.ended(c)
                        else:
                            empty(c, g)
                next_ev += 1
            continue
        if not lo <= a < hi:
            continue
        n = int(line[comma + 1:])
        seq += 1
        for g in grans:
            g.access(a, n, kind in "LM", kind in "SM", seq, icount, own)
    if next_ev != len(events):
        raise OracleError("the trace marks %d of the log's %d entries"
                          % (next_ev, len(events)))
    for c in live.values():
        c.end_t, c.live_at_exit = icount, True
        for g in grans:
            if c.size:
                g.ended(c)
            else:
                empty(c, g)
    out = {}
    for g in granularities + ((LINES,) if 1 in granularities else ()):
        sites = collections.defaultdict(SiteSums)
        for c in chunks:
            sites[c.site].add(c, g)
        out[g] = dict(sites)
    return out
