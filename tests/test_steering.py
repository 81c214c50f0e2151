"""Steering ws while the program runs: client requests at every distance
from a sample (none skipped), 200 monitor commands in a row while the
program runs flat out, gdb attaching, detaching and attaching again,
monitor commands racing WS_STOP / WS_START toggles."""

import re
import subprocess

import pytest

import ctl_util
import wslib


P = wslib.prog


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

@pytest.fixture
def busy_factory(server_factory):
    """busy_factory(MODE, *options): rel_race MODE under ws with vgdb on,
    running flat out until the end of its input (ctl_util.Server)."""
    def make(mode, *options):
        return server_factory(argv=[P("rel_race"), mode, "0"],
                              options=options)
    return make


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
    run = b.run()
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
    # the 50 pages; a final sample's is at most tau long, and empty when
    # tau < T left no epoch in it (docs/manual.md, "Final samples");
    # every other window lies in the loop or spans the few instructions
    # between two of its calls.
    change_times = [t for t, _ in sets]
    clean = [s for s in regular
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
                   "--vgdb-prefix=%s" % (b.pid, b.prefix),
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
        assert st["pid"] == b.pid and st["measurement"] == "on"
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
    run = b.run()
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
            reply = b.vgdb("ws dump full")
            ctl_util.parse_monitor_dump(reply)
    run = b.run()
    wslib.check_trailer(run)
    out = run.output
    wslib.check_sample_times(out)
    kinds = [e.kind for e in out.events if e.kind in ("start", "stop")]
    assert len(kinds) > 100
    assert kinds == ["stop", "start"] * (len(kinds) // 2)
    assert [e.args for e in out.events if e.kind == "dump"] == \
        [["monitor"]] * 12
