"""The output file (docs/output-format.md, version 1) and the stderr summary.

The first tests check the reader itself (tests/wslib.py) on hand-written
files: it must accept the grammar and refuse anything else, or the other
tests could pass on a malformed file.  The rest check files ws writes.
"""

import os
import re
import signal
import subprocess
import time

import pytest

import wslib

T = 100000

GOOD = """\
ws-output-format: 2
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatever: with colons
columns: t insn data
event 0 thread-start 1
# a comment
1003 2 5
event 1500 mark phase two
dump-begin 1500
dump-page insn 0x10b000 1000
dump-page data 0x4a2c000 1003
dump-page data 0x4a2d000 0
dump-end 1 2
2000 3 7
event 2500 thread-exit 1
region 2 1 insn 3.0 3 4 data 7.0 7 9 label phase two
summary insn 2.5 3 4
summary data 6.0 7 9
samples 2
end
"""


def test_reader_accepts_good_file():
    out = wslib.parse_output(GOOD)
    assert out.complete
    assert out.header["command"] == "./prog a b"
    assert out.header["some-future-key"] == "whatever: with colons"
    assert [(s.t, s.insn, s.data) for s in out.samples] == [(1003, 2, 5),
                                                              (2000, 3, 7)]
    assert [(e.t, e.kind, e.args) for e in out.events] == [
        (0, "thread-start", ["1"]), (1500, "mark", ["phase", "two"]),
        (2500, "thread-exit", ["1"])]
    assert [(d.t, d.pages) for d in out.dumps] == [
        (1500, [("insn", 0x10b000, 1000), ("data", 0x4a2c000, 1003),
                ("data", 0x4a2d000, 0)])]
    assert out.regions == {"phase two": (2, 1, (3.0, 3, 4), (7.0, 7, 9))}
    assert out.summary == {"insn": (2.5, 3, 4), "data": (6.0, 7, 9)}
    assert out.nsamples == 2
    # `end` may lack its newline (the grammar puts none after it)
    assert wslib.parse_output(GOOD.rstrip("\n")).complete


def test_reader_per_thread():
    text = GOOD.replace("per-thread: no", "per-thread: yes").replace(
        "columns: t insn data",
        "columns: t insn data shared {tid insn data}...")
    good = text.replace("1003 2 5", "1003 2 5 1 1 2 3 2 4 2").replace(
        "2000 3 7", "2000 3 7 0 1 3 7")
    out = wslib.parse_output(good)
    assert out.per_thread
    assert (out.samples[0].shared, out.samples[0].threads) == (
        1, {1: (2, 3), 2: (4, 2)})
    assert (out.samples[1].shared, out.samples[1].threads) == (0, {1: (3, 7)})
    for bad in ("1003 2 5", "1003 2 5 1", "1003 2 5 1 1 2",
                "1003 2 5 1 2 2 3 1 4 2", "1003 2 5 1 1 2 3 1 4 2"):
        with pytest.raises(wslib.FormatError):
            wslib.parse_output(good.replace("1003 2 5 1 1 2 3 2 4 2", bad))


@pytest.mark.parametrize("old,new,why", [
    ("ws-output-format: 2", "ws-output-format: 1", "older version"),
    ("ws-output-format: 2", "ws-output-format: 3", "unknown version"),
    ("ws-output-format: 2\n", "", "no version line"),
    ("instr-atstart: yes", "instr-atstart: maybe", "bad instr-atstart"),
    ("dump-end 1 2", "dump-end 1 3", "dump-end counts wrong"),
    ("dump-page data 0x4a2d000 0", "dump-page code 0x4a2d000 0",
     "unknown dump-page kind"),
    ("dump-page data 0x4a2d000 0", "dump-page data 4a2d000 0",
     "dump address without 0x"),
    ("dump-end 1 2\n", "", "dump without its end"),
    ("region 2 1 insn 3.0 3 4", "region 2 1 insn 3 3 4", "region avg"),
    ("label phase two", "label  phase two", "region label double space"),
    ("summary insn 2.5 3 4", "event 3000 mark x\nsummary insn 2.5 3 4",
     "an event after a region line"),
    ("pagesize: 4096\n", "", "a header key missing"),
    ("tau: 1000\npagesize: 4096", "pagesize: 4096\ntau: 1000", "key order"),
    ("time-unit: i", "time-unit: s", "bad time unit"),
    ("every: 1000", "every: 1e3", "non-integer every"),
    ("pagesize: 4096", "pagesize: 4000", "pagesize not a power of two"),
    ("columns: t insn data", "columns: t insn", "wrong columns"),
    ("1003 2 5", "1003 2", "too few columns"),
    ("1003 2 5", "1003 2 5 6", "too many columns"),
    ("1003 2 5", "1003  2 5", "double space"),
    ("1003 2 5", "1003 2 5 ", "trailing space"),
    ("1003 2 5", "1003 2 -5", "negative"),
    ("1003 2 5", "1003 2 5x", "junk in a sample"),
    ("2000 3 7", "1003 3 7", "time not increasing"),
    ("2000 3 7", "900 3 7", "time going back"),
    ("# a comment", "", "a blank line"),
    ("# a comment", "Event 5 x", "unknown keyword"),
    ("# a comment", "event x thread-start 1", "event without time"),
    ("event 2500 thread-exit 1", "event 2500 thread-exit", "event lacks tid"),
    ("event 2500 thread-exit 1", "event 1500 thread-exit 1",
     "event out of time order"),
    ("summary insn 2.5 3 4", "summary insn 2.50 3 4", "avg with 2 decimals"),
    ("summary insn 2.5 3 4", "summary insn 2 3 4", "avg without decimal"),
    ("summary insn 2.5 3 4", "summary code 2.5 3 4", "unknown summary kind"),
    ("samples 2\nend", "end", "no samples line"),
    ("samples 2\nend", "samples 2", "no end"),
    ("samples 2\nend\n", "samples 2\nend\n1 2 3\n", "a line after end"),
    ("summary data 6.0 7 9\n", "summary data 6.0 7 9\n3000 1 1\n",
     "a sample in the trailer"),
    ("tool: ws 0.1.0", "tool: valgrind", "tool is not ws"),
])
def test_reader_refuses(old, new, why):
    assert old in GOOD
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(GOOD.replace(old, new, 1))


def test_reader_cut_file():
    cut = GOOD[:GOOD.index("2000 3 7") + 4]          # "2000" without newline
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(cut)
    out = wslib.parse_output(cut, complete=False)
    assert not out.complete
    assert [s.t for s in out.samples] == [1003]
    # a cut file must still be well-formed in its complete lines
    with pytest.raises(wslib.FormatError):
        wslib.parse_output(cut.replace("1003 2 5", "1003 2"), complete=False)


def test_stderr_summary_reader():
    err = ("==77== Command: x\n==77== \n"
           "==77== Insn avg/peak/total: 2.1/40/57 pages (8/160/228 kB)\n"
           "==77== Data avg/peak/total: 348.5/534/1098 pages "
           "(1394/2136/4392 kB)\n"
           "==77== Samples: 12\n==77== Output file: /tmp/ws.out.77\n")
    s = wslib.parse_summary(err)
    assert s["insn"] == (2.1, 40, 57) and s["data"] == (348.5, 534, 1098)
    assert s["insn_kb"] == (8, 160, 228) and s["samples"] == 12
    assert s["output_file"] == "/tmp/ws.out.77" and s["pid"] == 77
    with pytest.raises(wslib.FormatError):
        wslib.parse_summary(err.replace("348.5/", "348.55/"))
    with pytest.raises(wslib.FormatError):
        wslib.parse_summary(err.replace("==77== Samples: 12\n", ""))


# ----------------------------------------------------------------------
# Files written by ws

PHASES = [wslib.prog("touch"), "650", "st,0,100,4096,10,2000000",
          "st,409600,500,4096,10,2000000", "st,2457600,50,4096,10,2000000"]


def test_output_file_of_a_run(ws):
    r = ws(PHASES)
    out = r.output
    h = out.header
    assert h["tool"].startswith("ws ")
    assert h["command"] == " ".join(PHASES)
    assert int(h["pid"]) == r.summary["pid"]      # the ==pid== of stderr
    assert int(h["ppid"]) > 0
    assert (h["time-unit"], out.every, out.tau, out.pagesize) == ("i", T, T,
                                                                  4096)
    assert (h["syscalls"], h["per-thread"]) == ("yes", "no")
    assert h["columns"] == "t insn data"
    # about 6,130,000 instructions: 61 samples
    assert 60 <= len(out.samples) <= 62, len(out.samples)
    wslib.check_sample_times(out)
    wslib.check_trailer(r)


def test_every_and_tau_other_than_default(ws):
    r = ws(PHASES, "--ws-every=30000", "--ws-tau=70000")
    out = r.output
    assert (out.every, out.tau) == (30000, 70000)
    assert 200 <= len(out.samples) <= 206, len(out.samples)
    wslib.check_sample_times(out)
    wslib.check_trailer(r)
    # phase of 500 pages: one sweep takes 12504 instructions < tau
    assert max(s.data for s in out.samples if s.insn == 1) == 500


def test_run_shorter_than_T(ws):
    """No sample at all: the trailer still says so, with the totals."""
    r = ws([wslib.prog("codepages"), "calls", "1000"], "--ws-every=100000000")
    out = r.output
    assert out.samples == [] and out.nsamples == 0
    assert out.summary["insn"][:2] == (0.0, 0)
    assert out.summary["data"][:2] == (0.0, 0)
    # ~156,000 instructions of start-up, main and 9 code pages of the loop
    assert out.summary["insn"][2] >= 9 + 1
    assert out.summary["data"][2] >= 1
    wslib.check_trailer(r)


def test_pid_in_file_name(ws, tmp_path):
    r = ws([wslib.prog("codepages"), "calls", "1000"],
           out_path=str(tmp_path / "w.%p.out"))
    pid = r.summary["pid"]
    path = tmp_path / ("w.%d.out" % pid)
    assert path.is_file(), os.listdir(tmp_path)
    assert r.summary["output_file"] == str(path)
    assert int(wslib.read_output(str(path)).header["pid"]) == pid


def test_env_var_in_file_name(ws, tmp_path):
    """%q{VAR} is the value of the environment variable VAR (as in
    Valgrind's --log-file)."""
    env = dict(os.environ, WS_TEST_NAME="abc")
    r = ws([wslib.prog("codepages"), "calls", "1000"],
           out_path=str(tmp_path / "w.%q{WS_TEST_NAME}.out"), env=env)
    path = tmp_path / "w.abc.out"
    assert path.is_file(), os.listdir(tmp_path)
    assert r.summary["output_file"] == str(path)
    assert wslib.read_output(str(path)).nsamples == 1


def test_out_file_alias(tmp_path):
    wslib.require_built(wslib.prog("codepages"))
    path = tmp_path / "alias.out"
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws",
                        "--ws-out-file=%s" % path,
                        wslib.prog("codepages"), "calls", "20000"],
                       cwd=tmp_path, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    out = wslib.read_output(str(path))
    # 20000 iterations of 26 instructions after ~130,000 of start-up
    assert out.complete and 6 <= len(out.samples) <= 7, out.samples
    assert (out.samples[-2].insn, out.samples[-2].data) == (9, 1)


def test_default_file_name(tmp_path):
    wslib.require_built(wslib.prog("codepages"))
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws",
                        wslib.prog("codepages"), "calls", "1000"],
                       cwd=tmp_path, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr.decode()
    summ = wslib.parse_summary(p.stderr.decode())
    name = "ws.out.%d" % summ["pid"]
    assert os.listdir(tmp_path) == [name]
    assert os.path.basename(summ["output_file"]) == name
    out = wslib.read_output(str(tmp_path / name))
    assert out.complete and int(out.header["pid"]) == summ["pid"]
    assert (out.every, out.tau, out.pagesize) == (100000, 100000, 4096)
    assert out.nsamples == summ["samples"] == len(out.samples) == 1


def test_time_unit_ms(tmp_path):
    """Milliseconds: about 200,000,000 instructions of a 10-page loop, which
    take one to a few seconds under ws, after start-up.  Samples every
    50 ms: t strictly increasing, at most one sample per multiple of 50 ms,
    never early, not later than the run itself lasted; in the loop most
    samples come at the multiples (within 10 ms: the loop reaches a
    superblock boundary every few microseconds; some slack for a busy
    machine that deschedules the process), and its windows (many
    sweeps of 10 pages each) hold 1 code page and 10 data pages."""
    T = 50
    argv = [wslib.prog("touch"), "20", "st,0,10,4096,10,200000000"]
    t0 = time.monotonic()
    r = wslib.run_ws(argv, ("--ws-time-unit=ms", "--ws-every=%d" % T),
                     out_path=str(tmp_path / "ws.out"))
    elapsed_ms = (time.monotonic() - t0) * 1000
    out = r.output
    assert (out.time_unit, out.every, out.tau) == ("ms", T, T)
    n = len(out.samples)
    assert n >= 10, out.samples
    multiples = [s.t // T for s in out.samples]
    assert all(a < b for a, b in zip(multiples, multiples[1:])), (
        "two samples for one multiple of T: %s" % wslib.show(out.samples))
    for k, s in enumerate(out.samples, 1):
        assert s.t >= T * k, "sample %d at %d ms, before %d" % (k, s.t, T * k)
    assert out.samples[-1].t <= elapsed_ms, (out.samples[-1].t, elapsed_ms)
    # the loop ran for most of the elapsed time: the samples cover it
    assert out.samples[-1].t >= elapsed_ms / 3, (out.samples[-1].t,
                                                  elapsed_ms)
    loop = [s for s in out.samples if (s.insn, s.data) == (1, 10)]
    assert len(loop) >= 0.6 * n, wslib.show(out.samples)
    punctual = [s for s in loop if s.t % T <= 10]
    assert len(punctual) >= 0.5 * len(loop), wslib.show(loop)
    wslib.check_trailer(r)


def _sample_lines(path):
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return 0
    return len(re.findall(r"^[0-9][0-9 ]*\n", text, re.M))


def test_killed_run_leaves_valid_file(tmp_path):
    """A run killed with SIGKILL after many samples: the header and every
    complete sample line parse, the samples are right, and there is no
    trailer.  blocker writes to 10 pages for ~6,000,000 instructions (60
    samples) and then blocks reading a pipe that this test holds open."""
    wslib.require_built(wslib.prog("blocker"))
    path = str(tmp_path / "ws.out")
    cmd = wslib.ws_command([wslib.prog("blocker"), "10", "6000000"], (), path)
    rd, wr = os.pipe()
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdin=rd,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(rd)
    try:
        # wait until the samples stop coming (the program blocks)
        deadline = time.monotonic() + 30
        last, stable = -1, 0
        while time.monotonic() < deadline:
            n = _sample_lines(path)
            stable = stable + 1 if n == last else 0
            last = n
            if n >= 55 and stable >= 5:
                break
            assert proc.poll() is None, "ws exited before it was killed"
            time.sleep(0.1)
        assert last >= 55, (
            "after the program ran ~6,000,000 instructions, the file has %d "
            "complete sample lines (samples must be written as they are "
            "taken)" % last)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(wr)
    with open(path) as f:
        text = f.read()
    out = wslib.parse_output(text, complete=False)
    assert not out.complete
    # the whole header is there (keys this reader does not know may be
    # mixed in: readers ignore them)
    assert [k for k in out.header if k in wslib.HEADER_KEYS] == list(
        wslib.HEADER_KEYS)
    assert len(out.samples) >= 55
    wslib.check_sample_times(out)
    loop = [s for s in out.samples if s.insn == 1]
    assert len(loop) >= 55 and {s.data for s in loop} == {10}, \
        wslib.show(out.samples)
