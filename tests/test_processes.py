"""vfork, clone and fork, each compared with --tool=none (same standard
output, same exit status): vfork + exec, vfork + _exit, a fork while
other threads wait (per-thread columns), a fork inside a region, a raw
clone() thread on its own stack; a forked child's trailer counts its own
samples only (it counted the parent's before the fork).  (Fork, exec,
system() and killed children: test_reliability.py.)"""

import os
import re
import subprocess

import wslib


P = wslib.prog


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
        if not re.search(r"\.out(\.exec[0-9]+)?\Z", f):
            continue
        out = wslib.read_output(str(tmp_path / f))
        pid = out.header["pid"]
        block = wslib.file_stderr(err, pid, str(tmp_path / f))
        run = wslib.WsRun([], 0, "", block, str(tmp_path / f))
        run._output = out
        wslib.check_trailer(run)
        files.append(out)
    return p.returncode, p.stdout.decode(errors="replace"), files


def test_vfork_exec(tmp_path):
    argv = [P("rel_clone"), "vfork", "3", P("rel_exit"), "exit", "4"]
    rc, stdout = wslib.none_run(argv, "--trace-children=yes")
    assert (rc, stdout) == (7, "child exited 4\n")
    got = _trace_children(tmp_path, argv)
    assert got[:2] == (rc, stdout)
    # the parent, the vfork child until its exec (the parent's program:
    # a file of its own that ends with the exec), the program exec'd
    cmds = sorted(o.header["command"] for o in got[2])
    assert cmds == sorted([" ".join(argv)] * 2
                          + [P("rel_exit") + " exit 4"]), cmds
    (child,) = [o for o in got[2] if o.argv[0] == P("rel_exit")]
    (before,) = [o for o in got[2] if o.exec is not None]
    assert before.exec == P("rel_exit") and before.header["pid"] == \
        child.header["pid"]
    (parent,) = [o for o in got[2] if o is not child and o is not before]
    assert child.header["ppid"] == parent.header["pid"]
    inside = [s for s in child.samples if s.insn == 1]
    assert len(inside) == 4 and {s.data for s in inside} == {10}, \
        wslib.show(child.samples)


def test_vfork_exit_and_fork_child_trailer(tmp_path):
    """vfork + _exit: the child's file (Valgrind turns vfork into fork)
    has no samples of its own but the final one at its _exit; its trailer
    and summary say 1 sample, not the parent's count before the fork."""
    argv = [P("rel_clone"), "vfork-exit", "6"]
    rc, stdout = wslib.none_run(argv, "--trace-children=yes")
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
    rc, stdout = wslib.none_run(argv)
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
    assert [e.kind for e in child.events] == ["final", "thread-exit"]
    assert child.events[1].args == ["1"]
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
    rc, stdout = wslib.none_run(argv)
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
    rc, stdout = wslib.none_run(argv)
    assert (rc, stdout) == (5, "clone done\njoined\n")
    run = ws(argv, "--ws-per-thread=yes", check=False)
    assert (run.returncode, run.stdout) == (rc, stdout), run.stderr[-3000:]
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    ev = [(e.kind, e.args) for e in out.events if e.kind != "final"]
    assert ev == [("thread-start", ["1"]), ("thread-start", ["2"]),
                  ("thread-exit", ["2"]), ("thread-exit", ["1"])], ev
    assert [e.kind for e in out.events][3] == "final"
    # Valgrind runs one thread at a time: a window may hold both loops
    child_only = [s for s in out.samples
                  if s.threads.get(2) == (1, 20) and s.threads[1] == (0, 0)]
    # main's loop: thread 2 idle, or already gone from the samples (when
    # its exit lands before main's loop depends on the scheduler)
    main_only = [s for s in out.samples if s.threads[1] == (1, 10)
                 and s.threads.get(2, (0, 0)) == (0, 0)]
    assert len(child_only) >= 3 and len(main_only) >= 1, \
        wslib.show(out.samples)
    for s in child_only:
        assert (s.insn, s.data, s.shared) == (1, 20, 0), s
    for s in main_only:
        assert (s.insn, s.data, s.shared) == (1, 10, 0), s
