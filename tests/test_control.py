"""Scoping and live control: client requests (include/valgrind/ws.h),
monitor commands from vgdb, from gdb and from the program itself, and the
dynamic options --ws-every and --ws-tau.

Programs (tests/progs/):
- ctl_macros: every client request, three measured regions with answers
  known from the source (see the comment at its top);
- ctl_bad: client requests ws must refuse without harm;
- ctl_server: does what a pipe says, so that a test can stop it at a known
  point (blocked reading the pipe) and steer it with vgdb or gdb.

Output files are read by wslib (ctl_util.read_output adds the checks of
what ws writes beyond the grammar).
"""

import os
import re
import subprocess
import time

import pytest

import ctl_util
import oracle
import wslib

PAGE = 4096
T = 100000
SB = oracle.SB_MAX      # instructions in a superblock, at most
MACROS = wslib.prog("ctl_macros")
BAD = wslib.prog("ctl_bad")


def page(addr):
    return addr & ~(PAGE - 1)


class Region:
    """A trailer's region line, as wslib reads it, by field name."""

    def __init__(self, label, fields):
        self.label = label
        self.regions, self.samples, self.insn, self.data = fields

    def __repr__(self):
        return "<region %s x%d samples=%d insn=%r data=%r>" % (
            self.label, self.regions, self.samples, self.insn, self.data)


def _addresses(stderr):
    """The "name 0x..." lines ctl_macros prints on stderr."""
    res = {}
    for line in stderr.split("\n"):
        m = re.match(r"(base|region|loop|stack) (0x[0-9a-f]+)\Z", line)
        if m:
            res[m.group(1)] = int(m.group(2), 16)
        m = re.match(r"current ([0-9]+) ([0-9]+)\Z", line)
        if m:
            res["current"] = (int(m.group(1)), int(m.group(2)))
    return res


# ----------------------------------------------------------------------
# Client requests

@pytest.fixture(scope="module")
def macros_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("macros")
    run = wslib.run_ws([MACROS], ["--ws-instr-atstart=no"],
                       out_path=str(d / "ws.out"))
    return run, ctl_util.read_output(run.out_path)


def test_macros_same_without_valgrind(macros_run):
    """The macros are no-ops without Valgrind: same stdout, same status;
    WS_CURRENT_* give 0."""
    run, _ = macros_run
    wslib.require_built(MACROS)
    native = subprocess.run([MACROS], capture_output=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert native.returncode == run.returncode == 0
    assert native.stdout.decode() == run.stdout
    assert run.stdout == "alpha 50\nbeta 20\nalpha 10\nchecksum 170\n"
    assert _addresses(native.stderr.decode())["current"] == (0, 0)


def test_macros_events_in_order(macros_run):
    """Marks, starts, stops, the dump and the option change appear where
    they happened, and the clock stands still while measurement is off.
    Each stop takes a final sample first (its `final` event); the exit,
    with measurement off, takes none."""
    run, out = macros_run
    ev = [(kind, args) for _, kind, args in ctl_util.events(out)]
    assert ev == [
        ("thread-start", "1"),
        ("mark", "alpha"), ("start", ""), ("dump", "label alpha"),
        ("final", ""), ("stop", ""),
        ("set", "tau 50000"),                       # VALGRIND_CLO_CHANGE
        ("start", ""), ("mark", "beta"), ("final", ""), ("stop", ""),
        ("mark", "by-monitor"),                     # VALGRIND_MONITOR_COMMAND
        ("start", ""), ("mark", "alpha"), ("final", ""), ("stop", ""),
        ("thread-exit", "1")], ev
    times = {}
    for t, kind, args in ctl_util.events(out):
        times.setdefault(kind + " " + args, []).append(t)
    # Measurement starts at t=0 and the clock does not move while off:
    # each start is at the time of the stop before it, and so is
    # everything in between (the option change, the monitor's mark).
    stops, starts = times["stop "], times["start "]
    assert starts[0] == 0
    assert starts[1:] == stops[:2]
    assert times["set tau 50000"] == [stops[0]]
    assert times["mark by-monitor"] == [stops[1]]
    # Each region runs its sweeps (about 500000, 300000, 300000
    # instructions), and nothing else: the 2,000,000 instructions of the
    # unmeasured loop are not counted.
    lengths = [b - a for a, b in zip(starts, stops)]
    assert 495000 <= lengths[0] < 505000, lengths
    assert 295000 <= lengths[1] < 305000, lengths
    assert 295000 <= lengths[2] < 305000, lengths
    assert out.header["instr-atstart"] == "no"
    assert out.tau == T                        # the header: tau at start-up


def test_macros_samples_only_while_on(macros_run):
    """Samples fall inside measured intervals, and because the clock stops
    while off, the k-th sample is still taken at the first superblock
    boundary at or after k*T; each stop takes a final sample at its own
    time."""
    run, out = macros_run
    ivs = ctl_util.on_intervals(out)
    assert len(ivs) == 3
    for s in out.samples:
        assert any(a < s.t <= b for a, b in ivs), (s, ivs)
    wslib.check_sample_times(out)
    assert len(out.samples) == 14, wslib.show(out.samples)
    assert sorted(out.finals) == [b for _, b in ivs]
    # while a region's loop runs, its window holds its loop page and its
    # pages: 50, then 20, then 10
    per_interval = [[s for s in out.samples if a < s.t <= b] for a, b in ivs]
    assert [len(x) for x in per_interval] == [6, 4, 4]
    assert [(s.insn, s.data) for s in per_interval[0][1:-1]] == [(1, 50)] * 4
    assert [(s.insn, s.data) for s in per_interval[1][:-1]] == [(1, 20)] * 3
    assert [(s.insn, s.data) for s in per_interval[2][:-1]] == [(1, 10)] * 3
    # the final sample at each stop covers (t - w, t], w at most tau (the
    # manual's "Final samples"): at the first stop (tau = T) the w
    # instructions since the last sample: region()'s code and stack pages,
    # the loop's page and the last of its pages, one every PER_PAGE = 25
    # instructions (w // 25, or one less for the few instructions of the
    # return and the WS_STOP); after tau = 50,000 < T the stops come more
    # than tau after the last window start (each region runs 300,000
    # instructions from a start just after a multiple of T), so the
    # window is empty
    finals = [x[-1] for x in per_interval]
    w = out.final_windows[finals[0].t]
    assert 0 < w <= out.tau and finals[0].insn == 2, (w, finals[0])
    assert w // 25 <= finals[0].data <= w // 25 + 1, (w, finals[0])
    assert [(s.insn, s.data, out.final_windows[s.t]) for s in finals[1:]] \
        == [(0, 0, 0)] * 2
    # the first window of the first region holds everything since WS_START
    assert (per_interval[0][0].insn, per_interval[0][0].data) == (2, 51)
    wslib.check_trailer(run)


def test_macros_current_and_dump(macros_run):
    """After WS_START and one sweep over 50 fresh pages, WS_CURRENT_* and
    WS_DUMP give exactly region()'s page and the loop's page, and the 50
    pages plus region()'s stack page."""
    run, out = macros_run
    a = _addresses(run.stderr)
    assert a["current"] == (2, 51), run.stderr[-2000:]
    assert len(out.dumps) == 1
    d = out.dumps[0]
    assert d.label == "alpha"
    assert d.counts == {"insn": 2, "data": 51}
    assert d.addresses("insn") == sorted([page(a["region"]), page(a["loop"])])
    want = sorted([a["base"] + i * PAGE for i in range(50)]
                  + [page(a["stack"])])
    assert d.addresses("data") == want
    # the only epoch since WS_START began at t=0
    assert {p.since for p in d.pages} == {0}
    assert 50 * 25 < d.t < 50 * 25 + 200


def test_macros_region_summaries(macros_run):
    """Regions named by their latest mark get their own summaries, in the
    file and on stderr: alpha twice (50 pages, then 10 of the same), beta
    once (20 pages), each with region()'s stack page; each region's
    samples include the final one at its stop."""
    run, out = macros_run
    regions = {label: Region(label, r) for label, r in out.regions.items()}
    assert list(out.regions) == ["alpha", "beta"]
    alpha, beta = regions["alpha"], regions["beta"]
    assert (alpha.regions, alpha.samples) == (2, 10)
    assert (beta.regions, beta.samples) == (1, 4)
    # totals: distinct pages per region, summed over same-named regions
    assert alpha.insn[2] == 2 + 2 and alpha.data[2] == 51 + 11
    assert beta.insn[2] == 2 and beta.data[2] == 21
    # avg and peak over the samples taken while the regions were open
    ivs = ctl_util.on_intervals(out)
    inside = [[s for s in out.samples if a < s.t <= b] for a, b in ivs]
    for r, parts in ((alpha, inside[0] + inside[2]), (beta, inside[1])):
        for kind, got in (("insn", r.insn), ("data", r.data)):
            vals = [getattr(s, kind) for s in parts]
            assert got[1] == max(vals), (r, kind, vals)
            assert abs(got[0] - sum(vals) / len(vals)) <= 0.05 + 1e-9, \
                (r, kind, vals)
    # the whole run: 2 code pages, 50 + 20 pages and the stack page
    assert out.summary["insn"][2] == 2 and out.summary["data"][2] == 71
    # stderr shows the same
    err = run.stderr
    assert re.search(r"Region 'alpha' \(2 regions, 10 samples\):\n"
                     r"==\d+==   Insn avg/peak/total: %.1f/%d/%d pages .*\n"
                     r"==\d+==   Data avg/peak/total: %.1f/%d/%d pages "
                     % (alpha.insn + alpha.data), err), err[-2000:]
    # beta: 20 pages three times, and its final sample's empty window
    assert re.search(r"Region 'beta' \(1 region, 4 samples\):\n"
                     r"==\d+==   Insn avg/peak/total: 0.8/1/2 pages .*\n"
                     r"==\d+==   Data avg/peak/total: 15.0/20/21 pages ", err)


def test_region_when_measurement_was_already_on(tmp_path):
    """Without --ws-instr-atstart=no, the first WS_START finds measurement
    on: it leaves the window alone (no start event, no fresh window) but
    begins the region that its WS_STOP ends, which the latest mark names
    (docs/control.md, "Regions"), and the file says where (region-start).
    Its total counts only the pages it touched itself, exactly as when
    the start was real: alpha 2 + 2 code and 51 + 11 data pages, beta 2
    and 21; its samples are those between the WS_START and the WS_STOP,
    whose windows reach back before the WS_START."""
    run = wslib.run_ws([MACROS], (), out_path=str(tmp_path / "ws.out"))
    out = ctl_util.read_output(run.out_path)
    ev = [(kind, args) for _, kind, args in ctl_util.events(out)]
    assert ev[:6] == [("thread-start", "1"), ("mark", "alpha"),
                      ("region-start", ""), ("dump", "label alpha"),
                      ("final", ""), ("stop", "")], ev
    assert [k for k, _ in ev].count("start") == 2
    assert run.stderr.count("WS_START while measurement is already on: the "
                            "window goes on") == 1
    regions = {label: Region(label, r) for label, r in out.regions.items()}
    assert list(regions) == ["alpha", "beta"]
    alpha, beta = regions["alpha"], regions["beta"]
    assert alpha.regions == 2 and beta.regions == 1
    assert alpha.insn[2] == 2 + 2 and alpha.data[2] == 51 + 11
    assert beta.insn[2] == 2 and beta.data[2] == 21
    # the region's samples: from its region-start to its stop, and those
    # of the second alpha (a real start and stop)
    (t0,) = [t for t, k, _ in ctl_util.events(out) if k == "region-start"]
    (t_dump,) = [t for t, k, _ in ctl_util.events(out) if k == "dump"]
    assert 50 * 25 < t_dump - t0 < 50 * 25 + 200   # as from a real start
    stops = [t for t, k, _ in ctl_util.events(out) if k == "stop"]
    ivs = ctl_util.on_intervals(out)
    first = [s for s in out.samples if t0 < s.t <= stops[0]]
    later = [s for s in out.samples if ivs[-1][0] < s.t <= ivs[-1][1]]
    assert alpha.samples == len(first) + len(later)
    for kind, got in (("insn", alpha.insn), ("data", alpha.data)):
        vals = [getattr(s, kind) for s in first + later]
        assert got[1] == max(vals), (kind, vals)
        assert abs(got[0] - sum(vals) / len(vals)) <= 0.05 + 1e-9, vals
    # the window was not fresh: start-up's pages are in its first samples
    assert max(s.data for s in first) > 51
    assert re.search(r"Region 'alpha' \(2 regions, %d samples\):\n"
                     % alpha.samples, run.stderr)
    wslib.check_trailer(run)


def test_monitor_command_from_the_program(macros_run):
    """VALGRIND_MONITOR_COMMAND("ws status") and ("ws mark ...") run the
    same handler; the reply goes to Valgrind's log (stderr here)."""
    run, out = macros_run
    m = re.search(r"^ws status \(pid \d+\):\n(  .*\n)+", run.stderr, re.M)
    assert m, run.stderr[-3000:]
    st = ctl_util.parse_status(m.group(0))
    stop0 = ctl_util.events(out, "stop")[0][0]
    assert st["measurement"] == "off"
    assert st["time"] == stop0
    assert (st["tau"], st["every"], st["pagesize"]) == (50000, T, PAGE)
    assert st["samples"] == 6          # 5 and the final sample at the stop
    assert os.path.abspath(st["output_file"]) == os.path.abspath(run.out_path)
    mark_t = [t for t, _, a in ctl_util.events(out, "mark")
              if a == "by-monitor"]
    assert "ws mark: 'by-monitor' at t=%d\n" % mark_t[0] in run.stderr
    # VALGRIND_CLO_CHANGE("--ws-tau=50000") went through the core
    assert "Handling new value --ws-tau=50000 for option --ws-tau" \
        in run.stderr


@pytest.mark.parametrize("platform", wslib.platforms())
def test_bad_client_requests(tmp_path, platform):
    """Bad label pointers, unterminated, empty and control-character labels,
    unbalanced starts and stops, bad VALGRIND_CLO_CHANGE values: one warning
    per kind of problem, nothing recorded, no crash; also with ws.h's
    requests compiled -m32, for the 32-bit ws."""
    run = wslib.run_ws([wslib.prog("ctl_bad", platform)], (),
                       out_path=str(tmp_path / "ws.out"))
    assert run.returncode == 0 and run.stdout == "done\n", run.stderr
    err = run.stderr
    for text in ("WS_START while measurement is already on: the window "
                 "goes on (pages touched before count in it), a region "
                 "begins here",
                 "WS_START while measurement is already on and a region is "
                 "open: ignored",
                 "WS_STOP while measurement is already off",
                 "does not point to a string in readable memory",
                 "longer than 255 characters or not terminated",
                 "is empty",
                 "contains a control character"):
        assert err.count(text) == 1, (text, err[-4000:])
    assert err.count("(ws warns about this kind of request only once)") == 7
    # each warning says where the request came from
    assert re.search(r"WS_MARK ignored: its label pointer 0x0 does not "
                     r"point.*\n==\d+==    at 0x[0-9A-F]+: main "
                     r"\(ctl_bad.c:\d+\)", err), err[-4000:]
    # option changes: a bad value and a static option change nothing
    assert "Bad option: --ws-tau=0" in err
    assert "Cannot change --ws-pagesize option dynamically" in err
    out = ctl_util.read_output(run.out_path)
    assert [a for _, _, a in ctl_util.events(out, "mark")] == \
        ["x" * 255, "spaced out", "ok"]
    assert ctl_util.events(out, "dump") == []
    assert [k for _, k, _ in ctl_util.events(out)
            if k in ("start", "stop", "set")] == ["stop", "start", "set"]
    assert ctl_util.events(out, "set")[0][2] == "every 50000"
    assert out.tau == out.every == T


# ----------------------------------------------------------------------
# Monitor commands from vgdb, against a program blocked on a pipe

def test_vgdb_status_dump_series(server):
    server.touch(0, 50)
    st = server.status()
    assert st["pid"] == server.pid
    assert st["measurement"] == "on"
    assert (st["tau"], st["every"], st["pagesize"]) == (T, T, PAGE)
    assert st["output_file"] == server.out_path
    # nothing runs while the program is blocked: the same state twice
    assert server.status() == st
    # WS_CURRENT_* from the program agree with ws status
    assert server.cmd("current") == "current %d %d" % (st["insn"], st["data"])
    st = server.status()         # "current" ran a little code

    # ws dump into a file (name expanded like --ws-file)
    reply = server.vgdb("ws dump dump.%p")
    path = os.path.join(server.dir, "dump.%d" % server.pid)
    assert reply == "ws dump: %d insn pages, %d data pages written to %s\n" \
        % (st["insn"], st["data"], path)
    with open(path) as f:
        header, d = wslib.parse_dump_file(f.read())
    assert header["pid"] == str(server.pid)
    assert header["output-file"] == server.out_path
    assert (header["tau"], header["every"], header["pagesize"]) == \
        (str(T), str(T), str(PAGE))
    assert d.t == st["time"]
    assert d.counts == {"insn": st["insn"], "data": st["data"]}
    data = set(d.addresses("data"))
    touched = {server.base + i * PAGE for i in range(50)}
    assert touched <= data
    assert server.base + 50 * PAGE not in data
    # the stdio buffers of the pipes are heap blocks: their owners name
    # allocation stacks, which the dump file holds itself (the parser
    # checks that every heap owner's stack is there)
    heap = {p.owner.stack for p in d.pages
            if p.kind == "data" and p.owner.kind == "heap"}
    assert heap and heap == set(d.stacks), (heap, d.stacks)
    callers = {}
    for sid in heap:
        functions = [w.function for w in d.stacks[sid]]
        assert functions[-1] == "main" and \
            d.stacks[sid][-1].location.startswith("ctl_server.c:"), \
            d.stacks[sid]
        callers.update((f, sid) for f in ("printf", "fgets")
                       if f in functions)
    assert sorted(callers) == ["fgets", "printf"], d.stacks

    # ws dump to the vgdb output: the same pages
    md = ctl_util.parse_monitor_dump(server.vgdb("ws dump full"))
    assert md.t == d.t and [(p.kind, p.addr, p.since) for p in md.pages] \
        == [(p.kind, p.addr, p.since) for p in d.pages]
    # and where each was first accessed, and the heap blocks that own
    # data pages, as the file names them (one formatter of an address and
    # of an owner serves the file and the reply)
    assert [p.where for p in md.pages] == [p.where for p in d.pages]
    blocks = [(m.owner, f.owner) for m, f in zip(md.pages, d.pages)
              if f.kind == "data" and f.owner.kind == "heap"]
    assert blocks
    for words, owner in blocks:
        assert words == "heap block %#x (%d bytes), allocated at" % (
            owner.block, owner.size), (words, owner)

    # ws series: the last samples of the output file, at most n
    reply = server.vgdb("ws series 2")
    lines = reply.strip("\n").split("\n")
    n = min(2, st["samples"])
    assert lines[0] == "ws series: the last %d of %d samples (t insn data):" \
        % (n, st["samples"]), reply
    rows = [tuple(int(x) for x in l.split()) for l in lines[1:]]
    default = server.vgdb("series").strip("\n").split("\n")
    assert len(default) == 1 + min(10, st["samples"])

    assert server.finish() == 0
    out = server.output()
    before = [(s.t, s.insn, s.data) for s in out.samples if s.t <= d.t]
    assert len(before) == st["samples"]
    assert rows == before[-n:]
    assert [tuple(int(x) for x in l.split()) for l in default[1:]] == \
        before[-10:]
    assert ctl_util.events(out, "dump") == [
        (d.t, "dump", "file " + path), (d.t, "dump", "monitor")]


def test_ms_clock_leaves_stopped_time_out(server_factory):
    """--ws-time-unit=ms: the clock is wall-clock milliseconds while
    measuring, also while the program is blocked (0.3 s asleep here
    moves it on by at least 300), and stands still while measurement is
    off: `ws start` after 0.5 s off is at the time of `ws stop`, as its
    events in the file are."""
    server = server_factory(options=["--ws-time-unit=ms",
                                     "--ws-every=10"])
    t0 = server.status()["time"]
    time.sleep(0.3)
    t1 = server.status()["time"]
    assert t1 - t0 >= 300, (t0, t1)
    m = re.match(r"ws stop: measurement off at t=([0-9]+)\n\Z",
                 server.vgdb("ws stop"))
    assert m
    t_stop = int(m.group(1))
    time.sleep(0.5)
    assert server.status()["time"] == t_stop
    assert server.vgdb("ws start") == \
        "ws start: measurement on at t=%d\n" % t_stop
    run = server.run()
    wslib.check_trailer(run)
    out = run.output
    assert out.time_unit == "ms"
    assert [(e.t, e.kind) for e in out.events
            if e.kind in ("stop", "start")] == [(t_stop, "stop"),
                                                (t_stop, "start")]


def test_restart_with_no_instruction_repeats_no_sample_time(server):
    """`ws stop`, `ws start`, `ws stop` while the program waits: no
    instruction runs between the start and the second stop, whose final
    sample would be at the time of the first stop's (ws_print refused
    such a file): it is not taken, the events are."""
    server.touch(0, 10)
    for command in ("ws stop", "ws start", "ws stop", "ws start"):
        server.vgdb(command)
    server.touch(0, 10)
    run = server.run()
    wslib.check_trailer(run)
    out = run.output
    times = [s.t for s in out.samples]
    assert all(a < b for a, b in zip(times, times[1:])), times
    stops = [e.t for e in out.events if e.kind == "stop"]
    assert len(stops) == 2 and stops[0] == stops[1]
    assert [t for t in out.finals if t == stops[0]] == [stops[0]]


def test_vgdb_set_every_tau_and_v_clo(server):
    """ws set every / ws set tau, and the same through v.clo: replies,
    events at the time of the change, and the new T and tau at work."""
    server.touch(0, 10)
    t0 = server.status()["time"]
    assert server.vgdb("ws set every 20000") == \
        "ws set every: every is now 20000 (was %d) from t=%d\n" % (T, t0)
    assert server.vgdb("set tau 5000") == \
        "ws set tau: tau is now 5000 (was %d) from t=%d\n" % (T, t0)
    st = server.status()
    assert (st["every"], st["tau"], st["time"]) == (20000, 5000, t0)

    # 1000 pages, 25 instructions each, 3 sweeps: a window of 5000
    # instructions inside the loop holds 200 pages (+-2 for where
    # windows start: superblock boundaries)
    server.touch(0, 1000, 3)
    t1 = server.status()["time"]

    reply = server.vgdb("v.clo --ws-tau=3000")
    assert "Handling new value --ws-tau=3000 for option --ws-tau" in reply
    assert server.status()["tau"] == 3000
    reply = server.vgdb("v.clo --ws-every=0")
    assert "Bad option: --ws-every=0" in reply
    reply = server.vgdb("v.clo --ws-pagesize=64")
    assert "Cannot change --ws-pagesize option dynamically" in reply
    st = server.status()
    assert (st["every"], st["tau"], st["pagesize"]) == (20000, 3000, PAGE)
    reply = server.vgdb("v.clo --ws-every=40000")
    assert server.status()["every"] == 40000

    assert server.finish() == 0
    out = server.output()
    assert ctl_util.events(out, "set") == [
        (t0, "set", "every 20000"), (t0, "set", "tau 5000"),
        (t1, "set", "tau 3000"), (t1, "set", "every 40000")]
    # samples after the change: the k-th multiple of the new T, in turn
    after = [s for s in out.samples if t0 < s.t <= t1]
    assert len(after) >= 3, wslib.show(out.samples)
    for k, s in enumerate(after, t0 // 20000 + 1):
        assert k * 20000 <= s.t < k * 20000 + SB, wslib.show(after)
    inside = [s for s in after if s.insn == 1]
    assert len(inside) >= 2, wslib.show(after)
    for s in inside:
        assert (5000 - SB) // 25 <= s.data <= (5000 + SB) // 25 + 1, \
            wslib.show(after)
    for s in out.samples:
        if s.t > t1 and s.t not in out.finals:
            assert s.t % 40000 < SB, wslib.show(out.samples)


def test_vgdb_stop_start_mark(server):
    """ws stop / start / mark: the clock stands still while off, a start
    begins a fresh window, a mark names the region."""
    server.touch(0, 10)
    st = server.status()
    t0, samples0 = st["time"], st["samples"]
    assert server.vgdb("ws stop") == "ws stop: measurement off at t=%d\n" % t0
    samples0 += 1                         # the final sample at the stop
    server.touch(100, 200, 20)            # 100,000 instructions, unseen
    st = server.status()
    assert (st["measurement"], st["time"]) == ("off", t0)
    assert server.vgdb("ws stop") == \
        "ws stop: measurement is already off; nothing changed\n"
    assert server.vgdb("ws start") == "ws start: measurement on at t=%d\n" % t0
    # a fresh window: nothing in it yet
    st = server.status()
    assert (st["insn"], st["data"]) == (0, 0)
    assert ctl_util.parse_monitor_dump(server.vgdb("ws dump full")).pages == []
    assert server.vgdb("ws mark  phase   two ") == \
        "ws mark: 'phase two' at t=%d\n" % t0
    # what a monitor command changed is in the file when it returns
    with open(server.out_path) as f:
        assert f.read().endswith("event %d mark phase two\n" % t0)
    server.touch(0, 20, 5)
    st = server.status()
    t1 = st["time"]
    # no sample since the start (about 3000 instructions): the window is
    # everything since then; of the program's mapping, exactly the 20
    # pages touched since (not the 200 touched while off)
    assert st["samples"] == samples0
    md = ctl_util.parse_monitor_dump(server.vgdb("ws dump full"))
    mapping = [a for a in md.addresses("data")
               if server.base <= a < server.base + 2000 * PAGE]
    assert mapping == [server.base + i * PAGE for i in range(20)]
    assert server.vgdb("ws stop") == "ws stop: measurement off at t=%d\n" % t1
    assert server.finish() == 0
    out = server.output()
    assert ctl_util.events(out)[1:-1] == [
        (t0, "final", ""), (t0, "stop", ""), (t0, "start", ""),
        (t0, "dump", "monitor"), (t0, "mark", "phase two"),
        (t1, "dump", "monitor"), (t1, "final", ""), (t1, "stop", "")]
    assert list(out.regions) == ["phase two"]
    r = Region("phase two", out.regions["phase two"])
    assert r.regions == 1
    # the region's data pages: the 20 pages and what reading the pipe and
    # answering touched (stdio buffers, stack, libc's data: about 20
    # pages); the 200 pages touched while off would make it over 220
    assert 20 < r.data[2] < 120, r
    # no sample came due in the region: its one sample is the final one
    # at the stop, whose window is the whole region (since the start)
    assert r.samples == 1 and sorted(out.finals) == [t0, t1]
    assert r.data[1] == out.finals[t1].data and 20 < r.data[1] <= r.data[2]


# Each bad command, and a piece of the one-line reason it must give.
BAD_COMMANDS = [
    ("ws", "the command is missing"),
    ("ws frobnicate", "frobnicate does not match any of"),
    ("ws st", "st can match status start stop"),
    ("ws status now", "ws status: unexpected argument 'now'"),
    ("ws help me", "ws help: unexpected argument 'me'"),
    ("ws set", "ws set: say what to set"),
    ("ws set colour 5", "colour does not match any of"),
    ("ws set tau", "ws set tau: the value is missing"),
    ("ws set tau 0", "'0' is not a whole number from 1 to 1000000000000000"),
    ("ws set tau -5", "'-5' is not a whole number"),
    ("ws set tau abc", "'abc' is not a whole number"),
    ("ws set tau 1e5", "'1e5' is not a whole number"),
    ("ws set tau 1000000000000001", "is not a whole number"),
    ("ws set tau 99999999999999999999", "is not a whole number"),
    ("ws set tau 5 6", "ws set tau: unexpected argument '6'"),
    ("ws set every", "ws set every: the value is missing"),
    ("ws set every 0x10", "'0x10' is not a whole number"),
    ("ws set every 10 x", "unexpected argument 'x'"),
    ("ws series 0", "'0' is not a number of samples from 1 to 1024"),
    ("ws series 1025", "'1025' is not a number of samples"),
    ("ws series x", "'x' is not a number of samples"),
    ("ws series 5 6", "ws series: unexpected argument '6'"),
    ("ws dump a b", "ws dump: unexpected argument 'b'"),
    ("ws dump ~/d", "cannot use the file name '~/d'"),
    ("ws dump d.%z", "cannot use the file name 'd.%z'"),
    ("ws dump d.%q{WS_CTL_NO_SUCH_VARIABLE}",
     "names an environment variable that is not set"),
    ("ws dump d.%q{HOME", "'}' is missing"),
    ("ws dump /nonexistent-dir/d", "cannot create '/nonexistent-dir/d'"),
    ("ws dump ws.out", "is the output file"),
    ("ws mark", "ws mark: the label is missing"),
    ("ws mark    ", "ws mark: the label is missing"),
    ("ws mark " + "y" * 256, "longer than 255 characters"),
    ("ws start", "measurement is already on and a region is open; nothing "
     "changed"),
    ("ws start now", "ws start: unexpected argument 'now'"),
    ("ws stop now", "ws stop: unexpected argument 'now'"),
    ("ws hot 0", "ws hot: '0' is not a number of pages"),
    ("ws hot 5 code", "ws hot: 'code' is neither a number of pages"),
    ("ws peaks now", "ws peaks: unexpected argument 'now'"),
    ("ws since now", "ws since: unexpected argument 'now'"),
    ("ws dump full now", "ws dump: unexpected argument 'now'"),
    ("ws break data>= x", "ws break: 'data>=x': the number of pages is not"),
    ("ws set peak-thresh 0", "'0' is not a whole number from 1 to 1000"),
    ("v.clo --ws-tau=abc", "Bad option: --ws-tau=abc"),
    ("v.clo --ws-every=", "Bad option: --ws-every="),
    ("v.clo --ws-tau", "Bad option: --ws-tau"),
    ("v.clo --ws-pagesize=64", "Cannot change --ws-pagesize option"),
]


def test_vgdb_bad_commands(server):
    """Each bad command answers one line (ambiguous abbreviations and the
    core's Bad option message aside) and changes nothing."""
    server.touch(0, 10)
    # measurement is on from the start: a first start begins a region,
    # which the start among the bad commands finds open
    assert "a region begins" in server.vgdb("ws start")
    before = server.status()
    for command, reason in BAD_COMMANDS:
        reply = server.vgdb(command)
        assert reason in reply, (command, reply)
        if not command.startswith("v.clo"):
            assert reply.count("\n") == 1, (command, reply)
    assert server.status() == before
    assert server.finish() == 0
    out = server.output()
    assert [k for _, k, _ in ctl_util.events(out)] == \
        ["thread-start", "region-start", "final", "thread-exit"]
    assert not [f for f in os.listdir(server.dir) if f.startswith("d.")]


def test_vgdb_help_and_abbreviations(server):
    """help lists every working command in the memcheck/massif layout, with
    or without "ws"; commands may be
    abbreviated and the leading "ws" left out."""
    reply = server.vgdb("help")
    assert "general valgrind monitor commands:" in reply     # the core's
    i = reply.index("\nws monitor commands")
    ours = reply[i + 1:]
    assert server.vgdb("ws help") == "\n" + ours
    syntax = [l for l in ours.split("\n") if l.startswith("  ws ")]
    assert syntax == ["  ws help", "  ws status",
                      "  ws dump [full|<filename>]", "  ws since",
                      "  ws series [<n>]", "  ws peaks",
                      "  ws break [<cond>|delete <n>|delete all]",
                      "  ws set tau <n>",
                      "  ws set every <n>", "  ws set peak-thresh <n>",
                      "  ws start", "  ws stop", "  ws mark <label>",
                      "  ws hot [<n>] [insn|data]",
                      "  ws heap [<n>] [usage|useful|bytes|never|score]",
                      "  ws routines [<n>]",
                      "  ws curves [insn|data] [page|line]"], ours
    assert "not available" not in ours
    st = server.status()
    for abbrev in ("stat", "ws stat", "ws statu"):
        assert ctl_util.parse_status(server.vgdb(abbrev)) == st
    assert server.vgdb("ws ser 1").startswith("ws series: the last ")
    assert server.vgdb("set t 7000").startswith(
        "ws set tau: tau is now 7000")
    assert server.vgdb("ws set e 9000").startswith(
        "ws set every: every is now 9000")
    assert server.vgdb("ma x").startswith("ws mark: 'x' at t=")


# The machine-readable table front-ends learn from (docs/control.md, "For
# programs"), exactly: the commands in the order of `ws help`, their
# arguments, the settable parameters with their options and ranges.
HELP_INTERNAL = """\
ws-internal 1
command help
command status
command dump
arg dump 1 optional choice full
arg dump 2 optional file
command since
command series
arg series 1 optional number 1 1024
command peaks
command break
arg break 1 optional choice data>= insn>= rise>= peak delete
command set
arg set 1 required param
arg set 2 required value
command start
command stop
command mark
arg mark 1 required text
command hot
arg hot 1 optional number 1 100000
arg hot 2 optional choice insn data
command heap
arg heap 1 optional number 1 100000
arg heap 2 optional choice usage useful bytes never score
command routines
arg routines 1 optional number 1 1000
command curves
arg curves 1 optional choice insn data
arg curves 2 optional choice page line
param tau --ws-tau 1 1000000000000000
param every --ws-every 1 1000000000000000
param peak-thresh --ws-peak-thresh 1 1000
end
"""


def test_vgdb_help_internal(server):
    """`ws help internal` is the table above, whatever the state; it
    agrees with `ws help` (one syntax line per command, one per
    parameter of `ws set`) and with what the commands accept."""
    assert server.vgdb("ws help internal") == HELP_INTERNAL
    assert server.vgdb("ws help internal now") == \
        "ws help: unexpected argument 'now'; nothing changed\n"
    server.vgdb("ws stop")
    server.vgdb("ws set tau 5000")
    assert server.vgdb("ws help internal") == HELP_INTERNAL
    records = [l.split() for l in HELP_INTERNAL.split("\n") if l]
    commands = [r[1] for r in records if r[0] == "command"]
    params = {r[1]: (r[2], int(r[3]), int(r[4]))
              for r in records if r[0] == "param"}
    syntax = [l.split()[1:3] for l in server.vgdb("ws help").split("\n")
              if l.startswith("  ws ")]
    assert [s[0] for s in syntax] == [c for c in commands for _ in
                                      (params if c == "set" else [c])]
    assert [s[1] for s in syntax if s[0] == "set"] == list(params)
    # each parameter's range is the one ws set, the option and v.clo take
    for name, (option, lo, hi) in params.items():
        for bad in (lo - 1, hi + 1):
            assert server.vgdb("ws set %s %d" % (name, bad)) == (
                "ws set %s: '%d' is not a whole number from %d to %d; "
                "nothing changed\n" % (name, bad, lo, hi))
            assert "Bad option: %s=%d" % (option, bad) in \
                server.vgdb("v.clo %s=%d" % (option, bad))
        assert server.vgdb("ws set %s %d" % (name, hi)).startswith(
            "ws set %s: %s is now %d" % (name, name, hi))
    # the numbers' ranges are the ones the commands take
    assert "'1025' is not a number of samples from 1 to 1024" in \
        server.vgdb("ws series 1025")
    assert "'100001' is not a number of pages from 1 to 100000" in \
        server.vgdb("ws hot 100001")


# Commands sent as "WS <command>", and the status line that ends the
# reply: (command, status, the reply before it as a regular expression).
STATUS_LINES = [
    ("status", "ok", r"ws status \(pid [0-9]+\):\n(  .*\n){10}"),
    ("help internal", "ok", re.escape(HELP_INTERNAL)),
    ("stat", "ok", r"ws status \(pid [0-9]+\):\n(  .*\n){10}"),
    ("series 1", "ok", r"ws series: the last 1 of [0-9]+ samples .*\n"
     r"[0-9]+ [0-9]+ [0-9]+\n"),
    ("set tau 0", "refused", r"ws set tau: '0' is not a whole number .*\n"),
    ("set", "refused", r"ws set: say what to set: .*\n"),
    ("set colour 3", "refused", r"colour does not match any of 'tau every "
     r"peak-thresh'\n"),
    ("st", "refused", r"st can match status start stop\n"),
    ("frobnicate", "refused", r"frobnicate does not match any of 'help "
     r"status dump since series peaks break set start stop mark hot heap "
     r"routines curves'\n"),
    ("", "refused", r"ws: the command is missing; 'ws help' lists them\n"),
    ("ws status", "refused", r"ws does not match any of .*\n"),
    ("v.info n_errs_found", "refused", r"v.info does not match any of .*\n"),
    ("start", "ok", r"ws start: measurement was already on \(the window "
     r"goes on\); a region begins at t=[0-9]+\n"),
    ("start", "refused", r"ws start: measurement is already on and a region "
     r"is open; nothing changed\n"),
    ("mark", "refused", r"ws mark: the label is missing .*\n"),
    ("mark " + "z" * 256, "refused", r"ws mark: the label is longer than "
     r"255 characters; nothing recorded\n"),
    ("dump d.%z", "refused", r"ws dump: cannot use the file name .*\n"),
    ("hot 0", "refused", r"ws hot: '0' is not a number of pages .*\n"),
    ("hot 2 insn", "ok", r"Hot instruction pages: the 2 hottest of [0-9]+ "
     r"touched .*"),
    ("peaks x", "refused", r"ws peaks: unexpected argument 'x'; nothing "
     r"changed\n"),
    ("peaks", "ok", r"ws peaks at t=[0-9]+: .*"),
    ("break data>=", "refused", r"ws break: 'data>=': the number of pages "
     r"is missing; nothing changed\n"),
    ("break", "ok", r"ws break: the conditions set:\n  none\n"),
    ("mark status lines", "ok", r"ws mark: 'status lines' at t=[0-9]+\n"),
    ("stop", "ok", r"ws stop: measurement off at t=[0-9]+\n"),
    ("stop", "refused", r"ws stop: measurement is already off; nothing "
     r"changed\n"),
    ("start", "ok", r"ws start: measurement on at t=[0-9]+\n"),
    ("set every 50000", "ok", r"ws set every: every is now 50000 .*\n"),
    ("dump", "ok", r"ws dump at t=[0-9]+: [0-9]+ insn pages, .*"),
    ("dump d.%p", "ok", r"ws dump: [0-9]+ insn pages, [0-9]+ data pages "
     r"written to .*/d\.[0-9]+\n"),
]


def test_vgdb_status_lines(server):
    """"WS <command>" answers what "ws <command>" answers, then one last
    line "ws-reply ok" or "ws-reply refused" (and nothing else says
    so); "ws" and "WS" alone, and commands without either, give none."""
    server.touch(0, 10)
    for command, status, reply in STATUS_LINES:
        got = server.vgdb(("WS " + command).rstrip(" "))
        assert got.endswith("ws-reply %s\n" % status), (command, got)
        body = got[:-len("ws-reply %s\n" % status)]
        assert re.fullmatch(reply, body, re.S), (command, got)
        assert "ws-reply" not in body, (command, got)
    # without the capitals, no status line: the same replies as before
    for command in ("ws status", "ws st", "ws set tau 0", "status", "ws"):
        assert "ws-reply" not in server.vgdb(command), command
    # a refused command through WS changed nothing, an accepted one did
    assert server.finish() == 0
    out = server.output()
    assert [(k, a) for _, k, a in ctl_util.events(out)
            if k not in ("thread-start", "thread-exit")] == [
        ("region-start", ""), ("mark", "status lines"), ("final", ""),
        ("stop", ""),
        ("start", ""), ("set", "every 50000"), ("dump", "monitor"),
        ("dump", "file %s/d.%d" % (server.dir, server.pid)),
        ("final", "")]          # a final sample at the stop and at exit
    # the first start began a region, which the mark named at the stop;
    # the second start's region runs to the exit under the same name
    assert out.regions["status lines"][0] == 2


# ----------------------------------------------------------------------
# gdb

def test_gdb_breakpoint_monitor_dump_and_status(tmp_path):
    """gdb in batch mode: stop at a breakpoint in the program, then
    monitor ws status, monitor ws dump and monitor ws mark; the replies
    arrive on gdb's stderr and describe the stopped program."""
    wslib.require_built(ctl_util.SERVER)
    srv = ctl_util.Server(tmp_path, vgdb_error=0)
    try:
        srv.p.stdin.write(b"touch 0 50 1\ncheckpoint\ntouch 50 10 1\n")
        srv.p.stdin.close()
        rc, out, err = ctl_util.gdb_batch(
            ctl_util.SERVER, srv.prefix,
            ["break ctl_checkpoint", "continue",
             "print &ctl_checkpoint",
             "monitor ws status", "monitor ws dump full",
             "monitor ws mark in gdb", "continue"])
        assert rc == 0, (out, err)
        assert srv.p.wait(timeout=60) == 0
    finally:
        srv.kill()
    assert "Breakpoint 1, ctl_checkpoint ()" in out, out
    assert "exited normally" in out, out
    m = re.search(r"\$1 = .*(0x[0-9a-f]+) <ctl_checkpoint>", out)
    assert m, out
    checkpoint = int(m.group(1), 16)

    i = err.index("ws status (pid")
    j = err.index("ws dump at t=")
    st = ctl_util.parse_status(err[i:j])
    assert st["measurement"] == "on" and st["pid"] == srv.pid
    md_text = err[j:err.index("ws mark:")]
    md = ctl_util.parse_monitor_dump(md_text)
    assert md.t == st["time"]
    assert md.counts == {"insn": st["insn"], "data": st["data"]}
    # the program stopped at the breakpoint: its code page is in the window
    # and so are the 50 pages it just touched, but not the next 10
    assert page(checkpoint) in md.addresses("insn")
    base = int(re.search(r"ready (0x[0-9a-f]+)",
                         srv.p.stdout.read().decode()).group(1), 16)
    data = set(md.addresses("data"))
    assert {base + k * PAGE for k in range(50)} <= data
    assert not {base + k * PAGE for k in range(50, 60)} & data
    assert "ws mark: 'in gdb' at t=%d" % st["time"] in err

    out_file = ctl_util.read_output(srv.out_path)
    assert ctl_util.events(out_file)[1:3] == [
        (st["time"], "dump", "monitor"), (st["time"], "mark", "in gdb")]
