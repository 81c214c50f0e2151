"""Exact locality curves from a lackey trace: Denning's working-set size
s(tau), the missing rate m(tau) and the LRU miss-ratio curve, for
instructions and data, at page and line granularity, from one run.  The
definitions below are the ones ws's curves must meet (the same numbers a
full trace gives); the tests compare ws with them.

The trace is tests/oracle.py's (`--tool=lackey --trace-mem=yes
--trace-syscalls=yes --vex-guest-chase=no`, streamed through a pipe by
oracle.stream), read with ws's clock:

- Time.  Instruction t (t = 1 .. K) is the t-th instruction executed; with
  count_rep="once" (ws's default --ws-count-rep=once) consecutive I lines of
  the same address are one instruction, a rep-prefixed string instruction
  whose iterations' data lines are all its own (oracle.py says where that
  rule could be wrong; the programs compared here do none of it).
- Units.  A page is an aligned block of `pagesize` bytes, a line one of
  `linesize` bytes.  Instruction t *touches* a unit when a byte of it lies
  in the unit: for instructions, a byte of the instruction (one that
  straddles two units touches both); for data, a byte of any of its loads,
  stores or modifies (L, S, M lines; straddling ones touch every unit they
  reach).  A touch is one per (unit, instruction): how many accesses of
  which kind the instruction made to the unit does not matter, as it does
  not for membership in a working set.  Instructions and data are separate
  (a data access to a code page is data).  A unit is an address: unmapping
  and mapping it again does not make it another one (the totals of ws's
  summary count such a page twice; locality is about addresses).
- The working set W(t, tau) is the set of units touched by the
  instructions t' with t - tau < t' <= t and t' >= 1: the window is
  truncated at the run's start.
- s(tau) = (1/K) * sum over t = 1 .. K of |W(t, tau)|, in units.
- m(tau) = (1000/K) * the number of touches (u, t) such that no
  instruction t' with t - tau <= t' < t touched u (first touches
  included): misses per 1,000 instructions.  Equivalently, the units that
  enter the working set, sum over t of |W(t, tau) \\ W(t-1, tau)|; this is
  what ws's miss profile calls a working-set miss, for a window that
  slides by one instruction.
- The taus are 64, 128, 256, ... up to the first power of two at or above
  K (beyond it both curves are flat: s = mean over t of the units touched
  in [1, t], m = 1000 * units / K).
- The miss-ratio curve: the touches, in time order and within one
  instruction in the trace's order (the accesses as lackey lists them, and
  the units of one access by address), are the references to a fully
  associative LRU cache.  A reference's stack distance is 1 + the number of
  other units referenced since its unit's previous reference (infinite for
  the first); it hits a cache of C units iff its distance is at most C.
  miss(C) = the references that miss / all references, cold misses
  included, for C = 1, 2, 4, ... up to the first power of two at or above
  the number of units touched.
- Regions.  With marker="sys_getppid" (a substring of lackey's SYSCALL
  lines) each pair of such lines, the 1st and 2nd, the 3rd and 4th, ...,
  delimits a region: the instructions after the first line of the pair up
  to the second (so the second marker's `syscall` instruction is in it, the
  first's is not).  A region is measured as a run of its own: its time
  starts at 1, its windows are truncated at its start, its cache starts
  cold.  The test programs make these system calls from assembly right
  around their measured loops (tests/progs/knees.c).

How (and why it is exact).  For a unit u with touches t_1 < ... < t_n, u is
in W(t, tau) for t in [t_i, t_i + tau) and nowhere else, so

    K * s(tau) = sum over u of ( sum over gaps g = t_{i+1} - t_i of
                 min(g, tau) + min(K + 1 - t_n, tau) )

and a touch at t_{i+1} misses iff its gap g > tau.  The gaps of each unit
sum to t_n - t_1, and min(x, tau) = x - max(x - tau, 0), so with the tails
h = K + 1 - t_n

    K * s(tau) = sum over u of (K + 1 - t_1)
                 - sum over gaps and tails x > tau of (x - tau)
    misses(tau) = U + #{gaps g > tau}

(U the units touched).  Kept per power-of-two bin (2^k, 2^(k+1)]: the
number and the sum of the gaps and of the tails falling in it.  For
tau = 2^j the values above tau are exactly those of the bins k >= j (a gap
equal to tau falls in bin j-1: it is no miss and adds nothing), so every
curve point is exact in integers; s and m are those integers divided by K,
as a double each.  Memory: the last touch of each unit and 2 x 64 bins.

Stack distances: a Fenwick tree over reference positions holds a 1 at the
position of each unit's latest reference; a reference to a unit last
referenced at position p has distance 1 + (units whose mark lies after p).
When the positions run out, the units are renumbered in the order of their
marks (compaction), so memory stays proportional to the units touched, and
each reference costs O(log units).  A reference to the unit referenced
just before it (distance 1, most instruction fetches) takes no tree
operation.
"""

import oracle

# The smallest tau of the curves (../shared/ws-interface.md section 11).
TAU_MIN = 64
BINS = 64


def taus(k):
    """64, 128, ... up to the first power of two at or above k."""
    out = [TAU_MIN]
    while out[-1] < k:
        out.append(out[-1] * 2)
    return out


def sizes(units):
    """1, 2, 4, ... up to the first power of two at or above units."""
    out = [1]
    while out[-1] < units:
        out.append(out[-1] * 2)
    return out


def _bin(x):
    """The bin (2^k, 2^(k+1)] of x >= 2."""
    return (x - 1).bit_length() - 1


class LRUStack:
    """Stack distances of a reference stream, exactly, in memory that grows
    with the distinct units only (see the module's docstring)."""

    def __init__(self, capacity=1 << 16):
        self.pos = {}                 # unit -> position of its last reference
        self.cap = capacity
        self.tree = [0] * (capacity + 1)
        self.next = 1                 # the next reference's position
        self.refs = 0
        self.cold = 0
        # hist[k]: references at distance d, 2^(k-1) < d <= 2^k (k = 0: d = 1)
        self.hist = [0] * BINS

    def _add(self, i, v):
        tree, n = self.tree, self.cap
        while i <= n:
            tree[i] += v
            i += i & -i

    def _prefix(self, i):
        tree, s = self.tree, 0
        while i:
            s += tree[i]
            i &= i - 1
        return s

    def _compact(self):
        order = sorted(self.pos, key=self.pos.__getitem__)
        self.cap = max(self.cap, 4 * len(order))
        self.pos = {u: i for i, u in enumerate(order, 1)}
        tree = [1] * (len(order) + 1) + [0] * (self.cap - len(order))
        for i in range(1, self.cap + 1):
            j = i + (i & -i)
            if j <= self.cap:
                tree[j] += tree[i]
        self.tree = tree
        self.next = len(order) + 1

    def ref(self, u):
        """A reference to u, which was not the last one referenced."""
        self.refs += 1
        if self.next > self.cap:
            self._compact()
        p = self.pos.get(u)
        if p is None:
            self.cold += 1
        else:
            d = 1 + len(self.pos) - self._prefix(p)
            self.hist[(d - 1).bit_length()] += 1
            self._add(p, -1)
        i = self.next
        self.next += 1
        self._add(i, 1)
        self.pos[u] = i

    def misses(self, c):
        """References that miss a cache of c = 2^k units."""
        k = c.bit_length() - 1
        return self.cold + sum(self.hist[k + 1:])


class Stream:
    """One kind (insn or data) at one granularity over one run or region:
    the touches (unit, t), in order, with t never decreasing.  The unit
    touched last is kept apart (top, top_t): most touches are its, and
    they cost no dictionary or tree operation."""

    def __init__(self, lru_capacity=1 << 16):
        self.last = {}                # unit -> its latest touch (but top's)
        self.top = None
        self.top_t = 0
        self.first_sum = 0            # sum over units of their first touch
        self.gap_n = [0] * BINS
        self.gap_s = [0] * BINS
        self.lru = LRUStack(lru_capacity)

    def touch(self, u, t):
        """u touched at t; a second touch at the same t is no touch."""
        if u == self.top:
            g = t - self.top_t
            if g:
                if g > 1:
                    k = _bin(g)
                    self.gap_n[k] += 1
                    self.gap_s[k] += g
                self.top_t = t
                self.lru.refs += 1
                self.lru.hist[0] += 1
            return
        last = self.last
        if self.top is not None:
            last[self.top] = self.top_t
        p = last.get(u)
        if p == t:
            return
        if p is None:
            self.first_sum += t
        elif t - p > 1:
            k = _bin(t - p)
            self.gap_n[k] += 1
            self.gap_s[k] += t - p
        self.top, self.top_t = u, t
        self.lru.ref(u)

    def finish(self, k):
        if self.top is not None:
            self.last[self.top] = self.top_t
        return Curves(self, k)


class Curves:
    """The exact curves of one stream over a run of k instructions."""

    def __init__(self, stream, k):
        self.k = k
        self.units = len(stream.last)
        self.refs = stream.lru.refs
        self.first_sum = stream.first_sum
        self.gap_n = list(stream.gap_n)
        self.gap_s = list(stream.gap_s)
        self.tail_n = [0] * BINS
        self.tail_s = [0] * BINS
        for t in stream.last.values():
            h = k + 1 - t
            if h > 1:
                b = _bin(h)
                self.tail_n[b] += 1
                self.tail_s[b] += h
        self.cold = stream.lru.cold
        self.dist_hist = list(stream.lru.hist)
        self._lru = stream.lru

    def s_sum(self, tau):
        """K * s(tau), an integer, for tau a power of two."""
        j = tau.bit_length() - 1
        if tau != 1 << j:
            raise ValueError("tau must be a power of two")
        over = sum(self.gap_s[j:]) + sum(self.tail_s[j:]) - tau * (
            sum(self.gap_n[j:]) + sum(self.tail_n[j:]))
        return self.units * (self.k + 1) - self.first_sum - over

    def misses(self, tau):
        """K * m(tau) / 1000: the touches that miss, for tau a power of
        two."""
        j = tau.bit_length() - 1
        if tau != 1 << j:
            raise ValueError("tau must be a power of two")
        return self.units + sum(self.gap_n[j:])

    def s(self, tau):
        return self.s_sum(tau) / self.k if self.k else 0.0

    def m(self, tau):
        return self.misses(tau) * 1000 / self.k if self.k else 0.0

    def curve(self):
        """[(tau, s, m)] for the taus of the contract."""
        return [(tau, self.s(tau), self.m(tau)) for tau in taus(self.k)]

    def mrc_misses(self, c):
        return self._lru.misses(c)

    def mrc(self):
        """[(size, miss ratio)] for sizes 1, 2, 4, ... units."""
        return [(c, self._lru.misses(c) / self.refs if self.refs else 0.0)
                for c in sizes(self.units)]


class CurveResult:
    """What compute() returns: the run's curves and each region's."""

    def __init__(self, instructions, run, regions, trace_lines):
        self.instructions = instructions  # K of the whole run
        self.run = run            # {(kind, unit): Curves}
        self.regions = regions    # [{(kind, unit): Curves}], marker pairs
        self.trace_lines = trace_lines

    def records(self, scope="run", name=None):
        """The curve and mrc lines of ws's output file for one scope
        ("run" or "region:<n>", n counting regions from 0), formatted as
        ws formats them: s and m with three decimals, miss with four, each
        the exact quotient of the integers rounded half up (ratio()).
        name: the scope as the lines name it (default: scope; ws names a
        region "region:<label>")."""
        if scope == "run":
            curves = self.run
        else:
            curves = self.regions[int(scope.split(":", 1)[1])]
        name = name or scope
        out = []
        for (kind, unit), c in sorted(curves.items()):
            for tau in taus(c.k):
                out.append("curve %s %s %s tau %d s %s m %s"
                           % (name, kind, unit, tau,
                              ratio(c.s_sum(tau), c.k, 3),
                              ratio(c.misses(tau) * 1000, c.k, 3)))
            for size in sizes(c.units):
                out.append("mrc %s %s %s size %d miss %s"
                           % (name, kind, unit, size,
                              ratio(c.mrc_misses(size), c.refs, 4)))
        return out


def ratio(num, den, decimals):
    """num / den with the given decimals, rounded half up, exactly (0 when
    den is 0), as ws prints its curves."""
    if den == 0:
        num, den = 0, 1
    scale = 10 ** decimals
    q, r = divmod(num, den)
    frac = (r * 2 * scale + den) // (2 * den)
    if frac == scale:
        q, frac = q + 1, 0
    return "%d.%0*d" % (q, decimals, frac)


KINDS = ("insn", "data")
KEYS = tuple((kind, unit) for kind in KINDS for unit in ("page", "line"))


def _spans(text, shifts):
    """'0401ab70,3' -> per shift, the first unit or a tuple of units."""
    comma = text.index(",")
    addr = int(text[:comma], 16)
    size = int(text[comma + 1:])
    if size <= 0:
        raise oracle.LackeyError("access of size %d: %r" % (size, text))
    out = []
    for shift in shifts:
        first, last = addr >> shift, (addr + size - 1) >> shift
        out.append(first if first == last else tuple(range(first, last + 1)))
    return tuple(out)


def _touch(streams, spans, t):
    page, line = streams
    span = spans[0]
    if span.__class__ is int:
        page.touch(span, t)
    else:
        for u in span:
            page.touch(u, t)
    span = spans[1]
    if span.__class__ is int:
        line.touch(span, t)
    else:
        for u in span:
            line.touch(u, t)


class _Scope:
    """The streams of the run or of one region, and where its time
    starts."""

    def __init__(self, names, t0, lru_capacity):
        self.t0 = t0
        self.streams = {(kind, name): Stream(lru_capacity)
                        for kind in KINDS for name in names}
        self.insn = [self.streams[("insn", n)] for n in names]
        self.data = [self.streams[("data", n)] for n in names]

    def finish(self, t):
        return {key: st.finish(t - self.t0)
                for key, st in self.streams.items()}


def compute(lines, pagesize=4096, linesize=64, count_rep="once",
            marker=None, lru_capacity=1 << 16, region_insns=None):
    """The exact curves from lackey's trace `lines` (an iterable of text
    lines): CurveResult.  Lines starting with '=' are skipped, SYSCALL
    lines (and the rest of one cut by another message, ' ...', ' -->')
    are read only for the marker; any other line that is not I/L/S/M
    raises oracle.LackeyError, as does an odd number of markers.

    region_insns=(start, stop), two instruction addresses, delimits the
    regions instead of the marker: a region begins after each execution
    of start and ends after the next execution of stop (stop is in it,
    start is not), as ws's regions do between the last instructions of
    WS_START's and WS_STOP's client requests (tests/progs/knees.c)."""
    for size in (pagesize, linesize):
        if size <= 0 or size & (size - 1):
            raise ValueError("unit sizes must be powers of two")
    if count_rep not in ("once", "each"):
        raise ValueError("count_rep is 'once' or 'each'")
    collapse = count_rep == "once"
    names = ("page", "line")
    shifts = (pagesize.bit_length() - 1, linesize.bit_length() - 1)
    run = _Scope(names, 0, lru_capacity)
    scopes = [run]                    # the run, and the open region
    regions = []
    icache, dcache = {}, {}
    t = 0
    nlines = 0
    last_i = None
    if region_insns is not None:
        start_i, stop_i = ("I  %08x," % a for a in region_insns)

    for line in lines:
        nlines += 1
        c = line[0] if line else ""
        if c == "I":
            if collapse:
                if line == last_i:
                    continue
                last_i = line
            t += 1
            spans = icache.get(line)
            if spans is None:
                if not line.startswith("I  "):
                    raise oracle.LackeyError("bad trace line %r" % line)
                spans = icache[line] = _spans(line[3:], shifts)
            for sc in scopes:
                _touch(sc.insn, spans, t - sc.t0)
            if region_insns is not None:
                if len(scopes) == 1 and line.startswith(start_i):
                    scopes.append(_Scope(names, t, lru_capacity))
                elif len(scopes) > 1 and line.startswith(stop_i):
                    regions.append(scopes.pop().finish(t))
        elif c == " ":
            key = line[3:]
            spans = dcache.get(key)
            if spans is None:
                if line.startswith((" ...", " -->")):
                    continue
                if line[1] not in "LSM" or line[2] != " ":
                    raise oracle.LackeyError("bad trace line %r" % line)
                if t == 0:
                    raise oracle.LackeyError(
                        "a data access before any instruction: %r" % line)
                if len(dcache) > 2000000:
                    dcache.clear()
                spans = dcache[key] = _spans(key, shifts)
            for sc in scopes:
                _touch(sc.data, spans, t - sc.t0)
        elif c == "=":
            continue
        elif c == "S" and line.startswith("SYSCALL"):
            if marker is not None and marker in line:
                if len(scopes) == 1:
                    scopes.append(_Scope(names, t, lru_capacity))
                else:
                    regions.append(scopes.pop().finish(t))
        else:
            raise oracle.LackeyError("bad trace line %r" % line)
    if len(scopes) > 1:
        raise oracle.LackeyError("a region's marker %r without its end"
                                 % marker)
    return CurveResult(t, run.finish(t), regions, nlines)


def run(vg_in_place, argv, *, cwd, pagesize=4096, linesize=64,
        count_rep="once", marker=None, region_insns=None, extra_options=(),
        stdin=None, env=None, timeout=900):
    """Run argv under lackey (oracle.stream) and compute() its curves."""
    kw = {} if stdin is None else {"stdin": stdin}
    return oracle.stream(
        vg_in_place, argv,
        lambda f: compute(f, pagesize, linesize, count_rep, marker,
                          region_insns=region_insns),
        cwd=cwd, extra_options=extra_options, env=env, timeout=timeout, **kw)
