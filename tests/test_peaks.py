"""Peaks (docs/manual.md, "Peaks"): which samples are reported, their
stacks (where the working set rose; the program's own line), their
owners, final samples, and the boundaries of every rule.

Every run's peak lines are compared with tests/peakmodel.py, an
independent model of the detector's arithmetic and of what is reported
(check_model): each test below checks that too.

Programs (tests/progs/):
- spike, spike_o2: 40 samples on 50 pages, a burst on 2,000 fresh pages in
  burst() <- spike() <- main (-O2: burst() inlined), 40 samples again;
  "flat": no burst; "fork": a child bursts too.
- endburst (-O0, -O2): a burst of N pages in final_burst(), the last
  thing before exit, before WS_STOP, or before a fatal SIGSEGV.
- memspike: a memset of 3,000 pages in clear_table(), three times, among
  a working set jittering between 50 and 190 pages.
- vecgrow: a std::vector<int> whose last push_back moves a full buffer of
  N ints into a new one of 2N; it also reads a static table of its own.
- steps: after WS_START, phases of exactly chosen sizes for exactly
  chosen numbers of samples, for the rules' boundaries.
- demo/pageramp: ten ramps from 0 to 512 data pages and back.
- tests/progs/ctl_server steered through vgdb (ctl_util.Server).
"""

import os
import re
import shutil
import signal
import subprocess

import pytest

import ctl_util
import peakmodel
import wslib

SPIKE_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "spike.c")
PAGERAMP = os.path.join(wslib.TOP_BUILDDIR, "demo", "pageramp")
BURST_PAGES = 2000
STEADY_PAGES = 50
T = 100000


# ----------------------------------------------------------------------
# Helpers

def check_model(out, window=30, thresh=5, npeaks=10):
    """The peak lines are exactly those tests/peakmodel.py computes from
    the file's own samples: same peaks, same order, same sizes, times,
    baselines (rounded) and reasons, and the same count of peaks found."""
    recs, found = peakmodel.peaks(out, window=window, thresh=thresh,
                                  npeaks=npeaks)
    got = [(p.kind, p.t, p.size, p.baseline, p.why, p.regions)
           for p in out.peaks]
    want = [(r.kind, r.t, r.size, int(r.baseline + 0.5), r.why(), r.regions)
            for r in recs]
    assert got == want, "ws:\n%s\nmodel:\n%s" % ("\n".join(map(str, got)),
                                                 "\n".join(map(str, want)))
    assert out.found == found, (out.found, found)
    return out.peaks


def kind_peaks(out, kind):
    return [p for p in out.peaks if p.kind == kind]


def fns(out, p):
    return [w.function for w in out.stacks[p.stack]]


def own(out, p):
    """The stack line the file names as the program's own, or None."""
    return None if p.own is None else out.stacks[p.stack][p.own]


def stderr_peaks(stderr):
    m = re.search(r"^==\d+== Peaks: (\d+) \(the detector found (\d+)\)$",
                  stderr, re.M)
    assert m, stderr[-2000:]
    return int(m.group(1)), int(m.group(2))


def marker_line(path, marker):
    """The line of a source file that carries the comment /* MARKER */."""
    with open(path) as f:
        found = [i for i, l in enumerate(f, 1) if "/* %s */" % marker in l
                 or "// %s" % marker in l]
    assert len(found) == 1, (marker, found)
    return found[0]


def src(name):
    return os.path.join(wslib.TOP_SRCDIR, "tests", "progs", name)


# ----------------------------------------------------------------------
# One burst among steady samples

@pytest.mark.parametrize("build", ["spike", "spike_o2"])
def test_burst_is_the_data_peak_with_its_stack(ws, build):
    """One burst of 2,000 fresh pages among 80 samples of the same 50:
    exactly one data peak, the largest sample and flagged, its stack where
    the window rose: burst <- spike <- main at the lines the source says
    (at -O2 burst() is an inline line on spike()'s address), burst's line
    the first in the program's own code."""
    r = ws([wslib.prog(build), "spike"])
    out = r.output
    check_model(out)
    (p,) = kind_peaks(out, "data")
    assert p.why == ["largest", "detected"] and p.origin == "rise"
    assert stderr_peaks(r.stderr) == (out.npeaks, out.found)
    assert BURST_PAGES <= p.size <= BURST_PAGES + STEADY_PAGES + 20, p
    stack = out.stacks[p.stack]
    begin = marker_line(SPIKE_SRC, "burst: begin")
    end = marker_line(SPIKE_SRC, "burst: end")
    assert [(w.inline, w.location.split(":")[0], w.function)
            for w in stack] == [
        (build == "spike_o2", "spike.c", "burst"),
        (False, "spike.c", "spike"), (False, "spike.c", "main")], stack
    assert begin <= int(stack[0].location.split(":")[1]) <= end, stack
    assert stack[1].location == "spike.c:%d" % marker_line(
        SPIKE_SRC, "spike: calls burst")
    assert stack[2].location == "spike.c:%d" % marker_line(
        SPIKE_SRC, "main: calls spike")
    assert p.own == 0
    # its window by owner: the 2,000 pages of its mapping and the steady
    # 50 (anonymous memory), the stack, the program's own data
    total = sum(n for n, _ in p.owners)
    anon = sum(n for n, o in p.owners if o.kind == "anon")
    assert total == p.size and anon >= BURST_PAGES, p.owners


def test_flat_has_no_detected_data_peak(ws):
    """Without the burst, 80 samples of 50 pages (and the start-up): the
    detector flags no data sample; the largest data sample is reported
    all the same (as the largest: the start-up's)."""
    r = ws([wslib.prog("spike"), "flat"])
    out = r.output
    check_model(out)
    (p,) = kind_peaks(out, "data")
    assert p.why == ["largest"], p
    assert not [q for q in out.peaks if "detected" in q.why and
                q.kind == "data"]
    assert len(out.samples) >= 80


def test_peak_detect_no(ws):
    """--ws-peak-detect=no: no stack or peak lines, `peaks 0 found 0`."""
    r = ws([wslib.prog("spike"), "spike"], "--ws-peak-detect=no")
    out = r.output
    assert out.peaks == [] and out.stacks == {} and out.found == 0
    assert stderr_peaks(r.stderr) == (0, 0)
    assert max(s.data for s in out.samples) >= BURST_PAGES


def test_threshold_and_window(ws):
    """At threshold 1000 a burst to 40 times the steady working set is not
    flagged (it is still the largest sample); with a window of 2 samples
    the detector forgets fast and flags the burst."""
    out = ws([wslib.prog("spike"), "spike"], "--ws-peak-thresh=1000").output
    check_model(out, thresh=1000)
    assert [p.why for p in kind_peaks(out, "data")] == [["largest"]]
    out = ws([wslib.prog("spike"), "spike"], "--ws-peak-window=2").output
    check_model(out, window=2)
    assert [p.why for p in kind_peaks(out, "data")] == [["largest",
                                                         "detected"]]


def test_peaks_in_ms_time(ws):
    """In milliseconds: a data peak holds the whole burst, with burst's
    stack, and the largest sample holds it too.  The burst lasts a few ms
    of wall time, more when the machine is loaded, and a process that
    waits for a core touches nothing meanwhile: with tau = T = 5 ms a
    loaded machine left the burst in no window at all (the largest sample
    was 68 pages).  tau = 50 ms holds the whole burst unless the process
    waits 45 ms inside it; on a loaded machine the rest of the run can
    then fit in the same 50 ms, so the largest sample may be the final
    one at exit (its stack is exit's), and the burst's own sample is a
    detected peak of the same height."""
    out = ws([wslib.prog("spike"), "spike"], "--ws-time-unit=ms",
             "--ws-every=5", "--ws-tau=50").output
    check_model(out)
    data = kind_peaks(out, "data")
    (largest,) = [q for q in data if "largest" in q.why]
    assert largest.size >= BURST_PAGES
    assert [q for q in data if q.size >= BURST_PAGES
            and "burst" in fns(out, q)], data


def test_stacks_not_inlined_without_inline_info(ws):
    """--read-inline-info=no: the -O2 build's stack has no inline line,
    the burst is attributed to spike()."""
    out = ws([wslib.prog("spike_o2"), "spike"],
             "--read-inline-info=no").output
    (p,) = kind_peaks(out, "data")
    assert [(w.inline, w.function) for w in out.stacks[p.stack]] == [
        (False, "spike"), (False, "main")]


def test_forked_child_has_its_own_peaks(tmp_path):
    """spike fork: the parent's burst, then a fork and the child's burst.
    Each file holds its own peaks and stacks: the parent's data peak is its
    burst from main's first call, the child's its own from the child's
    call; the largest samples are each file's own."""
    cmd = wslib.ws_command([wslib.prog("spike"), "fork"], [],
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err[-3000:]
    files = {}
    for name in os.listdir(tmp_path):
        out = wslib.read_output(str(tmp_path / name))
        files[int(out.header["pid"])] = (int(out.header["ppid"]), out)
    assert len(files) == 2, files
    (child,) = [pid for pid, (ppid, _) in files.items() if ppid in files]
    (parent,) = [pid for pid in files if pid != child]
    for pid, marker in ((parent, "main: calls spike"),
                        (child, "child: calls spike")):
        out = files[pid][1]
        data = [q for q in kind_peaks(out, "data") if "largest" in q.why]
        assert len(data) == 1 and data[0].size >= BURST_PAGES, out.peaks
        stack = out.stacks[data[0].stack]
        assert [w.function for w in stack] == ["burst", "spike", "main"]
        assert stack[2].location == "spike.c:%d" % marker_line(SPIKE_SRC,
                                                               marker)
        assert min(out.stacks) == 1
        largest = max(s.data for s in out.samples)
        assert data[0].size == largest
    if True:       # the parent's detector is the model's
        check_model(files[parent][1])
    counts = sorted(stderr_peaks(m.group(0)) for m in re.finditer(
        r"==\d+== Peaks: .*", err))
    assert counts == sorted((files[pid][1].npeaks, files[pid][1].found)
                            for pid in files), err


def test_pageramp_tops(ws):
    """Each ramp of pageramp rises from 0 to 512 data pages and falls back;
    the detector flags the tops (about a standard deviation above the
    lagging average).  With --ws-peaks=20 every detected data peak is
    listed: each within 10 % of its ramp's largest sample (a run may end
    before the top), at least 8 of the 10 ramps with one, none with two;
    their stacks name the code that touches the pages."""
    r = ws([PAGERAMP], "--ws-peaks=20", "--ws-instr-atstart=no")
    out = r.output
    check_model(out, npeaks=20)
    # (the final sample at exit, whose window reaches back into the last
    # descent, is left out)
    regular = [s for s in out.samples if s.t not in out.finals]
    ramps = wslib.runs_of(regular, lambda s: s.data >= 100)
    assert len(ramps) == 10, wslib.show(out.samples)
    seen = set()
    for p in kind_peaks(out, "data"):
        if "detected" not in p.why:
            continue
        (i, ramp), = [(i, rr) for i, rr in enumerate(ramps)
                      if rr[0].t <= p.t <= rr[-1].t]
        top = max(s.data for s in ramp)
        assert p.size >= 0.9 * top, (p, top)
        assert i not in seen, ("two peaks in ramp %d" % i, out.peaks)
        seen.add(i)
        assert fns(out, p) == ["touch_pages", "ramps", "main"], \
            out.stacks[p.stack]
    assert len(seen) >= 8, (sorted(seen), out.peaks)


# ----------------------------------------------------------------------
# Final samples

# endburst's final windows: at least 3T long (below)
BURST_TAU = "--ws-tau=400000"


@pytest.mark.parametrize("build", ["endburst", "endburst_o2"])
def test_burst_before_exit_is_a_final_sample(ws, build):
    """A burst of 2,000 pages in the last ~10,000 instructions before main
    returns: no sample comes due after it, the final sample at exit holds
    it, and it is the largest data peak, its stack final_burst <- main
    (an inline line at -O2), final_burst the program's own line.  tau =
    4T: a final window starts where an epoch began at or after t - tau
    (every T), so it is at least 3T long and holds the whole burst
    wherever the last sample fell (with tau = T it would hold only what
    came after that sample)."""
    r = ws([wslib.prog(build), "exit", "2000"], BURST_TAU)
    out = r.output
    check_model(out)
    exits = [e.t for e in out.events if e.kind == "thread-exit"]
    (t,) = list(out.finals)
    assert [t] == exits[-1:], (out.finals, exits)
    wslib.check_final_windows(out)
    assert 300000 < out.final_windows[t] <= 400000, out.final_windows
    last = out.samples[-1]
    assert last.t == t and last.data >= 2000
    assert max(s.data for s in out.samples[:-1]) < 200
    (p,) = [q for q in kind_peaks(out, "data") if "largest" in q.why]
    assert (p.t, p.size) == (t, last.data) and p.origin == "rise"
    assert own(out, p).function == "final_burst", out.stacks[p.stack]
    assert fns(out, p)[-1] == "main"
    assert own(out, p).location == "endburst.c:%d" % marker_line(
        src("endburst.c"), "final_burst: touch")
    anon = sum(n for n, o in p.owners if o.kind == "anon")
    assert anon >= 2000, p.owners


def test_burst_before_ws_stop_is_the_regions_peak(ws):
    """The same burst just before WS_STOP in a region marked "burst"
    (--ws-instr-atstart=no): the final sample at the stop holds it, the
    region's data peak is that sample, listed as the region's largest;
    the 2,000 pages touched after the stop are not measured."""
    r = ws([wslib.prog("endburst"), "stop", "2000"],
           "--ws-instr-atstart=no", BURST_TAU)
    out = r.output
    check_model(out)
    stops = [e.t for e in out.events if e.kind == "stop"]
    assert list(out.finals) == stops and len(stops) == 1
    final = out.finals[stops[0]]
    assert final.data >= 2000
    region = out.regions["burst"]
    assert region[3][1] == final.data          # data peak of the region
    (p,) = [q for q in kind_peaks(out, "data") if q.regions == ["burst"]]
    assert (p.t, p.size) == (final.t, final.data)
    assert own(out, p).function == "final_burst"
    assert out.summary["data"][2] < 2000 + 200      # not the later 2,000


def test_burst_before_a_fatal_signal(tmp_path):
    """The same burst, then SIGSEGV: the process dies of the signal (as it
    does without Valgrind), and the final sample, taken as Valgrind ends,
    holds the burst."""
    out_path = str(tmp_path / "ws.out")
    run = wslib.run_ws([wslib.prog("endburst"), "fatal", "2000"],
                       (BURST_TAU,), out_path=out_path, check=False)
    assert run.returncode == -signal.SIGSEGV, run.stderr[-2000:]
    out = run.output
    check_model(out)
    (t,) = list(out.finals)
    assert out.samples[-1].t == t and out.samples[-1].data >= 2000
    (p,) = [q for q in kind_peaks(out, "data") if "largest" in q.why]
    assert own(out, p).function == "final_burst"


def test_run_shorter_than_t_has_its_final_sample(ws):
    """A run shorter than T (T = 10^9 instructions) has exactly one
    sample, its final one at exit, and it is the largest of each kind:
    the summary's peaks are that sample's sizes."""
    out = ws([wslib.prog("touch"), "100", "st,0,100,4096,1,1000"],
             "--ws-every=1000000000",
             "--ws-tau=1000000000").output
    (s,) = out.samples
    assert list(out.finals) == [s.t]
    exits = [e.t for e in out.events if e.kind == "thread-exit"]
    assert exits == [s.t]
    assert out.summary["insn"][1] == s.insn and out.summary["data"][1] == \
        s.data >= 100
    assert [(p.kind, p.t, p.size, p.why) for p in out.peaks] == [
        ("insn", s.t, s.insn, ["largest"]), ("data", s.t, s.data,
                                             ["largest"])]


def test_measurement_never_on_has_no_sample(ws):
    """--ws-instr-atstart=no and no WS_START: nothing was measured, so no
    sample, not even a final one, and no peak; the file is complete."""
    r = ws([wslib.prog("touch"), "100", "st,0,100,4096,1,1000"],
           "--ws-instr-atstart=no")
    out = r.output
    assert out.samples == [] and out.finals == {} and out.peaks == []
    assert out.complete and out.npeaks == 0 and out.found == 0
    assert out.summary == {"insn": (0.0, 0, 0), "data": (0.0, 0, 0)}
    assert "Peaks: 0 (the detector found 0)" in r.stderr


# ----------------------------------------------------------------------
# A memset's spike, a vector's growth

def test_memset_spike_names_its_function(ws):
    """memspike: a memset of 3,000 pages in clear_table() three times, in
    a working set jittering between 50 and 190 pages.  glibc's memset does
    it with rep stosb: one instruction (--ws-count-rep=once), so each
    memset's 3,000 pages fall in one sample, a data peak of at least
    3,000 pages whose stack's own line is clear_table(), memset's frame
    before it.  Only those three data peaks are flagged."""
    r = ws([wslib.prog("memspike"), "3000"])
    out = r.output
    check_model(out)
    big = [p for p in kind_peaks(out, "data") if p.size >= 3000]
    assert len(big) == 3, out.peaks
    line = marker_line(src("memspike.c"), "clear_table: memset")
    for p in big:
        assert "detected" in p.why and p.origin == "rise", p
        assert own(out, p).function == "clear_table", out.stacks[p.stack]
        assert own(out, p).location == "memspike.c:%d" % line
        assert "memset" in fns(out, p)[p.own - 1], out.stacks[p.stack]
        heap = [n for n, o in p.owners if o.kind == "heap"]
        assert heap and heap[0] >= 3000, p.owners
    assert len([p for p in kind_peaks(out, "data")
                if "detected" in p.why]) == 3
    # counted per iteration, as lackey does, the same memsets spread over
    # 36 million "instructions" and no sample holds them
    each = ws([wslib.prog("memspike"), "3000"], "--ws-count-rep=each").output
    assert max(s.data for s in each.samples) < 1000


def test_vector_growth_names_new_and_freed_buffers(ws):
    """vecgrow 262144: the last push_back moves 1 MiB of ints into a new
    2 MiB buffer (memmove by rep movsb: one instruction).  The largest data
    sample holds both buffers: the new one live, the old one freed by
    then, both named by their allocation stack (operator new's caller:
    std::vector<int>::_M_realloc_insert ... grow ... main, demangled), the
    same stack for both; the peak's own line is grow(), where the
    program's source calls push_back."""
    out = ws([wslib.prog("vecgrow"), "262144"]).output
    check_model(out)
    (p,) = [q for q in kind_peaks(out, "data") if "largest" in q.why]
    owners = {o.kind: (n, o) for n, o in p.owners}
    assert "heap" in owners and "freed" in owners, p.owners
    assert owners["heap"][0] >= 256 and owners["freed"][0] >= 256
    assert owners["heap"][1].stack == owners["freed"][1].stack
    alloc = [w.function for w in out.stacks[owners["heap"][1].stack]]
    assert any("std::vector<int, std::allocator<int> >::_M_realloc_insert"
               in f for f in alloc), alloc
    assert any("grow(std::vector<int, std::allocator<int> >&, long)" in f
               for f in alloc), alloc
    assert alloc[-1] == "main"
    assert "grow(" in own(out, p).function
    assert own(out, p).location == "vecgrow.cc:%d" % marker_line(
        src("vecgrow.cc"), "grow: push_back")


def test_data_symbols_demangled(ws):
    """vecgrow's idle() reads a static table of its own: its hot pages are
    named by the demangled symbol, (anonymous namespace)::idle(...)::table,
    not _ZZN12_GLOBAL__N_1..."""
    out = ws([wslib.prog("vecgrow"), "4096"]).output
    names = [h.owner.name for h in out.hot["data"]
             if h.owner.kind == "global"]
    assert any(re.match(r"\(anonymous namespace\)::idle\(.*\)::table\Z", n)
               for n in names), names
    assert not [n for n in names if n.startswith("_Z")], names


def test_page_named_by_the_bytes_accessed(ws):
    """owntwo: a small global first in a page and a large one after it, in
    the same page (checked with nm); the program reads only the large one,
    so the page is the large global's, not the first symbol's."""
    prog = wslib.prog("owntwo")
    nm = subprocess.run(["nm", prog], capture_output=True, text=True,
                        check=True).stdout
    addr = {l.split()[2]: int(l.split()[0], 16) for l in nm.splitlines()
            if len(l.split()) == 3 and l.split()[2] in ("first_small",
                                                       "then_large")}
    assert addr["first_small"] >> 12 == addr["then_large"] >> 12, addr
    assert addr["first_small"] % 4096 == 0 < addr["then_large"] % 4096
    out = ws([prog]).output
    # the two pages then_large reaches, its first the page first_small
    # begins (the program is position-independent: nm gives offsets)
    mine = sorted((h.addr, h.owner.kind, h.owner.name) for h in
                  out.hot["data"] if h.owner.kind == "global"
                  and h.owner.name in ("first_small", "then_large"))
    assert [(k, n) for _, k, n in mine] == [("global", "then_large")] * 2, \
        mine
    assert mine[1][0] - mine[0][0] == 4096
    assert mine[0][0] % 4096 == addr["first_small"] % 4096 == 0


def test_stacks_end_at_the_real_stack_end(ws):
    """No frame past the outermost one: every frame of every stack lies in
    code (it has a function name or an object), none is one of the
    values beyond the dynamic linker's entry (argc, argv, environment).
    The start-up's peaks (the dynamic linker's relocations) used to end in
    "frame 0x2 ??? ???" and addresses on the stack."""
    out = ws([wslib.prog("spike"), "spike"], "--ws-peaks=50",
             "--ws-peak-window=2").output
    assert out.stacks
    for sid, stack in out.stacks.items():
        for w in stack:
            assert not (w.location == "???" and w.function == "???"), (
                sid, stack)


# ----------------------------------------------------------------------
# The rules at their boundaries: exact working sets from tests/progs/steps
# (--ws-instr-atstart=no, a window of 2 samples: after 60 samples of the
# same size its mean is exactly that size and its variance nil)

def steps(ws, phases, *options):
    out = ws([wslib.prog("steps"), str(T)] + phases,
             "--ws-instr-atstart=no", "--ws-peak-window=2",
             *options).output
    return out


def data_whys(out):
    return [(p.size, p.why) for p in kind_peaks(out, "data")]


def test_record_moves_at_exactly_one_sixteenth(ws):
    """A run flagged at 320 pages goes on to 340 = 320 + 320/16: its
    record moves there (one peak, the largest, detected); to 339 it does
    not (the detected peak stays at 320; 339 is the largest).  From 321,
    341 is not enough (1/16 is rounded up)."""
    out = steps(ws, ["20:60", "320:1", "340:1", "20:5"])
    check_model(out, window=2)
    assert [s.data for s in out.samples[59:63]] == [20, 320, 340, 163]
    assert data_whys(out) == [(340, ["largest", "detected"])]
    out = steps(ws, ["20:60", "320:1", "339:1", "20:5"])
    check_model(out, window=2)
    assert data_whys(out) == [(320, ["detected"]), (339, ["largest"])]
    assert out.found == 1
    # 1/16 of 321 is rounded up: 321 + 21 = 342 would move it, 341 does not
    out = steps(ws, ["20:60", "321:1", "341:1", "20:5"])
    check_model(out, window=2)
    assert [s.data for s in out.samples[59:62]] == [20, 321, 341]
    assert data_whys(out) == [(321, ["detected"]), (341, ["largest"])]


def test_minimum_rise_is_exactly_16_kib(ws):
    """Four pages steady (threshold: half the mean, 2 pages), then a
    sample of 8: a rise of 4 pages = 16 KiB, flagged; of 7 (3 pages, above
    the threshold but below 16 KiB): not flagged."""
    out = steps(ws, ["4:60", "8:1", "4:5"])
    check_model(out, window=2)
    assert [s.data for s in out.samples[59:61]] == [4, 8]
    assert data_whys(out) == [(8, ["largest", "detected"])]
    out = steps(ws, ["4:60", "7:1", "4:5"])
    check_model(out, window=2)
    assert data_whys(out) == [(7, ["largest"])] and out.found == 0


def test_threshold_is_strict(ws):
    """Ten pages steady: the threshold is 5 * 10/10 = 5 pages exactly; a
    sample 5 pages up is not flagged, 6 up is."""
    out = steps(ws, ["10:60", "16:1", "10:5"])
    check_model(out, window=2)
    assert data_whys(out) == [(16, ["largest", "detected"])]
    out = steps(ws, ["10:60", "15:1", "10:5"])
    check_model(out, window=2)
    assert data_whys(out) == [(15, ["largest"])] and out.found == 0


def test_warm_up_is_five_samples(ws):
    """A burst at the sixth sample is flagged, at the fifth it is not."""
    out = steps(ws, ["20:5", "320:1", "20:5"])
    check_model(out, window=2)
    assert out.samples[5].data == 320
    assert data_whys(out) == [(320, ["largest", "detected"])]
    out = steps(ws, ["20:4", "320:1", "20:5"])
    check_model(out, window=2)
    assert out.samples[4].data == 320
    assert data_whys(out) == [(320, ["largest"])] and out.found == 0


def test_ws_peaks_keeps_exactly_n(ws):
    """Three bursts (300, 400, 350 pages), all flagged: --ws-peaks=2 lists
    the largest (400) and the more prominent of the others (350), in that
    order; --ws-peaks=3 all three; the count found is 3 either way."""
    phases = ["20:60", "300:1", "20:20", "400:1", "20:20", "350:1", "20:20"]
    out = steps(ws, phases, "--ws-peaks=2")
    check_model(out, window=2, npeaks=2)
    assert data_whys(out) == [(400, ["largest", "detected"]),
                              (350, ["detected"])]
    assert out.found == 3
    out = steps(ws, phases, "--ws-peaks=3")
    check_model(out, window=2, npeaks=3)
    assert [s for s, _ in data_whys(out)] == [400, 350, 300]


def test_largest_is_the_first_of_equal_samples(ws):
    """Two bursts of exactly 300 pages: the first is the largest sample."""
    out = steps(ws, ["20:60", "300:1", "20:20", "300:1", "20:20"])
    check_model(out, window=2)
    first, second = [s for s in out.samples if s.data == 300]
    (p,) = [p for p in kind_peaks(out, "data") if "largest" in p.why]
    assert p.t == first.t


# ----------------------------------------------------------------------
# Real programs

def real_programs(tmp_path):
    """(name, argv, stdin path or None, environment or None)"""
    words = " ".join("word%d" % (i * 7919 % 1000) for i in range(40000))
    text = tmp_path / "input.txt"
    text.write_text(words)
    sql = tmp_path / "script.sql"
    sql.write_text("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);\n"
                   "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 "
                   "FROM n WHERE i<20000) INSERT INTO t SELECT i, "
                   "printf('row%06d', (i*7919)%20000) FROM n;\n"
                   "CREATE INDEX tb ON t(b);\n"
                   "SELECT count(*) FROM t WHERE b LIKE 'row001%';\n")
    progs = [("xz", ["xz", "-9", "-T1", "-c", str(text)], None, None),
             ("sqlite3", ["sqlite3", ":memory:"], str(sql), None),
             ("python3", ["/usr/bin/python3", "-S", "-c",
                          "d = {i: str(i) for i in range(20000)}; "
                          "print(sorted(d.values())[:3])"], None,
              dict(os.environ, PYTHONHASHSEED="0")),
             ("sort", ["sort", str(text)], None, None)]
    if os.path.isdir(os.path.join(wslib.TOP_SRCDIR, ".git")):
        progs.append(("git", ["git", "-C", wslib.TOP_SRCDIR, "log",
                              "--oneline", "-n", "2000", "--stat"], None,
                      None))
    return progs


def test_real_programs_peaks(tmp_path):
    """xz, sqlite3, python3, sort and git log: at most --ws-peaks (10) peaks
    of each kind, the largest sample of each kind among them with a stack,
    and the model agrees; no stack runs past its real end."""
    for name, argv, stdin, env in real_programs(tmp_path):
        path = shutil.which(argv[0]) or argv[0]
        assert os.access(path, os.X_OK), "%s is not installed" % argv[0]
        f = open(stdin, "rb") if stdin else subprocess.DEVNULL
        try:
            run = wslib.run_ws([path] + argv[1:], (), stdin=f, env=env,
                               stdout=subprocess.DEVNULL,
                               out_path=str(tmp_path / ("ws." + name)))
        finally:
            if stdin:
                f.close()
        out = run.output
        check_model(out)
        for kind in ("insn", "data"):
            mine = kind_peaks(out, kind)
            assert 1 <= len(mine) <= 10, (name, kind, mine)
            largest = max(getattr(s, kind) for s in out.samples)
            (p,) = [q for q in mine if "largest" in q.why]
            assert p.size == largest and out.stacks[p.stack], (name, p)
        # cut at the real end: the outermost frame is code some object
        # names.  A frame inside may be an address in an anonymous
        # executable mapping, which nothing names ("??? ???"): seen once
        # in git's stacks, between two of git's own frames, depending on
        # when samples fell (docs/manual.md, Peaks)
        for stack in out.stacks.values():
            w = stack[-1]
            assert not (w.location == "???" and w.function == "???"), (
                name, stack)


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


_PEAK_HEAD = re.compile(r"  (insn|data) peak ([0-9]+) of ([0-9]+): ([0-9]+) "
                        r"pages? at t=([0-9]+), ([0-9]+) above a baseline of "
                        r"([0-9]+) \(([a-z,]+)\)\Z")


def parse_peaks_reply(text):
    """The reply to `ws peaks`: (reported, found, [(kind, size, t, why,
    [lines under it])])."""
    lines = text.rstrip("\n").split("\n")
    m = re.match(r"ws peaks at t=([0-9]+): ([0-9]+) peaks? \(the detector "
                 r"found ([0-9]+)\)\Z", lines[0])
    assert m, text
    assert lines[1].startswith("  (of each kind the largest sample"), text
    peaks = []
    for line in lines[2:]:
        h = _PEAK_HEAD.match(line)
        if h:
            peaks.append((h.group(1), int(h.group(4)), int(h.group(5)),
                          h.group(8).split(","), []))
        else:
            assert peaks and line.startswith("    "), (line, text)
            peaks[-1][4].append(line)
    return int(m.group(2)), int(m.group(3)), peaks


def test_vgdb_peaks(server):
    """`ws peaks` lists the peaks as the file will (when nothing comes
    after): kind, size, time, reasons, the stack where the working set
    rose with the program's own line marked, the owners; `ws status`
    counts them."""
    for _ in range(3):
        _steady(server)
        _burst(server)
    _steady(server)
    reply = server.vgdb("ws peaks")
    n, found, peaks = parse_peaks_reply(reply)
    assert server.status()["peaks"] == n == len(peaks)
    assert found >= 3
    data = [p for p in peaks if p[0] == "data"]
    assert data and data[0][1] >= 1500, reply
    body = "\n".join(data[0][4])
    assert "the working set rose here:" in body, body
    assert "ctl_server_touch" in body and "by owner:" in body, body
    assert server.finish() == 0
    out = server.output()
    check_model(out)
    # the bursts' peaks in the file are those of the reply (the exit adds
    # nothing larger)
    file_data = [(p.size, p.t) for p in kind_peaks(out, "data")]
    assert [(p[1], p[2]) for p in data] == file_data[:len(data)]


def test_vgdb_set_peak_thresh(server):
    """ws set peak-thresh and v.clo --ws-peak-thresh: a good value answers,
    is recorded as an event and takes effect (at 1000 a burst is not
    flagged, back at 5 it is); a bad one answers one line and changes
    nothing."""
    _steady(server)
    st = server.status()
    t0 = st["time"]
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
    t1 = server.status()["time"]
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
    out = server.output()
    check_model(out)
    flagged = [p for p in kind_peaks(out, "data") if "detected" in p.why]
    assert [p.t > t1 for p in flagged] == [True], out.peaks
