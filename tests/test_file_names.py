"""Output file names: `%n` in --ws-file, its alias --ws-out-file and
--ws-miss-file, expanded as Valgrind expands --log-file's (docs/manual.md,
Options): a sequence number unique in the process, counted over every
name the process expands, Valgrind's own --log-file first; a forked
child counts from 1 again, so a name with `%n` but without `%p` names the
parent's file there, and the child writes none (and says so once).
"""

import os
import re
import subprocess

import pytest

import wslib

TOUCH = wslib.prog("touch")
# a short run of the touch program: 4 pages stored to, 20,000 instructions
TOUCH_ARGS = [TOUCH, "4", "st,0,4,4096,1,20000"]


def _run(tmp_path, argv, options):
    wslib.require_built(argv[0])
    cmd = [wslib.VG_IN_PLACE, "--tool=ws"] + options + argv
    p = subprocess.run(cmd, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err[-3000:]
    return err


@pytest.mark.parametrize("option", ["--ws-file", "--ws-out-file"])
def test_percent_n_is_a_sequence_number(tmp_path, option):
    err = _run(tmp_path, TOUCH_ARGS, [option + "=ws.%n.out"])
    assert sorted(os.listdir(str(tmp_path))) == ["ws.1.out"]
    summary = wslib.parse_summary(err)
    assert summary["output_file"] == str(tmp_path / "ws.1.out")
    out = wslib.read_output(str(tmp_path / "ws.1.out"))
    assert out.nsamples == summary["samples"]


def test_percent_n_counts_every_name_of_the_process(tmp_path):
    """Valgrind expands --log-file before the tool starts: 1; ws's two
    files get 2 and 3, one each (which gets which is ws's order of
    opening, not a promise)."""
    err = _run(tmp_path, TOUCH_ARGS,
               ["--log-file=log.%n", "--ws-file=ws.%n",
                "--ws-miss-file=miss.%n"])
    assert err == ""
    names = sorted(os.listdir(str(tmp_path)))
    assert names[0] == "log.1" and len(names) == 3, names
    numbers = {n.split(".")[0]: int(n.split(".")[1]) for n in names}
    assert sorted((numbers["ws"], numbers["miss"])) == [2, 3], names
    with open(str(tmp_path / "log.1")) as f:
        log = f.read()
    summary = wslib.parse_summary(log)
    assert summary["output_file"] == str(tmp_path / ("ws.%d" % numbers["ws"]))
    assert re.search(r"^==\d+== Miss profile: %s\n"
                     % re.escape(str(tmp_path / ("miss.%d" % numbers["miss"]))),
                     log, re.M), log
    wslib.read_output(str(tmp_path / ("ws.%d" % numbers["ws"])))
    with open(str(tmp_path / ("miss.%d" % numbers["miss"]))) as f:
        assert f.read().startswith("# callgrind format\n")


def _child_pid(err, parent_pid):
    (pid,) = set(re.findall(r"^==(\d+)== ", err, re.M)) - {parent_pid}
    return pid


def test_percent_n_in_a_forked_child(tmp_path):
    """rel_fork forks a child that exits: with ws.%n.out the child's name
    is the parent's (its numbers start at 1 again), so it writes no file
    and says so once; the parent's file is whole.  With ws.%p.%n.out
    each process has its own."""
    argv = [wslib.prog("rel_fork"), "fork", "100000"]
    same = tmp_path / "same"
    same.mkdir()
    err = _run(same, argv, ["--ws-file=ws.%n.out"])
    assert sorted(os.listdir(str(same))) == ["ws.1.out"]
    assert err.count("ws: --ws-file=ws.%n.out names the parent's file; this "
                     "child writes no output file (use %p)\n") == 1, err
    parent = wslib.read_output(str(same / "ws.1.out"))
    assert parent.complete
    files = dict(re.findall(r"^==(\d+)== Output file: (.*)$", err, re.M))
    assert files == {parent.header["pid"]: str(same / "ws.1.out"),
                     _child_pid(err, parent.header["pid"]): "(none)"}, err

    own = tmp_path / "own"
    own.mkdir()
    err = _run(own, argv, ["--ws-file=ws.%p.%n.out"])
    names = sorted(os.listdir(str(own)))
    assert len(names) == 2 and all(re.fullmatch(r"ws\.\d+\.1\.out", n)
                                   for n in names), names
    outs = [wslib.read_output(str(own / n)) for n in names]
    assert set(names) == {"ws.%s.1.out" % o.header["pid"] for o in outs}
    # one is the other's child
    assert len({o.header["ppid"] for o in outs}
               & {o.header["pid"] for o in outs}) == 1, [o.header
                                                         for o in outs]
