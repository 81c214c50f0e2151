"""A reference model of the per-routine footprint (--ws-routines=yes,
../shared/ws-interface.md section 10): from a list of events, each
activation's cost, read memory size (rms) and threaded read memory size
(trms, with its thread-induced and syscall-induced parts), exactly as the
aprof-trms paper defines them; then the per-routine summary ws writes
(routine and routine-size records: size buckets, the fit of maximum cost
against input size).

A "location" here is whatever ws tracks: a 64-byte cache line.  Events are
in the order the (serialized) threads ran them:

    ("call", tid, routine)   thread tid enters an activation of routine
    ("ret", tid)             its top activation returns
    ("read", tid, line)      a load by the thread
    ("write", tid, line)     a store by the thread
    ("kread", tid, line)     the kernel reads the line for the thread's
                             system call (write(), stat()'s path, ...):
                             a read by the thread's top activation
    ("kwrite", line)         the kernel writes the line (read()'s buffer)
    ("insns", tid, n)        the thread executes n instructions
    ("exit", tid)            the thread ends: its pending activations close

A thread id names one thread: it is never used again after its "exit"
(Valgrind reuses thread ids; ws numbers its threads itself).
A longjmp or an exception that leaves several frames is several "ret"
events in a row; activations still pending at the end of the list close
there (each thread's from the top, threads in the order they first
appeared).

Independent computations return the same list of Activation
records, in the order the activations closed:

- by_definition: Definitions 1-3 of the paper applied literally, with
  every pending activation's own set of accessed lines (the "naive
  approach" of its Section 4.1, on the definitions themselves);
- paper: the read/write timestamping algorithm of its Figures 11 and 12
  (per-thread last-access stamps, a global last-write stamp, partial sums
  on a shadow stack), with RMS kept beside TRMS;
- WsModel: the data structures ws uses, one global table of (last access
  by the line's owner, last write) per line that the inline check reads,
  owners and per-thread side tables on the slow path, the thread's time
  slice in the fast-path threshold, kernel writes with odd stamps, and
  the renumbering of stamps when the counter would overflow (tested with
  a few bits); WsCompact, the same with 4 bytes per line in the inline
  check's table (the last write moved to the slow path).

Which reads are "induced" (the thread-induced and syscall-induced parts):
the paper's measure (Section 6.1: "induced first-accesses (line 2 of
procedure read in Figure 11)"): a read counted in trms is induced when the
line's latest write was made by another thread (thread-induced) or by the
kernel (syscall-induced) and the reading thread has not accessed the line
since.  Such a read is counted for every pending activation of the thread.
A read that is also a first access for the activation but whose thread
accessed the line after that write (in a caller, before the activation
began) is counted as a plain first access.

Per routine (summarize, records): calls, total cost (the instructions run
while an activation of it was pending: an activation nested in another
of the same routine adds nothing), the maxima of rms and
trms over activations, the induced parts summed over activations, and per
input size (trms) the count, minimum, mean and maximum cost, sizes of
SIZE_EXACT and more grouped in buckets of 2^(e-4) (16 per power of two,
named by their smallest size); the fit is a least-squares line through
(ln size, ln max cost) over the sizes of at least 1, with at least
FIT_MIN_POINTS of them, its slope the exponent and r2 its coefficient of
determination, ln computed as ws computes it without libm (ln below).
"""

import bisect
import math

KERNEL = "kernel"


class Activation:
    """One activation, as ws reports it when it closes."""

    __slots__ = ("tid", "routine", "depth", "seq", "nested", "rms", "trms",
                 "thread_induced", "syscall_induced", "cost")

    def __init__(self, tid, routine, depth, seq, nested=False):
        self.tid = tid
        self.routine = routine
        self.depth = depth          # 1 for the outermost of its thread
        self.seq = seq              # the order of the calls, from 0
        self.nested = nested        # inside an activation of the same
                                    # routine (recursion)
        self.rms = 0
        self.trms = 0
        self.thread_induced = 0
        self.syscall_induced = 0
        self.cost = 0

    def key(self):
        return (self.tid, self.routine, self.depth, self.seq, self.nested,
                self.rms, self.trms, self.thread_induced,
                self.syscall_induced, self.cost)

    def __repr__(self):
        return ("Activation(tid=%r, routine=%r, depth=%d, seq=%d, "
                "nested=%r, rms=%d, trms=%d, thread_induced=%d, "
                "syscall_induced=%d, cost=%d)" % self.key())

    def __eq__(self, other):
        return isinstance(other, Activation) and self.key() == other.key()


def parse_events(text):
    """Events from lines "call T R", "ret T", "read T L", "write T L",
    "kread T L", "kwrite L", "insns T N", "exit T" ('#' starts a comment);
    numbers are integers, a routine is a word."""
    events = []
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        op, args = words[0], words[1:]
        arity = {"call": 2, "ret": 1, "read": 2, "write": 2, "kread": 2,
                 "kwrite": 1, "insns": 2, "exit": 1}
        if op not in arity or len(args) != arity[op]:
            raise ValueError("line %d: bad event %r" % (n, raw))
        if op == "call":
            events.append((op, int(args[0]), args[1]))
        else:
            events.append((op,) + tuple(int(a, 0) for a in args))
    return events


class _Runner:
    """What the three computations share: the order of calls, the stacks
    of pending activations, closing them, the end of the list."""

    def __init__(self):
        self.closed = []
        self.seq = 0
        self.order = []             # threads in order of first appearance
        self.active = {}            # (tid, routine) -> pending activations

    def saw(self, tid):
        if tid not in self.order:
            self.order.append(tid)

    def new_activation(self, tid, routine, depth):
        n = self.active.get((tid, routine), 0)
        a = Activation(tid, routine, depth, self.seq, n > 0)
        self.active[(tid, routine)] = n + 1
        self.seq += 1
        return a

    def close(self, a):
        self.active[(a.tid, a.routine)] -= 1
        self.closed.append(a)

    def run(self, events):
        ended = set()
        for ev in events:
            op = ev[0]
            if op != "kwrite":
                if ev[1] in ended:
                    raise ValueError("thread %r used after its exit: %r"
                                     % (ev[1], ev))
                self.saw(ev[1])
            getattr(self, "on_" + op)(*ev[1:])
            if op == "exit":
                ended.add(ev[1])
        for tid in self.order:
            if tid not in ended:
                self.on_exit(tid)
        return self.closed


# ---------------------------------------------------------------------------
# Definitions 1-3, literally
# ---------------------------------------------------------------------------
class _Pending:
    __slots__ = ("act", "seen")

    def __init__(self, act):
        self.act = act
        self.seen = {}              # line -> time of its latest access by
                                    # the activation or its descendants


class _Definition(_Runner):
    def __init__(self):
        super().__init__()
        self.time = 0
        self.stacks = {}
        self.writes = {}            # line -> [(time, writer)]
        self.last_access = {}       # (tid, line) -> time

    def stack(self, tid):
        return self.stacks.setdefault(tid, [])

    def on_call(self, tid, routine):
        st = self.stack(tid)
        st.append(_Pending(self.new_activation(tid, routine, len(st) + 1)))

    def on_ret(self, tid):
        self.close(self.stack(tid).pop().act)

    def on_exit(self, tid):
        while self.stack(tid):
            self.on_ret(tid)

    def on_insns(self, tid, n):
        for p in self.stack(tid):
            p.act.cost += n

    def access(self, tid, line, reads):
        self.time += 1
        now = self.time
        writes = self.writes.get(line, [])
        others = [w for w, who in writes if who != tid]
        latest_other = others[-1] if others else None
        # Line 2 of Figure 11: the latest write is another writer's and
        # the thread has not touched the line since.
        last = self.last_access.get((tid, line))
        line2 = (writes and writes[-1][1] != tid
                 and (last is None or last < writes[-1][0]))
        by = None
        if line2:
            by = "syscall" if writes[-1][1] == KERNEL else "thread"
        for p in self.stack(tid):
            first = line not in p.seen
            induced = latest_other is not None and (
                first or p.seen[line] < latest_other)
            if reads:
                a = p.act
                if first:
                    a.rms += 1
                if first or induced:
                    a.trms += 1
                    if by == "thread":
                        a.thread_induced += 1
                    elif by == "syscall":
                        a.syscall_induced += 1
            p.seen[line] = now
        self.last_access[(tid, line)] = now
        if not reads:
            self.writes.setdefault(line, []).append((now, tid))

    def on_read(self, tid, line):
        self.access(tid, line, True)

    on_kread = on_read

    def on_write(self, tid, line):
        self.access(tid, line, False)

    def on_kwrite(self, line):
        self.time += 1
        self.writes.setdefault(line, []).append((self.time, KERNEL))


def by_definition(events):
    return _Definition().run(events)


# ---------------------------------------------------------------------------
# The paper's algorithm (Figures 11 and 12), RMS beside TRMS
# ---------------------------------------------------------------------------
class _Frame:
    __slots__ = ("act", "ts", "cost0", "rms", "trms", "ti", "si")

    def __init__(self, act, ts, cost0):
        self.act = act              # None for the thread's root
        self.ts = ts                # the stamp at its call
        self.cost0 = cost0          # the thread's instructions then
        self.rms = self.trms = self.ti = self.si = 0   # partial sums


class _Stacks(_Runner):
    """Shadow stacks with partial sums (Invariant 2 of the paper): an
    activation's value is its partial plus its pending child's; at the
    return the child's value is added to the parent's partial."""

    def __init__(self):
        super().__init__()
        self.stacks = {}
        self.insns = {}

    def stack(self, tid):
        if tid not in self.stacks:
            self.stacks[tid] = [_Frame(None, 0, 0)]
            self.insns[tid] = 0
        return self.stacks[tid]

    def push(self, tid, routine, ts):
        st = self.stack(tid)
        st.append(_Frame(self.new_activation(tid, routine, len(st)), ts,
                         self.insns[tid]))

    def on_ret(self, tid):
        st = self.stack(tid)
        if len(st) == 1:
            return
        f = st.pop()
        a = f.act
        a.rms, a.trms = f.rms, f.trms
        a.thread_induced, a.syscall_induced = f.ti, f.si
        a.cost = self.insns[tid] - f.cost0
        parent = st[-1]
        parent.rms += f.rms
        parent.trms += f.trms
        parent.ti += f.ti
        parent.si += f.si
        self.close(a)

    def on_exit(self, tid):
        while len(self.stack(tid)) > 1:
            self.on_ret(tid)

    def on_insns(self, tid, n):
        self.stack(tid)
        self.insns[tid] += n

    def ancestor(self, tid, stamp):
        """The deepest pending activation that began at or before |stamp|
        (the root, stamp 0, if none did)."""
        st = self.stack(tid)
        starts = [f.ts for f in st]
        return st[bisect.bisect_right(starts, stamp) - 1]

    def account(self, tid, last, wts, kernel_wrote):
        """A read by |tid| whose previous access to the line (by this
        thread) was at stamp |last| (0: never), the line's latest write
        at |wts| (0: never), by the kernel if |kernel_wrote|."""
        top = self.stack(tid)[-1]
        first = last < top.ts
        if first:
            top.rms += 1
            if last != 0:
                self.ancestor(tid, last).rms -= 1
        if last < wts:
            top.trms += 1
            if kernel_wrote:
                top.si += 1
            else:
                top.ti += 1
        elif first:
            top.trms += 1
            if last != 0:
                self.ancestor(tid, last).trms -= 1


class _Paper(_Stacks):
    def __init__(self):
        super().__init__()
        self.count = 1
        self.running = None
        self.ts = {}                # (tid, line) -> stamp
        self.wts = {}               # line -> stamp
        self.kernel_wrote = {}      # line -> whether the kernel wrote last

    def switch(self, tid):
        if self.running is not None and self.running != tid:
            self.count += 1
        self.running = tid

    def on_call(self, tid, routine):
        self.switch(tid)
        self.count += 1
        self.push(tid, routine, self.count)

    def on_ret(self, tid):
        self.switch(tid)
        super().on_ret(tid)

    def on_read(self, tid, line):
        self.switch(tid)
        self.stack(tid)
        self.account(tid, self.ts.get((tid, line), 0),
                     self.wts.get(line, 0), self.kernel_wrote.get(line))
        self.ts[(tid, line)] = self.count

    on_kread = on_read

    def on_write(self, tid, line):
        self.switch(tid)
        self.ts[(tid, line)] = self.count
        self.wts[line] = self.count
        self.kernel_wrote[line] = False

    def on_kwrite(self, line):
        self.count += 1
        self.wts[line] = self.count
        self.kernel_wrote[line] = True


def paper(events):
    return _Paper().run(events)


# ---------------------------------------------------------------------------
# ws's data structures
# ---------------------------------------------------------------------------
class WsModel(_Stacks):
    """The algorithm as ws runs it.

    Stamps: |count| is even between events and goes up by 2 at each call
    and each time another thread starts running; a batch of kernel writes
    takes the odd stamp count + 1 (so a last write's parity says who made
    it) and then count goes up by 2.

    Per line, one global entry [ts, wts] (what the inline check loads):
    ts is the latest access by the line's owner, wts the latest write by
    anyone.  The owner and the threads' side tables (a thread's latest
    access to a line it no longer owns) are kept on the slow path only.

    The fast path: the access takes no helper when ts >= threshold, the
    threshold being the later of the top activation's stamp and the stamp
    at which the thread last started running: then the owner is this
    thread and accessed the line in the top activation, and no one else
    can have written it since (other threads have not run; a kernel write
    sets ts to 0), so the read is neither a first access nor induced.  It
    stores ts = count, and wts = count for a write.

    The slow path claims the line for the thread (the owner's ts goes to
    the owner's side table; the thread's own latest access comes from its
    side table), accounts the read as the paper does and stores the
    stamps.

    With |stamp_bits| bits per stamp, all stamps are renumbered when the
    next event's would not fit (renumber)."""

    def __init__(self, stamp_bits=32):
        super().__init__()
        self.limit = 1 << stamp_bits
        self.count = 2
        self.running = None
        self.entry = {}             # line -> [ts, wts]
        self.owner = {}             # line -> tid
        self.side = {}              # tid -> {line: stamp}
        self.slice = {}             # tid -> stamp when it last began
        self.fast = 0
        self.slow = 0
        self.renumberings = 0

    def bump(self, by):
        if self.count + by >= self.limit:
            self.renumber()
            if self.count + by >= self.limit:
                raise OverflowError("too few stamp bits for %d pending "
                                    "activations" % self.pending())
        self.count += by

    def pending(self):
        return sum(len(st) - 1 for st in self.stacks.values())

    def switch(self, tid):
        self.stack(tid)
        self.side.setdefault(tid, {})
        if self.running != tid:
            self.bump(2)
            self.slice[tid] = self.count
        self.running = tid

    def threshold(self, tid):
        return max(self.stack(tid)[-1].ts, self.slice[tid])

    def on_call(self, tid, routine):
        self.switch(tid)
        self.bump(2)
        self.push(tid, routine, self.count)

    def on_ret(self, tid):
        self.switch(tid)
        super().on_ret(tid)

    def on_exit(self, tid):
        """Its side table goes: no one asks for its stamps again."""
        super().on_exit(tid)
        self.side.pop(tid, None)

    def access(self, tid, line, writes):
        self.switch(tid)
        e = self.entry.setdefault(line, [0, 0])
        if e[0] >= self.threshold(tid):
            self.fast += 1
        else:
            self.slow += 1
            owner = self.owner.get(line)
            if owner == tid:
                last = e[0]
            else:
                last = self.side[tid].pop(line, 0)
                if owner in self.side:
                    self.side[owner][line] = e[0]
                self.owner[line] = tid
            if not writes:
                self.account(tid, last, e[1], e[1] & 1)
        e[0] = self.count
        if writes:
            e[1] = self.count

    def on_read(self, tid, line):
        self.access(tid, line, False)

    on_kread = on_read

    def on_write(self, tid, line):
        self.access(tid, line, True)

    def on_kwrite(self, line):
        self.bump(2)
        e = self.entry.setdefault(line, [0, 0])
        owner = self.owner.pop(line, None)
        if owner in self.side:
            self.side[owner][line] = e[0]
        e[0] = 0
        e[1] = self.count - 1

    def renumber(self):
        """Stamps mapped to small ones, keeping every comparison the
        algorithm makes: a thread's stamp of a line against the pending
        activations' stamps (the first-access test and the ancestor
        search) and against the line's wts, and wts's parity.  Stamps of
        different lines are never compared, so only their places between
        the activations' stamps and against their own line's wts matter
        (the idea of the paper's Figure 13, with room for parity).

        The j-th pending activation (all threads, by stamp) gets 8(j+1);
        a stamp between the j-th and the next one gets 8(j+1) + k (2 + k
        before the first), k = 2 for a thread-written wts (3 for the
        kernel's), k = 0, 2 or 4 for a thread's stamp below, equal to or
        above its line's wts when both lie in that interval, k = 0
        otherwise.  Every thread's slice then begins at the new count, so
        each line takes the slow path once more."""
        self.renumberings += 1
        frames = [f for st in self.stacks.values() for f in st[1:]]
        starts = sorted(f.ts for f in frames)

        def interval(x):
            return bisect.bisect_right(starts, x) - 1

        def base(j):
            return 8 * (j + 1) if j >= 0 else 2

        def thread_stamp(x, wts):
            if x == 0:
                return 0
            j = interval(x)
            if wts and interval(wts) == j:
                return base(j) + (0 if x < wts else 2 if x == wts else 4)
            return base(j)

        for line, e in self.entry.items():
            ts, wts = e
            e[0] = thread_stamp(ts, wts)
            for side in self.side.values():
                if line in side:
                    side[line] = thread_stamp(side[line], wts)
            if wts:
                e[1] = base(interval(wts)) + (3 if wts & 1 else 2)
        new_start = {x: 8 * (j + 1) for j, x in enumerate(starts)}
        for f in frames:
            f.ts = new_start[f.ts]
        self.count = 8 * (len(starts) + 2)
        for s in self.slice:
            self.slice[s] = self.count


class WsCompact(WsModel):
    """The same with 4 bytes per line in the table the inline check
    reads: the stamp of the owner's latest access and a bit W, "the owner
    has written the line since it became its owner".  The latest write by
    anyone is not in it: the fast path of a write sets W, and the slow
    path that takes the line from another owner folds that owner's writes
    into a slow-path table (wts below) as the owner's latest access stamp
    (which is at or after its latest write and before the new owner's
    access, so every comparison with a thread's own stamps comes out the
    same); a kernel write goes to that table at once.  The fast path of a
    read keeps W.  The line's owner never meets an induced read on its
    own lines (another writer would have taken the line or, the kernel,
    cleared its stamp)."""

    def __init__(self, stamp_bits=32):
        super().__init__(stamp_bits)
        self.wts = {}               # line -> stamp, slow path only

    def fold(self, line, e):
        """The owner's writes, if any, into the line's wts."""
        if e[1]:
            self.wts[line] = max(self.wts.get(line, 0), e[0])
            e[1] = 0

    def access(self, tid, line, writes):
        self.switch(tid)
        e = self.entry.setdefault(line, [0, 0])       # [stamp, W]
        if e[0] >= self.threshold(tid):
            self.fast += 1
        else:
            self.slow += 1
            owner = self.owner.get(line)
            if owner == tid:
                last = e[0]
            else:
                last = self.side[tid].pop(line, 0)
                if owner in self.side:
                    self.side[owner][line] = e[0]
                self.fold(line, e)
                self.owner[line] = tid
            if not writes:
                wts = self.wts.get(line, 0) if owner != tid else 0
                self.account(tid, last, wts, wts & 1)
        e[0] = self.count
        if writes:
            e[1] = 1

    def on_kwrite(self, line):
        self.bump(2)
        e = self.entry.setdefault(line, [0, 0])
        owner = self.owner.pop(line, None)
        if owner in self.side:
            self.side[owner][line] = e[0]
        e[0] = 0
        self.wts[line] = self.count - 1

    def renumber(self):
        """As WsModel's, the owners' writes folded first."""
        for line, e in self.entry.items():
            self.fold(line, e)
        saved = self.entry
        self.entry = {line: [e[0], self.wts.get(line, 0)]
                      for line, e in saved.items()}
        super().renumber()
        for line, e in self.entry.items():
            saved[line][0] = e[0]
            if e[1]:
                self.wts[line] = e[1]
        self.entry = saved


def ws_algorithm(events, stamp_bits=32):
    return WsModel(stamp_bits).run(events)


def ws_compact(events, stamp_bits=32):
    return WsCompact(stamp_bits).run(events)


# ---------------------------------------------------------------------------
# Per routine: the records
# ---------------------------------------------------------------------------
SIZE_EXACT = 256        # sizes below this have a row each
SUB_BUCKETS = 4         # log2 of the buckets per power of two above it
FIT_MIN_POINTS = 3
RANK_MIN_SPAN = 4       # a growth ranks when its sizes span this factor
RANK_R2_MILLI = 800     # and its fit's r2, in thousandths, is this or more
RANK_SHARE = 100        # and its cost is 1/RANK_SHARE of the costliest's


def size_key(size):
    """The row an input size falls in: itself below SIZE_EXACT, else the
    smallest size of its bucket (2^(e-4) wide for sizes in [2^e, 2^(e+1)),
    at most 6.25% of the size)."""
    if size < SIZE_EXACT:
        return size
    shift = size.bit_length() - 1 - SUB_BUCKETS
    return (size >> shift) << shift


LN2 = 0.6931471805599453


def ln(x):
    """ws's natural logarithm of a positive integer, without libm: x =
    m * 2^e with m in [1, 2), ln x = e ln 2 + 2 atanh((m-1)/(m+1)), the
    series summed until its terms vanish (in doubles, as the C code)."""
    e = x.bit_length() - 1
    m = x / float(1 << e) if e < 1023 else x / 2.0 ** e
    z = (m - 1.0) / (m + 1.0)
    z2 = z * z
    term = z
    total = 0.0
    k = 1
    while True:
        nxt = total + term / k
        if nxt == total:
            break
        total = nxt
        term *= z2
        k += 2
    return e * LN2 + 2.0 * total


def fit(points):
    """(exponent, r2) of the least-squares line through (ln x, ln y) for
    the points with x >= 1 and y >= 1, or None with fewer than
    FIT_MIN_POINTS of them.  Equal y give (0, 1) (the sums' rounding
    would make r2 noise), a residual that rounds below 0 gives r2 = 1."""
    pts = [(ln(x), ln(y)) for x, y in points if x >= 1 and y >= 1]
    n = len(pts)
    if n < FIT_MIN_POINTS:
        return None
    if all(p[1] == pts[0][1] for p in pts):
        return 0.0, 1.0
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) * (p[0] - mx) for p in pts)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
    syy = sum((p[1] - my) * (p[1] - my) for p in pts)
    slope = sxy / sxx
    res = syy - slope * sxy
    r2 = 1.0 if res <= 0.0 else 1.0 - res / syy
    return slope, r2


class Row:
    __slots__ = ("count", "min", "max", "sum")

    def __init__(self):
        self.count = 0
        self.min = None
        self.max = 0
        self.sum = 0

    def add(self, cost):
        self.count += 1
        self.min = cost if self.min is None else min(self.min, cost)
        self.max = max(self.max, cost)
        self.sum += cost

    def mean(self):
        """Rounded to the nearest whole number, halves up."""
        return (self.sum + self.count // 2) // self.count


class Routine:
    def __init__(self, name):
        self.name = name
        self.calls = 0
        self.cost = 0
        self.rms_max = 0
        self.trms_max = 0
        self.thread_induced = 0
        self.syscall_induced = 0
        self.rows = {}              # size_key -> Row

    def add(self, a):
        """Every activation has its row; the total cost counts the
        outermost of a recursion only (its callees' are in it), as
        callgrind's inclusive cost does."""
        self.calls += 1
        if not a.nested:
            self.cost += a.cost
        self.rms_max = max(self.rms_max, a.rms)
        self.trms_max = max(self.trms_max, a.trms)
        self.thread_induced += a.thread_induced
        self.syscall_induced += a.syscall_induced
        self.rows.setdefault(size_key(a.trms), Row()).add(a.cost)

    def fit(self):
        return fit([(size, row.max) for size, row in self.rows.items()])


def summarize(activations):
    """Routines by name, from closed activations (any order)."""
    out = {}
    for a in activations:
        out.setdefault(a.routine, Routine(a.routine)).add(a)
    return out


def records(routines, stack_id=None):
    """The output file's lines for |routines| (a dict from summarize),
    routine ids 1, 2, ... in order of name; |stack_id| maps a routine to
    its stack block's id (default: its own id)."""
    lines = []
    for rid, name in enumerate(sorted(routines), 1):
        r = routines[name]
        f = r.fit()
        exp_r2 = ("exponent %.3f r2 %.3f" % f) if f else "exponent - r2 -"
        sid = stack_id(name) if stack_id else rid
        lines.append("routine %d %d calls %d cost %d rms-max %d trms-max %d "
                     "thread-induced %d syscall-induced %d %s"
                     % (rid, sid, r.calls, r.cost, r.rms_max, r.trms_max,
                        r.thread_induced, r.syscall_induced, exp_r2))
        for size in sorted(r.rows):
            row = r.rows[size]
            lines.append("routine-size %d %d count %d min %d mean %d max %d"
                         % (rid, size, row.count, row.min, row.mean(),
                            row.max))
    return lines


def spans(r):
    """Whether the sizes of |r|'s fit span RANK_MIN_SPAN at least: an
    exponent over sizes from 30 to 40 says little."""
    sizes = [s for s, row in r.rows.items() if s >= 1 and row.max >= 1]
    return bool(sizes) and max(sizes) >= RANK_MIN_SPAN * min(sizes)


def milli(v):
    """|v| in thousandths, rounded half away from zero, as ws writes it."""
    return int(v * 1000 + 0.5) if v >= 0 else -int(-v * 1000 + 0.5)


def rank(routines):
    """Routines in ws's order: first those called out, with a fit whose
    sizes span RANK_MIN_SPAN, whose r2 (as written, in thousandths) is
    RANK_R2_MILLI or more, and a total cost of 1/RANK_SHARE of the
    costliest routine's at least, by exponent times that share,
    descending; then the rest; then by total cost, descending; names
    break ties."""
    most = max((r.cost for r in routines.values()), default=0)

    def key(r):
        f = r.fit()
        if f is None or not spans(r) or milli(f[1]) < RANK_R2_MILLI \
                or r.cost * RANK_SHARE < most:
            return (1, 0.0, -r.cost, r.name)
        return (0, -f[0] * (r.cost / most), -r.cost, r.name)
    return sorted(routines.values(), key=key)


if __name__ == "__main__":
    import sys
    evs = parse_events(open(sys.argv[1]).read() if len(sys.argv) > 1
                       else sys.stdin.read())
    for rec in records(summarize(ws_algorithm(evs))):
        print(rec)
