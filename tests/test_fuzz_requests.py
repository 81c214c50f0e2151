"""Random sequences of what a program can do to ws, every file parsed
strictly (issue 16 item 5).

tests/progs/fuzz_requests SEED STEPS performs, in an order drawn from
SEED: WS_START, WS_STOP, WS_MARK and WS_DUMP with hard labels (blanks,
control characters, backslashes, UTF-8 and bytes of none, 300 bytes,
"event 5 mark injected") and bad pointers (NULL, unmapped, past the end of
a file mapping), the WS_CURRENT_* requests, monitor commands from inside
(dump to files, to the output file, to a missing folder; set with good
and bad values; hot, series, peaks, mark, start, stop, help, nonsense),
VALGRIND_CLO_CHANGE, malloc/free, mmap/munmap, threads doing the same,
forked children doing the same (two levels), and execs of itself.  Each
seed runs with another set of options (per-thread columns, tracing
children, the interval).

Every run must exit 0 as natively, and every file it leaves must parse:
each output file strictly and complete (tests/wslib.py) and by ws_print,
each dump file by its grammar, each miss profile by KCachegrind's rules
and by callgrind_annotate.  The seeds are fixed, so a failure
reproduces: `make check PYTEST_FLAGS='-k "fuzz_requests and 17"'`.
"""

import os
import re
import subprocess

import pytest

import test_miss_readers
import wslib

FUZZ = wslib.prog("fuzz_requests")
PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")

# (seed, steps, options): per-thread columns on odd seeds, children
# traced on seeds divisible by 3, the interval from the seed
SEEDS = [1, 2, 3, 5, 8, 13, 17, 42, 99, 2026]


def options(seed, tmp_path):
    opts = ["--ws-file=" + str(tmp_path / "ws.%p.out"),
            "--ws-miss-file=" + str(tmp_path / "miss.%p"),
            "--ws-every=%d" % (1000 + 997 * (seed % 7)),
            "--ws-per-thread=" + ("yes" if seed % 2 else "no")]
    if seed % 3 == 0:
        opts.append("--trace-children=yes")
    return opts


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_requests(tmp_path, seed):
    wslib.require_built(FUZZ, PRINT)
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws"]
                       + options(seed, tmp_path) + [FUZZ, str(seed), "150"],
                       cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=600)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err[-5000:]
    # (a refused VALGRIND_CLO_CHANGE says "Bad option" and goes on)
    for bad in ("impossible", "Valgrind's memory management",
                "Process terminating"):
        assert bad not in err, err[-5000:]
    names = sorted(os.listdir(str(tmp_path)))
    outs = [n for n in names if re.match(r"ws\.[0-9]+\.out(\.exec[0-9]+)?\Z",
                                         n)]
    assert outs, names
    summaries = re.findall(r"^==[0-9]+== Insn avg/peak/total", err, re.M)
    assert len(summaries) == len(outs), (names, err[-3000:])
    for n in outs:
        path = str(tmp_path / n)
        out = wslib.read_output(path)
        assert out.complete, n
        run = wslib.WsRun([], 0, "", wslib.file_stderr(
            err, out.header["pid"], path), path)
        run._output = out
        wslib.check_trailer(run)
        r = subprocess.run([PRINT, path], capture_output=True, timeout=120)
        assert r.returncode == 0, (n, r.stderr.decode())
    for n in names:
        if n.startswith("d."):
            with open(str(tmp_path / n), encoding="utf-8") as f:
                wslib.parse_dump_file(f.read())
        elif n.startswith("miss."):
            path = str(tmp_path / n)
            kc, spec, _ = test_miss_readers.read_like_kcachegrind(path)
            assert kc == spec, n
            r = subprocess.run(["callgrind_annotate", path],
                               capture_output=True, timeout=120)
            assert r.returncode == 0, (n, r.stderr.decode())
