"""Reliability (issue 7): threads, processes, ways of ending, bad options.

Every answer is exact: the programs (tests/progs/rel_*.c) run their
measured loops in assembly alone on their own code page (wsprog.h), so a
window inside a loop has 1 instruction page and exactly the data pages the
loop writes; where several threads or processes are involved they take
strict turns or wait for each other, so nothing depends on scheduling.

- threads: 8 threads passing a baton (futex) over shared and own pages:
  process-wide, per-thread and shared counts, with and without
  --fair-sched=yes; a thread created and joined 1,000 times (events
  counted, exit status passed through).
- processes, with --trace-children=yes and --ws-file=...%p...: fork (the
  child's own file; the parent's file identical whether the child runs 100
  or 3,000,000 instructions), fork + exec, system() (one complete file per
  process: parent, sh, the program), a child killed by SIGKILL mid-run
  (its file is a parseable partial file).
- ends: exit(), return from main, _exit in a second thread, an uncaught
  SIGSEGV, SIGTERM sent to itself and from outside, SIGKILL from outside:
  the exit status is exactly what `--tool=none` gives for the same program;
  the file is complete and the summary printed, except after SIGKILL, where
  the header and every sample written so far parse.
- options: the bad values tests/test_options.py does not already try
  (overflowing, huge, non-numeric, empty, negative, for every ws option).
"""

import os
import re
import signal
import subprocess

import pytest

import wslib

T = 100000


P = wslib.prog


def inside(samples):
    """Samples whose window lies inside one measured loop."""
    return [s for s in samples if s.insn == 1]


# ----------------------------------------------------------------------
# Threads

# rel_threads 8 20 8000000: thread i (tid i + 1) owns i + 3 pages (3..10,
# 52 in all); all write 20 shared pages; the turn word has a page of its
# own.  A round of 8 sweeps takes about (8*20 + 52)*25 + 480 = 5780
# instructions, so a window of T holds ~17 sweeps of every thread.  About
# 8,000,000 instructions: 80 samples, 77 of them inside the loops (the
# first two overlap start-up and thread creation, the last the joins).
NTH, SHARED = 8, 20
THREADS8 = [P("rel_threads"), str(NTH), str(SHARED), "8000000"]
OWN = {i + 1: i + 3 for i in range(NTH)}                    # tid -> pages
PROCESS_DATA = SHARED + sum(OWN.values()) + 1               # 73
PER_THREAD = {tid: (1, SHARED + n + 1) for tid, n in OWN.items()}


def _check_eight_threads(run):
    out = run.output
    wslib.check_trailer(run)
    assert out.per_thread
    starts = [e.args for e in out.events if e.kind == "thread-start"]
    exits = [e.args for e in out.events if e.kind == "thread-exit"]
    want = [[str(t)] for t in range(1, NTH + 1)]
    assert sorted(starts, key=lambda a: int(a[0])) == want, out.events
    assert sorted(exits, key=lambda a: int(a[0])) == want, out.events
    ins = inside(out.samples)
    assert len(ins) >= 75, wslib.show(out.samples)
    bad = [s for s in ins if (s.data, s.shared, s.threads)
           != (PROCESS_DATA, SHARED + 1, PER_THREAD)]
    assert not bad, (
        "expected process 1/%d, %d shared, per thread %r; got %r"
        % (PROCESS_DATA, SHARED + 1, PER_THREAD, bad[:5]))


def test_eight_threads_per_thread(ws):
    run = ws(THREADS8, "--ws-per-thread=yes")
    _check_eight_threads(run)
    # without per-thread columns the process-wide counts are the same
    out = ws(THREADS8).output
    ins = inside(out.samples)
    assert len(ins) >= 75 and {s.data for s in ins} == {PROCESS_DATA}, \
        wslib.show(out.samples)


def test_eight_threads_fair_sched(ws):
    _check_eight_threads(ws(THREADS8, "--ws-per-thread=yes",
                            "--fair-sched=yes"))


def test_thread_churn(ws):
    """1,000 threads created and joined one after the other: Valgrind
    reuses tid 2 for each; one start and one exit event per thread, plus
    main's; status 7 passed through."""
    run = ws([P("rel_churn"), "1000", "7"], "--ws-per-thread=yes",
             check=False)
    assert run.returncode == 7, run.stderr[-3000:]
    wslib.check_trailer(run)
    out = run.output
    for kind in ("thread-start", "thread-exit"):
        tids = [e.args[0] for e in out.events if e.kind == kind]
        assert len(tids) == 1001, (kind, len(tids))
        assert sorted(tids).count("1") == 1 and tids.count("2") == 1000, \
            (kind, sorted(set(tids)))
    # a start and its exit alternate for tid 2
    seq = [e.kind for e in out.events
           if e.kind.startswith("thread-") and e.args == ["2"]]
    assert seq == ["thread-start", "thread-exit"] * 1000
    # each sample lists only the live threads: main, and tid 2 at most
    assert all(set(s.threads) <= {1, 2} and 1 in s.threads
               for s in out.samples), wslib.show(out.samples)


# ----------------------------------------------------------------------
# Processes

def _files(tmp_path):
    """{pid: parsed complete output file} of ws.<pid>.out in tmp_path: the
    file of the last program each process ran.  A process that exec'd
    (--trace-children=yes) has one file per program, ws.<pid>.out for the
    first and ws.<pid>.out.exec<k> for the one its k-th exec started;
    each but the last ends with an exec event naming the next."""
    images = {}
    for f in sorted(os.listdir(tmp_path)):
        m = re.match(r"ws\.([0-9]+)\.out(?:\.exec([0-9]+))?\Z", f)
        if m:
            out = wslib.read_output(str(tmp_path / f))
            assert m.group(1) == out.header["pid"], f
            images.setdefault(int(m.group(1)), {})[int(m.group(2) or 0)] = out
    res = {}
    for pid, by_k in images.items():
        assert sorted(by_k) == list(range(len(by_k))), (pid, sorted(by_k))
        for k in range(len(by_k) - 1):
            assert by_k[k].exec == by_k[k + 1].argv[0], (pid, k)
        assert by_k[len(by_k) - 1].exec is None
        res[pid] = by_k[len(by_k) - 1]
    return res


def _fork_run(tmp_path, mode, child_insns, *extra):
    wslib.require_built(P("rel_fork"))
    cmd = wslib.ws_command([P("rel_fork"), mode, child_insns] + list(extra),
                           ["--trace-children=yes"],
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    return p.returncode, p.stderr.decode(errors="replace")


def _parent_lines(out):
    return [(s.t, s.insn, s.data) for s in out.samples]


def _check_parent(out):
    """The parent's file: its own 10 pages in its loops, about 2,000,000
    instructions of them (18 samples inside), complete."""
    ins = inside(out.samples)
    assert len(ins) == 18 and {s.data for s in ins} == {10}, \
        wslib.show(out.samples)
    assert out.nsamples == len(out.samples)
    wslib.check_sample_times(out)


@pytest.mark.parametrize("mode", ["fork", "kill"])
def test_fork_child_own_file(tmp_path, mode):
    """fork without exec: with the child doing 100 or 3,000,000
    instructions, the parent's file has the same samples at the same times
    (to within start-up's jitter), and the child's file holds the child's own 20
    pages.  In mode kill the parent kills the child with SIGKILL after its
    loop: the child's file then has its header and its samples and no
    trailer."""
    parents = []
    for child_insns in ("0000100", "3000000"):
        d = tmp_path / child_insns
        d.mkdir()
        rc, err = _fork_run(d, mode, child_insns)
        assert rc == 0, err
        names = sorted(os.listdir(d))
        assert len(names) == 2, names
        # the parent's summary only, and the child's only if it exited
        assert err.count("Insn avg/peak/total") == (2 if mode == "fork"
                                                    else 1), err
        if mode == "fork":
            files = _files(d)
        else:
            files = {}
            for f in names:
                text = open(str(d / f)).read()
                o = wslib.parse_output(text, complete=False)
                files[int(o.header["pid"])] = o
        (ppid,) = [p for p, o in files.items()
                   if o.header["command"].startswith(P("rel_fork"))
                   and int(o.header["ppid"]) != p and p in
                   [int(x.header["ppid"]) for x in files.values()]]
        (cpid,) = [p for p in files if p != ppid]
        parent, child = files[ppid], files[cpid]
        assert parent.complete
        _check_parent(parent)
        assert int(child.header["ppid"]) == ppid
        assert child.complete == (mode == "fork")
        # the child's clock goes on from the parent's at the fork
        assert all(s.t > 1000000 for s in child.samples)
        if child_insns == "3000000":
            ins = inside(child.samples)
            assert len(ins) >= 27 and {s.data for s in ins} == {20}, \
                wslib.show(child.samples)
        else:
            # 100 instructions and the exit: less than T, so at most one
            # multiple of T passes in the child, and no window of it lies
            # inside a loop
            assert len(child.samples) <= 1, wslib.show(child.samples)
            assert all(s.insn > 1 for s in child.samples)
        if mode == "fork":
            assert child.nsamples == len(child.samples)
        parents.append(_parent_lines(parent))
    # start-up may take a few instructions more or less from run to run;
    # the child's 3,000,000 instructions would add 30 samples
    a, b = parents
    assert len(a) == len(b) and all(abs(x[0] - y[0]) < 1000
                                    for x, y in zip(a, b)), (
        "the parent's samples depend on the child's work:\n%s\n%s"
        % (a, b))


def test_fork_exec(tmp_path):
    """fork + exec with --trace-children=yes: one complete file for the
    parent, one for the forked child up to its exec, and one for the
    program executed (same pid as the forked child), each with its own
    pages only."""
    rc, err = _fork_run(tmp_path, "exec", "0", P("touch"), "20",
                        "st,0,20,4096,10,2000000")
    assert rc == 0, err
    files = _files(tmp_path)
    assert len(files) == 2, files
    assert len(os.listdir(tmp_path)) == 3, os.listdir(tmp_path)
    assert err.count("Insn avg/peak/total") == 3, err
    (cpid,) = [p for p, o in files.items()
               if o.header["command"].startswith(P("touch") + " ")]
    (ppid,) = [p for p in files if p != cpid]
    assert int(files[cpid].header["ppid"]) == ppid
    _check_parent(files[ppid])
    ins = inside(files[cpid].samples)
    # touch's loop: ~2,000,000 instructions, 20 pages
    assert len(ins) >= 18 and {s.data for s in ins} == {20}, \
        wslib.show(files[cpid].samples)


def test_system(tmp_path):
    """system(): the parent, /bin/sh and the program sh starts: three
    complete files, chained by ppid."""
    rc, err = _fork_run(tmp_path, "system", "0",
                        P("touch") + " 20 st,0,20,4096,10,2000000")
    assert rc == 0, err
    files = _files(tmp_path)
    assert len(files) == 3, {p: o.header["command"] for p, o in files.items()}
    # and the programs of the two forked children before their execs
    assert len(os.listdir(tmp_path)) == 5, os.listdir(tmp_path)
    assert err.count("Insn avg/peak/total") == 5, err
    by_cmd = {o.header["command"].split(" ")[0]: p for p, o in files.items()}
    assert set(by_cmd) == {P("rel_fork"), "/bin/sh", P("touch")}, by_cmd
    parent, sh, prog = (by_cmd[P("rel_fork")], by_cmd["/bin/sh"],
                        by_cmd[P("touch")])
    assert int(files[sh].header["ppid"]) == parent
    assert int(files[prog].header["ppid"]) == sh
    # system() blocks SIGCHLD and ignores SIGINT/SIGQUIT: same 18 samples
    _check_parent(files[parent])
    ins = inside(files[prog].samples)
    assert len(ins) >= 18 and {s.data for s in ins} == {20}, \
        wslib.show(files[prog].samples)


# ----------------------------------------------------------------------
# Ways of ending

def _status_under(tool, mode, tmp_path):
    cmd = wslib.ws_command([P("rel_exit"), mode, "9"], (),
                           str(tmp_path / ("ws.%s.out" % mode))
                           if tool == "ws" else None, tool=tool)
    p = subprocess.run(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    return p.returncode, p.stderr.decode(errors="replace")


# mode -> the status the program ends with, as subprocess reports it
# (a negative number: killed by that signal, which the shell shows as
# 128 + n); --tool=none must give the same
ENDS = [("exit", 9), ("return", 9), ("thread", 9),
        ("segv", -signal.SIGSEGV), ("term", -signal.SIGTERM)]


@pytest.mark.parametrize("mode,status", ENDS, ids=[e[0] for e in ENDS])
def test_end(tmp_path, mode, status):
    wslib.require_built(P("rel_exit"))
    rc_none, err_none = _status_under("none", mode, tmp_path)
    assert rc_none == status, err_none
    rc, err = _status_under("ws", mode, tmp_path)
    assert rc == status, err
    run = wslib.WsRun([], rc, "", err, str(tmp_path / ("ws.%s.out" % mode)))
    wslib.check_trailer(run)
    # 10 pages for ~500,000 instructions: 4 windows entirely inside
    ins = inside(run.output.samples)
    assert len(ins) == 4 and {s.data for s in ins} == {10}, \
        wslib.show(run.output.samples)


def _outside(tmp_path, sig):
    """Start rel_exit wait under `tool`, wait for it to say ready, send
    sig to it from outside, and return (status, stderr)."""
    res = {}
    for tool in ("none", "ws"):
        cmd = wslib.ws_command([P("rel_exit"), "wait", "9"], (),
                               str(tmp_path / "ws.out")
                               if tool == "ws" else None, tool=tool)
        rd, wr = os.pipe()
        proc = subprocess.Popen(cmd, cwd=tmp_path, stdin=rd,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        os.close(rd)
        try:
            assert proc.stdout.readline() == b"ready\n"
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(wr)
        res[tool] = (proc.returncode, err.decode(errors="replace"))
    assert res["none"][0] == -sig, res["none"]
    assert res["ws"][0] == -sig, res["ws"]
    return res["ws"][1]


def test_sigterm_from_outside(tmp_path):
    wslib.require_built(P("rel_exit"))
    err = _outside(tmp_path, signal.SIGTERM)
    run = wslib.WsRun([], -signal.SIGTERM, "", err, str(tmp_path / "ws.out"))
    wslib.check_trailer(run)
    ins = inside(run.output.samples)
    assert len(ins) == 4 and {s.data for s in ins} == {10}, \
        wslib.show(run.output.samples)


def test_sigkill_from_outside(tmp_path):
    """No summary, no trailer; the header and the samples taken before the
    program blocked (ws writes them out before the program's write()
    system call) parse, the 4 inside the loop with its 10 pages."""
    wslib.require_built(P("rel_exit"))
    err = _outside(tmp_path, signal.SIGKILL)
    assert "avg/peak/total" not in err, err
    with open(str(tmp_path / "ws.out")) as f:
        text = f.read()
    out = wslib.parse_output(text, complete=False)
    assert not out.complete and out.nsamples is None
    assert [k for k in out.header if k in wslib.HEADER_KEYS] == list(
        wslib.HEADER_KEYS)
    wslib.check_sample_times(out)
    ins = inside(out.samples)
    assert len(ins) == 4 and {s.data for s in ins} == {10}, \
        wslib.show(out.samples)


# ----------------------------------------------------------------------
# Bad option values not tried in tests/test_options.py

NUMBER = "takes a whole number from 1 to 1000000000000000"
POW2 = "takes a power of two from 64 to 2097152 (bytes)"
YESNO = "takes yes or no"
UNIT = "takes i (instructions) or ms (milliseconds)"
FILE = "takes a file name (%p, %q{VAR} and %n are expanded)"

BAD = [(o, NUMBER) for o in (
    "--ws-every=99999999999999999999", "--ws-every=18446744073709551617",
    "--ws-every=1000000000000001", "--ws-every=1e5", "--ws-every=100k",
    "--ws-every=0x10", "--ws-every= 100", "--ws-every=--1",
    "--ws-tau=", "--ws-tau=99999999999999999999",
    "--ws-tau=18446744073709551617", "--ws-tau=1000000000000001",
    "--ws-tau=-99999999999999999999")] + [(o, POW2) for o in (
    "--ws-pagesize=abc", "--ws-pagesize=", "--ws-pagesize=-4096",
    "--ws-pagesize=99999999999999999999",
    "--ws-pagesize=18446744073709555712", "--ws-pagesize=9223372036854779904",
    "--ws-pagesize=4096.0", "--ws-pagesize=0x1000")] + [
    ("--ws-time-unit=-1", UNIT), ("--ws-time-unit=99999999999999999999", UNIT),
    ("--ws-time-unit=msec", UNIT)] + [(o, YESNO) for opt in (
        "--ws-per-thread", "--ws-syscalls", "--ws-instr-atstart")
    for o in (opt + "=maybe", opt + "=", opt + "=-1", opt + "=1",
              opt + "=yesno")] + [
    ("--ws-file=", FILE), ("--ws-out-file=", FILE)] + [
    # the options of stacks, peaks, hot pages and heap owners; each range
    # just past its ends (--ws-peak-window=1, --ws-hot=-1)
    (o, "takes a whole number from 0 to 100000") for o in (
        "--ws-hot=-1", "--ws-hot=100001", "--ws-hot=", "--ws-hot=1e3",
        "--ws-hot=99999999999999999999")] + [
    (o, "takes a whole number from 2 to 1000000") for o in (
        "--ws-peak-window=1", "--ws-peak-window=0",
        "--ws-peak-window=1000001", "--ws-peak-window=x")] + [
    (o, "takes a whole number from 1 to 1000") for o in (
        "--ws-peak-thresh=0", "--ws-peak-thresh=1001",
        "--ws-peak-thresh=-5", "--ws-peak-thresh=")] + [
    (o, "takes a whole number from 0 to 1000000") for o in (
        "--ws-heap-chunks=", "--ws-heap-chunks=1e3",
        "--ws-heap-chunks=99999999999999999999")] + [
    (opt + v, YESNO) for opt in ("--ws-peak-detect", "--ws-list-pages",
                                 "--ws-locations", "--ws-heap")
    for v in ("=maybe", "=", "=1")]


@pytest.mark.parametrize("option,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_option_value(tmp_path, option, reason):
    wslib.require_built(P("marker"))
    mark = tmp_path / "ran"
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", option, P("marker"),
                        str(mark)], cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=60)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 1, (option, p.returncode, err)
    assert not mark.exists(), "%s: the program ran" % option
    name = option.split("=")[0]
    lines = err.splitlines()
    assert lines.count("valgrind: Bad option: " + option) == 1, err
    assert lines.count("valgrind: %s %s" % (name, reason)) == 1, err
    assert not [l for l in lines if l.startswith("valgrind: ")
                and "Bad option" not in l and "Use --help" not in l
                and l != "valgrind: %s %s" % (name, reason)], err
    assert os.listdir(tmp_path) == []


def test_largest_values_accepted(ws):
    """The top of each range is a value, not an error: no multiple of T
    comes, the only sample is the final one at exit."""
    out = ws([P("marker"), os.devnull], "--ws-every=1000000000000000",
             "--ws-tau=1000000000000000", "--ws-pagesize=2097152").output
    assert (out.every, out.tau, out.pagesize) == (10 ** 15, 10 ** 15,
                                                 2097152)
    assert [s.t for s in out.samples] == list(out.finals) and out.complete
    assert len(out.samples) == 1


def test_range_ends_accepted(ws):
    """The ends of the ranges of --ws-hot, --ws-peak-window and
    --ws-peak-thresh are values: the program runs, and --ws-hot=0 lists
    no hot page while --ws-hot=100000 lists every page touched (fewer
    than that)."""
    argv = [P("marker"), os.devnull]
    none = ws(argv, "--ws-hot=0", "--ws-peak-window=2",
              "--ws-peak-thresh=1").output
    assert none.complete and none.hot == {"insn": [], "data": []}
    every = ws(argv, "--ws-hot=100000", "--ws-peak-window=1000000",
               "--ws-peak-thresh=1000", "--ws-list-pages=yes").output
    for kind in ("insn", "data"):
        assert [h.addr for h in every.hot[kind]] == sorted(
            every.pages[kind], key=lambda a: (-every.pages[kind][a][0], a)
        )[:len(every.hot[kind])]
        assert len(every.hot[kind]) == sum(
            1 for n, _ in every.pages[kind].values() if n > 0)
