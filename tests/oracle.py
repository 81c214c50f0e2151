"""An independent, exact working-set computation from a lackey trace.

`valgrind --tool=lackey --trace-mem=yes` prints one line per guest
instruction executed and one per data access, in execution order:

    I  04001234,3        instruction at 0x04001234, 3 bytes long
     L 1ffefff8a0,8      load of 8 bytes
     S 1ffefff8a0,8      store
     M 0060f038,4        modify (a load and a store of the same bytes)

The data lines of an instruction follow its I line.  Instruction number n
(counting from 1) is the n-th I line, so "time t" in ws's sense (guest
instructions executed so far) is the number of I lines read, and the state
"at time t" is the state after instruction t and its data accesses, i.e.
just before the (t+1)-th I line.  An access of n bytes at address a touches
every page from a >> shift to (a + n - 1) >> shift: an instruction or an
access that straddles a page boundary touches both pages (lackey reports
helper accesses of up to 512 bytes, which may span several small pages).

The oracle streams the trace (a few million instructions make hundreds of
megabytes of text) and keeps, for every page ever touched, the number of
the last instruction that touched it, separately for instruction fetches
and data accesses.  At each requested time t it counts the pages whose
last touch lies in a window ending at t:

    exact:  window (t - tau, t], the definition of WS(t, tau), or for a
            final sample (t - w, t], w the length of its window (at most
            tau: it starts where an epoch of ws's began);
    hi/lo:  the bounds of what ws may report for the sample it took at t.
            ws takes the k-th sample at the first superblock boundary at or
            after k*T, and starts that sample's window at the first
            superblock boundary at or after k*T - tau.  A superblock holds
            at most SB_MAX guest instructions, so ws's window is (s, t] with
            k*T - tau <= s < k*T - tau + SB_MAX.  Working sets only grow
            when a window starts earlier, so ws's count must lie between
            lo = |pages touched in (k*T - tau + SB_MAX, t]| and
            hi = |pages touched in (k*T - tau, t]|.  The exact value lies
            between them too.  The gap between lo and hi is the number of
            pages whose last touch falls in those SB_MAX instructions: at
            most a page or two for instructions in ordinary code, more only
            for a loop that touches a new page every few instructions.

Totals (distinct pages ever touched) count a page again when it is
touched after being unmapped: lackey is run with --trace-syscalls=yes, whose
lines come in the same stream in execution order, and a munmap or a brk
that shrinks the heap ends the life of the pages it gives back.  What is
given back is the kernel's rule, not ws's: munmap(addr, len) succeeds only
for a page-aligned addr and unmaps [addr, addr + len rounded up to the
kernel's 4 KiB page) (as Valgrind's die_mem_munmap reports it); a brk
shrink from old to new unmaps [new rounded up, old rounded up).  A page of
ws's size (--ws-pagesize) dies when all of it lies in that range: for
pages up to 4 KiB that is every page the kernel unmapped; a 2 MiB page
partly unmapped lives on (docs/manual.md).  A failed munmap unmaps
nothing.  (The windows are not affected: a page touched before and after
in one window counts once.)

A rep-prefixed string instruction (rep movs, rep stos, ...) is one
instruction for ws by default (--ws-count-rep=once), as for the processor,
however often it iterates; Valgrind runs every iteration as one execution
of the instruction, and lackey prints an I line for each (and one more for
the last test of the count), each followed by that iteration's accesses.
compute(count_rep="once") therefore takes consecutive I lines of the same
address as one instruction, whose data lines are all its own; "each" counts
every I line, as lackey does (ws's --ws-count-rep=each).  Where the
collapsing could be wrong: an instruction that jumps to itself (`jmp .`,
`loop .`) executes the same address twice in a row as two instructions;
lackey's trace does not say which thread ran an instruction, so two threads
running the same instruction back to back, or a thread switch between two
iterations of a rep instruction (Valgrind switches threads between
superblocks), would be taken for one instruction or for two; and a signal
handler run between two iterations splits them.  The programs the tests
compare run no such loops, one thread each, and take no signals.

Lackey does not see memory accessed by system calls on the program's
behalf, so compare with ws run with --ws-syscalls=no.  It does see loads
and stores by helper-implemented instructions (dirty helpers), atomics
(CAS), and guarded loads and stores, each as L, S or M lines.
"""

import collections
import os
import re
import subprocess
import threading

# The most guest instructions Valgrind puts in one superblock: VEX's
# --vex-guest-max-insns, whose default is 60 (LibVEX_default_VexControl;
# valgrind --help says 50, but a superblock of 53 instructions was seen).
# The tests run both ws and lackey with the default.
SB_MAX = 60


class LackeyError(Exception):
    """lackey failed or printed something the oracle does not understand."""


class OracleSample:
    """The oracle's working sets at one sample time t (the k-th sample)."""

    __slots__ = ("t", "k", "insn", "data", "insn_lo", "insn_hi",
                 "data_lo", "data_hi", "lines")

    def __init__(self, t, k, counts, lines=None):
        self.t, self.k = t, k
        (self.insn, self.insn_lo, self.insn_hi,
         self.data, self.data_lo, self.data_hi) = counts
        # with a line size: the same counts in lines, an OracleSample
        self.lines = lines

    def __repr__(self):
        return ("OracleSample(t=%d, k=%d, insn=%d [%d..%d], data=%d [%d..%d])"
                % (self.t, self.k, self.insn, self.insn_lo, self.insn_hi,
                   self.data, self.data_lo, self.data_hi))


class OracleResult:
    """What the oracle computed from one trace."""

    def __init__(self, samples, instructions, insn_pages, data_pages,
                 trace_lines, accesses=None):
        self.samples = samples            # list of OracleSample
        self.instructions = instructions  # I lines in the whole trace
        self.insn_total = insn_pages      # distinct instruction pages
        self.data_total = data_pages      # distinct data pages (a page
                                          # touched again after an unmap
                                          # counts again)
        self.trace_lines = trace_lines
        # with accesses=True: {"insn": {page: n}, "data": {page: n}}, the
        # accesses to each page as ws counts them (see compute())
        self.accesses = accesses
        # with accesses=True: {"insn": {page: ip}, "data": {page: ip}},
        # the instruction that first touched each page, and for data
        # {page: {ip, ...}}, the instructions run in the SB_MAX
        # instructions up to and including that one
        self.first = None
        self.first_recent = None


def _span(text, shift):
    """'0401ab70,3\\n' -> first page, or (first, ..., last) if several."""
    comma = text.index(",")
    addr = int(text[:comma], 16)
    size = int(text[comma + 1:])
    if size <= 0:
        raise LackeyError("access of size %d: %r" % (size, text))
    first, last = addr >> shift, (addr + size - 1) >> shift
    if first == last:
        return first
    return tuple(range(first, last + 1))


def _count_after(last_touch, bounds):
    """How many values of last_touch exceed each of bounds."""
    a, b, c = bounds
    na = nb = nc = 0
    for v in last_touch.values():
        if v > a:
            na += 1
            if v > b:
                nb += 1
                if v > c:
                    nc += 1
    return na, nb, nc


_MUNMAP = re.compile(r"SYSCALL\[\d+,\d+\]\(\d+\) sys_munmap "
                     r"\( (0x[0-9a-f]+), (\d+) \)")
_BRK = re.compile(r"SYSCALL\[\d+,\d+\]\(\d+\) sys_brk \( 0x[0-9a-f]+ \)"
                  r".*Success\((0x[0-9a-f]+)\)")
# The result of a system call: on its SYSCALL line, or, for a call that
# blocked, on a later 'SYSCALL[...](N) ... [async] --> ' line.
_RESULT = re.compile(r".*--> (?:\[[a-z-]+\] )?(Success|Failure)")

# The kernel's page: munmap and brk give memory back in whole ones.
KERNEL_PAGE = 4096


def _kernel_page_up(addr):
    return (addr + KERNEL_PAGE - 1) & ~(KERNEL_PAGE - 1)


class _Lives:
    """Pages in their current life (since mapped), to count totals."""

    def __init__(self, shift):
        self.shift = shift
        self.live = [set(), set()]        # insn, data
        self.total = [0, 0]
        self.brk = None
        self.munmap = None                # (addr, len) awaiting its result

    def unmap(self, start, end):
        """The bytes [start, end) are no longer mapped: the pages of ws's
        size that lie wholly inside start a new life when touched again."""
        ps = 1 << self.shift
        first = (start + ps - 1) >> self.shift
        end = end >> self.shift
        for live in self.live:
            if end - first < len(live):
                for p in range(first, end):
                    live.discard(p)
            else:
                for p in [p for p in live if first <= p < end]:
                    live.discard(p)

    def munmap_result(self, success):
        addr, length = self.munmap
        self.munmap = None
        if success and length > 0 and addr % KERNEL_PAGE == 0:
            self.unmap(addr, _kernel_page_up(addr + length))

    def syscall(self, line):
        m = _MUNMAP.match(line)
        if m:
            self.munmap = (int(m.group(1), 16), int(m.group(2)))
            self.continuation(line)
            return
        m = _BRK.match(line)
        if m:
            new = int(m.group(1), 16)
            if self.brk is not None and new < self.brk:
                self.unmap(_kernel_page_up(new), _kernel_page_up(self.brk))
            self.brk = new
            return
        self.continuation(line)

    def continuation(self, line):
        """A line that may carry the result of the munmap still pending."""
        if self.munmap is None:
            return
        m = _RESULT.match(line)
        if m:
            self.munmap_result(m.group(1) == "Success")


class _Lines:
    """The same counts at a second granularity (cache lines), from the
    same trace in the same pass: last touches and lives per line."""

    def __init__(self, linesize):
        self.shift = linesize.bit_length() - 1
        self.insn_last, self.data_last = {}, {}
        self.lives = _Lives(self.shift)
        self.totals = [0, 0]
        self.icache, self.dcache = {}, {}

    def touch(self, kind, key, icount):
        cache = self.icache if kind == 0 else self.dcache
        span = cache.get(key)
        if span is None:
            if len(cache) > 2000000:
                cache.clear()
            span = cache[key] = _span(key, self.shift)
        last = self.insn_last if kind == 0 else self.data_last
        live = self.lives.live[kind]
        for p in ((span,) if span.__class__ is int else span):
            last[p] = icount
            if p not in live:
                live.add(p)
                self.totals[kind] += 1

    def counts(self, bounds):
        ihi, iex, ilo = _count_after(self.insn_last, bounds)
        dhi, dex, dlo = _count_after(self.data_last, bounds)
        return (iex, ilo, ihi, dex, dlo, dhi)


def compute(lines, times, tau, pagesize, every, accesses=False,
            count_rep="once", finals=None, linesize=0):
    """Working sets from the lackey trace `lines` (an iterable of text
    lines) at each time in `times` (increasing instruction counts, each
    t with k*every <= t < (k+1)*every for its k).  Returns OracleResult.
    `finals` ({t: w}) names the final samples among the times, each with
    the length w of its window (t - w, t]: the oracle counts that window
    exactly, and its bounds are that count.
    Lines that start with '=' (Valgrind's own messages) are skipped, lines
    of --trace-syscalls=yes (starting with SYSCALL, or for the rest of one
    cut by another message, with ' ...' or ' -->') are read for munmap and
    brk (not mremap: a program that uses it would show up as a totals
    mismatch to look into); any other line that is not I/L/S/M raises LackeyError.

    accesses=True also counts the accesses to each page the way ws's hot
    pages do: an instruction is one access to the page of its first byte;
    a load or a store (L, S) one access and a modify (M, a load and a store
    of the same bytes) two, to the page of the access's last byte; and
    notes the first instruction to touch each page (by any of its bytes,
    for code as for data).

    linesize (a power of two, 0: none) also counts at that granularity:
    each sample's `lines` (an OracleSample of line counts) and the
    result's line totals."""
    if pagesize <= 0 or pagesize & (pagesize - 1):
        raise ValueError("pagesize must be a power of two")
    if count_rep not in ("once", "each"):
        raise ValueError("count_rep is 'once' or 'each'")
    collapse = count_rep == "once"
    finals = finals or {}
    shift = pagesize.bit_length() - 1
    times = list(times)
    if any(b <= a for a, b in zip(times, times[1:])):
        raise ValueError("sample times must increase strictly")

    insn_last = {}
    data_last = {}
    lives = _Lives(shift)
    ilive, dlive = lives.live
    itotal = dtotal = 0
    icache = {}
    dcache = {}
    out = []
    icount = 0
    nlines = 0
    ti = 0
    next_t = times[0] if times else -1
    icounts = {} if accesses else None
    dcounts = {} if accesses else None
    ifirst, dfirst, drecent = {}, {}, {}
    recent = collections.deque(maxlen=SB_MAX)
    gl = _Lines(linesize) if linesize else None
    ip = None
    last_i = None                     # the last I line, for collapse

    def take(t):
        k = t // every
        # thresholds for the window starts, largest window first:
        # hi (k*T - tau), exact (t - tau), lo (k*T - tau + SB_MAX); a
        # final sample's window (t - w, t] is exact, its start an epoch's
        if t in finals:
            bounds = (t - finals[t],) * 3
        else:
            bounds = (k * every - tau, t - tau, k * every - tau + SB_MAX)
        ihi, iex, ilo = _count_after(insn_last, bounds)
        dhi, dex, dlo = _count_after(data_last, bounds)
        out.append(OracleSample(t, k, (iex, ilo, ihi, dex, dlo, dhi),
                                OracleSample(t, k, gl.counts(bounds))
                                if gl else None))

    for line in lines:
        nlines += 1
        c = line[0] if line else ""
        if c == "I":
            if collapse:
                if line == last_i:
                    continue          # the next iteration of the same one
                last_i = line
            while icount == next_t:
                take(icount)
                ti += 1
                next_t = times[ti] if ti < len(times) else -1
            icount += 1
            cached = icache.get(line)
            if cached is None:
                if not line.startswith("I  "):
                    raise LackeyError("bad trace line %r" % line)
                cached = icache[line] = (_span(line[3:], shift),
                                         int(line[3:line.index(",")], 16))
            span, ip = cached
            if gl:
                gl.touch(0, line[3:], icount)
            if icounts is not None:
                recent.append(ip)
                p = span if span.__class__ is int else span[0]
                icounts[p] = icounts.get(p, 0) + 1
            # a page's first touch of each life; setdefault keeps the
            # first of all
            if span.__class__ is int:
                insn_last[span] = icount
                if span not in ilive:
                    ilive.add(span)
                    itotal += 1
                    ifirst.setdefault(span, ip)
            else:
                for p in span:
                    insn_last[p] = icount
                    if p not in ilive:
                        ilive.add(p)
                        itotal += 1
                        ifirst.setdefault(p, ip)
        elif c == " ":
            key = line[3:]
            span = dcache.get(key)
            if span is None:
                if line.startswith((" ...", " -->")):
                    continue              # the rest of a SYSCALL line
                if line[1] not in "LSM" or line[2] != " ":
                    raise LackeyError("bad trace line %r" % line)
                if len(dcache) > 2000000:
                    dcache.clear()
                span = dcache[key] = _span(key, shift)
            if gl:
                gl.touch(1, key, icount)
            if dcounts is not None:
                p = span if span.__class__ is int else span[-1]
                dcounts[p] = dcounts.get(p, 0) + (2 if line[1] == "M" else 1)
            if span.__class__ is int:
                data_last[span] = icount
                if span not in dlive:
                    dlive.add(span)
                    dtotal += 1
                    if span not in dfirst:
                        dfirst[span] = ip
                        drecent[span] = set(recent)
            else:
                for p in span:
                    data_last[p] = icount
                    if p not in dlive:
                        dlive.add(p)
                        dtotal += 1
                        if p not in dfirst:
                            dfirst[p] = ip
                            drecent[p] = set(recent)
        elif c == "=":
            continue
        elif c == "S" and line.startswith("SYSCALL"):
            lives.syscall(line)
            if gl:
                gl.lives.syscall(line)
        else:
            raise LackeyError("bad trace line %r" % line)
    while icount == next_t:
        take(icount)
        ti += 1
        next_t = times[ti] if ti < len(times) else -1
    if ti < len(times):
        raise LackeyError(
            "sample time %d lies beyond the end of the trace (%d instructions)"
            % (times[ti], icount))
    result = OracleResult(out, icount, itotal, dtotal, nlines,
                          {"insn": icounts, "data": dcounts}
                          if accesses else None)
    result.line_totals = tuple(gl.totals) if gl else None
    if accesses:
        result.first = {"insn": ifirst, "data": dfirst}
        result.first_recent = drecent
    return result


# ws translates without chasing (ws_main.c), and lackey must too: when VEX
# chases (its default), it also recovers "A && B" conditions spread over two
# blocks by appending the second block to the superblock with its statements
# guarded, but not its IMarks, so a tool that counts IMarks (lackey, or ws
# given --vex-guest-chase=yes) counts instructions that did not run
# (tests/progs/touch: 128,459 instructions with chasing, 127,231 without;
# callgrind, which never chases, counts 127,229).
LACKEY_OPTIONS = ("--vex-guest-chase=no",)


def lackey_command(vg_in_place, argv, log_fd, extra_options=()):
    return [vg_in_place, "--tool=lackey", "--trace-mem=yes",
            "--trace-syscalls=yes", *LACKEY_OPTIONS, "--log-fd=%d" % log_fd,
            *extra_options, *argv]


def run(vg_in_place, argv, times, tau, pagesize, every, *, cwd,
        extra_options=(), stdin=subprocess.DEVNULL, env=None, timeout=600,
        accesses=False, count_rep="once", finals=None, linesize=0):
    """Run argv under lackey through vg_in_place (so that the client sees
    the same environment as under ws), stream the trace through a pipe
    into compute(), and return its OracleResult."""
    return stream(vg_in_place, argv,
                  lambda f: compute(f, times, tau, pagesize, every, accesses,
                                    count_rep, finals, linesize),
                  cwd=cwd, extra_options=extra_options, stdin=stdin, env=env,
                  timeout=timeout)


def stream(vg_in_place, argv, consume, *, cwd, extra_options=(),
           stdin=subprocess.DEVNULL, env=None, timeout=600):
    """Run argv under lackey through vg_in_place and return consume(f),
    f being lackey's trace as a text file read through a pipe while the
    program runs (tests/curve_oracle.py reads it too).  The client's own
    output is discarded; lackey's stderr is kept for error messages."""
    r, w = os.pipe()
    try:
        proc = subprocess.Popen(
            lackey_command(vg_in_place, argv, w, extra_options),
            cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, pass_fds=(w,), env=env)
    except BaseException:
        os.close(r)
        os.close(w)
        raise
    os.close(w)
    err = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))
    reader.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        with open(r, "r", buffering=1 << 20, errors="replace") as f:
            result = consume(f)
    except BaseException:
        proc.kill()
        raise
    finally:
        timer.cancel()
        proc.wait()
        reader.join()
    if proc.returncode != 0:
        raise LackeyError("lackey exited with status %d: %s"
                          % (proc.returncode,
                             err[0].decode(errors="replace")[-2000:]))
    return result
