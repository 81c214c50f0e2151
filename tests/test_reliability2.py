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
- ws_print and ws-monitor under memcheck: no errors, no definite or
  indirect leaks.
"""

import os
import re
import subprocess

import pytest

import wslib

PAGE = 4096


def P(name):
    return wslib.prog(name)


# A superblock holds at most 60 guest instructions (VEX's
# guest_max_insns), so a sample is at most 59 instructions late.
SB_MAX = 60


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
    assert 1 <= min(gaps) and max(gaps) <= SB_MAX, (min(gaps), max(gaps))
    for s, gap in zip(out.samples[1:], gaps):
        if gap > 1:
            assert (s.insn, s.data) == (0, 0), s
        else:
            assert 1 <= s.insn <= 2 and s.data <= 2, s
    assert out.samples[0].t <= SB_MAX
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
        wslib.check_sample_times(out, SB_MAX)
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
    has no samples of its own; its trailer and summary say 0 samples, not
    the parent's count before the fork."""
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
    assert child.samples == [] and child.nsamples == 0
    assert child.summary["insn"][:2] == (0.0, 0)
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
    wslib.check_sample_times(out, SB_MAX)
    ev = [(e.kind, e.args[0]) for e in out.events]
    assert ev == [("thread-start", "1"), ("thread-start", "2"),
                  ("thread-exit", "2"), ("thread-exit", "1")], ev
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
