"""The program's environment and resources (issue 16 items 10, 11, 14).

- a program that unsets the variable %q{VAR} names in --ws-file (or
  --ws-out-file) and then forks: the child runs and exits 7 as it does
  natively (it was killed with "Bad option"); each process has its file,
  named with the value the variable had at start-up;
- with a fixed name, the child's "names the parent's file" line names the
  option as the user spelt it;
- write(pipe, buf, 2^40) on a 16-byte buffer: the program sees what it
  sees under --tool=none, and ws counts only mapped memory (it stamped
  2^28 pages and took 21 s).
"""

import os
import re
import subprocess

import pytest

import wslib

HANDS = wslib.prog("hands")


def run(tool, argv, tmp_path, opts=(), env=None):
    wslib.require_built(HANDS)
    return subprocess.run([wslib.VG_IN_PLACE, "--tool=" + tool] + list(opts)
                          + argv, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=300, env=env)


@pytest.mark.parametrize("option", ["--ws-file", "--ws-out-file"])
def test_unset_variable_then_fork(tmp_path, option):
    env = dict(os.environ, WS_TEST_RUN="abc")
    none = run("none", [HANDS, "unsetfork", "WS_TEST_RUN"], tmp_path,
               env=env)
    assert none.returncode == 0
    p = run("ws", [HANDS, "unsetfork", "WS_TEST_RUN"], tmp_path,
            [option + "=ws.%q{WS_TEST_RUN}.%p.out",
             "--ws-miss-file=miss.%q{WS_TEST_RUN}.%p"], env=env)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert "Bad option" not in err
    names = sorted(os.listdir(str(tmp_path)))
    outs = [n for n in names if re.match(r"ws\.abc\.[0-9]+\.out\Z", n)]
    misses = [n for n in names if re.match(r"miss\.abc\.[0-9]+\Z", n)]
    assert len(outs) == 2 and len(misses) == 2, names
    pids = set()
    for n in outs:
        out = wslib.read_output(str(tmp_path / n))
        assert out.complete
        pids.add(out.header["pid"])
    assert {n.split(".")[2] for n in outs} == pids


def test_child_message_names_the_option_as_spelt(tmp_path):
    p = run("ws", [HANDS, "forkwork"], tmp_path,
            ["--ws-out-file=fixed.out", "--ws-miss-file=fixed.miss"])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert err.count("ws: --ws-out-file=fixed.out names the parent's file; "
                     "this child writes no output file (use %p)") == 1, err
    assert err.count("ws: --ws-miss-file=fixed.miss names the parent's file;"
                     " this child writes no miss profile (use %p)") == 1, err
    assert "--ws-file=" not in err
    assert wslib.read_output(str(tmp_path / "fixed.out")).complete


def test_write_of_a_terabyte(tmp_path):
    none = run("none", [HANDS, "bigwrite"], tmp_path)
    p = run("ws", [HANDS, "bigwrite"], tmp_path, ["--ws-file=ws.out"])
    assert p.returncode == none.returncode == 0, p.stderr.decode()
    assert p.stdout == none.stdout
    out = wslib.read_output(str(tmp_path / "ws.out"))
    # hands touches a few hundred pages in all (code, libc, its stack);
    # the write may count the rest of the mapping its buffer is in (the
    # stack: 8 MB at most), not 2^40 bytes
    assert out.summary["data"][2] < 4000, out.summary
