"""The program's descriptors stay its own (issue 16, descriptors).

ws's files (output, miss profile, dump files) are opened in the
descriptors Valgrind keeps for itself, above the limit the program is
given, with close-on-exec (docs/manual.md, "The files ws writes").  Each
test runs tests/progs/hands under ws with both files open and compares
with --tool=none where the program can tell:

- the descriptors open in 0..1023 (and their close-on-exec flags) are
  those --tool=none shows; with the limit at 1024, soft and hard, those
  ws adds are at or above the limit the program is shown, among
  Valgrind's own (ws finds where they begin from the kernel's limit:
  docs/design.md, "Only the public API"), and closed on exec;
- a program that closes 3..1023 and opens a file of its own: the file
  holds only what it wrote, ws's file is complete;
- dup2(1, 3): nothing of ws's on the program's standard output;
- a program that puts a pipe on descriptor 3 (and one started with a
  pipe there): nothing of ws's comes through it;
- exec'ing itself 10 times, with and without --trace-children: the last
  program sees the descriptors --tool=none shows (no leak per exec).
"""

import os
import resource
import subprocess

import wslib

HANDS = wslib.prog("hands")


def run(tool, argv, tmp_path, opts=(), **kw):
    """argv under tool (ws with an output file and a miss profile in
    tmp_path); returns the CompletedProcess."""
    wslib.require_built(HANDS)
    cmd = [wslib.VG_IN_PLACE, "--tool=" + tool, "-q"]
    if tool == "ws":
        cmd += ["--ws-file=" + str(tmp_path / "ws.out"),
                "--ws-miss-file=" + str(tmp_path / "miss.out")]
    cmd += list(opts) + argv
    kw.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(cmd, cwd=str(tmp_path), capture_output=True,
                          timeout=300, **kw)


def complete(tmp_path):
    """The output file, checked complete, after checking that the miss
    profile is whole too (callgrind_annotate reads it; its totals line
    is there)."""
    prof = str(tmp_path / "miss.out")
    r = subprocess.run(["callgrind_annotate", prof], capture_output=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr.decode()
    with open(prof) as f:
        assert "\ntotals: " in f.read()
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert out.complete
    return out


def test_same_descriptors_as_none(tmp_path):
    none = run("none", [HANDS, "fds"], tmp_path)
    ws = run("ws", [HANDS, "fds"], tmp_path)
    assert none.returncode == ws.returncode == 0
    assert ws.stdout == none.stdout, (ws.stdout, none.stdout)
    complete(tmp_path)


def test_own_descriptors_at_a_limit_of_1024(tmp_path):
    """The limit at 1024, soft and hard, so that Valgrind cannot raise it:
    it keeps the top 12 descriptors for itself and shows the program a
    limit of 1012.  ws's output file and miss profile are open at or
    above that limit, where the program's system calls cannot use them,
    and closed on exec."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    p = run("ws", [HANDS, "limit"], tmp_path, preexec_fn=limit)
    assert p.returncode == 0, p.stderr.decode()
    lines = p.stdout.decode().splitlines()
    assert lines[0].startswith("limit "), lines
    shown = int(lines[0].split()[2])
    files = {str(tmp_path / "ws.out"), str(tmp_path / "miss.out")}
    ours = [l.split() for l in lines[1:] if l.split()[2:] and
            l.split()[2] in files]
    assert shown < 1024 and len(ours) == 2, lines
    assert all(int(fd) >= shown and cloexec == "1"
               for fd, cloexec, _ in ours), (shown, ours)
    complete(tmp_path)


def test_closing_everything_and_opening_a_file(tmp_path):
    p = run("ws", [HANDS, "closeall", "mine.txt"], tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    assert (tmp_path / "mine.txt").read_bytes() == b"mine"
    out = complete(tmp_path)
    # the program ran about 12,000,000 instructions with the file open:
    # ws wrote its samples meanwhile, to its own file
    assert len(out.samples) > 50 and out.nsamples == len(out.samples)


def test_dup2_over_descriptor_3(tmp_path):
    p = run("ws", [HANDS, "dup2"], tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == b"ok\n"
    assert len(complete(tmp_path).samples) > 50


def test_pipe_on_descriptor_3(tmp_path):
    """The program puts a pipe's write end on descriptor 3 (as it would
    for a child that reads it), works, and reads the pipe: nothing of
    ws's comes through it (ws's output file was descriptor 3)."""
    p = run("ws", [HANDS, "pipe3"], tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == b"0\n"
    complete(tmp_path)


def test_inherited_pipe_on_descriptor_3(tmp_path):
    """A program started with a pipe on descriptor 3 (by a shell script or
    a test harness): nothing of ws's comes through it."""
    r, w = os.pipe()

    def on_3():
        os.dup2(w, 3)

    p = run("ws", [HANDS, "work"], tmp_path, pass_fds=(3,),
            preexec_fn=on_3)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        through = f.read()
    assert p.returncode == 0, p.stderr.decode()
    assert through == b""
    complete(tmp_path)


def test_exec_chain_leaks_nothing(tmp_path):
    """hands execs itself 10 times (same pid), then lists its
    descriptors: with --trace-children=yes each program runs under ws,
    without it only the first; the last sees what --tool=none shows."""
    argv = [HANDS, "exec", "10"]
    none = run("none", argv, tmp_path, ["--trace-children=yes"])
    assert none.returncode == 0
    for opts in (["--trace-children=yes"], []):
        d = tmp_path / ("traced" if opts else "untraced")
        d.mkdir()
        p = run("ws", argv, d, opts)
        assert p.returncode == 0, p.stderr.decode()
        assert p.stdout == none.stdout, (opts, p.stdout, none.stdout)
