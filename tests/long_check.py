"""Long runs (issue 7, item 4), for `make check-long` only (about 90
seconds on an idle machine; `make check` does not collect this file,
whose name does not start with test_).

touch writes one byte to each of 100 pages, sweep after sweep, for 10^9
and then 10^10 instructions with the default T = 100000: about 10,000 and
100,000 samples.  ws's memory must stay flat: the peak RSS of the
Valgrind process (tool and program) of the long run within 5 % of the
short run's.  The output file must grow linearly with the samples: apart
from the sample lines, the files are the same size to within a few bytes
(header and trailer), and a sample line is at most one byte longer on
average (one more digit in t).
"""

import os
import subprocess

import wslib

T = 100000


def _run(tmp_path, insns):
    touch = wslib.prog("touch")
    wslib.require_built(touch)
    path = str(tmp_path / ("ws.%d.out" % insns))
    cmd = wslib.ws_command([touch, "100", "st,0,100,4096,10,%d" % insns],
                           (), path)
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    assert os.waitstatus_to_exitcode(status) == 0, err[-3000:]
    run = wslib.WsRun(cmd, 0, "", err, path)
    wslib.check_trailer(run)
    with open(path, "rb") as f:
        data = f.read()
    sample_bytes = sum(len(l) + 1 for l in data.split(b"\n")
                       if l[:1].isdigit())
    return run.output, usage.ru_maxrss, len(data), sample_bytes


def test_long_run_memory_flat_and_file_linear(tmp_path):
    out9, rss9, size9, sb9 = _run(tmp_path, 10 ** 9)
    out10, rss10, size10, sb10 = _run(tmp_path, 10 ** 10)
    n9, n10 = len(out9.samples), len(out10.samples)
    print("10^9: %d samples, %d kB peak RSS, %d bytes; "
          "10^10: %d samples, %d kB, %d bytes"
          % (n9, rss9, size9, n10, rss10, size10))
    # the loop takes insns to within a sweep, start-up ~130,000 more
    assert abs(n9 - 10 ** 9 // T) <= 3, n9
    assert abs(n10 - 10 ** 10 // T) <= 3, n10
    ins9 = [s for s in out9.samples if s.insn == 1]
    ins10 = [s for s in out10.samples if s.insn == 1]
    assert len(ins9) >= n9 - 3 and {s.data for s in ins9} == {100}
    assert len(ins10) >= n10 - 3 and {s.data for s in ins10} == {100}
    assert abs(rss10 - rss9) <= 0.05 * rss9, (
        "peak RSS %d kB at 10^10 instructions, %d kB at 10^9"
        % (rss10, rss9))
    # linear: size = fixed part + samples * bytes per sample line; the
    # fixed part's numbers grow by a digit at most: the trailer's sums
    # and each hot page's access count (ten times as many accesses)
    hot = len(out10.hot["insn"]) + len(out10.hot["data"])
    assert abs((size10 - sb10) - (size9 - sb9)) <= 16 + hot, (
        size10 - sb10, size9 - sb9)
    per9, per10 = sb9 / n9, sb10 / n10
    assert per9 <= per10 <= per9 + 1.0, (per9, per10)
