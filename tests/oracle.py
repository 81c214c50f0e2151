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

    exact:  window (t - tau, t], the definition of WS(t, tau);
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

Lackey does not see memory accessed by system calls on the program's
behalf, so compare with ws run with --ws-syscalls=no.  It does see loads
and stores by helper-implemented instructions (dirty helpers), atomics
(CAS), and guarded loads and stores, each as L, S or M lines.
"""

import os
import subprocess
import threading

# The most guest instructions Valgrind puts in one superblock: VEX's
# --vex-guest-max-insns, default 50 (range 1..100).  The tests run both ws
# and lackey with the default.
SB_MAX = 50


class LackeyError(Exception):
    """lackey failed or printed something the oracle does not understand."""


class OracleSample:
    """The oracle's working sets at one sample time t (the k-th sample)."""

    __slots__ = ("t", "k", "insn", "data", "insn_lo", "insn_hi",
                 "data_lo", "data_hi")

    def __init__(self, t, k, counts):
        self.t, self.k = t, k
        (self.insn, self.insn_lo, self.insn_hi,
         self.data, self.data_lo, self.data_hi) = counts

    def __repr__(self):
        return ("OracleSample(t=%d, k=%d, insn=%d [%d..%d], data=%d [%d..%d])"
                % (self.t, self.k, self.insn, self.insn_lo, self.insn_hi,
                   self.data, self.data_lo, self.data_hi))


class OracleResult:
    """What the oracle computed from one trace."""

    def __init__(self, samples, instructions, insn_pages, data_pages,
                 trace_lines):
        self.samples = samples            # list of OracleSample
        self.instructions = instructions  # I lines in the whole trace
        self.insn_total = insn_pages      # distinct instruction pages
        self.data_total = data_pages      # distinct data pages
        self.trace_lines = trace_lines


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


def compute(lines, times, tau, pagesize, every):
    """Working sets from the lackey trace `lines` (an iterable of text
    lines) at each time in `times` (increasing instruction counts, each
    t with k*every <= t < (k+1)*every for its k).  Returns OracleResult.
    Lines that start with '=' (Valgrind's own messages) are skipped; any
    other line that is not I/L/S/M raises LackeyError."""
    if pagesize <= 0 or pagesize & (pagesize - 1):
        raise ValueError("pagesize must be a power of two")
    shift = pagesize.bit_length() - 1
    times = list(times)
    if any(b <= a for a, b in zip(times, times[1:])):
        raise ValueError("sample times must increase strictly")

    insn_last = {}
    data_last = {}
    icache = {}
    dcache = {}
    out = []
    icount = 0
    nlines = 0
    ti = 0
    next_t = times[0] if times else -1

    def take(t):
        k = t // every
        # thresholds for the window starts, largest window first:
        # hi (k*T - tau), exact (t - tau), lo (k*T - tau + SB_MAX)
        bounds = (k * every - tau, t - tau, k * every - tau + SB_MAX)
        ihi, iex, ilo = _count_after(insn_last, bounds)
        dhi, dex, dlo = _count_after(data_last, bounds)
        out.append(OracleSample(t, k, (iex, ilo, ihi, dex, dlo, dhi)))

    for line in lines:
        nlines += 1
        c = line[0] if line else ""
        if c == "I":
            while icount == next_t:
                take(icount)
                ti += 1
                next_t = times[ti] if ti < len(times) else -1
            icount += 1
            span = icache.get(line)
            if span is None:
                if not line.startswith("I  "):
                    raise LackeyError("bad trace line %r" % line)
                span = icache[line] = _span(line[3:], shift)
            if span.__class__ is int:
                insn_last[span] = icount
            else:
                for p in span:
                    insn_last[p] = icount
        elif c == " ":
            key = line[3:]
            span = dcache.get(key)
            if span is None:
                if line[1] not in "LSM" or line[2] != " ":
                    raise LackeyError("bad trace line %r" % line)
                if len(dcache) > 2000000:
                    dcache.clear()
                span = dcache[key] = _span(key, shift)
            if span.__class__ is int:
                data_last[span] = icount
            else:
                for p in span:
                    data_last[p] = icount
        elif c == "=":
            continue
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
    return OracleResult(out, icount, len(insn_last), len(data_last), nlines)


def lackey_command(vg_in_place, argv, log_fd, extra_options=()):
    return [vg_in_place, "--tool=lackey", "--trace-mem=yes",
            "--log-fd=%d" % log_fd, *extra_options, *argv]


def run(vg_in_place, argv, times, tau, pagesize, every, *, cwd,
        extra_options=(), stdin=subprocess.DEVNULL, env=None, timeout=600):
    """Run argv under lackey through vg_in_place (so that the client sees
    the same environment as under ws), stream the trace through a pipe
    into compute(), and return its OracleResult.  The client's own output
    is discarded; lackey's stderr is kept for error messages."""
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
            result = compute(f, times, tau, pagesize, every)
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
