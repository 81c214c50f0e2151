"""Every file ws writes stays readable and its own (issue 16, files;
issue 21 item 2).

- WS_DUMP after a malloc: the heap owner's stack comes before the dump's
  event; wslib and ws_print read the file;
- files told apart by device and inode, not by name: `ws dump` onto the
  output file (by name and through a link), --ws-miss-file linking to
  the output file, --log-file and --ws-file naming one file, an output
  file the program's standard output is redirected to: each refused with
  its reason, nothing of the output file lost;
- `ws dump <fifo>`: with no reader it is refused at once (later commands
  answer); a reader that reads 10 bytes and goes away costs the program
  nothing (no SIGPIPE, no wait);
- exec: with --trace-children=yes a program that execs itself three
  times (same pid) leaves four complete output files and miss profiles,
  named <name>, <name>.exec1 ...; without it, a shell script that execs
  the program (a pyenv shim) leaves a complete output file saying so and
  a miss profile callgrind_annotate reads; failed execs (a PATH search, a
  file that is no program) end nothing;
- names: a newline (or any control character) that %q{VAR} brings into a
  name is refused, at start-up and in `ws dump`.
"""

import os
import pathlib
import subprocess
import threading


import ctl_util
import wslib

HANDS = wslib.prog("hands")


def ws(argv, cwd, opts=(), env=None, timeout=300):
    wslib.require_built(HANDS)
    return subprocess.run([wslib.VG_IN_PLACE, "--tool=ws"] + list(opts)
                          + argv, cwd=str(cwd), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout, env=env)


def test_dump_after_malloc_parses(tmp_path):
    p = ws([HANDS, "dumpheap"], tmp_path, ["--ws-file=ws.out"])
    assert p.returncode == 0, p.stderr.decode()
    out = wslib.read_output(str(tmp_path / "ws.out"))
    (dump,) = out.dumps
    heap = [pg for pg in dump.pages if pg.owner and pg.owner.kind == "heap"]
    assert heap, dump.pages
    # the stack the owner names is a dumpheap frame
    assert any(w.function == "dumpheap" for w in out.stacks[heap[0].owner.stack])
    r = subprocess.run([os.path.join(wslib.TOP_BUILDDIR, "print",
                                     "ws_print"), str(tmp_path / "ws.out")],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()


# ----------------------------------------------------------------------
# One file, one writer

def _finished(server):
    assert server.finish() == 0, server.stderr()
    out = server.output()
    assert out.complete and out.nsamples == len(out.samples)
    return out


def test_dump_onto_the_output_file(server):
    tmp_path = pathlib.Path(server.dir)
    os.symlink("ws.out", str(tmp_path / "link"))
    server.touch(0, 100)
    for name in ("ws.out", "./ws.out", "link", str(tmp_path / "ws.out")):
        reply = server.vgdb("ws dump " + name)
        assert reply.startswith("ws dump: cannot create '"), reply
        assert "it is the output file (%s)" % (tmp_path / "ws.out") in reply
    out = _finished(server)
    assert out.header["pid"] == str(server.pid)
    assert [e for e in out.events if e.kind == "dump"] == []


def test_miss_file_linking_to_the_output_file(tmp_path):
    os.symlink("ws.out", str(tmp_path / "link"))
    p = ws([HANDS, "work"], tmp_path, ["--ws-file=ws.out",
                                       "--ws-miss-file=link"])
    err = p.stderr.decode()
    assert p.returncode == 1, err
    assert "--ws-file: cannot create the output file '%s' (it is the miss " \
        "profile (%s)" % (tmp_path / "ws.out", tmp_path / "link") in err, err
    # the link is the user's; the file made through it is gone
    assert os.listdir(str(tmp_path)) == ["link"]


def test_log_file_and_output_file(tmp_path):
    p = ws([HANDS, "work"], tmp_path, ["--log-file=x", "--ws-file=x"])
    assert p.returncode == 1
    log = (tmp_path / "x").read_text()
    assert "--ws-file: cannot create the output file '%s' (it is open " \
        "already as descriptor " % (tmp_path / "x") in log, log
    assert "the program's or Valgrind's (--log-file); a writable file name " \
        "is accepted)" in log, log


def test_output_file_is_the_programs_stdout(tmp_path):
    with open(str(tmp_path / "out"), "wb") as f:
        p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", "--ws-file=out",
                            HANDS, "work"], cwd=str(tmp_path),
                           stdin=subprocess.DEVNULL, stdout=f,
                           stderr=subprocess.PIPE, timeout=120)
    err = p.stderr.decode()
    assert p.returncode == 1, err
    assert "(it is open already as descriptor 1, the program's or " \
        "Valgrind's (--log-file);" in err, err


def test_dump_to_a_fifo_without_reader(server):
    tmp_path = pathlib.Path(server.dir)
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    reply = server.vgdb("ws dump fifo")
    assert reply == ("ws dump: cannot create '%s': it is a FIFO that no "
                     "process has open for reading\n" % fifo), reply
    assert server.status()["measurement"] == "on"
    _finished(server)


def test_dump_to_a_fifo_whose_reader_goes_away(server):
    """A dump of 4,000 pages (about 300 kB) into a FIFO whose reader
    takes 10 bytes and leaves: the dump fails with a reason, the program
    is not killed by SIGPIPE and goes on."""
    tmp_path = pathlib.Path(server.dir)
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    server.touch(0, 2000)
    got = []

    def reader():
        with open(str(fifo), "rb") as f:
            got.append(f.read(10))

    t = threading.Thread(target=reader)
    t.start()
    reply = server.vgdb("ws dump fifo")
    t.join(timeout=60)
    assert got == [b"ws-dump-fo"]
    # Valgrind's messages during a monitor command go to its reply
    assert reply.endswith("ws dump: writing '%s' failed; the file is "
                          "incomplete\n" % fifo), reply
    assert "ws: writing the dump file '%s' failed (its reader has gone)" \
        % fifo in reply
    server.touch(0, 10)
    _finished(server)


# ----------------------------------------------------------------------
# Exec

def _annotate(path):
    r = subprocess.run(["callgrind_annotate", path], capture_output=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def test_exec_keeps_one_file_per_program(tmp_path):
    """hands execs itself three times, same pid, under
    --trace-children=yes with fixed names: four programs, four complete
    output files and four miss profiles, each of the first three ending
    with the exec of the next."""
    p = ws([HANDS, "exec", "3"], tmp_path, ["--trace-children=yes",
                                            "--ws-file=ws.out",
                                            "--ws-miss-file=miss.out"])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    names = ["", ".exec1", ".exec2", ".exec3"]
    assert sorted(os.listdir(str(tmp_path))) == sorted(
        ["ws.out" + n for n in names] + ["miss.out" + n for n in names])
    pid = None
    for k, n in enumerate(names):
        path = str(tmp_path / ("ws.out" + n))
        out = wslib.read_output(path)
        pid = pid or out.header["pid"]
        assert out.header["pid"] == pid
        assert out.argv == [HANDS, "exec", str(3 - k)]
        assert out.exec == (HANDS if k < 3 else None)
        run = wslib.WsRun([], 0, "", wslib.file_stderr(err, pid, path), path)
        run._output = out
        wslib.check_trailer(run)
        prof = str(tmp_path / ("miss.out" + n))
        assert ("Miss profile: %s" % prof) in err
        text = open(prof).read()
        assert ("desc: Exec: the program exec'd %s; this profile ends there"
                % HANDS in text) == (k < 3)
        _annotate(prof)
    assert err.count("The program execs %s: ws's files of this program "
                     "end here." % HANDS) == 3


def test_shim_that_execs_without_trace_children(tmp_path):
    """The issue's pyenv shim: a shell script that execs the real program.
    Without --trace-children ws measures the shell only; its files are
    complete and say that it exec'd."""
    shim = tmp_path / "shim"
    shim.write_text("#!/bin/sh\nexec %s work \"$@\"\n" % HANDS)
    shim.chmod(0o755)
    p = ws([str(shim)], tmp_path, ["--ws-file=ws.out",
                                   "--ws-miss-file=miss.out"])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert out.exec == HANDS and out.complete
    run = wslib.WsRun([], 0, "", err, str(tmp_path / "ws.out"))
    run._output = out
    wslib.check_trailer(run)
    assert "The program execs %s: ws's files of this program end here." \
        % HANDS in err
    prof = str(tmp_path / "miss.out")
    assert os.path.getsize(prof) > 0
    assert "PROGRAM TOTALS" in _annotate(prof)
    assert sorted(os.listdir(str(tmp_path))) == ["miss.out", "shim",
                                                 "ws.out"]


def test_failed_execs_end_nothing(tmp_path):
    p = ws([HANDS, "execfail"], tmp_path, ["--ws-file=ws.out",
                                           "--trace-children=yes"])
    err = p.stderr.decode()
    assert p.returncode == 0, err
    assert p.stdout == b"ok\n"
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert out.exec is None and out.complete
    assert "The program execs" not in err, err
    assert os.listdir(str(tmp_path)) == ["ws.out"]


# ----------------------------------------------------------------------
# Names

def test_newline_brought_in_by_a_variable(tmp_path):
    env = dict(os.environ, WS_TEST_NAME="a\nb")
    p = ws([HANDS, "work"], tmp_path, ["--ws-file=ws.%q{WS_TEST_NAME}"],
           env=env)
    err = p.stderr.decode()
    assert p.returncode == 1, err
    assert "--ws-file: cannot use the file name 'ws.%q{WS_TEST_NAME}': it " \
        "contains a control character (after expansion)" in err, err
    assert os.listdir(str(tmp_path)) == []


def test_dump_name_with_a_newline(tmp_path):
    os.environ["WS_TEST_DUMP_NAME"] = "d\nevent 1 mark injected"
    try:
        server = ctl_util.Server(tmp_path)
    finally:
        del os.environ["WS_TEST_DUMP_NAME"]
    try:
        reply = server.vgdb("ws dump x.%q{WS_TEST_DUMP_NAME}")
        assert reply == ("ws dump: cannot use the file name "
                         "'x.%q{WS_TEST_DUMP_NAME}': it contains a control "
                         "character (after expansion)\n"), reply
        out = _finished(server)
        assert not [e for e in out.events if e.kind in ("mark", "dump")]
    finally:
        server.kill()


def test_image_option_is_ws_own(tmp_path):
    """--ws-image is how ws tells the next program's Valgrind which
    program of the process it runs; a bad value is refused as any bad
    option is."""
    for bad in ("x", "0,1,1", "1,2,1", "1,1", "1,1,1,"):
        p = ws([HANDS, "work"], tmp_path, ["--ws-image=" + bad])
        err = p.stderr.decode()
        assert p.returncode == 1, (bad, err)
        assert "--ws-image is set by ws itself" in err, err
    assert os.listdir(str(tmp_path)) == []
    p = ws([HANDS, "work"], tmp_path, ["--ws-image=2,1,1",
                                       "--ws-file=ws.out"])
    assert p.returncode == 0, p.stderr.decode()
    assert os.listdir(str(tmp_path)) == ["ws.out.exec2"]
