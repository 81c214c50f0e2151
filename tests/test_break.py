"""Break conditions (--ws-break, "ws break"; docs/control.md, "Stopping at
a spike"): the program stops in gdb at the first sample where a condition
holds, not before and not after, once per stretch of samples where it
holds; gdb's `bt` there is the program's real stack; `continue` lets the
run finish exactly as it would have without the break (the same output,
the same file but for the `break` event and the start-up jitter of the
stack pages' access counts); bad conditions are refused with
one line, at start-up with exit status 1 before the program runs, by the
monitor command with nothing changed.

The programs: progs/spike (50 pages for 40 samples, then burst() on 2,000
fresh pages for several samples in a row, then 50 pages again) and
progs/memspike (three memsets of 3,000 pages among 50 to 190 pages).  A
run with a break and the same run without one execute the same
instructions (the options do not reach the program), so the samples of
the run without the break say where the break must fire."""

import os
import re
import subprocess
import time

import pytest

import ctl_util
import wslib

SPIKE = wslib.prog("spike")
MEMSPIKE = wslib.prog("memspike")


def _run_plain(tmp_path, argv, name="plain"):
    """The run without a break, with gdbserver on as in the break's."""
    return wslib.run_ws(argv, ("--vgdb=yes", "--vgdb-prefix=%s/vgp" % tmp_path),
                        out_path=str(tmp_path / (name + ".out")))


class Stopped:
    """argv under ws with --ws-break=cond, started in the background;
    wait() waits until ws says the program is stopped for gdb, gdb()
    then drives gdb in batch mode through vgdb."""

    def __init__(self, tmp_path, argv, cond, extra=()):
        self.prefix = str(tmp_path / "vgb")
        self.out_path = str(tmp_path / "break.out")
        self.stderr_path = str(tmp_path / "break.stderr")
        self.stdout_path = str(tmp_path / "break.stdout")
        self.argv = argv
        cmd = wslib.ws_command(argv, ["--vgdb=yes", "--vgdb-prefix="
                                      + self.prefix, "--ws-break=" + cond]
                               + list(extra), self.out_path)
        with open(self.stderr_path, "wb") as err, \
                open(self.stdout_path, "wb") as out:
            self.p = subprocess.Popen(cmd, cwd=str(tmp_path), stdout=out,
                                      stderr=err, stdin=subprocess.DEVNULL)

    def stderr(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def wait(self, timeout=120):
        """Until ws has said how to attach (the program waits for gdb)."""
        end = time.time() + timeout
        while time.time() < end:
            if "target remote | vgdb" in self.stderr():
                return
            assert self.p.poll() is None, self.stderr()[-3000:]
            time.sleep(0.1)
        raise AssertionError("no break stop: " + self.stderr()[-3000:])

    def gdb(self, commands):
        return ctl_util.gdb_batch(self.argv[0], self.prefix, commands,
                                  timeout=300)

    def finish(self):
        rc = self.p.wait(timeout=300)
        with open(self.stdout_path, errors="replace") as f:
            return rc, f.read()

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


@pytest.fixture
def stopped_factory():
    made = []

    def make(*args, **kw):
        s = Stopped(*args, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.kill()


def _file_without(path, pattern):
    """The output file's lines but the pid, ppid and those matching."""
    with open(path) as f:
        return [l for l in f if not re.match(r"(pid|ppid): ", l)
                and not re.match(pattern, l)]


# How many accesses a page of the main thread's stack may gain or lose
# from one run of a program to the next without ws in the way: the
# dynamic linker's strcspn() over LD_PRELOAD reads its last word whole,
# up to three bytes behind the string's end, where the random bytes
# of AT_RANDOM (new in every run) lie, and looks each up in a table on
# its stack frame; when that table straddles a page boundary, those
# lookups land on either page.  lackey run twice differs the same way
# (test_oracle.py, test_ws_agrees_with_oracle, says more).
STARTUP_JITTER = 3


def _assert_same_run(break_path, plain_path):
    """The continued run's file is the plain run's but for the break
    events, and for the access counts of the stack's hot pages, which
    the program itself changes by up to STARTUP_JITTER."""
    got = _file_without(break_path, r"event \d+ break ")
    want = _file_without(plain_path, r"$^")
    assert len(got) == len(want), (len(got), len(want))
    hot = re.compile(r"hot data (\d+) (\d+) (.*)\n")
    for i, (g, w) in enumerate(zip(got, want)):
        if g == w:
            continue
        mg, mw = hot.fullmatch(g), hot.fullmatch(w)
        assert mg and mw and (mg.group(1), mg.group(3)) == \
            (mw.group(1), mw.group(3)), (g, w)
        assert abs(int(mg.group(2)) - int(mw.group(2))) <= STARTUP_JITTER, \
            (g, w)
        assert got[i + 1] == "hot-owner stack 1\n", (g, got[i + 1])


def _first_at_or_above(samples, n):
    """The samples where data >= n holds and did not at the one before."""
    fires, was = [], False
    for s in samples:
        now = s.data >= n
        if now and not was:
            fires.append(s)
        was = now
    return fires


# ----------------------------------------------------------------------
# Stops

def test_stop_at_the_spike_then_continue(tmp_path, stopped_factory):
    """data>=1000 on spike: the stop comes at the first sample of the
    burst with 1,000 pages or more (the samples of the run without the
    break say which), ws says why with that sample's size and time, the
    stack where the window rose (burst <- spike <- main) and the owners
    (the 2,000 fresh pages are anonymous memory); gdb's bt is burst <-
    spike <- main; the burst's later samples, all above 1,000, stop it
    no more; after `continue` the program's output and the file are
    those of the run without the break, but for the `break` event."""
    argv = [SPIKE, "spike"]
    plain = _run_plain(tmp_path, argv)
    samples = [s for s in plain.output.samples
               if s.t not in plain.output.finals]
    (first,) = _first_at_or_above(samples, 1000)
    assert sum(1 for s in samples if s.data >= 1000) >= 3   # several in a row
    (peak,) = [p for p in plain.output.peaks if p.kind == "data"
               and p.t == first.t] or [None]

    s = stopped_factory(tmp_path, argv, "data>=1000")
    s.wait()
    err = s.stderr()
    reason = re.search(r"ws: break 1 \(data>=1000\): data working set (\d+) "
                       r"pages at t=(\d+) \(baseline (\d+)\)\n", err)
    assert reason, err[-3000:]
    assert (int(reason.group(1)), int(reason.group(2))) == (first.data,
                                                            first.t)
    if peak is not None:
        assert int(reason.group(3)) == round(peak.baseline)
    after = err[reason.end():]
    frames = re.findall(r"==\d+==    (?:at|by) 0x[0-9a-f]+: (\w+) ", after)
    assert frames[:3] == ["burst", "spike", "main"], after[:2000]
    owners = re.search(r"Largest owners of its (\d+) pages:\n"
                       r"==\d+==   (\d+) pages \([\d.]+%\): anonymous memory",
                       after)
    assert owners and int(owners.group(1)) == first.data, after[:2000]
    assert int(owners.group(2)) >= 2000
    assert "target remote | vgdb --vgdb-prefix=%s --pid=%d" % (
        s.prefix, s.p.pid) in after

    rc, out, gerr = s.gdb(["bt", "continue"])
    assert rc == 0, (out, gerr)
    bt = re.findall(r"^#\d+ +(?:0x[0-9a-f]+ in )?(\w+) \(", out, re.M)
    assert bt == ["burst", "spike", "main"], out
    assert "exited normally" in out, out
    rc, stdout = s.finish()
    assert (rc, stdout) == (plain.returncode, plain.stdout)
    assert "ws: continuing after break 1" in s.stderr()
    breaks = [e for e in wslib.read_output(s.out_path).events
              if e.kind == "break"]
    assert [(e.t, e.args) for e in breaks] == [(first.t, ["1", "data>=1000"])]
    _assert_same_run(s.out_path, plain.out_path)


def test_at_the_stop_dump_and_since(tmp_path, stopped_factory):
    """At the stop of data>=1000 on spike, `monitor ws since` lists what
    entered the window since the sample before the one that fired (a
    break stop is a look taken there): the burst's anonymous pages, every
    one brought in by burst's store (the line after the "burst: begin"
    marker), at least as many as the window rose by; asked again, nothing
    entered since; `monitor ws dump` sums up the sample's window on one
    screen (its data pages those the break reports)."""
    from test_peaks import SPIKE_SRC, marker_line
    argv = [SPIKE, "spike"]
    plain = _run_plain(tmp_path, argv)
    samples = [s for s in plain.output.samples
               if s.t not in plain.output.finals]
    (first,) = _first_at_or_above(samples, 1000)
    before = samples[samples.index(first) - 1]
    s = stopped_factory(tmp_path, argv, "data>=1000")
    s.wait()
    rc, out, gerr = s.gdb(["monitor ws since", "monitor ws since",
                           "monitor ws dump", "continue"])
    assert rc == 0 and "exited normally" in out, (out, gerr)
    rc, stdout = s.finish()
    assert (rc, stdout) == (plain.returncode, plain.stdout)
    dump = gerr[gerr.index("ws dump at t="):]
    assert dump.startswith("ws dump at t=%d: " % first.t), dump
    assert re.match(r"ws dump at t=[0-9]+: [0-9]+ insn pages, %d data "
                    r"pages in the window \(%d and %d lines of 64 bytes\)\n"
                    % (first.data, first.insn_lines, first.data_lines),
                    dump), dump
    assert len(dump.strip("\n").split("\n")) <= 40, dump
    since = gerr[gerr.index("ws since t="):gerr.index("ws dump at t=")]
    since = since.split("\n")
    m = re.match(r"ws since t=([0-9]+) \(the sample before break 1\): "
                 r"([0-9]+) of the ([0-9]+) data pages in the window entered "
                 r"it since; by owner:\Z", since[0])
    assert m, since
    t, entered, window = (int(g) for g in m.groups())
    assert (t, window) == (before.t, first.data), (since[0], before)
    assert first.data - before.data <= entered <= window, (since[0], before)
    anon = re.match(r" +([0-9]+) pages \([0-9.]+%\): anonymous memory\Z",
                    since[1])
    assert anon, since
    store = marker_line(SPIKE_SRC, "burst: begin") + 2
    assert since[2] == "%14d brought in by burst (spike.c:%d)" % (
        int(anon.group(1)), store), since
    again = [l for l in since if l.startswith("ws since t=")][1]
    assert re.match(r"ws since t=%d \(ws since\): 0 of the %d data pages "
                    r"in the window entered it since\Z" % (first.t, window),
                    again), since


def test_each_stretch_stops_once(tmp_path, stopped_factory):
    """memspike's three memsets, data>=1000: three stops, each at the
    first sample of a stretch where it holds; three `continue`s finish the
    run as without the break."""
    argv = [MEMSPIKE, "3000"]
    plain = _run_plain(tmp_path, argv)
    fires = _first_at_or_above([s for s in plain.output.samples
                                if s.t not in plain.output.finals], 1000)
    assert len(fires) == 3, wslib.show(plain.output.samples)
    s = stopped_factory(tmp_path, argv, "data>=1000")
    s.wait()
    rc, out, gerr = s.gdb(["continue", "continue", "continue"])
    assert "exited normally" in out, (out, gerr)
    rc, stdout = s.finish()
    assert (rc, stdout) == (plain.returncode, plain.stdout)
    err = s.stderr()
    assert [(int(a), int(b)) for a, b in re.findall(
        r"ws: break 1 \(data>=1000\): data working set (\d+) pages at "
        r"t=(\d+)", err)] == [(f.data, f.t) for f in fires]
    assert err.count("ws: continuing after break 1") == 3
    assert [e.t for e in wslib.read_output(s.out_path).events
            if e.kind == "break"] == [f.t for f in fires]
    _assert_same_run(s.out_path, plain.out_path)


def test_stripped_code_in_the_report_is_named_by_object_and_offset(
        tmp_path, stopped_factory):
    """own_spike_stripped has no symbol: the report's largest owner, its
    2,000-page heap block, comes with its allocation stack, whose frames
    in the program read own_spike_stripped+0x<offset>, an offset that
    addr2line maps to the marked malloc line of own_spike (the same
    code with symbols), never "???"."""
    stripped, named = wslib.prog("own_spike_stripped"), wslib.prog("own_spike")
    s = stopped_factory(tmp_path, [stripped], "data>=2000")
    s.wait()
    err = s.stderr()
    s.kill()
    owners = err[err.index("Largest owners of its"):]
    owners = owners[:owners.index("ws: the program is stopped")]
    assert "???" not in owners, owners
    frames = re.findall(r"(?:at|by) 0x[0-9a-f]+: own_spike_stripped\+0x"
                        r"([0-9a-f]+)", owners)
    assert frames, owners
    # own_spike_stripped is own_spike linked with -s: the same .text
    where = subprocess.run(["addr2line", "-e", named, "0x" + frames[0]],
                           stdout=subprocess.PIPE, check=True,
                           universal_newlines=True).stdout.split()[0]
    src = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "own_spike.c")
    with open(src) as f:
        (line,) = [i for i, l in enumerate(f, 1)
                   if "/* own_spike: malloc */" in l]
    path, number = where.rsplit(":", 1)
    assert (os.path.basename(path), number) == ("own_spike.c", str(line)), \
        (where, owners)


def test_rise_and_peak(tmp_path, stopped_factory):
    """rise>=1500 and peak together on spike: rise fires at the first
    sample whose data working set is 1,500 pages or more above the one
    before, peak at the first sample the detector flags (the first
    sample of the run's detected data peak)."""
    argv = [SPIKE, "spike"]
    plain = _run_plain(tmp_path, argv)
    samples = [s for s in plain.output.samples
               if s.t not in plain.output.finals]
    rises = [b for a, b in zip([None] + samples, samples)
             if b.data - (a.data if a else 0) >= 1500]
    detected = sorted(p.t for p in plain.output.peaks if p.kind == "data"
                      and "detected" in p.why)
    assert rises and detected
    s = stopped_factory(tmp_path, argv, "rise>=1500,peak")
    s.wait()
    rc, out, gerr = s.gdb(["continue"] * 6)
    assert "exited normally" in out, (out, gerr)
    rc, stdout = s.finish()
    assert (rc, stdout) == (plain.returncode, plain.stdout)
    events = [(e.t, e.args[1]) for e in wslib.read_output(s.out_path).events
              if e.kind == "break"]
    assert [t for t, c in events if c == "rise>=1500"][0] == rises[0].t
    assert [t for t, c in events if c == "peak"][0] == detected[0]
    assert re.search(r"ws: break 1 \(rise>=1500\): data working set %d pages "
                     r"at t=%d, up %d since the sample before"
                     % (rises[0].data, rises[0].t,
                        rises[0].data - samples[samples.index(rises[0]) - 1]
                        .data), s.stderr())


# ----------------------------------------------------------------------
# Bad input

@pytest.mark.parametrize("cond,why", [
    ("data>=", "'data>=': the number of pages is missing"),
    ("data>=-5", "'data>=-5': the number of pages is not a whole number "
                 "from 1 to 2199023255552"),
    ("rise>=x", "'rise>=x': the number of pages is not a whole number "
                "from 1 to 2199023255552"),
    ("insn>=0", "'insn>=0': the number of pages is not a whole number "
                "from 1 to 2199023255552"),
    ("size>=5", "'size>=5': it is no condition (data>=N, insn>=N, rise>=N "
                "or peak)"),
    ("peaks", "'peaks': it is no condition (data>=N, insn>=N, rise>=N "
              "or peak)"),
    (",".join("data>=%d" % n for n in range(1, 10)),
     "'data>=9': at most 8 conditions can be set"),
    ("peak,", "the condition is missing (data>=N, insn>=N, rise>=N or "
              "peak), separated by commas"),
    ("", "the condition is missing (data>=N, insn>=N, rise>=N or peak), "
         "separated by commas"),
])
def test_bad_condition_at_start_up(tmp_path, cond, why):
    out_path = str(tmp_path / "ws.out")
    run = wslib.run_ws([SPIKE, "spike"], ("--ws-break=" + cond,),
                       out_path=out_path, check=False)
    assert run.returncode == 1, run.stderr[-2000:]
    assert ("valgrind: --ws-break: %s\n" % why) in run.stderr, run.stderr
    assert run.stdout == "" and not os.path.exists(out_path)


@pytest.mark.parametrize("options,why", [
    (("--vgdb=no", "--ws-break=data>=10"),
     "valgrind: --ws-break: 'data>=10': with --vgdb=no no gdb can stop the "
     "program\n"),
    (("--ws-break=peak", "--ws-peak-detect=no"),
     "valgrind: Bad option: --ws-break=peak: the peak detector is off "
     "(--ws-peak-detect=no)\n"),
])
def test_break_that_could_never_stop(tmp_path, options, why):
    out_path = str(tmp_path / "ws.out")
    run = wslib.run_ws([SPIKE, "spike"], options, out_path=out_path,
                       check=False)
    assert run.returncode == 1 and why in run.stderr, run.stderr[-2000:]
    assert run.stdout == "" and not os.path.exists(out_path)


def test_monitor_break_commands(tmp_path):
    """ws break: lists, adds (numbered on), refuses a bad condition or a
    ninth with one line and nothing changed, deletes one or all."""
    server = ctl_util.Server(tmp_path)
    try:
        assert server.vgdb("ws break") == \
            "ws break: the conditions set:\n  none\n"
        assert server.vgdb("ws break data>=100000") == (
            "ws break: 1 (data>=100000): the program stops in gdb at the "
            "first sample where it holds\n")
        assert server.vgdb("ws break peak").startswith("ws break: 2 (peak)")
        for bad, why in (("data>=", "the number of pages is missing"),
                         ("rise>=x", "the number of pages is not a whole "
                                     "number from 1 to 2199023255552"),
                         ("foo", "it is no condition (data>=N, insn>=N, "
                                 "rise>=N or peak)")):
            assert server.vgdb("ws break " + bad) == \
                "ws break: '%s': %s; nothing changed\n" % (bad, why)
        assert server.vgdb("ws break data>=5 x") == \
            "ws break: unexpected argument 'x'; nothing changed\n"
        assert server.vgdb("ws break delete 7") == (
            "ws break delete: '7' is no break 'ws break' lists; nothing "
            "changed\n")
        assert server.vgdb("ws break delete") == (
            "ws break delete: say which, a number 'ws break' lists or all; "
            "nothing changed\n")
        assert server.vgdb("ws break") == ("ws break: the conditions set:\n"
                                           "  1  data>=100000\n  2  peak\n")
        assert server.vgdb("ws break delete 1") == \
            "ws break delete: 1 deleted\n"
        for n in range(3, 10):
            assert server.vgdb("ws break insn>=%d" % (100000 + n)) \
                .startswith("ws break: %d (" % n)
        assert server.vgdb("ws break insn>=5") == (
            "ws break: 'insn>=5': at most 8 conditions can be set; nothing "
            "changed\n")
        assert server.vgdb("ws break").count("\n") == 1 + 8
        assert server.vgdb("ws break delete all") == \
            "ws break delete: 8 deleted\n"
        assert server.vgdb("ws break") == \
            "ws break: the conditions set:\n  none\n"
        assert server.finish() == 0
        assert not [e for e in server.output().events if e.kind == "break"]
    finally:
        server.kill()
