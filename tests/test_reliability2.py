"""Reliability (issue 7), second part: a sample at every superblock, odd
programs, live control under load, the front-ends under memcheck.

- --ws-every=1: a sample at every superblock boundary (26,000 samples
  for a program that only starts and exits), each line parsed, times
  strictly increasing, as many samples as boundaries (--stats=yes),
  totals the same as with the default T.
- odd programs, each compared with --tool=none (same standard output,
  same exit status):
  - rel_jit (--smc-check=all): code written at run time into RWX and
    RW-then-RX mappings, rewritten in place, made non-executable and
    back, the program's own text made writable and patched, code that
    rewrites the code it calls; the working set inside each phase is
    exactly the phase's code pages (no data), and the run-wide totals
    differ between two layouts by exactly the pages the layouts differ
    by;
  - rel_mmap: 40 x (map 1 GiB, touch a page in each 256 KiB, unmap):
    each remap counts again in the totals (exactly 4096 pages a round),
    and the peak resident size of the process does not grow with the
    rounds;
  - no symbols (gcc -s, strip --strip-all), C++ exceptions thrown and
    caught across frames, vfork + exec, vfork + _exit, a raw clone()
    thread on its own stack;
  - a forked child's file: its trailer counts its own samples only (it
    counted the parent's before the fork).
- live control under load: 200 monitor commands in a row while the
  program runs flat out; gdb attaching, detaching and attaching again;
  monitor commands racing WS_STOP / WS_START toggles.
- ws_print (text, --csv, --html on fresh, per-thread and cut files;
  malformed files, a folder, bad options) and ws-monitor (listing, one-shot
  commands other than status, refused commands, processes it cannot talk
  to) under memcheck: no errors, no definite or indirect leaks.

Bad inputs the whole suite tries (counted from the tests' own lists when
this file was last changed; the fuzz corpus replayed under ASan+UBSan is
counted once per file):

      19  ws options (test_options.BAD)
      41  ws options (test_reliability.BAD)
      21  client requests (ctl_bad.c)
      43  monitor commands via vgdb (test_control.BAD_COMMANDS)
      16  monitor commands via ws-monitor (test_monitor.REPLIES)
      99  output files for wslib and ws_print (test_output.REFUSED)
      28  ws_print malformed files (test_print.MALFORMED)
     101  ws_print fuzz corpus (tests/print_corpus)
      10  ws_print options and files (test_print)
       7  ws-monitor: processes gone, not under Valgrind, other tool,
          wrong prefix, no vgdb, no ptrace (test_monitor)
       8  ws_print under memcheck (PRINT_CASES below, refused)
       5  ws-monitor under memcheck (refused, unknown, gone, not
          under Valgrind, bad option)
     398  total
"""

import os
import re
import subprocess

import pytest

import ctl_util
import oracle
import wslib

PAGE = 4096


def P(name):
    return wslib.prog(name)


def none_run(argv, *options, cwd=None):
    """argv under --tool=none: (status, stdout)."""
    wslib.require_built(argv[0])
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=none", "-q"]
                       + list(options) + list(argv), cwd=cwd,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def stats_boundaries(stderr):
    m = re.search(r"ws: slow-path calls: [0-9,]+ data, [0-9,]+ code, "
                  r"([0-9,]+) boundaries", stderr)
    assert m, stderr[-2000:]
    return int(m.group(1).replace(",", ""))


# ----------------------------------------------------------------------
# --ws-every=1

@pytest.mark.parametrize("argv,opts", [
    (["marker", os.devnull], []),
    (["rel_churn", "50", "0"], ["--ws-per-thread=yes"])],
    ids=["marker", "churn-per-thread"])
def test_every_1(ws, argv, opts):
    """T = 1: the sample of k*T is due at every superblock boundary, so
    every boundary but the first (at t = 0) takes one.  With tau = 1 the
    window (t-1, t] holds the last instruction only when the superblock
    before was one instruction long; ws starts windows at superblock
    boundaries, so otherwise it is empty."""
    argv = [P(argv[0])] + argv[1:]
    run = ws(argv, "--ws-every=1", "--stats=yes", *opts)
    wslib.check_trailer(run)         # the parser checks each line and
    out = run.output                 # that times strictly increase
    n = len(out.samples)
    assert n > 20000, n
    assert n == out.nsamples == run.summary["samples"]
    assert n == stats_boundaries(run.stderr)
    gaps = [b.t - a.t for a, b in zip(out.samples, out.samples[1:])]
    assert 1 <= min(gaps) and max(gaps) <= oracle.SB_MAX, (min(gaps),
                                                          max(gaps))
    for s, gap in zip(out.samples[1:], gaps):
        if gap > 1:
            assert (s.insn, s.data) == (0, 0), s
        else:
            assert 1 <= s.insn <= 2 and s.data <= 2, s
    assert out.samples[0].t <= oracle.SB_MAX
    # totals are distinct pages ever touched: T does not change them
    other = ws(argv, *opts).check_ok().output
    assert other.summary["insn"][2] == out.summary["insn"][2]
    assert other.summary["data"][2] == out.summary["data"][2]
    if out.per_thread:
        assert all(set(s.threads) <= {1, 2} for s in out.samples)


# ----------------------------------------------------------------------
# Code written, rewritten and protected at run time

JIT_T = 10000
# phase -> (code pages, data pages) of a window inside it; see rel_jit.c
JIT_PHASES = {"rx1": (2, 0), "rx2": (2, 0), "rx3": (5, 0),
              "text": (1, 20), "text2": (1, 20), "smc": (2, 2)}


def jit_pages(k1, k2):
    """(code pages, pages written) of rel_jit's RWX mapping A for K1, K2:
    jit1's chain, jit2's int3 fill and chain, smc's two pages."""
    code = set(range(k1)) | set(range(2, 2 + k2)) | {0, 1}
    written = code | set(range(min(k1, 2)))
    return len(code), len(written)


def phase_windows(out):
    """{phase: [(insn, data)] of the samples whose window lies between
    WS_MARK(phase) and the WS_MARK("end") after it}."""
    marks = [(e.t, e.args[0]) for e in out.events if e.kind == "mark"]
    res = {}
    for (t0, name), (t1, end) in zip(marks, marks[1:]):
        if name == "end":
            continue
        assert end == "end", marks
        res[name] = [(s.insn, s.data) for s in out.samples
                     if s.t - out.tau >= t0 and s.t <= t1]
    return res


def test_jit_smc(ws, tmp_path):
    opts = ["--smc-check=all", "--ws-every=%d" % JIT_T]
    totals = {}
    for k1, k2 in ((3, 4), (1, 1)):
        argv = [P("rel_jit"), str(k1), str(k2)]
        rc, stdout = none_run(argv, "--smc-check=all")
        assert rc == 0, stdout
        run = ws(argv, *opts, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr[-3000:]
        # the code returned what only the current code returns
        assert "wrong" not in stdout and "text 20 ones 20 twos\n" in stdout
        assert "smc %d\n" % (20000 * 20001 // 2) in stdout
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        windows = phase_windows(out)
        want = dict(JIT_PHASES, jit1=(k1, 0), jit2=(k2, 0))
        assert sorted(windows) == sorted(want)
        for phase, (insn, data) in want.items():
            got = windows[phase]
            # Inside a chain phase a window that spans the return to
            # run_chain between its two calls also holds run_chain's code
            # page and the stack page the call pushed on.
            allowed = {(insn, data)}
            if data == 0:
                allowed.add((insn + 1, 1))
            assert set(got) <= allowed and got.count((insn, data)) >= 8, \
                (phase, got)
        totals[(k1, k2)] = (out.summary["insn"][2], out.summary["data"][2])
    # everything but mapping A's layout is the same in the two runs
    (i1, d1), (i2, d2) = totals[(3, 4)], totals[(1, 1)]
    ci1, w1 = jit_pages(3, 4)
    ci2, w2 = jit_pages(1, 1)
    assert (i1 - i2, d1 - d2) == (ci1 - ci2, w1 - w2), totals


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
    rc, stdout = none_run([P("rel_mmap"), "4"])
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


# ----------------------------------------------------------------------
# vfork, clone, fork

def _trace_children(tmp_path, argv, opts=()):
    """argv under ws with --trace-children=yes, one file per process:
    (status, stdout, [parsed files]), every file complete and
    consistent with the stderr summary of its process."""
    cmd = wslib.ws_command(argv, ["--trace-children=yes"] + list(opts),
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    files = []
    for f in sorted(os.listdir(tmp_path)):
        if not f.endswith(".out"):
            continue
        out = wslib.read_output(str(tmp_path / f))
        pid = out.header["pid"]
        block = "\n".join(l for l in err.split("\n")
                          if l.startswith("==%s== " % pid))
        run = wslib.WsRun([], 0, "", block, str(tmp_path / f))
        run._output = out
        wslib.check_trailer(run)
        files.append(out)
    return p.returncode, p.stdout.decode(errors="replace"), files


def test_vfork_exec(tmp_path):
    argv = [P("rel_clone"), "vfork", "3", P("rel_exit"), "exit", "4"]
    rc, stdout = none_run(argv, "--trace-children=yes")
    assert (rc, stdout) == (7, "child exited 4\n")
    got = _trace_children(tmp_path, argv)
    assert got[:2] == (rc, stdout)
    files = {o.header["command"]: o for o in got[2]}
    assert sorted(files) == sorted([" ".join(argv),
                                    P("rel_exit") + " exit 4"]), files
    child = files[P("rel_exit") + " exit 4"]
    parent = files[" ".join(argv)]
    assert child.header["ppid"] == parent.header["pid"]
    inside = [s for s in child.samples if s.insn == 1]
    assert len(inside) == 4 and {s.data for s in inside} == {10}, \
        wslib.show(child.samples)


def test_vfork_exit_and_fork_child_trailer(tmp_path):
    """vfork + _exit: the child's file (Valgrind turns vfork into fork)
    has no samples of its own but the final one at its _exit; its trailer
    and summary say 1 sample, not the parent's count before the fork."""
    argv = [P("rel_clone"), "vfork-exit", "6"]
    rc, stdout = none_run(argv, "--trace-children=yes")
    assert (rc, stdout) == (7, "child exited 6\n")
    d = tmp_path / "vfork"
    d.mkdir()
    got = _trace_children(d, argv)
    assert got[:2] == (rc, stdout)
    files = got[2]
    assert len(files) == 2
    (child,) = [o for o in files if o.header["ppid"] in
                [x.header["pid"] for x in files]]
    (final,) = child.samples
    assert list(child.finals) == [final.t] and child.nsamples == 1
    assert child.summary["insn"][:2] == (float(final.insn), final.insn)
    # fork with a child that works: its own 20 pages, and a trailer of its
    # own samples (check_trailer in _trace_children)
    d = tmp_path / "fork"
    d.mkdir()
    rc, _, files = _trace_children(d, [P("rel_fork"), "fork", "3000000"])
    assert rc == 0 and len(files) == 2
    (child,) = [o for o in files if o.header["ppid"] in
                [x.header["pid"] for x in files]]
    inside = [s for s in child.samples if s.insn == 1]
    assert len(inside) >= 27 and {s.data for s in inside} == {20}


def test_fork_with_threads_per_thread(tmp_path):
    """fork while three other threads wait: the child has the forking
    thread only, so its samples carry that thread's columns alone (they
    carried the three absent threads as 0 0 to the end), and its windows
    inside the loop hold the loop page and its 20 pages; the parent's
    windows inside its own loop, before the fork, carry all four."""
    argv = [P("rel_clone"), "fork-threads", "5"]
    rc, stdout = none_run(argv)
    assert (rc, stdout) == (6, "clone done\nchild exited 5\n")
    got = _trace_children(tmp_path, argv, ["--ws-per-thread=yes"])
    assert got[:2] == (rc, stdout), got[:2]
    files = got[2]
    assert len(files) == 2
    (child,) = [o for o in files if o.header["ppid"] in
                [x.header["pid"] for x in files]]
    (parent,) = [o for o in files if o is not child]
    assert child.samples and all(set(s.threads) == {1}
                                 for s in child.samples), \
        [s.threads for s in child.samples]
    inside = [s for s in child.samples if s.insn == 1]
    assert len(inside) >= 8 and all(
        (s.data, s.shared, s.threads) == (20, 0, {1: (1, 20)})
        for s in inside), wslib.show(child.samples)
    # the final sample as main exits, then its exit
    assert [(e.kind, e.args) for e in child.events] == [
        ("final", []), ("thread-exit", ["1"])]
    exits = sorted(int(e.args[0]) for e in parent.events
                   if e.kind == "thread-exit")
    assert exits == [1, 2, 3, 4]
    inside = [s for s in parent.samples if s.insn == 1]
    assert len(inside) >= 1 and all(
        (s.data, s.threads) == (10, {1: (1, 10), 2: (0, 0), 3: (0, 0),
                                     4: (0, 0)}) for s in inside), \
        [(s, s.threads) for s in parent.samples]


def _region_samples(out):
    """{label: [samples]} of the measured intervals, each named by the
    latest mark before its end (a child's first interval is named by the
    parent's mark before the fork: `parent_mark`)."""
    res, mark, on = {}, None, 0
    for e in out.events:
        if e.kind == "mark":
            mark = e.args[0]
        elif e.kind == "start":
            on = e.t
        elif e.kind == "stop":
            res.setdefault(mark, []).extend(
                s for s in out.samples if on < s.t <= e.t)
    return res


def test_fork_inside_a_region(tmp_path):
    """A fork inside a region marked "open", after one marked "pre": the
    child's trailer has "open" (its part of it) and its own "kid", each
    with the child's own samples; it had "pre" and the parent's samples
    of "open" too."""
    argv = [P("rel_clone"), "fork-regions", "5"]
    rc, stdout = none_run(argv)
    assert (rc, stdout) == (6, "clone done\nclone done\nchild exited 5\n")
    got = _trace_children(tmp_path, argv)
    assert got[:2] == (rc, stdout), got[:2]
    files = got[2]
    (child,) = [o for o in files if o.header["ppid"] in
                [x.header["pid"] for x in files]]
    (parent,) = [o for o in files if o is not child]
    assert list(parent.regions) == ["pre", "open"]
    assert list(child.regions) == ["open", "kid"]
    parent_parts = _region_samples(parent)
    child_parts = _region_samples(child)
    # the child's file starts inside "open": its first stop closes it
    child_parts["open"] = child_parts.pop(None)
    for out, parts in ((parent, parent_parts), (child, child_parts)):
        for label, (n, samples, insn, data) in out.regions.items():
            got = parts[label]
            assert (n, samples) == (1, len(got)), (label, out.regions)
            for kind, (avg, peak, total) in (("insn", insn),
                                             ("data", data)):
                vals = [getattr(s, kind) for s in got]
                assert peak == max(vals), (label, kind, vals)
                assert abs(avg - sum(vals) / len(vals)) <= 0.05 + 1e-9
    # "kid": code, the loop's page and child()'s; data, the 20 pages,
    # the global child_pages, the message write() reads, and child()'s
    # stack: one page, or two where the frame happens to straddle
    assert child.regions["kid"][2][2] == 2, child.regions
    assert 23 <= child.regions["kid"][3][2] <= 24, child.regions
    assert len(child_parts["kid"]) >= 8


def test_raw_clone(ws):
    """A thread made by the clone system call itself, on a stack mapped by
    the program, that leaves with the exit system call: the same output
    and status as under --tool=none; per thread, the new thread's windows
    inside its loop hold its loop page and its 20 pages, main's its own
    10, and the thread has a start and an exit event."""
    argv = [P("rel_clone"), "clone", "5"]
    rc, stdout = none_run(argv)
    assert (rc, stdout) == (5, "clone done\njoined\n")
    run = ws(argv, "--ws-per-thread=yes", check=False)
    assert (run.returncode, run.stdout) == (rc, stdout), run.stderr[-3000:]
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    ev = [(e.kind, e.args) for e in out.events]
    assert ev == [("thread-start", ["1"]), ("thread-start", ["2"]),
                  ("thread-exit", ["2"]), ("final", []),
                  ("thread-exit", ["1"])], ev
    # Valgrind runs one thread at a time: a window may hold both loops
    child_only = [s for s in out.samples
                  if s.threads.get(2) == (1, 20) and s.threads[1] == (0, 0)]
    main_only = [s for s in out.samples
                 if s.threads[1] == (1, 10) and s.threads.get(2) == (0, 0)]
    assert len(child_only) >= 3 and len(main_only) >= 1, \
        wslib.show(out.samples)
    for s in child_only:
        assert (s.insn, s.data, s.shared) == (1, 20, 0), s
    for s in main_only:
        assert (s.insn, s.data, s.shared) == (1, 10, 0), s


# ----------------------------------------------------------------------
# No symbols, C++ exceptions

def test_no_symbols(ws, tmp_path):
    """Programs without a symbol table or debug info: rel_nosym (linked
    with -s) and a copy of rel_exit stripped with strip --strip-all.  No
    crash, the same output and status as under --tool=none, the exact
    working sets inside the loops, and no name of the program's own
    functions anywhere in the file (where a location is written, it can
    only be a placeholder)."""
    stripped = str(tmp_path / "rel_exit_stripped")
    subprocess.run(["strip", "--strip-all", "-o", stripped, P("rel_exit")],
                   check=True)
    syms = subprocess.run(["nm", stripped], capture_output=True)
    assert b"no symbols" in syms.stderr, syms
    syms = subprocess.run(["nm", P("rel_nosym")], capture_output=True)
    assert b"no symbols" in syms.stderr, syms
    for argv, pattern, names in (
            ([P("rel_nosym"), "4"], [(10, 1), (20, 1)],
             ("rel_nosym_", "rel_nosym.c")),
            ([stripped, "exit", "9"], [(10, 1)],
             ("rel_exit_touch", "rel_exit.c"))):
        rc, stdout = none_run(argv)
        run = ws(argv, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr
        assert rc == int(argv[-1])
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        # each loop runs ~500,000 instructions: 4 windows inside it
        for data, insn in pattern:
            inside = [s for s in out.samples if (s.insn, s.data)
                      == (insn, data)]
            assert len(inside) >= 4, (argv, wslib.show(out.samples))
        with open(run.out_path) as f:
            text = f.read()
        for name in names:
            assert name not in text and name not in run.stderr, name
        # format 3: stacks and hot pages name code by ip location
        # function; in the stripped program both are placeholders
        wheres = [w for frames in out.stacks.values() for w in frames] + \
            [h.where for kind in out.hot for h in out.hot[kind]]
        own = "(%s)" % os.path.basename(argv[0])
        for w in wheres:
            if w.location == own:
                assert w.function == "???", w


def test_cxx_exceptions(ws, tmp_path):
    """2,000 C++ exceptions thrown through 2 to 21 frames with
    destructors, a third of them caught and rethrown on the way; the same
    under --tool=none and ws, also stripped; then the loop's exact
    window."""
    stripped = str(tmp_path / "rel_exc_stripped")
    subprocess.run(["strip", "--strip-all", "-o", stripped, P("rel_exc")],
                   check=True)
    want = ("thrown 2000 caught 2000 destroyed 23000 rethrown 533 "
            "sum 1999000\n")
    for exe in (P("rel_exc"), stripped):
        argv = [exe, "2000", "5"]
        rc, stdout = none_run(argv)
        assert (rc, stdout) == (5, want)
        run = ws(argv, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        inside = [s for s in out.samples if s.insn == 1]
        assert len(inside) >= 3 and {s.data for s in inside} == {10}, \
            wslib.show(out.samples)


# ----------------------------------------------------------------------
# Steering at every distance from a sample

RACE_T = 1000


@pytest.mark.parametrize("mode,n", [("tau", 3000), ("toggle", 3000),
                                    ("status", 1000)])
def test_steering_never_skips_a_sample(ws, mode, n):
    """The program steers ws from inside (client requests) after
    1 .. 211 turns of a spin loop, so the steering lands at every
    distance from the multiples of T = 1000.  Every multiple of T the
    clock passes gets its sample at the first boundary at or after it:
    a change of tau, or a stop, made right after the superblock in which
    a sample came due used to skip that sample (33 of 900 lost)."""
    run = ws([P("rel_race"), mode, str(n)], "--ws-every=%d" % RACE_T)
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    kinds = [e.kind for e in out.events]
    if mode == "tau":
        sets = [e.args for e in out.events if e.kind == "set"]
        assert sets == [["tau", "700"], ["tau", "1000"]] * (n // 2)
    if mode == "toggle":
        assert kinds.count("stop") == kinds.count("start") == n
    if mode == "status":
        assert run.stderr.count("ws status (pid") == n
    # The clock runs while measuring only; it passed t_end: as many
    # samples as multiples of T up to the last boundary, and the final
    # samples: one at each stop (and at exit), unless a sample came due
    # right then (the stop takes it first: no final sample repeats it)
    t_end = out.events[-1].t
    regular = [s for s in out.samples if s.t not in out.finals]
    assert t_end // RACE_T - 1 <= len(regular) <= t_end // RACE_T
    stops = [e.t for e in out.events if e.kind == "stop"]
    exits = [e.t for e in out.events if e.kind == "thread-exit"]
    regular_t = {s.t for s in regular}
    assert set(out.finals) <= set(stops) | set(exits[-1:]), out.finals
    assert {t for t in stops if t not in regular_t} <= set(out.finals)


# ----------------------------------------------------------------------
# Live control from outside, under load

class Busy:
    """rel_race MODE under ws with vgdb on; its standard input is a pipe
    whose end stops it."""

    def __init__(self, tmp_path, mode, options=()):
        wslib.require_built(P("rel_race"))
        self.dir = str(tmp_path)
        self.out_path = os.path.join(self.dir, "ws.out")
        self.prefix = os.path.join(self.dir, "vgdb")
        cmd = wslib.ws_command([P("rel_race"), mode, "0"],
                               ["--vgdb=yes", "--vgdb-prefix=" + self.prefix]
                               + list(options), self.out_path)
        self.err = open(os.path.join(self.dir, "stderr"), "w+b")
        self.p = subprocess.Popen(cmd, cwd=self.dir, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err)
        assert self.p.stdout.readline() == b"ready\n"

    def vgdb(self, command):
        p = subprocess.run(["vgdb", "--vgdb-prefix=" + self.prefix,
                            "--pid=%d" % self.p.pid, "--wait=20", command],
                           capture_output=True, timeout=60)
        err = p.stderr.decode(errors="replace")
        assert p.returncode == 0, (command, p.returncode, err)
        return p.stdout.decode(errors="replace")

    def finish(self):
        self.p.stdin.close()
        rc = self.p.wait(timeout=120)
        self.err.seek(0)
        stderr = self.err.read().decode(errors="replace")
        self.err.close()
        run = wslib.WsRun([], rc, "", stderr, self.out_path)
        assert rc == 0, stderr[-3000:]
        return run

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


@pytest.fixture
def busy_factory(tmp_path):
    made = []

    def make(mode, *options):
        b = Busy(tmp_path, mode, options)
        made.append(b)
        return b
    yield make
    for b in made:
        b.kill()


_SET_REPLY = re.compile(r"ws set tau: tau is now ([0-9]+) \(was ([0-9]+)\) "
                        r"from t=([0-9]+)\n\Z")


def test_200_commands_under_load(busy_factory):
    """200 monitor commands in a row (ws status, ws series 5, ws set tau,
    in turn) while rel_race busy writes its 50 pages flat out.  Every
    command is answered; status is consistent with itself and with time
    (samples = t // T, or one less when the superblock that just ended
    passed a multiple of T); each series reply is 5 consecutive lines of
    the final file; every tau change is in the file at the time the reply
    gave; no sample is lost (the k-th at the first boundary at or after
    k*T) and a window inside the loop holds its page and the 50 pages."""
    T = 100000
    b = busy_factory("busy", "--ws-every=%d" % T)
    statuses, series, sets = [], [], []
    for i in range(200):
        if i % 3 == 0:
            st = ctl_util.parse_status(b.vgdb("ws status"))
            assert st["measurement"] == "on"
            statuses.append(st)
        elif i % 3 == 1:
            lines = b.vgdb("ws series 5").strip("\n").split("\n")
            assert re.match(r"ws series: the last 5 of [0-9]+ samples "
                            r"\(t insn data\):\Z", lines[0]), lines
            rows = [tuple(int(x) for x in l.split()) for l in lines[1:]]
            assert len(rows) == 5 and all(len(r) == 3 for r in rows), lines
            series.append(rows)
        else:
            tau = T // 2 if i % 2 else T
            reply = b.vgdb("ws set tau %d" % tau)
            m = _SET_REPLY.match(reply)
            assert m and int(m.group(1)) == tau, reply
            sets.append((int(m.group(3)), tau))
    run = b.finish()
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    t_end = out.events[-1].t
    regular = [s for s in out.samples if s.t not in out.finals]
    assert t_end // T - 1 <= len(regular) <= t_end // T
    assert set(out.finals) <= {t_end}        # at exit, if no sample then
    assert len(out.samples) >= 20, "the program hardly ran"
    for prev, st in zip(statuses, statuses[1:]):
        assert st["time"] >= prev["time"] and \
            st["samples"] >= prev["samples"], (prev, st)
    for st in statuses:
        assert st["time"] // T - 1 <= st["samples"] <= st["time"] // T, st
    lines = [(s.t, s.insn, s.data) for s in out.samples]
    index = {x: i for i, x in enumerate(lines)}
    for rows in series:
        assert rows[0] in index, rows
        i = index[rows[0]]
        assert lines[i:i + 5] == rows, rows
    assert [(e.t, int(e.args[1])) for e in out.events
            if e.kind == "set"] == sets
    assert all(e.args[0] == "tau" for e in out.events if e.kind == "set")
    # The window of a sample that follows a change by less than tau
    # starts at the change (docs/manual.md, limits) and may hold fewer of
    # the 50 pages; every other window lies in the loop or spans the few
    # instructions between two of its calls.
    change_times = [t for t, _ in sets]
    clean = [s for s in out.samples
             if not any(s.t - T <= c <= s.t for c in change_times)]
    assert len(clean) >= len(out.samples) // 2, wslib.show(out.samples)
    for s in clean:
        assert s.insn >= 1 and s.data >= 50, s
        if s.insn == 1:
            assert s.data == 50, s
    assert sum(1 for s in clean if s.insn == 1) >= len(clean) // 2


def _gdb_attach(b):
    """gdb in batch mode attaches to the running process through vgdb,
    asks monitor ws status and detaches; returns the status."""
    argv = ["gdb", "-batch", "-nx", "-q", "-ex", "set confirm off",
            "-ex", "set pagination off",
            "-ex", "target remote | vgdb --wait=30 --pid=%d "
                   "--vgdb-prefix=%s" % (b.p.pid, b.prefix),
            "-ex", "monitor ws status", "-ex", "detach", P("rel_race")]
    p = subprocess.run(argv, capture_output=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, (p.stdout, err)
    i = err.index("ws status (pid")
    j = err.index("\n\n", i) if "\n\n" in err[i:] else len(err)
    text = "\n".join(l for l in err[i:j].split("\n")
                     if l.startswith("ws status") or l.startswith("  "))
    return ctl_util.parse_status(text)


def test_gdb_attach_detach_attach(busy_factory):
    """gdb attaches to the running program, reads ws status and detaches,
    three times; the program runs on in between (time and samples grow),
    and ends normally with a complete file and no sample lost."""
    T = 100000
    b = busy_factory("busy", "--ws-every=%d" % T)
    seen = []
    for _ in range(3):
        st = _gdb_attach(b)
        assert st["pid"] == b.p.pid and st["measurement"] == "on"
        seen.append(st)
        # let it run on: about a million instructions
        s0 = st["samples"]
        for _ in range(1000):
            if ctl_util.parse_status(b.vgdb("ws status"))["samples"] \
                    >= s0 + 10:
                break
        else:
            raise AssertionError("the program stopped running")
    assert seen[0]["time"] < seen[1]["time"] < seen[2]["time"]
    run = b.finish()
    wslib.check_trailer(run)
    wslib.check_sample_times(run.output)
    inside = [s for s in run.output.samples if s.insn == 1]
    assert len(inside) >= 20 and {s.data for s in inside} == {50}


def test_commands_racing_stop_start(busy_factory):
    """rel_race flip stops and starts measurement over and over while
    vgdb sends ws status and ws dump: every reply is whole, the file
    parses with its events in time order (the reader checks), starts and
    stops alternate, and no sample is lost."""
    b = busy_factory("flip", "--ws-every=%d" % RACE_T)
    for i in range(24):
        if i % 2:
            st = ctl_util.parse_status(b.vgdb("ws status"))
            assert st["measurement"] in ("on", "off")
        else:
            reply = b.vgdb("ws dump")
            ctl_util.parse_monitor_dump(reply)
    run = b.finish()
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    kinds = [e.kind for e in out.events if e.kind in ("start", "stop")]
    assert len(kinds) > 100
    assert kinds == ["stop", "start"] * (len(kinds) // 2)
    assert [e.args for e in out.events if e.kind == "dump"] == \
        [["monitor"]] * 12


# ----------------------------------------------------------------------
# The front-ends under memcheck

PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
MONITOR = os.path.join(wslib.TOP_BUILDDIR, "monitor", "ws-monitor")
GOLDEN = os.path.join(wslib.TESTS_DIR, "print_golden")
# Errors make memcheck exit with 99; definite and indirect leaks count as
# errors; possible and reachable ones do not (glibc and readline keep
# memory till exit on purpose).
MEMCHECK = ["valgrind", "--tool=memcheck", "-q", "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--error-exitcode=99"]


def memcheck(argv, timeout=120):
    """argv under memcheck: (status, stdout, stderr); stderr holds only
    what memcheck reports (-q) and what the program writes there."""
    wslib.require_built(argv[0])
    p = subprocess.run(MEMCHECK + argv, capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


def assert_clean(rc, err, want_rc):
    assert rc != 99 and not re.search(r"==[0-9]+== ", err), err[-4000:]
    assert rc == want_rc, (rc, err[-2000:])


@pytest.fixture(scope="module")
def print_inputs(tmp_path_factory):
    """A fresh file with marks, regions, a dump and a change of tau
    (ctl_macros), a per-thread file, a cut one, and malformed ones."""
    d = tmp_path_factory.mktemp("print")
    run = wslib.run_ws([P("ctl_macros")], ["--ws-instr-atstart=no"],
                       out_path=str(d / "macros.ws"))
    with open(run.out_path) as f:
        text = f.read()
    lines = text.split("\n")
    last = max(i for i, l in enumerate(lines) if l[:1].isdigit())
    files = {"macros": run.out_path,
             "threads": os.path.join(GOLDEN, "threads.ws"),
             "killed": os.path.join(GOLDEN, "killed.ws")}
    bad = {
        "bad-sample": "\n".join(lines[:16] + ["12 x 3"] + lines[16:]),
        "bad-version": re.sub(r"\Aws-output-format: [0-9]+",
                              "ws-output-format: 9", text),
        "binary": "\x00\xff\x01ws-output-format: 2\n\x00\x00",
        "empty": "",
        "header-only": "\n".join(lines[:13]) + "\n",
        "huge": "\n".join(lines[:last + 1] + ["9" * 5000 + " 1 1"]
                          + lines[last + 1:]),
        "cut-mid-line": text[:len(text) // 2],
    }
    for name, content in bad.items():
        path = str(d / (name + ".ws"))
        with open(path, "w", encoding="latin-1") as f:
            f.write(content)
        files[name] = path
    files["dir"] = str(d)
    return files


# (inputs, options, exit status): every kind of report on good files, and
# the files and options it must refuse
PRINT_CASES = [
    ("macros", [], 0), ("macros", ["--csv"], 0), ("macros", ["--html"], 0),
    ("macros", ["--width=30", "--height=4"], 0),
    ("threads", [], 0), ("threads", ["--csv"], 0), ("threads", ["--html"], 0),
    ("killed", [], 0), ("killed", ["--html"], 0), ("cut-mid-line", [], 0),
    ("bad-sample", [], 1), ("bad-version", [], 1), ("binary", [], 1),
    ("empty", [], 1), ("header-only", ["--csv"], 0), ("huge", [], 1),
    ("dir", [], 1), ("macros", ["--width=5"], 1), ("macros", ["--bogus"], 1),
]


@pytest.mark.parametrize("name,opts,want", PRINT_CASES,
                         ids=["%s%s" % (c[0], "".join(c[1]))
                              for c in PRINT_CASES])
def test_ws_print_under_memcheck(print_inputs, tmp_path, name, opts, want):
    opts = list(opts)
    if opts == ["--html"]:
        opts = ["--html=" + str(tmp_path / "r.html")]
    rc, out, err = memcheck([PRINT] + opts + [print_inputs[name]])
    # ws_print's own messages start with "ws_print: "; nothing else may
    # be on stderr
    err = "\n".join(l for l in err.split("\n")
                    if not l.startswith("ws_print: "))
    assert_clean(rc, err.strip("\n"), want)
    if want == 0 and opts[:1] == ["--csv"]:
        assert out.startswith("t,"), out[:200]
    if opts and opts[0].startswith("--html"):
        with open(str(tmp_path / "r.html")) as f:
            assert "</html>" in f.read()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    s = ctl_util.Server(tmp_path_factory.mktemp("mc-monitor"), pages=200)
    s.touch(0, 200, 20)
    yield s
    s.kill()


def _monitor_argv(server, *words, pid=None):
    argv = [MONITOR, "--vgdb-prefix=" + server.prefix]
    if pid is not False:
        argv.append("--pid=%d" % (server.pid if pid is None else pid))
    return argv + list(words)


def test_ws_monitor_listing_under_memcheck(live_server):
    """The listing mode (no --pid), with and without the right prefix."""
    rc, out, err = memcheck(_monitor_argv(live_server, pid=False))
    assert_clean(rc, err, 0)
    assert "%-8d %s 200" % (live_server.pid, ctl_util.SERVER) in out, out
    rc, out, err = memcheck([MONITOR])
    assert_clean(rc, err, 0)
    assert ("%-8d %s 200" % (live_server.pid, ctl_util.SERVER)) in out, out


@pytest.mark.parametrize("words,want", [
    (["series", "20"], 0), (["dump"], 0), (["help"], 0),
    (["set", "tau", "0"], 1), (["frobnicate"], 1)],
    ids=["series", "dump", "help", "refused", "unknown"])
def test_ws_monitor_one_shot_under_memcheck(live_server, words, want):
    """One-shot commands other than status (which test_monitor.py runs
    under memcheck): long replies, refused commands."""
    rc, out, err = memcheck(_monitor_argv(live_server, *words))
    assert_clean(rc, err, want)
    assert out != ""


def test_ws_monitor_errors_under_memcheck(live_server):
    """A process that is gone, one not under Valgrind, a bad option."""
    p = subprocess.Popen(["sleep", "60"])
    try:
        rc, out, err = memcheck(_monitor_argv(live_server, "status",
                                              pid=p.pid))
        assert_clean(rc, err.replace(
            "ws-monitor: process %d (sleep) is not running under Valgrind\n"
            % p.pid, ""), 2)
    finally:
        p.kill()
        p.wait()
    rc, out, err = memcheck(_monitor_argv(live_server, "status", pid=p.pid))
    assert_clean(rc, err.replace("ws-monitor: there is no process %d\n"
                                 % p.pid, ""), 2)
    rc, out, err = memcheck([MONITOR, "--bogus"])
    assert_clean(rc, re.sub(r"ws-monitor: unknown option .*\n", "", err), 64)
