"""The Memoro paper's heap figures per allocation site (Byma and Larus,
ISMM 2018), as ws-interface.md sections 6, 9 and 13 define them, from
per-chunk facts: the reference that ws's heap-site, heap-scores and
heap-chunk lines are checked against (tests/test_memoro_model.py checks
the model itself, on chunks whose answers are worked out by hand).

A chunk's facts (Chunk): its site, when it was allocated and freed (None:
live at the end of the run, which then ends it), its size, the offsets of
its bytes counted as accessed at the run's resolution (byte-exact in
exact mode; at line resolution, every byte of the chunk on a line the
program accessed in it: on_lines()), its numbers of reads and writes
(accesses, not bytes; at line resolution only whether there were any
counts), its first and last access, and whether it is below the
resolution: its lines are shared, and what they saw may be a
neighbour's, so its facts are upper bounds (accessed bytes, kinds) and
what they give is a bound.

Per site (figures()), exactly:
- chunks, bytes, peak-live (the most bytes live at once; at one instant
  frees come before allocations, as when realloc frees the old chunk and
  allocates the new one), exit-live;
- never (no access), read-only, write-only;
- touched: the accessed bytes, summed (the Useless rule not applied);
  interval: over accessed chunks, highest - lowest accessed offset + 1;
- usage: sum over chunks of U(c) x accessed bytes of c, over the bytes
  allocated, where U(c) is the paper's Useless function: 0 when the
  chunk was never read or never written, else 1 (a site of zero bytes:
  1, it wastes nothing); with chunks below the resolution it is a bound,
  written usage-max, and below-resolution says how many;
- lifetime (mean), first-delay and idle-tail (means over the accessed
  chunks), useful (mean over all chunks of (last - first) / lifetime: 0
  for a chunk never accessed, 1 for one of no lifetime): section 6;
- lifetime-score: the chunks in allocation order; a chunk allocated at
  most the threshold (by default 0.1 % of the run's length) after the
  previous one joins its group; a group scores its chunks' mean lifetime
  over its span, from its first allocation to its last end (1 for a
  span of 0); the site scores the mean of its groups;
- growth: the number of maximal runs of three or more consecutive chunks
  (allocation order) whose sizes strictly grow;
- score: the geometric mean of lifetime-score, usage and useful.
Over sites: the heap-scores line (the geometric mean of each of the three
scores over the sites: the paper's global scores, 0 when any site scores
0); the paper's marks (top_marks(): a site in the top 90th percentile of
peak-live bytes or of chunks); the ranking, worst first by
(1 - score) x bytes; and the heap-chunk records a site keeps
(records()).

Fractions are exact (fractions.Fraction) and written with three decimals
rounded half up, as ws writes them (geometric means included: their
rounding is decided in integers); means of times are whole numbers
rounded half up, as ws writes them.
"""

import math
from fractions import Fraction

DEFAULT_THRESHOLD = Fraction(1, 1000)
GROWTH_RUN = 3
TOP_PERCENTILE = Fraction(9, 10)
MARK_KEYS = ("peak-live", "chunks")


class ModelError(ValueError):
    """Facts that no run can produce."""


class Chunk:
    """What is known of one chunk (see the module's docstring)."""

    __slots__ = ("site", "alloc", "free", "size", "accessed", "reads",
                 "writes", "first", "last", "below")

    def __init__(self, site, alloc, free, size, accessed=(), reads=0,
                 writes=0, first=None, last=None, below=False):
        self.site, self.alloc, self.free, self.size = site, alloc, free, size
        self.accessed = frozenset(accessed)
        self.reads, self.writes = reads, writes
        self.first, self.last, self.below = first, last, below
        self._check()

    def _check(self):
        if self.size < 0 or self.alloc < 0 or self.reads < 0 \
                or self.writes < 0:
            raise ModelError("size, times and counts are not negative")
        if self.free is not None and self.free < self.alloc:
            raise ModelError("a chunk is freed after its allocation")
        if any(not 0 <= o < self.size for o in self.accessed):
            raise ModelError("an accessed offset lies outside the chunk")
        accessed = self.reads + self.writes > 0
        if accessed != bool(self.accessed):
            raise ModelError("a chunk with accesses has accessed bytes, "
                             "and only such a chunk")
        if accessed != (self.first is not None) \
                or accessed != (self.last is not None):
            raise ModelError("first and last access are known exactly "
                             "for an accessed chunk")
        if accessed and not self.alloc <= self.first <= self.last:
            raise ModelError("accesses come after the allocation, the "
                             "first before the last")
        if accessed and self.free is not None and self.last > self.free:
            raise ModelError("no access comes after the free")

    def end(self, run_end):
        """The chunk's end: its free, or the end of the run."""
        return run_end if self.free is None else self.free

    def useless(self):
        """The paper's Useless function U: 0 when never read or never
        written."""
        return 0 if self.reads == 0 or self.writes == 0 else 1


def on_lines(start, size, lines, line=64):
    """The offsets of the chunk [start, start + size) that lie on the
    lines (indices address // line) given: its accessed bytes at line
    resolution."""
    return frozenset(o for o in range(size) if (start + o) // line in lines)


def half_up(x):
    """A non-negative Fraction rounded to the nearest whole number, halves
    up (ws's (sum + n / 2) / n)."""
    x = Fraction(x)
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def milli(x):
    """x (a Fraction from 0 to 1) in thousandths, rounded half up."""
    return half_up(Fraction(x) * 1000)


def root_milli(product, n):
    """The n-th root of product (a Fraction from 0 to 1), in thousandths
    rounded half up, decided in integers: the m with
    ((2m - 1) / 2000)^n <= product < ((2m + 1) / 2000)^n."""
    product = Fraction(product)
    if product == 0:
        return 0
    p, q, scale = product.numerator, product.denominator, 2000 ** n

    def below(m):          # the root is below (2m + 1) / 2000
        return p * scale < (2 * m + 1) ** n * q

    m = min(1000, max(0, round(1000 * (p / q) ** (1.0 / n))))
    while m > 0 and below(m - 1):
        m -= 1
    while m < 1000 and not below(m):
        m += 1
    return m


def text3(m):
    """Thousandths as ws writes a fraction: 0.805."""
    return "%d.%03d" % (m // 1000, m % 1000)


class SiteFigures:
    """One site's figures; fractions exact, and *_milli as written."""

    def __init__(self, site, chunks, run_end, threshold):
        self.site = site
        self.order = min(c.alloc for c in chunks)
        ends = [c.end(run_end) for c in chunks]
        accessed = [c for c in chunks if c.accessed]
        self.chunks = len(chunks)
        self.bytes = sum(c.size for c in chunks)
        self.peak_live = peak_live(chunks, ends)
        self.exit_live = sum(c.free is None for c in chunks)
        self.never = len(chunks) - len(accessed)
        self.read_only = sum(c.writes == 0 for c in accessed)
        self.write_only = sum(c.reads == 0 for c in accessed)
        self.below = sum(c.below for c in chunks)
        self.touched = sum(len(c.accessed) for c in chunks)
        self.interval = sum(max(c.accessed) - min(c.accessed) + 1
                            for c in accessed)
        self.usage = (Fraction(sum(c.useless() * len(c.accessed)
                                   for c in chunks), self.bytes)
                      if self.bytes else Fraction(1))
        lives = [e - c.alloc for c, e in zip(chunks, ends)]
        self.lifetime = half_up(Fraction(sum(lives), len(chunks)))
        self.first_delay = half_up(Fraction(
            sum(c.first - c.alloc for c in accessed),
            len(accessed))) if accessed else 0
        self.idle_tail = half_up(Fraction(
            sum(e - c.last for c, e in zip(chunks, ends) if c.accessed),
            len(accessed))) if accessed else 0
        self.useful = sum((Fraction(c.last - c.first, life) if life else 1)
                          if c.accessed else 0
                          for c, life in zip(chunks, lives)) / len(chunks)
        self.lifetime_score = lifetime_score(chunks, ends, run_end, threshold)
        self.growth = growth(chunks)
        self.usage_milli = milli(self.usage)
        self.useful_milli = milli(self.useful)
        self.lifetime_score_milli = milli(self.lifetime_score)
        self.score_milli = root_milli(
            self.lifetime_score * self.usage * self.useful, 3)

    def wasted(self):
        """What the ranking sorts by: (1 - score) x bytes, from the score
        as written (so that ws and the model rank alike)."""
        return (1000 - self.score_milli) * self.bytes

    def keys(self):
        """The heap-site keys of sections 6, 9 and 13 whose values follow
        from the facts, as ws writes them."""
        k = {"chunks": self.chunks, "bytes": self.bytes,
             "peak-live": self.peak_live, "never": self.never,
             "read-only": self.read_only, "write-only": self.write_only,
             "lifetime": self.lifetime, "first-delay": self.first_delay,
             "idle-tail": self.idle_tail, "useful": text3(self.useful_milli),
             "touched": self.touched, "interval": self.interval,
             "lifetime-score": text3(self.lifetime_score_milli),
             "growth": self.growth, "score": text3(self.score_milli),
             "exit-live": self.exit_live}
        if self.below:
            k["below-resolution"] = self.below
            k["usage-max"] = text3(self.usage_milli)
        else:
            k["usage"] = text3(self.usage_milli)
        return k


def peak_live(chunks, ends):
    """The most bytes live at once; at one instant frees come first."""
    events = sorted([(c.alloc, 1, c.size) for c in chunks]
                    + [(e, 0, -c.size) for c, e in zip(chunks, ends)
                       if c.free is not None])
    live = peak = 0
    for _, _, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


def lifetime_score(chunks, ends, run_end, threshold):
    """The paper's lifetime score (see the module's docstring)."""
    limit = Fraction(threshold) * run_end
    groups = []
    prev = None
    for c, e in sorted(zip(chunks, ends), key=lambda ce: ce[0].alloc):
        if prev is None or c.alloc - prev > limit:
            groups.append([c.alloc, e, 0, 0])    # start, end, n, life sum
        g = groups[-1]
        g[1] = max(g[1], e)
        g[2] += 1
        g[3] += e - c.alloc
        prev = c.alloc
    scores = [Fraction(life, n * (end - start)) if end > start else 1
              for start, end, n, life in groups]
    return sum(scores, Fraction(0)) / len(scores)


def growth(chunks):
    """Runs of GROWTH_RUN or more consecutive chunks of growing size."""
    runs, length, prev = 0, 0, None
    for c in sorted(chunks, key=lambda c: c.alloc):
        length = length + 1 if prev is not None and c.size > prev else 1
        if length == GROWTH_RUN:
            runs += 1
        prev = c.size
    return runs


def figures(chunks, run_end, threshold=DEFAULT_THRESHOLD):
    """{site: SiteFigures} for chunks (in allocation order where
    allocation times tie) of a run that ended at run_end; threshold is
    the lifetime score's grouping threshold, a fraction of run_end."""
    by_site = {}
    for c in chunks:
        if max(c.alloc, c.free or 0, c.last or 0) > run_end:
            raise ModelError("the run ends after its last event")
        by_site.setdefault(c.site, []).append(c)
    return {s: SiteFigures(s, cs, run_end, threshold)
            for s, cs in by_site.items()}


def heap_scores(figs):
    """The heap-scores line's values: the geometric mean over the sites of
    each score, in thousandths (the paper's global scores); a run without
    sites has none."""
    sites = list(figs.values())
    if not sites:
        raise ModelError("a run without allocation sites has no global "
                         "scores")
    out = {}
    for key, attr in (("lifetime", "lifetime_score"), ("usage", "usage"),
                      ("useful", "useful")):
        product = Fraction(1)
        for f in sites:
            product *= getattr(f, attr)
        out[key] = root_milli(product, len(sites))
    return out


def heap_scores_line(figs):
    s = heap_scores(figs)
    return "heap-scores lifetime %s usage %s useful %s" % (
        text3(s["lifetime"]), text3(s["usage"]), text3(s["useful"]))


def top_marks(figs):
    """{site: set of MARK_KEYS} for the paper's marks: a site is in the
    top 90th percentile of a key when its value is at least the value at
    position floor(0.9 n) of the n sites' values in ascending order, and
    more than 0 (so sites of equal value are marked alike)."""
    marks = {s: set() for s in figs}
    for key, attr in zip(MARK_KEYS, ("peak_live", "chunks")):
        values = sorted(getattr(f, attr) for f in figs.values())
        if not values:
            continue
        cut = values[math.floor(TOP_PERCENTILE * len(values))]
        for s, f in figs.items():
            if getattr(f, attr) >= cut and getattr(f, attr) > 0:
                marks[s].add(key)
    return marks


def ranked(figs):
    """The sites worst first: by (1 - score) x bytes, then by bytes, then
    by their first allocation."""
    return sorted(figs, key=lambda s: (-figs[s].wasted(), -figs[s].bytes,
                                       figs[s].order))


def records(chunks, limit):
    """The chunks of one site whose heap-chunk records it keeps, at most
    limit of them spread over its allocations: those whose index (from 0,
    in allocation order) is a multiple of the smallest power of two
    stride that leaves at most limit (so that a site keeps every other
    one of its records when it runs out of room, in bounded memory)."""
    if limit < 1:
        raise ModelError("a site keeps at least one chunk record")
    ordered = sorted(chunks, key=lambda c: c.alloc)
    stride = 1
    while -(-len(ordered) // stride) > limit:
        stride *= 2
    return ordered[::stride]


def chunk_line(site_id, c):
    """A heap-chunk line (section 13) for chunk c of site site_id."""
    def t(v):
        return "-" if v is None else str(v)
    lo = min(c.accessed) if c.accessed else None
    hi = max(c.accessed) if c.accessed else None
    return ("heap-chunk %d alloc %d free %s size %d first %s last %s lo %s "
            "hi %s" % (site_id, c.alloc, t(c.free), c.size, t(c.first),
                       t(c.last), t(lo), t(hi)))
