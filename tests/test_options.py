"""Bad option values are refused before the program runs.

Each case runs `vg-in-place --tool=ws OPTION marker PATH`: valgrind must exit
with status 1, print a line that names the option and says what it accepts,
and not run the program (marker would create PATH).  A control run with
good options shows that marker does create PATH when it runs.
"""

import os
import subprocess

import pytest

import wslib

MARKER = wslib.prog("marker")


def _run(tmp_path, *options, platform="amd64"):
    marker = wslib.prog("marker", platform)
    wslib.require_built(marker)
    mark = tmp_path / "ran"
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", *options, marker,
                        str(mark)], cwd=tmp_path, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    return p.returncode, p.stderr.decode(errors="replace"), mark.exists()


def test_good_options_run_the_program(tmp_path):
    rc, err, ran = _run(tmp_path, "--ws-every=1000", "--ws-tau=3000",
                        "--ws-pagesize=64", "--ws-time-unit=i",
                        "--ws-syscalls=no", "--ws-count-rep=each",
                        "--ws-file=%s" % (tmp_path / "ws.out"))
    assert rc == 0 and ran, err
    for ps in ("64", "2097152"):
        rc, err, ran = _run(tmp_path, "--ws-pagesize=" + ps,
                            "--ws-file=%s" % (tmp_path / "ws.out"))
        assert rc == 0 and ran, err
    # lines off, the smallest line, a line of a whole page, and the
    # pages' own size at --ws-pagesize=64
    for opts in (("--ws-linesize=0",), ("--ws-linesize=16",),
                 ("--ws-linesize=4096",),
                 ("--ws-pagesize=128", "--ws-linesize=128")):
        rc, err, ran = _run(tmp_path, *opts,
                            "--ws-file=%s" % (tmp_path / "ws.out"))
        assert rc == 0 and ran, (opts, err)
        out = wslib.read_output(str(tmp_path / "ws.out"))
        assert out.header["linesize"] == opts[-1].split("=")[1], opts


# (option=value, names that may stand for the option, substrings of the
# same line that say what is accepted)
BAD = [
    ("--ws-every=abc", ["--ws-every"], ["1 to"]),
    ("--ws-every=0", ["--ws-every"], ["1 to"]),
    ("--ws-every=-5", ["--ws-every"], ["1 to"]),
    ("--ws-every=", ["--ws-every"], ["1 to"]),
    ("--ws-tau=0", ["--ws-tau"], ["1 to"]),
    ("--ws-tau=-1", ["--ws-tau"], ["1 to"]),
    ("--ws-tau=x", ["--ws-tau"], ["1 to"]),
    ("--ws-pagesize=100", ["--ws-pagesize"], ["power of two", "64", "2097152"]),
    ("--ws-pagesize=32", ["--ws-pagesize"], ["power of two", "64", "2097152"]),
    ("--ws-pagesize=4194304", ["--ws-pagesize"],
     ["power of two", "64", "2097152"]),
    ("--ws-pagesize=0", ["--ws-pagesize"], ["power of two", "64", "2097152"]),
    ("--ws-pagesize=4k", ["--ws-pagesize"], ["power of two", "64", "2097152"]),
    ("--ws-linesize=48", ["--ws-linesize"], ["power of two", "16", "page"]),
    ("--ws-linesize=8", ["--ws-linesize"], ["power of two", "16", "page"]),
    ("--ws-linesize=64k", ["--ws-linesize"], ["power of two", "16", "page"]),
    ("--ws-linesize=", ["--ws-linesize"], ["power of two", "16", "page"]),
    # larger than the page (4096 by default)
    ("--ws-linesize=8192", ["--ws-linesize"], ["at most a page",
                                               "--ws-pagesize=4096"]),
    ("--ws-time-unit=s", ["--ws-time-unit"], ["ms"]),
    ("--ws-time-unit=", ["--ws-time-unit"], ["ms"]),
    ("--ws-time-unit=instructions", ["--ws-time-unit"], ["ms"]),
    ("--ws-file=/nonexistent-dir/ws.out", ["--ws-file"], ["writable"]),
    ("--ws-file=/etc/passwd/ws.out", ["--ws-file"], ["writable"]),
    # /proc refuses new files even to root (a mode 0500 folder would not)
    ("--ws-file=/proc/ws.out", ["--ws-file"], ["writable"]),
    ("--ws-out-file=/nonexistent-dir/ws.out", ["--ws-out-file", "--ws-file"],
     ["writable"]),
    ("--ws-count-rep=twice", ["--ws-count-rep"], ["once", "each"]),
    ("--ws-count-rep=", ["--ws-count-rep"], ["once", "each"]),
    ("--ws-count-rep=ONCE", ["--ws-count-rep"], ["once", "each"]),
    ("--ws-heap-usage=sometimes", ["--ws-heap-usage"], ["yes", "exact", "no"]),
    ("--ws-curves=yes", ["--ws-curves"], ["no", "sampled", "exact"]),
    ("--ws-heap-chunks=-1", ["--ws-heap-chunks"], ["from 0 to 1000000"]),
    ("--ws-heap-chunks=1000001", ["--ws-heap-chunks"], ["from 0 to 1000000"]),
    ("--ws-heap-chunks=abc", ["--ws-heap-chunks"], ["from 0 to 1000000"]),
]


@pytest.mark.parametrize("option,names,accepted", BAD,
                         ids=[b[0] for b in BAD])
def test_bad_option_refused(tmp_path, option, names, accepted):
    rc, err, ran = _run(tmp_path, option)
    assert rc == 1, "exit status %d for %s; stderr:\n%s" % (rc, option, err)
    assert not ran, "%s: the program ran" % option
    lines = [l for l in err.splitlines()
             if any(n in l for n in names) and all(a in l for a in accepted)]
    assert lines, ("%s: no stderr line names %s and says %s:\n%s"
                   % (option, " or ".join(names), " and ".join(accepted), err))
    # nor does it leave a default output file (ws.out.<pid>) behind
    assert not [f for f in os.listdir(tmp_path) if f.startswith("ws.out")]


@pytest.mark.parametrize("platform", wslib.platforms())
def test_routines_refused_for_32_bit_programs(tmp_path, platform):
    """--ws-routines=yes emits amd64's IR: a 32-bit program is refused
    before it runs, in one line; a 64-bit one runs."""
    rc, err, ran = _run(tmp_path, "--ws-routines=yes",
                        "--ws-file=%s" % (tmp_path / "ws.out"),
                        platform=platform)
    if platform == "amd64":
        assert rc == 0 and ran, err
        return
    assert rc == 1 and not ran, err
    assert "--ws-routines=yes measures 64-bit (amd64) programs only" in err
