"""ws-monitor (monitor/ws-monitor.c) and the gdb command (gdb/ws-gdb.py).

Both talk to tests/progs/ctl_server under ws, blocked reading a pipe
(ctl_util.Server), with a --vgdb-prefix of its own:

- one-shot mode: the reply to `status` is ws's; every kind of reply of
  ws/control/ws_monitor.c and ws/control/ws_control.c gives the exit status it should
  (0 accepted, 1 refused); a process that is gone, not under Valgrind or
  under another tool, a missing vgdb and a vgdb that may not ptrace each
  give exit status 2 and a message that says so;
- the listing of ws processes;
- the prompt, driven through a pseudo-terminal: a command and its reply,
  history (Up arrow, the history file, a second session), Tab completion,
  Ctrl-C, and the `watch` live view (its sparkline checked against the
  samples, Unicode and ASCII) stopped by a key;
- gdb in batch mode with the script sourced: `ws status` reaches the
  process, completion, `help ws`;
- ws-monitor itself under memcheck: no errors, no leaks.
"""

import errno
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time

import pytest

import ctl_util
import wslib

MONITOR = os.path.join(wslib.TOP_BUILDDIR, "monitor", "ws-monitor")
GDB_SCRIPT = os.path.join(wslib.TOP_SRCDIR, "gdb", "ws-gdb.py")
EVERY = 10000
BLOCKS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
ASCII = "_.-:=+*#"


@pytest.fixture
def server(server_factory):
    """A server of its own for each test (a test that stops measurement
    or changes T must not change what the next one sees)."""
    wslib.require_built(MONITOR)
    s = server_factory(pages=2000, options=["--ws-every=%d" % EVERY])
    # Samples of different sizes, for the sparkline.
    for first, count, sweeps in ((0, 100, 10), (0, 2000, 2), (100, 20, 40),
                                 (0, 600, 3)):
        s.touch(first, count, sweeps)
    return s


def monitor(server, *words, env=None, prefix=True, pid=None, timeout=60,
            wrapper=()):
    """Runs ws-monitor (one-shot or listing); returns (status, stdout,
    stderr)."""
    argv = list(wrapper) + [MONITOR]
    if prefix:
        argv.append("--vgdb-prefix=" + server.prefix)
    if pid is not False:
        argv.append("--pid=%d" % (server.pid if pid is None else pid))
    p = subprocess.run(argv + list(words), capture_output=True,
                       timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


def series(server):
    """[(t, insn, data)] of `ws series 60`, through vgdb itself."""
    lines = server.vgdb("ws series 60").strip("\n").split("\n")
    assert lines[0].startswith("ws series: the last "), lines
    return [tuple(int(w) for w in l.split()) for l in lines[1:]]


# ----------------------------------------------------------------------
# One-shot mode

def test_status(server):
    """`ws-monitor --pid N status` prints ws's reply to `ws status`."""
    rc, out, err = monitor(server, "status")
    assert rc == 0 and err == "", (rc, err)
    st = ctl_util.parse_status(out)
    assert st == server.status()
    assert st["pid"] == server.pid and st["measurement"] == "on"
    assert st["every"] == EVERY and st["output_file"] == server.out_path
    assert st["samples"] == len(series(server)) >= 15
    # The leading "ws" may be given too.
    assert monitor(server, "ws", "status") == (0, out, "")


# Replies of ws/control/ws_monitor.c and ws/control/ws_control.c, one of each form:
# (words, exit status, the reply as a regular expression).
REPLIES = [
    (["set", "tau", "0"], 1, r"ws set tau: '0' is not a whole number from 1 "
     r"to 1000000000000000; nothing changed\n"),
    (["set", "every"], 1, r"ws set every: the value is missing .*\n"),
    (["set"], 1, r"ws set: say what to set: .*\n"),
    (["set", "peak-thresh", "0"], 1,
     r"ws set peak-thresh: '0' is not a whole number from 1 to 1000; "
     r"nothing changed\n"),
    (["set", "size", "3"], 1, r"size does not match any of 'tau every "
     r"peak-thresh'\n"),
    (["st"], 1, r"st can match status start stop\n"),
    (["frobnicate"], 1,
     r"frobnicate does not match any of 'help status .*'\n"),
    (["series", "2000"], 1, r"ws series: '2000' is not a number of samples "
     r"from 1 to 1024\n"),
    (["status", "now"], 1, r"ws status: unexpected argument 'now'; nothing "
     r"changed\n"),
    (["start"], 0, r"ws start: measurement was already on \(the window goes "
     r"on\); a region begins at t=[0-9]+\n"),
    (["start"], 1, r"ws start: measurement is already on and a region is "
     r"open; nothing changed\n"),
    (["mark"], 1, r"ws mark: the label is missing \(ws mark <label>\)\n"),
    (["dump", "d.%z"], 1, r"ws dump: cannot use the file name 'd.%z': .*\n"),
    (["hot", "0"], 1, r"ws hot: '0' is not a number of pages from 1 to "
     r"100000\n"),
    (["hot", "3", "data"], 0, r"Hot data pages: the 3 hottest of [0-9]+ "
     r"touched "
     r"\(accesses so far; pages of 4096 bytes\)\n.*"),
    (["peaks", "now"], 1, r"ws peaks: unexpected argument 'now'; nothing "
     r"changed\n"),
    (["ws"], 1, r"ws: the command is missing; 'ws help' lists them\n"),
    (["v.frobnicate"], 1, r"command 'v.frobnicate' not recognised\n.*"),
    (["mark", "from", "ws-monitor"], 0,
     r"ws mark: 'from ws-monitor' at t=[0-9]+\n"),
    (["set", "every", str(EVERY)], 0, r"ws set every: every is now %d \(was "
     r"%d\) from t=[0-9]+\n" % (EVERY, EVERY)),
    (["stop"], 0, r"ws stop: measurement off at t=[0-9]+\n"),
    (["start"], 0, r"ws start: measurement on at t=[0-9]+\n"),
    (["set", "peak-thresh", "5"], 0, r"ws set peak-thresh: peak-thresh is "
     r"now 5 \(was 5\) from t=[0-9]+\n"),
    (["peaks"], 0, r"ws peaks at t=[0-9]+: [0-9]+ peaks? \(the detector found "
                     r"[0-9]+\)\n  \(of each kind .*"),
    (["series", "3"], 0, r"ws series: the last 3 of [0-9]+ samples \(t insn "
     r"data\):\n([0-9]+ [0-9]+ [0-9]+\n){3}"),
    (["dump"], 0, r"ws dump at t=[0-9]+: 0 insn pages, 0 data pages in the "
     r"window \(0 and 0 lines of 64 bytes\)\n  \(pages of 4096 bytes; .*\)\n"),
    (["dump", "snap.%p"], 0, r"ws dump: 0 insn pages, 0 data pages written "
     r"to .*/snap\.[0-9]+\n"),
    (["help"], 0, r"\nws monitor commands .*"),
    (["v.info", "n_errs_found"], 0, r"n_errs_found 0 .*"),
]


def test_exit_status_follows_the_reply(server):
    """vgdb exits 0 whatever ws answers; ws-monitor exits 1 for each kind
    of refusal ws answers and 0 for each kind of answer, and
    prints the reply as it is."""
    for words, status, reply in REPLIES:
        rc, out, err = monitor(server, *words)
        assert re.fullmatch(reply, out, re.S), (words, out)
        assert (rc, err) == (status, ""), (words, rc, out, err)
    # The accepted ones did what they say: events in the output file
    # (ws writes them out before it answers).
    with open(server.out_path) as f:
        text = f.read()
    assert re.search(r"\nevent ([0-9]+) mark from ws-monitor\n"
                     r"event \1 set every %d\n"
                     # ws stop takes a final sample first (t insn data,
                     # the lines, the live heap bytes)
                     r"\1 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+\n"
                     r"event \1 final [0-9]+\n"
                     r"event \1 stop\nevent \1 start\n"
                     r"event \1 set peak-thresh 5\n"
                     r"event \1 dump monitor\nevent \1 dump file .*/snap\.%d\n"
                     % (EVERY, server.pid), text), text[-600:]


def test_exit_status_from_the_status_line(server, tmp_path):
    """ws-monitor sends "WS <command>" and takes its exit status from the
    status line at the end of the reply, which it does not print; the
    English before it does not count.  A reply with no status line
    (a ws that does not give one) is said to be one, exit status 2."""
    reply = tmp_path / "reply"
    fake = tmp_path / "vgdb"
    fake.write_text('#!/bin/sh\nfor a; do case "$a" in "WS "*) echo "$a" > '
                    '%s.sent; exec cat %s;; esac; done\nexec vgdb "$@"\n'
                    % (reply, reply))
    fake.chmod(0o755)
    for text, status in (
            ("ws stop: measurement off at t=5\nws-reply refused\n", 1),
            ("ws stop: measurement is already off; nothing changed\n"
             "ws-reply ok\n", 0),
            ("two\nlines\nws-reply refused\n", 1),
            ("ws-reply ok\n", 0)):
        reply.write_text(text)
        rc, out, err = monitor(server, "--vgdb=%s" % fake, "stop")
        assert (rc, out, err) == (status, text.rsplit("ws-reply", 1)[0],
                                  ""), (text, rc, out, err)
        with open(str(reply) + ".sent") as f:
            assert f.read() == "WS stop\n"
    reply.write_text("ws stop: measurement off at t=5\n")
    rc, out, err = monitor(server, "--vgdb=%s" % fake, "ws", "stop")
    assert (rc, out) == (2, "ws stop: measurement off at t=5\n"), (rc, out)
    assert err == ("ws-monitor: process %d gave no status line (a ws of "
                   "another version?)\n" % server.pid), err
    assert server.status()["measurement"] == "on"     # nothing was sent


def test_batch_mode_and_quit(server):
    """Commands on a standard input that is not a terminal: no prompt,
    each reply in turn, the exit status the worst of theirs (1: one was
    refused), and nothing after `quit`."""
    argv = [MONITOR, "--vgdb-prefix=" + server.prefix,
            "--pid=%d" % server.pid]
    p = subprocess.run(argv, input=b"status\nset tau 0\n\nmark batch one\n"
                       b"quit\nmark batch two\n", capture_output=True,
                       timeout=120)
    out, err = p.stdout.decode(), p.stderr.decode()
    assert (p.returncode, err) == (1, ""), (p.returncode, out, err)
    assert "ws(%d)>" % server.pid not in out
    i = out.index("ws set tau: '0' is not a whole number")
    j = out.index("ws mark: 'batch one' at t=")
    st = ctl_util.parse_status(out[:i])
    assert st["pid"] == server.pid and i < j
    assert "batch two" not in out
    with open(server.out_path) as f:
        text = f.read()
    assert "mark batch one\n" in text and "batch two" not in text
    # every command accepted: exit status 0; `exit` ends it too
    p = subprocess.run(argv, input=b"series 1\nexit\nset tau 0\n",
                       capture_output=True, timeout=120)
    assert (p.returncode, p.stderr) == (0, b""), p
    assert p.stdout.decode().startswith("ws series: the last 1 of ")


def test_timeout(server, tmp_path):
    """--timeout=S: a vgdb that never answers is given up after S
    seconds, exit status 2 and a message that says so; bad values are
    refused (exit status 64)."""
    # the real vgdb lists the processes (-l); a command never ends
    fake = tmp_path / "vgdb"
    fake.write_text('#!/bin/sh\nfor a; do [ "$a" = -l ] && exec vgdb "$@"; '
                    'done\nexec sleep 300\n')
    fake.chmod(0o755)
    rc, out, err = monitor(server, "--vgdb=%s" % fake, "--timeout=1.5",
                           "status", timeout=100)
    assert (rc, out) == (2, ""), (rc, out, err)
    assert err == ("ws-monitor: process %d did not answer within 1.5 s\n"
                   % server.pid), err
    for bad in ("0", "-1", "abc", "", "1s", "nan"):
        rc, out, err = monitor(server, "--timeout=" + bad, "status")
        assert (rc, out, err) == (
            64, "", "ws-monitor: --timeout: '%s' is not a number of "
            "seconds\n" % bad), (bad, rc, out, err)


def test_gone_and_not_ws(server, tmp_path):
    """A process that has ended, one that is not under Valgrind and one
    under another tool: exit status 2 and a message that says which."""
    p = subprocess.Popen(["sleep", "60"])
    try:
        rc, out, err = monitor(server, "status", pid=p.pid)
        assert (rc, out) == (2, "")
        assert err == ("ws-monitor: process %d (sleep) is not running under "
                       "Valgrind\n" % p.pid)
    finally:
        p.kill()
        p.wait()
    gone = ctl_util.no_such_pid()
    rc, out, err = monitor(server, "status", pid=gone)
    assert (rc, out, err) == (2, "", "ws-monitor: there is no process %d\n"
                              % gone)
    rc, out, err = monitor(server, pid=gone)         # the prompt, too
    assert (rc, out, err) == (2, "", "ws-monitor: there is no process %d\n"
                              % gone)

    # ctl_server under --tool=none, with the same prefix.
    argv = wslib.ws_command([ctl_util.SERVER, "1"],
                            ["--vgdb-prefix=" + server.prefix], tool="none")
    none = subprocess.Popen(argv, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert none.stdout.readline().startswith(b"ready ")
        rc, out, err = monitor(server, "status", pid=none.pid)
        assert (rc, out) == (2, "")
        assert err == ("ws-monitor: process %d runs Valgrind's none tool, not "
                       "ws: ws-monitor talks only to programs run with "
                       "valgrind --tool=ws\n" % none.pid)
    finally:
        none.kill()
        none.wait()

    # The ws process, without its prefix.
    rc, out, err = monitor(server, "status", prefix=False)
    assert (rc, out) == (2, "")
    assert err == ("ws-monitor: vgdb cannot find process %d: it was started "
                   "with --vgdb-prefix=%s; give ws-monitor the same option\n"
                   % (server.pid, server.prefix))


def test_left_over_fifos_of_a_reused_pid(server, tmp_path):
    """FIFOs that a Valgrind killed by SIGKILL left under the default
    prefix, for the pid the server has now: the server's own
    --vgdb-prefix says they are not its own, so ws-monitor without that
    prefix names the prefix at once rather than writing to them and
    waiting for an answer that cannot come."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    os.mkfifo(tmpdir / ("vgdb-pipe-from-vgdb-to-%d-by-someone-on-somewhere"
                        % server.pid))
    env = dict(os.environ, TMPDIR=str(tmpdir))
    rc, out, err = monitor(server, "status", prefix=False, env=env,
                           timeout=20)
    assert (rc, out) == (2, "")
    assert err == ("ws-monitor: vgdb cannot find process %d: it was started "
                   "with --vgdb-prefix=%s; give ws-monitor the same option\n"
                   % (server.pid, server.prefix))

    rc, out, err = monitor(server, pid=False, prefix=False, env=env,
                           timeout=20)
    assert (rc, err) == (0, ""), err
    reach, cannot = _listing(out)
    assert server.pid not in reach, out
    assert cannot[server.pid][1] == [
        "(give ws-monitor --vgdb-prefix=%s)" % server.prefix], out


def test_vgdb_missing_or_without_ptrace(server, tmp_path):
    """No vgdb: exit status 2 and where to get it.  A vgdb that may not
    ptrace (in a user namespace of its own it has no right to ptrace the
    process, which is blocked in a system call and so never answers by
    itself): exit status 2 and what to do, without hanging as vgdb does."""
    rc, out, err = monitor(server, "status",
                           env=dict(os.environ, PATH=str(tmp_path)))
    assert (rc, out) == (2, "")
    assert err.startswith("ws-monitor: cannot run vgdb: 'vgdb' was not found "
                          "on PATH; it comes with Valgrind"), err
    rc, out, err = monitor(server, "--vgdb=" + str(tmp_path / "vgdb"),
                           "status")
    assert (rc, out) == (2, "")
    assert err.startswith("ws-monitor: cannot run vgdb: '%s' was not found;"
                          % (tmp_path / "vgdb")), err

    if subprocess.run(["unshare", "-Ur", "true"],
                      capture_output=True).returncode != 0:
        pytest.skip("unshare -Ur (a user namespace) is not allowed here")
    # With a --timeout longer than any test, this reply can only come
    # from seeing that vgdb may not ptrace, not from giving up waiting
    # (monitor()'s own limit only stops a hang)
    rc, out, err = monitor(server, "--timeout=86400", "status",
                           wrapper=["unshare", "-Ur"], timeout=900)
    assert (rc, out) == (2, "")
    assert err.startswith("ws-monitor: vgdb may not use ptrace on process %d,"
                          % server.pid), err
    assert "ptrace_scope" in err
    assert server.status()["samples"] >= 15     # it is unharmed


# A vgdb that ends the process as the real one starts to reach it (the
# race of a program that exits while ws-monitor talks to it): it kills the
# process, waits until it is a zombie, then says what vgdb says then.
# (The listing, vgdb -l, is the real vgdb's.)
ENDING_VGDB = """#!/bin/sh
for a; do case "$a" in --pid=*) pid=${a#--pid=};; esac; done
[ -n "$pid" ] || exec vgdb "$@"
kill -KILL "$pid"
while ! grep -q ') Z' /proc/"$pid"/stat; do sleep 0.05; done
%s
"""


@pytest.mark.parametrize("said", [
    "echo 'vgdb: PTRACE_ATTACH pid '$pid': Operation not permitted' >&2; "
    "exit 1",
    "echo 'vgdb: PTRACE_ATTACH pid '$pid': Operation not permitted' >&2; "
    "sleep 60",
    "echo 'error: existence failed' >&2; exit 1",
    "echo 'vgdb: error opening /tmp/vgdb-from-vgdb-to-'$pid' write to pid' "
    ">&2; exit 1"])
def test_process_ends_while_vgdb_reaches_it(server, tmp_path, said):
    """A process that ends while vgdb reaches it has ended, whatever vgdb
    says then (ptrace refused, at once or after a while; the pid gone; a
    FIFO it cannot open any more):
    exit status 2 and those words (test_watch_until_the_process_ends met
    each of these now and then)."""
    fake = tmp_path / "vgdb"
    fake.write_text(ENDING_VGDB % said)
    fake.chmod(0o755)
    rc, out, err = monitor(server, "--vgdb=%s" % fake, "status")
    assert (rc, out, err) == (
        2, "", "ws-monitor: process %d has ended\n" % server.pid), err


_HEADING = "PID      COMMAND (under valgrind --tool=ws)"
_ENTRY = re.compile(r"([0-9]+) +(.*)\Z")


def _listing(out):
    """ws-monitor's listing as ({pid: command} of the ws processes vgdb
    can reach, {pid: (command, [hint lines])} of those it cannot).
    Other ws processes may be running on the machine (other users' tests,
    benchmarks), in either part and in any order: only the lines' form
    is checked here, not who else is listed."""
    lines = out.split("\n")
    assert lines[-1] == "", out
    lines.pop()
    reach, cannot = {}, {}
    if lines and lines[0] == _HEADING:
        lines.pop(0)
        while lines and _ENTRY.match(lines[0]):
            pid, cmd = _ENTRY.match(lines.pop(0)).groups()
            assert int(pid) not in reach, out
            reach[int(pid)] = cmd
    else:
        assert lines and lines.pop(0).startswith(
            "no ws process that vgdb can reach"), out
    if lines and re.match(r"\([0-9]+ other Valgrind process(es)?, not "
                          r"running ws\)\Z", lines[0]):
        lines.pop(0)
    if lines:
        assert lines.pop(0) in (
            "ws processes that vgdb cannot reach:",
            "ws processes that vgdb cannot reach with this --vgdb-prefix:"), out
        assert lines, out
        while lines:
            m = _ENTRY.match(lines.pop(0))
            assert m, out
            hints = []
            while lines and lines[0].startswith(" " * 9 + "("):
                hints.append(lines.pop(0).strip())
            assert int(m.group(1)) not in cannot, out
            cannot[int(m.group(1))] = (m.group(2), hints)
    return reach, cannot


def test_listing(server):
    """Without --pid: the ws processes, pid and the client's command; the
    ones vgdb cannot reach with the prefix given are named with the
    prefix they need.  (This machine may run other ws processes: the
    test's own server is looked up in the listing, not expected at a
    place in it.)"""
    command = "%s 2000" % ctl_util.SERVER
    rc, out, err = monitor(server, pid=False)
    assert (rc, err) == (0, ""), err
    reach, cannot = _listing(out)
    # only the server uses its prefix, a folder of this test's own
    assert reach == {server.pid: command}, out
    assert server.pid not in cannot, out

    rc, out, err = monitor(server, pid=False, prefix=False)
    assert (rc, err) == (0, ""), err
    reach, cannot = _listing(out)
    assert server.pid not in reach, out
    assert cannot[server.pid] == (
        command, ["(give ws-monitor --vgdb-prefix=%s)" % server.prefix]), out


# ----------------------------------------------------------------------
# The prompt, through a pseudo-terminal

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r|\x07")


class Console:
    """ws-monitor --pid N in a pseudo-terminal of 100x30 that is its
    controlling terminal (so Ctrl-C is a signal)."""

    def __init__(self, server, home, lang="C.UTF-8", options=()):
        self.prompt = "ws(%d)> " % server.pid
        self.history = os.path.join(home, "history")
        env = dict(os.environ, TERM="xterm", INPUTRC="/dev/null",
                   HOME=home, LC_ALL=lang, WS_MONITOR_HISTORY=self.history)
        self.fd, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ,
                    struct.pack("HHHH", 30, 100, 0, 0))

        def controlling_tty():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.p = subprocess.Popen(
            [MONITOR, "--vgdb-prefix=" + server.prefix,
             "--pid=%d" % server.pid] + list(options),
            stdin=slave, stdout=slave, stderr=slave, env=env,
            preexec_fn=controlling_tty)
        os.close(slave)
        self.raw = b""
        self.pos = 0              # of the text expect() has looked at

    def text(self):
        return _ESCAPES.sub("", self.raw.decode(errors="replace"))

    def expect(self, pattern, timeout=20):
        """Waits for pattern in the output after the last match."""
        end = time.time() + timeout
        rx = re.compile(pattern, re.S)
        while True:
            m = rx.search(self.text(), self.pos)
            if m:
                self.pos = m.end()
                return m
            left = end - time.time()
            if left <= 0:
                raise AssertionError("no %r in:\n%s" % (
                    pattern, self.text()[self.pos:][-3000:]))
            if select.select([self.fd], [], [], left)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError as e:
                    if e.errno != errno.EIO:
                        raise
                    chunk = b""
                if not chunk:
                    raise AssertionError("ws-monitor ended; no %r in:\n%s"
                                         % (pattern, self.text()[-3000:]))
                self.raw += chunk

    def send(self, keys):
        os.write(self.fd, keys.encode())

    def drain(self, seconds):
        """What arrives within seconds, escapes removed."""
        before = len(self.raw)
        end = time.time() + seconds
        while time.time() < end:
            if select.select([self.fd], [], [], end - time.time())[0]:
                self.raw += os.read(self.fd, 65536)
        return _ESCAPES.sub("", self.raw[before:].decode(errors="replace"))

    def finish(self):
        """Ctrl-D at an empty prompt (the caller has seen the prompt: a
        Ctrl-D typed ahead, while the terminal is not yet in readline's
        mode, would reach readline as a NUL); returns the exit status."""
        self.send("\x04")
        try:
            return self.p.wait(timeout=20)
        finally:
            os.close(self.fd)

    def kill(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
            self.p.wait()


@pytest.fixture
def console(server, tmp_path):
    consoles = []

    def start(**kw):
        c = Console(server, str(tmp_path), **kw)
        consoles.append(c)
        c.expect(re.escape(c.prompt))
        return c

    yield start
    for c in consoles:
        c.kill()


def test_prompt(server, console):
    """A command and its reply; Up arrow runs the previous line again; Tab
    completes commands and the parameters of set; Ctrl-C drops the line;
    the history file keeps the lines for the next session."""
    c = console()
    P = re.escape(c.prompt)
    c.send("series 2\r")
    c.expect(r"series 2\nws series: the last 2 of [0-9]+ samples "
             r"\(t insn data\):\n[0-9 ]+\n[0-9 ]+\n" + P)
    c.send("\x1b[A")                                  # Up
    c.expect("series 2")
    c.send("\r")
    c.expect(r"\nws series: the last 2 of [0-9]+ samples" + r".*\n" + P)
    c.send("stat\t")                                  # one match
    c.expect("status ")
    c.send("\r")
    m = c.expect(r"\n(ws status \(pid [0-9]+\):\n.*)\n" + P)
    assert ctl_util.parse_status(m.group(1)) == server.status()
    c.send("sta\t\t")                                 # two: listed
    c.expect(r"start +status *\n" + P + "sta")
    c.send("\x15set ev\t")                            # Ctrl-U, set's params
    c.expect("set every ")
    c.send("%d\r" % EVERY)
    c.expect(r"\nws set every: every is now %d .*\n" % EVERY + P)
    c.send("hot 2 d\t")                               # hot's kind
    c.expect("hot 2 data ")
    c.send("\r")
    c.expect(r"\nHot data pages: the 2 hottest of [0-9]+ touched .*\n" + P)
    c.send("series 7\x03")                            # Ctrl-C: dropped
    c.expect(r"\n" + P)
    c.send("help\r")
    c.expect(r"watch \[<s>\].*\nws monitor commands .*ws mark <label>.*" + P)
    assert c.finish() == 0
    with open(c.history) as f:
        assert f.read() == ("series 2\nstatus\nset every %d\nhot 2 data\n"
                            "help\n" % EVERY)

    c = console()                                     # the next session
    c.send("\x1b[A\x1b[A\x1b[A")
    c.expect(re.escape("set every %d" % EVERY))
    c.send("\x15")
    assert c.finish() == 0


def help_internal(server):
    """What `ws help internal` says: ([command], {command: [argument
    record words]}, [parameter])."""
    commands, args, params = [], {}, []
    for line in server.vgdb("ws help internal").split("\n"):
        w = line.split()
        if w[:1] == ["command"]:
            commands.append(w[1])
            args[w[1]] = []
        elif w[:1] == ["arg"]:
            args[w[1]].append(w[3:])
        elif w[:1] == ["param"]:
            params.append(w[1])
    return commands, args, params


def test_prompt_completes_what_ws_lists(server, console):
    """Tab completes every command `ws help internal` lists, every
    parameter of a `param` argument and every word of a `choice`
    argument: ws-monitor has no list of its own to fall behind."""
    commands, args, params = help_internal(server)
    assert len(commands) >= 10 and params
    c = console()
    for name in commands:
        c.send(name + "\t")
        c.expect(re.escape(name) + " ")
        c.send("\x15")
        for k, arg in enumerate(args[name]):
            if arg[1] == "param":
                for p in params:
                    c.send("%s %s\t" % (name, p))
                    c.expect(re.escape("%s %s " % (name, p)))
                    c.send("\x15")
            if arg[1] == "choice" and all(a[0] == "optional"
                                          for a in args[name][:k]):
                for word in arg[2:]:
                    c.send("ws %s %s\t" % (name, word[:-1]))
                    c.expect(re.escape("ws %s %s " % (name, word)))
                    c.send("\x15")
    assert c.finish() == 0


# A `ws help internal` of a ws that has commands this tree's does not:
# ws-monitor and the gdb script complete them all the same.
OTHER_WS = """\
ws-internal 1
command frobnicate
arg frobnicate 1 optional number 1 9
arg frobnicate 2 required choice alpha beta
command status
command tune
arg tune 1 required param
arg tune 2 required value
param gamma --ws-gamma 1 2
param delta --ws-delta 1 2
end
"""


def test_prompt_learns_commands_it_has_no_list_of(server, console,
                                                  tmp_path):
    """Through a vgdb that answers `ws help internal` with another
    table (and passes everything else to the real vgdb): completion
    follows that table, not this tree's commands."""
    table = tmp_path / "table"
    table.write_text(OTHER_WS)
    fake = tmp_path / "vgdb"
    fake.write_text('#!/bin/sh\nfor a; do [ "$a" = "ws help internal" ] && '
                    'exec cat %s; done\nexec vgdb "$@"\n' % table)
    fake.chmod(0o755)
    c = console(options=["--vgdb=%s" % fake])
    c.send("fr\t")
    c.expect("frobnicate ")
    c.send("3 a\t")                                   # after the number
    c.expect("3 alpha ")
    c.send("\x15frobnicate b\t")                      # the number left out
    c.expect("frobnicate beta ")
    c.send("\x15tu\t")
    c.expect("tune ")
    c.send("\t\t")                                    # its parameters
    c.expect(r"delta +gamma *\n")
    c.send("\x15ser\t")                               # not in this table
    assert "series" not in c.drain(1.0)
    c.send("\x15st\t")                                # only one is
    c.expect("status ")
    c.send("\x15")
    assert c.finish() == 0


def expected_sparkline(values, levels):
    top = max(values)
    return "".join(levels[(v * 7 + top // 2) // top if top else 0]
                   for v in values)


@pytest.mark.parametrize("lang,levels", [("C.UTF-8", BLOCKS), ("C", ASCII)])
def test_watch(server, console, lang, levels):
    """watch 0.2 redraws the status and a sparkline of the samples until a
    key is pressed; then the prompt is back.  Unicode blocks in a UTF-8
    locale, ASCII otherwise."""
    samples = series(server)
    c = console(lang=lang)
    c.send("watch 0.2\r")
    frames = []
    for n in (1, 2, 3):
        m = c.expect(r"every 0\.2 s \(frame %d\); press a key to stop\n"
                     r"(.*?)\n  data (\S+)  last ([0-9]+), max [0-9]+ "
                     r"pages\n" % n)
        frames.append(m.group(1))
    assert c.raw.count(b"\x1b[H\x1b[2J") >= 3
    c.send("x")
    c.expect(re.escape(c.prompt))
    assert "frame" not in c.drain(0.6)              # it stopped
    st = server.status()
    for frame in frames:
        lines = frame.split("\n")
        # the status reply, a blank line, then the samples
        k = lines.index("the last %d of %d samples, t=%d .. %d:" % (
            len(samples), st["samples"], samples[0][0], samples[-1][0]))
        assert lines[k - 1] == ""
        assert ctl_util.parse_status("\n".join(lines[1:k - 1])) == st
        insn = [s[1] for s in samples]
        assert lines[k + 1] == "  insn %s  last %d, max %d pages" % (
            expected_sparkline(insn, levels), insn[-1], max(insn))
    assert m.group(2) == expected_sparkline([s[2] for s in samples], levels)
    assert int(m.group(3)) == samples[-1][2]
    assert len(set(m.group(2))) >= 3
    c.send("series 1\r")                              # the prompt works
    c.expect(r"ws series: the last 1 of .*\n" + re.escape(c.prompt))
    assert c.finish() == 0


def ended(server):
    """What ws-monitor says when the process has ended (docs/control.md):
    so, and where the output file is, which ws has written by then."""
    return r"\nws-monitor: process %d has ended; its output file is %s\r?\n" % (
        server.pid, re.escape(os.path.abspath(server.out_path)))


@pytest.mark.parametrize("reaped", [False, True])
def test_watch_until_the_process_ends(server, console, reaped):
    """The program ends while watch runs: ws-monitor says so, in those
    words, with the output file, and exits with status 2
    (docs/control.md: a process that has ended cannot be reached),
    whether the program's parent has waited for it yet (no such process)
    or not (a zombie, whose pid still exists)."""
    c = console()
    c.send("watch 0.2\r")
    c.expect(r"\(frame 2\); press a key to stop\n")
    if reaped:
        assert server.finish() == 0
    else:
        server.p.stdin.close()                  # exit; nobody waits yet
    c.expect(ended(server))
    assert c.p.wait(timeout=20) == 2
    os.close(c.fd)
    assert "cannot reach" not in c.text()
    if not reaped:
        assert server.finish() == 0
    assert os.path.getsize(server.out_path) > 0


def test_prompt_after_the_process_ends(server, console):
    """The program ends while the prompt waits: the next command says it
    has ended and where its output file is (learnt when the prompt
    started), and ws-monitor exits with status 2."""
    c = console()
    assert server.finish() == 0
    c.send("series 3\r")
    c.expect(ended(server))
    assert c.p.wait(timeout=20) == 2
    os.close(c.fd)


# ----------------------------------------------------------------------
# gdb

def test_gdb_command(server):
    """With ws-gdb.py sourced, `ws status` in gdb reaches the process,
    refusals come back as they are, Tab completion knows ws's commands,
    `help ws` explains, and the program goes on after gdb detaches."""
    rc, out, err = ctl_util.gdb_batch(
        ctl_util.SERVER, server.prefix,
        ["source " + GDB_SCRIPT, "ws status", "ws set tau 0", "complete ws st",
         "complete ws set e", "complete ws se", "complete ws hot 3 i",
         "complete ws hot d", "complete ws break d", "complete ws sin",
         "complete ws dump f", "help ws", "detach"])
    assert rc == 0, err
    both = out + err
    m = re.search(r"ws status \(pid %d\):\n(  .*\n)+" % server.pid, both)
    assert m and ctl_util.parse_status(m.group(0)) == server.status(), both
    assert "ws set tau: '0' is not a whole number" in both
    assert "ws start\nws status\nws stop\nws set every\nws series\nws set\n" \
        in out, out
    assert "ws hot 3 insn\nws hot data\n" in out, out
    assert "ws break data>=\nws break delete\nws since\nws dump full\n" \
        in out, out
    assert "Send a command to the ws tool of the program" in out
    server.wait_blocked()
    assert monitor(server, "status")[0] == 0

    p = subprocess.run(["gdb", "-batch", "-nx", "-ex", "source " + GDB_SCRIPT,
                        "-ex", "ws status"], capture_output=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    assert "ws: gdb is not connected to a program running under Valgrind" \
        in p.stderr.decode(), p.stderr


def test_gdb_functions_test_the_working_set(server_factory):
    """$_ws_data() and $_ws_insn() are the current sizes `monitor ws
    status` gives, so a breakpoint can test them: with `break
    ctl_checkpoint if $_ws_data() > 200`, the checkpoint after 20 pages
    does not stop the program, the one after 300 more does.  The window
    is longer than the run, so it holds every page touched since the
    start: the start-up's (about 80 here) and those of the touches."""
    srv = server_factory(vgdb_error=0, options=("--ws-tau=1000000000",
                                                "--ws-every=1000000000"))
    try:
        srv.p.stdin.write(b"touch 0 20 1\ncheckpoint\ntouch 20 300 1\n"
                          b"checkpoint\n")
        srv.p.stdin.close()
        rc, out, err = ctl_util.gdb_batch(
            ctl_util.SERVER, srv.prefix,
            ["source " + GDB_SCRIPT,
             "break ctl_checkpoint if $_ws_data() > 200", "continue",
             "print $_ws_data()", "print $_ws_insn()", "monitor ws status",
             "info breakpoints", "continue"])
        assert rc == 0, (out, err)
        assert srv.p.wait(timeout=60) == 0
    finally:
        srv.kill()
    assert out.count("Breakpoint 1, ") == 1, out
    assert "breakpoint already hit 1 time\n" in out, out
    assert "exited normally" in out, out
    i = err.index("ws status (pid")
    st = ctl_util.parse_status(re.match(r"ws status \(pid [0-9]+\):\n"
                                        r"(  .*\n)+", err[i:]).group(0))
    got = re.findall(r"^\$[12] = ([0-9]+)$", out, re.M)
    assert [int(v) for v in got] == [st["data"], st["insn"]], (out, st)
    assert st["data"] > 320, st

    p = subprocess.run(["gdb", "-batch", "-nx", "-ex", "source " + GDB_SCRIPT,
                        "-ex", "print $_ws_data()"], capture_output=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert "$_ws_data: gdb is not connected to a program running under " \
        "Valgrind's ws" in p.stderr.decode(), p.stderr


def test_gdb_command_completes_what_ws_lists(server):
    """The gdb command completes every command, parameter and choice
    that `ws help internal` lists; given another table (the one the
    connected ws gives, replaced in gdb), it completes that one's."""
    commands, args, params = help_internal(server)
    gdb_commands = ["source " + GDB_SCRIPT]
    gdb_commands += ["complete ws " + name for name in commands]
    gdb_commands += ["complete ws set " + p for p in params]
    gdb_commands += ["complete ws hot "]
    fake = ("python import gdb; _real = gdb.execute; gdb.execute = "
            "lambda c, *a, **k: %r if c == 'monitor ws help internal' "
            "else _real(c, *a, **k)" % OTHER_WS)
    gdb_commands += ["echo --- other\\n", "source " + GDB_SCRIPT, fake,
                     "complete ws fr", "complete ws frobnicate 3 ",
                     "complete ws frobnicate b", "complete ws tune ",
                     "complete ws ser", "detach"]
    rc, out, err = ctl_util.gdb_batch(ctl_util.SERVER, server.prefix,
                                      gdb_commands)
    assert rc == 0, err
    ours, other = out.split("--- other\n")
    lines = ours.split("\n")
    for name in commands:
        assert "ws " + name in lines, (name, ours)
    for p in params:
        assert "ws set " + p in lines, (p, ours)
    choices = [a[2:] for a in args["hot"] if a[1] == "choice"][0]
    assert [l for l in lines if l.startswith("ws hot ")] == \
        ["ws hot " + w for w in sorted(choices)], ours
    assert other.split("\n")[:6] == [
        "ws frobnicate", "ws frobnicate 3 alpha", "ws frobnicate 3 beta",
        "ws frobnicate beta", "ws tune delta", "ws tune gamma"], other
    assert "series" not in other, other


# ----------------------------------------------------------------------
# ws-monitor under memcheck

def test_memcheck(server):
    """ws-monitor's one-shot mode is clean under memcheck."""
    rc, out, err = monitor(server, "status", wrapper=[
        "valgrind", "-q", "--leak-check=full", "--error-exitcode=3"])
    assert rc == 0, err
    assert ctl_util.parse_status(out)["pid"] == server.pid
    assert err == "", err
