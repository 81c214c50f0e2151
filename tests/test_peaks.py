"""Peaks: the online detector (docs/manual.md, "Peaks"), the stacks it
records (docs/output-format.md, "Stacks"), its lines in the output file
and on stderr, `ws peaks`, `ws set peak-thresh` and --ws-peak-*.

Programs:
- tests/progs/spike (-O0) and spike_o2 (-O2, where burst() is inlined into
  spike()): 40 samples on the same 50 pages, then (argument "spike") a
  burst on 2,000 fresh pages for several samples inside burst(), called
  from spike(), called from main, then 40 samples on the 50 pages again;
  with "flat" there is no burst; with "fork" a child forked afterwards
  has a burst of its own.  The lines the stacks must name are found by the
  marker comments in spike.c.
- demo/pageramp: ten ramps from 0 to 512 data pages and back.
- tests/progs/ctl_server, steered through vgdb while it is blocked reading
  a pipe (ctl_util.Server), for the monitor commands.

The peak lines are read here with a small strict reader of their own
(_read): the grammar of the lines this feature adds, checked line by line.
"""

import os
import re
import subprocess

import pytest

import ctl_util
import wslib

SPIKE_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "spike.c")
PAGERAMP = os.path.join(wslib.TOP_BUILDDIR, "demo", "pageramp")
BURST_PAGES = 2000
STEADY_PAGES = 50


# ----------------------------------------------------------------------
# Reading the peak lines

class Peaks:
    """What a run's output file says about peaks.

    samples: [(t, insn, data)]
    events:  [(t, n, kind, size, stack_id)] in file order (a peak recorded
             again has several events with its number)
    stacks:  {id: [(line_kind, ip, location, function)]}
    count:   the trailer's `peaks N`
    """

    def __init__(self):
        self.samples, self.events, self.stacks = [], [], {}
        self.count = None

    def final(self, until=None):
        """{n: (t, kind, size, stack_id)} from the last event of each
        peak number (of the events at or before time `until`)."""
        res = {}
        for t, n, kind, size, sid in self.events:
            if until is None or t <= until:
                res[n] = (t, kind, size, sid)
        return res

    def first(self):
        res = {}
        for t, n, kind, size, sid in self.events:
            res.setdefault(n, (t, kind, size, sid))
        return res


_FRAME = re.compile(r"(frame|inline) 0x([0-9a-f]+) (\S+) (\S.*)\Z")
_PEAK = re.compile(r"event ([0-9]+) peak ([0-9]+) (insn|data) ([0-9]+) "
                   r"([0-9]+)\Z")


def _read(path):
    """Reads the file; asserts the grammar of stack blocks, peak events and
    the `peaks` line, and that each peak event follows its own sample (same
    time, same size), refers to a stack written before it, and that peak
    numbers start at 0 and follow each other."""
    with open(path) as f:
        lines = f.read().split("\n")
    assert lines[-1] == "", "the file does not end with a newline"
    lines.pop()
    p = Peaks()
    last_sample = None
    i = 0
    while i < len(lines):
        line = lines[i]
        where = "%s:%d: %r" % (path, i + 1, line)
        if line[:1].isdigit():
            v = [int(x) for x in line.split()]
            last_sample = (v[0], v[1], v[2])
            p.samples.append(last_sample)
        elif line.startswith("stack "):
            m = re.match(r"stack ([1-9][0-9]*) ([1-9][0-9]*)\Z", line)
            assert m, where
            sid, n = int(m.group(1)), int(m.group(2))
            assert sid not in p.stacks, "stack id given twice: " + where
            block = []
            for j in range(i + 1, i + 1 + n):
                f = _FRAME.match(lines[j])
                assert f, "%s:%d: not a frame line: %r" % (path, j + 1,
                                                          lines[j])
                block.append((f.group(1), int(f.group(2), 16), f.group(3),
                              f.group(4)))
            # an inline line is inlined into the line after it (same
            # ip); the last line is a real frame
            for a, b in zip(block, block[1:]):
                if a[0] == "inline":
                    assert a[1] == b[1], (where, block)
            assert block[-1][0] == "frame", (where, block)
            p.stacks[sid] = block
            i += n
        elif line.startswith("event ") and " peak " in line:
            m = _PEAK.match(line)
            assert m, where
            t, n, kind = int(m.group(1)), int(m.group(2)), m.group(3)
            size, sid = int(m.group(4)), int(m.group(5))
            assert sid in p.stacks, "stack not written before use: " + where
            assert last_sample is not None and last_sample[0] == t, (
                "a peak event must follow its sample: " + where)
            assert size == last_sample[1 if kind == "insn" else 2], where
            known = {e[1] for e in p.events}
            assert n in known or n == len(known), (
                "peak numbers go 0, 1, 2, ...: " + where)
            p.events.append((t, n, kind, size, sid))
        elif line.startswith("peaks"):
            m = re.match(r"peaks ([0-9]+)\Z", line)
            assert m, where
            assert p.count is None, where
            p.count = int(m.group(1))
            assert lines[i + 1].startswith("summary "), (
                "the peaks line comes right before the summary lines: "
                + where)
        i += 1
    assert p.count == len({e[1] for e in p.events}), (p.count, p.events)
    return p


def _stderr_peaks(stderr):
    m = re.search(r"^==\d+== Samples: \d+\n==\d+== Peaks: (\d+)$", stderr,
                  re.M)
    assert m, stderr[-2000:]
    return int(m.group(1))


def _marker_line(marker):
    """The line of spike.c that carries the comment /* <marker> */."""
    with open(SPIKE_SRC) as f:
        found = [i for i, l in enumerate(f, 1)
                 if "/* %s */" % marker in l]
    assert len(found) == 1, (marker, found)
    return found[0]


# ----------------------------------------------------------------------
# One burst among steady samples

@pytest.mark.parametrize("build", ["spike", "spike_o2"])
def test_burst_is_one_peak_with_its_stack(ws, build):
    """One burst of 2,000 fresh pages among 80 samples of the same 50:
    exactly one peak, a data peak, at the burst's samples, recorded with
    the stack burst <- spike <- main at the lines the source says; at -O2
    burst() is an inline line on spike()'s address."""
    r = ws([wslib.prog(build), "spike"])
    p = _read(r.out_path)
    assert p.count == 1 and _stderr_peaks(r.stderr) == 1, p.events
    (t, kind, size, sid), = p.final().values()
    assert kind == "data"
    # after start-up, one run of samples above the steady 50 pages (the
    # burst, several samples whose windows lie inside it), and the peak is
    # its largest
    after_startup = [s for s in p.samples if s[0] > 1000000]
    burst, = wslib.runs_of(after_startup,
                           lambda s: s[2] > STEADY_PAGES + 20)
    assert sum(1 for s in burst if s[2] >= BURST_PAGES) >= 3, p.samples
    assert burst[0][0] <= t <= burst[-1][0]
    # the largest sample: the burst's (its first and last samples hold
    # the steady pages too, and one of them may be the largest; their
    # windows still hold a whole sweep of burst(), which is where the
    # program is when they are taken)
    # a peak moves on only at a sample 1/16 larger than its record
    top = max(s[2] for s in p.samples)
    assert top - top // 16 <= size <= top
    assert BURST_PAGES <= size <= BURST_PAGES + STEADY_PAGES + 20, size

    stack = p.stacks[sid]
    begin, end = _marker_line("burst: begin"), _marker_line("burst: end")
    calls_burst = _marker_line("spike: calls burst")
    calls_spike = _marker_line("main: calls spike")
    # the stack stops at main (nothing below main is shown)
    assert [(k, loc.split(":")[0], fn) for k, _, loc, fn in stack] == [
        ("frame" if build == "spike" else "inline", "spike.c", "burst"),
        ("frame", "spike.c", "spike"),
        ("frame", "spike.c", "main")], stack
    assert begin <= int(stack[0][2].split(":")[1]) <= end, (begin, end,
                                                            stack)
    assert stack[1][2] == "spike.c:%d" % calls_burst, stack
    assert stack[2][2] == "spike.c:%d" % calls_spike, stack
    if build == "spike_o2":
        assert stack[0][1] == stack[1][1]      # the same address
    else:
        assert stack[0][1] != stack[1][1]


def test_flat_has_no_peak(ws):
    """The same program without the burst: 80 samples of 50 pages (and the
    start-up before them) give no peak."""
    r = ws([wslib.prog("spike"), "flat"])
    p = _read(r.out_path)
    assert p.count == 0 and p.events == [] and p.stacks == {}
    assert _stderr_peaks(r.stderr) == 0
    assert len(p.samples) >= 80


def test_peak_detect_no(ws):
    """--ws-peak-detect=no: no stack or peak lines, `peaks 0`, Peaks: 0."""
    r = ws([wslib.prog("spike"), "spike"], "--ws-peak-detect=no")
    p = _read(r.out_path)
    assert p.count == 0 and p.events == [] and p.stacks == {}
    assert _stderr_peaks(r.stderr) == 0
    assert max(s[2] for s in p.samples) >= BURST_PAGES


def test_threshold_and_window(ws):
    """The threshold matters: at 1000 (the highest) a burst to 40 times the
    steady working set is no peak.  The window matters too: with a window
    of 2 samples the detector forgets fast and still finds the burst, and
    nothing else."""
    r = ws([wslib.prog("spike"), "spike"], "--ws-peak-thresh=1000")
    assert _read(r.out_path).count == 0
    r = ws([wslib.prog("spike"), "spike"], "--ws-peak-window=2")
    p = _read(r.out_path)
    assert p.count == 1, p.events
    assert list(p.final().values())[0][1] == "data"


def test_peak_events_in_ms_time(ws):
    """In milliseconds the clock moves while ws works: each peak event
    still carries its sample's time (_read checks it), and the burst is
    still found."""
    r = ws([wslib.prog("spike"), "spike"], "--ws-time-unit=ms",
           "--ws-every=5")
    p = _read(r.out_path)
    assert "data" in [v[1] for v in p.final().values()], (p.samples,
                                                          p.events)


def test_stacks_not_inlined_without_inline_info(ws):
    """--read-inline-info=no (ws turns it on by default): the -O2 build's
    stack has no inline line, the burst is attributed to spike()."""
    r = ws([wslib.prog("spike_o2"), "spike"], "--read-inline-info=no")
    p = _read(r.out_path)
    (t, kind, size, sid), = p.final().values()
    assert [(k, fn) for k, _, _, fn in p.stacks[sid]] == [
        ("frame", "spike"), ("frame", "main")], p.stacks[sid]


def test_forked_child_has_its_own_peaks(tmp_path):
    """spike fork: the parent's burst, then a fork and the child's burst.
    Each file numbers its own peaks from 0 and holds its own stacks: the
    parent's data peak is its burst from main's first call, the child's is
    its own burst from the child's call, and neither file counts the other's
    peaks (the fork itself may be an instruction peak in both: libc's fork
    code)."""
    cmd = wslib.ws_command([wslib.prog("spike"), "fork"], [],
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err[-3000:]
    files = {}
    for name in os.listdir(tmp_path):
        with open(tmp_path / name) as f:
            head = dict(re.findall(r"^(pid|ppid): ([0-9]+)$", f.read(), re.M))
        files[int(head["pid"])] = (int(head["ppid"]), _read(tmp_path / name))
    assert len(files) == 2, files
    (child,) = [pid for pid, (ppid, _) in files.items() if ppid in files]
    (parent,) = [pid for pid in files if pid != child]
    for pid, marker in ((parent, "main: calls spike"),
                        (child, "child: calls spike")):
        peaks = files[pid][1]
        data = [(n, v) for n, v in peaks.final().items() if v[1] == "data"]
        assert len(data) == 1, (pid, peaks.events)
        stack = peaks.stacks[data[0][1][3]]
        assert [fn for _, _, _, fn in stack] == ["burst", "spike", "main"]
        assert stack[2][2] == "spike.c:%d" % _marker_line(marker), stack
        assert sorted(peaks.final()) == list(range(peaks.count))
        assert min(peaks.stacks) == 1
    # one summary each, each with its own count
    counts = sorted(int(c) for c in re.findall(r"==\d+== Peaks: (\d+)", err))
    assert counts == sorted(files[pid][1].count for pid in files), err


# ----------------------------------------------------------------------
# pageramp

def test_pageramp_tops(ws):
    """Each ramp of pageramp rises from 0 to 512 data pages and falls back.
    Its tops stand out from the moving average only by about one standard
    deviation (a sawtooth never stands far out from its own average), which
    the default threshold flags.  Each data peak must end at a ramp top:
    within 10 % of the largest sample of its ramp (a peak ends at the
    largest sample of its run of flagged samples; 10 % leaves room for a
    run that ends before the top, should the top ever fail to stand out
    while the samples before it did).  At least 8 of the 10 ramps
    must have one (the detector needs a few samples to learn the first ramp,
    and a threshold near a ramp's standing-out is not worth more precision),
    and no ramp more than one.  No peak may begin on a descent: its first
    sample is larger than the sample before it."""
    r = ws([PAGERAMP])
    p = _read(r.out_path)
    ramps = wslib.runs_of(p.samples, lambda s: s[2] >= 100)
    assert len(ramps) == 10, p.samples
    final = {n: v for n, v in p.final().items() if v[1] == "data"}
    flagged = set()
    for n, (t, kind, size, sid) in final.items():
        (i, ramp), = [(i, rr) for i, rr in enumerate(ramps)
                      if rr[0][0] <= t <= rr[-1][0]]
        top = max(s[2] for s in ramp)
        assert size >= 0.9 * top, (n, size, top)
        assert i not in flagged, ("two peaks in ramp %d" % i, final)
        flagged.add(i)
    assert len(flagged) >= 8, (sorted(flagged), final)
    times = [s[0] for s in p.samples]
    for n, (t, kind, size, sid) in p.first().items():
        k = times.index(t)
        column = 1 if kind == "insn" else 2
        assert p.samples[k][column] > p.samples[k - 1][column], (n, t)
    # the stacks name the code that touches the pages
    for n, (t, kind, size, sid) in final.items():
        fns = [fn for _, _, _, fn in p.stacks[sid]]
        assert fns == ["touch_pages", "main"], (n, p.stacks[sid])
        assert re.match(r"pageramp\.c:\d+\Z", p.stacks[sid][0][2])


# ----------------------------------------------------------------------
# Monitor commands

@pytest.fixture
def server(tmp_path):
    s = ctl_util.Server(tmp_path)
    yield s
    s.kill()


def _steady(server):
    """About 2,000,000 instructions on the same 20 pages."""
    server.touch(0, 20, 4000)


def _burst(server):
    """About 225,000 instructions on 1,500 pages (pages 100 to 1,599, none
    of them in the steady window)."""
    server.touch(100, 1500, 6)


_GROUP = re.compile(r"  ([0-9]+) peaks? \(([^)]*)\) at (.*):\Z")
_STACK_LINE = re.compile(r"    (at|by) 0x([0-9a-f]+): (.*?)(?: \((.*)\))?\Z")


def _parse_peaks_reply(text):
    """The reply to `ws peaks`: (count, [(numbers, [(t, kind)], sizes,
    frames)]) with sizes as the group's "kind lo..hi pages" text and frames
    as [(ip, function, location)]."""
    lines = text.rstrip("\n").split("\n")
    m = re.match(r"ws peaks at t=([0-9]+): ([0-9]+) peaks?\Z", lines[0])
    assert m, text
    assert lines[1].startswith("  (detector: window "), text
    groups = []
    for line in lines[2:]:
        g = _GROUP.match(line)
        if g:
            listed = re.findall(r"t=([0-9]+) \(#([0-9]+) (insn|data)\)",
                                g.group(3))
            assert int(g.group(1)) == len(listed), line   # <= 10 here
            groups.append(([int(n) for _, n, _ in listed],
                           [(int(t), k) for t, _, k in listed], g.group(2),
                           []))
            continue
        s = _STACK_LINE.match(line)
        assert s and groups, "unexpected line %r in\n%s" % (line, text)
        groups[-1][3].append((int(s.group(2), 16), s.group(3), s.group(4)))
    return int(m.group(2)), groups


def test_vgdb_peaks(server):
    """`ws peaks` before any peak, and after bursts: every peak of the file
    once, with the time and size of its last record, grouped exactly by the
    file's stack ids, each group followed by that stack; `ws status` counts
    them."""
    count, groups = _parse_peaks_reply(server.vgdb("ws peaks"))
    assert (count, groups) == (0, [])
    assert server.status()["peaks"] == 0
    for _ in range(3):
        _steady(server)
        _burst(server)
    _steady(server)
    reply = server.vgdb("ws peaks")
    count, groups = _parse_peaks_reply(reply)
    assert server.status()["peaks"] == count
    assert server.finish() == 0
    p = _read(server.out_path)
    # the program's exit, after the reply, may flag a peak of its own
    at = int(re.match(r"ws peaks at t=([0-9]+):", reply).group(1))
    final = p.final(until=at)
    assert count == len(final) and count >= 3, (reply, p.events)
    numbers = sorted(n for g in groups for n in g[0])
    assert numbers == list(range(count)), reply
    seen_stacks = set()
    for ns, ts, sizes, frames in groups:
        sids = {final[n][3] for n in ns}
        assert len(sids) == 1, ("one group, one stack", reply, final)
        sid = sids.pop()
        assert sid not in seen_stacks, ("one stack, one group", reply)
        seen_stacks.add(sid)
        assert ts == [final[n][:2] for n in ns], reply
        for kind in ("insn", "data"):
            got = sorted(final[n][2] for n in ns if final[n][1] == kind)
            if got:
                want = ("%s %d..%d pages" % (kind, got[0], got[-1])
                        if got[0] != got[-1] else
                        "%s %d page%s" % (kind, got[0],
                                          "" if got[0] == 1 else "s"))
                assert want in sizes, (want, sizes)
        block = p.stacks[sid]
        assert [(ip, fn) for ip, fn, _ in frames] == \
            [(ip, fn) for _, ip, _, fn in block], (frames, block)
    # the bursts are data peaks
    assert sum(1 for v in final.values() if v[1] == "data") >= 3, final


def test_vgdb_set_peak_thresh(server):
    """ws set peak-thresh and v.clo --ws-peak-thresh: a good value answers,
    is recorded as an event and takes effect (at 1000 a burst is no peak,
    back at 5 it is); a bad one answers one line and changes nothing."""
    _steady(server)
    st = server.status()
    t0, peaks0 = st["time"], st["peaks"]
    for command, reason in [
            ("ws set peak-thresh", "the value is missing (a whole number "
             "from 1 to 1000)"),
            ("ws set peak-thresh 0", "'0' is not a whole number from 1 to "
             "1000; nothing changed"),
            ("ws set peak-thresh 1001", "'1001' is not a whole number"),
            ("ws set peak-thresh -3", "'-3' is not a whole number"),
            ("ws set peak-thresh 2x", "'2x' is not a whole number"),
            ("ws set peak-thresh 4 5", "unexpected argument '5'")]:
        reply = server.vgdb(command)
        assert reply.startswith("ws set peak-thresh: ") and reason in reply \
            and reply.count("\n") == 1, (command, reply)
    assert server.vgdb("ws set peak-thresh 1000") == \
        "ws set peak-thresh: peak-thresh is now 1000 (was 5) from t=%d\n" % t0
    _burst(server)
    _steady(server)
    st = server.status()
    assert st["peaks"] == peaks0
    t1 = st["time"]
    reply = server.vgdb("v.clo --ws-peak-thresh=0")
    assert "Bad option: --ws-peak-thresh=0" in reply
    reply = server.vgdb("v.clo --ws-peak-thresh=5")
    assert "Handling new value --ws-peak-thresh=5" in reply
    _burst(server)
    _steady(server)
    assert server.finish() == 0
    with open(server.out_path) as f:
        sets = re.findall(r"^event ([0-9]+) set peak-thresh ([0-9]+)$",
                          f.read(), re.M)
    assert sets == [(str(t0), "1000"), (str(t1), "5")]
    p = _read(server.out_path)
    # the burst (reading the command also runs code: insn peaks may come)
    assert [v[1] for v in p.final().values()
            if v[0] > t1 and v[1] == "data"] == ["data"], p.events
