"""Signals and faults (issue 16): ws never faults on the program's memory,
never signals, blocks or changes the program because of its own files.

- a WS_MARK label and an open() path that run into the page past the end
  of a file mapping (readable to the address space manager, SIGBUS when
  touched): the label is refused with a warning, open fails with EFAULT
  as it does natively, the program exits 0;
- --ws-file=/dev/stdout into a pipe whose reader reads 10 bytes and goes
  away: no SIGPIPE (status 0, as under --tool=none), one line saying ws
  stopped writing the file;
- --ws-file=/dev/full (every write fails, ENOSPC): one line, status 0,
  the summary says the file is incomplete;
- an output file that reaches the program's RLIMIT_FSIZE (ulimit -f): no
  SIGXFSZ (the program was killed with status 153), one line; the file
  ends in a whole line, as do the miss profile and a dump file cut short
  the same way (the reliability review's third round: they ended in half
  a line);
- a 550 kB VALGRIND_MONITOR_COMMAND("ws mark ..."): refused with one
  line, no overflow of Valgrind's stack.
"""

import os
import resource
import subprocess

import wslib

HANDS = wslib.prog("hands")


def ws(argv, tmp_path, opts=(), **kw):
    wslib.require_built(HANDS)
    cmd = [wslib.VG_IN_PLACE, "--tool=ws"] + list(opts) + argv
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(cmd, cwd=str(tmp_path), stderr=subprocess.PIPE,
                          timeout=300, **kw)


def test_label_and_path_past_the_end_of_a_file_mapping(tmp_path):
    none = subprocess.run([wslib.VG_IN_PLACE, "--tool=none", "-q", HANDS,
                           "sigbus", "none.map"], cwd=str(tmp_path),
                          capture_output=True, timeout=120)
    assert none.returncode == 0, none.stderr
    p = ws([HANDS, "sigbus", "ws.map"], tmp_path,
           ["--ws-file=" + str(tmp_path / "ws.out")])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert p.stdout == none.stdout == b"open -1 Bad address\n"
    assert "ws: WS_MARK ignored: its label pointer" in err
    assert "does not point to a string in readable memory" in err
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert not [e for e in out.events if e.kind == "mark"]


def test_reader_of_stdout_goes_away(tmp_path):
    """The issue's `--ws-file=/dev/stdout | head -c 10`: the program (which
    writes nothing itself) went on to be killed by SIGPIPE."""
    wslib.require_built(HANDS)
    cmd = [wslib.VG_IN_PLACE, "--tool=ws", "--ws-file=/dev/stdout", HANDS,
           "closeall", "mine.txt"]
    p = subprocess.Popen(cmd, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=300)
    assert head == b"ws-output-"
    assert rc == 0, err
    assert err.count("ws: writing the output file '/dev/stdout' failed "
                     "(its reader has gone); ws writes nothing more to "
                     "it") == 1, err
    assert "Output file: /dev/stdout (incomplete: writing it failed)" in err
    assert (tmp_path / "mine.txt").read_bytes() == b"mine"


def test_full_device(tmp_path):
    p = ws([HANDS, "work"], tmp_path, ["--ws-file=/dev/full",
                                       "--ws-miss-file=/dev/full"])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert err.count("ws: writing the output file '/dev/full' failed (no "
                     "space left on the device); ws writes nothing more to "
                     "it") == 1, err
    assert err.count("ws: writing the miss profile '/dev/full' failed (no "
                     "space left on the device)") == 1, err
    assert "Output file: /dev/full (incomplete: writing it failed)" in err
    assert "Miss profile: /dev/full (incomplete: writing it failed)" in err


def test_file_size_limit(tmp_path):
    """ulimit -f 20: ws's file stops at 20 KiB; the program, which writes
    no file, runs as under --tool=none."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (20 << 10, 20 << 10))

    p = ws([HANDS, "work"], tmp_path, ["--ws-file=ws.out", "--ws-every=1000"],
           preexec_fn=limit)
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert err.count("ws: writing the output file '%s' failed (the file "
                     "reached the size limit (ulimit -f)); ws writes nothing "
                     "more to it" % (tmp_path / "ws.out")) == 1, err
    text = open(str(tmp_path / "ws.out")).read()
    assert len(text) <= 20 << 10 and text.endswith("\n"), text[-200:]
    out = wslib.parse_output(text, complete=False)
    assert not out.complete and len(out.samples) > 100


def test_every_file_cut_by_the_size_limit_ends_in_a_whole_line(tmp_path):
    """ulimit -f at 3,000 bytes, less than each of ws's files would be:
    the output file, the miss profile and a dump file (`ws dump FILE`)
    each stop short, in a whole line, and ws says so once for each.  The
    program keeps SIGXFSZ's default action (it would be killed by one) and
    ends as under --tool=none."""
    limit = 3000

    def cap():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    argv = [HANDS, "dumpfile", str(tmp_path / "dump.txt")]
    none = subprocess.run([wslib.VG_IN_PLACE, "--tool=none", "-q"] + argv,
                          cwd=str(tmp_path), capture_output=True,
                          timeout=300, preexec_fn=cap)
    p = ws(argv, tmp_path, ["--ws-file=ws.out", "--ws-every=1000",
                            "--ws-miss-file=miss.out"], preexec_fn=cap)
    err = p.stderr.decode()
    assert (p.returncode, p.stdout) == (none.returncode, none.stdout) \
        == (0, b"ok\n"), err
    for what, name in (("output file", "ws.out"), ("miss profile", "miss.out"),
                       ("dump file", "dump.txt")):
        path = str(tmp_path / name)
        assert err.count("ws: writing the %s '%s' failed (the file reached "
                         "the size limit (ulimit -f))" % (what, path)) == 1, err
        data = open(path, "rb").read()
        assert 0 < len(data) <= limit and data.endswith(b"\n"), (
            name, data[-200:])
    wslib.parse_output(open(str(tmp_path / "ws.out")).read(), complete=False)


def test_monitor_command_of_550_kB(tmp_path):
    p = ws([HANDS, "bigmark", "550000"], tmp_path,
           ["--ws-file=" + str(tmp_path / "ws.out")])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert p.stdout == b"ok\n"
    assert "ws: the command is longer than 8192 characters; nothing done" \
        in err, err
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert not [e for e in out.events if e.kind == "mark"]
