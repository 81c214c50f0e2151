"""ws-monitor on what it meets (issue 16 items 13 and 14):

- vgdb FIFOs left by a ws run killed with SIGKILL, whose pid now belongs
  to an ordinary process: `ws-monitor --pid N status` says at once that N
  is not under Valgrind and that the FIFOs are left over (it waited the
  whole --timeout);
- its listing shows a program's arguments escaped as the output file's
  command: line has them (a newline made a fake row);
- a command longer than vgdb can pass is refused (exit status 1) with
  the reason, not reported as an unreachable process (exit status 2);
  one just below the limit reaches ws, which answers it.
"""

import os
import signal
import subprocess
import time

import ctl_util
import wslib

MONITOR = os.path.join(wslib.TOP_BUILDDIR, "monitor", "ws-monitor")


def monitor(prefix, *words, timeout=60):
    wslib.require_built(MONITOR)
    p = subprocess.run([MONITOR, "--vgdb-prefix=" + prefix] + list(words),
                       capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def test_stale_fifos_of_a_killed_run(tmp_path):
    """The FIFOs of a SIGKILLed ws run, renamed for the pid of a `sleep`
    (the pid a later process could get): ws-monitor answers at once,
    well inside its --timeout of 30 s, that the process is no Valgrind."""
    server = ctl_util.Server(tmp_path)
    dead = server.pid
    os.kill(dead, signal.SIGKILL)
    server.p.wait(timeout=30)
    server.kill()
    fifos = [f for f in os.listdir(str(tmp_path))
             if f.startswith("vgdb-") and "-%d-" % dead in f]
    assert len(fifos) == 3, os.listdir(str(tmp_path))
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        for f in fifos:
            os.rename(str(tmp_path / f),
                      str(tmp_path / f.replace("-%d-" % dead,
                                               "-%d-" % sleeper.pid)))
        start = time.monotonic()
        rc, out, err = monitor(server.prefix, "--timeout=30", "--pid",
                               str(sleeper.pid), "status", timeout=60)
        took = time.monotonic() - start
    finally:
        sleeper.kill()
        sleeper.wait()
    assert rc == 2 and out == "", (rc, out, err)
    assert err == ("ws-monitor: process %d (sleep) is not running under "
                   "Valgrind; the vgdb FIFOs for pid %d are left over from "
                   "an earlier process that was killed: remove %s-*-%d-*\n"
                   % (sleeper.pid, sleeper.pid, server.prefix,
                      sleeper.pid)), err
    # a hang guard, not a speed test: the old ws-monitor waited all 30 s
    assert took < 25, took


def test_listing_escapes_arguments(tmp_path):
    """A ws process whose arguments hold a newline, a tab, a backslash and
    a space: one row, each argument escaped as a word."""
    prefix = str(tmp_path / "vgdb")
    args = ["-c", "sleep 60", "a\nb", "t\tc\\d e"]
    p = subprocess.Popen(wslib.ws_command(["/bin/sh"] + args,
                                          ["--vgdb=yes",
                                           "--vgdb-prefix=" + prefix],
                                          str(tmp_path / "ws.out")),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rc, out, err = monitor(prefix)
            if str(p.pid) in out:
                break
            time.sleep(0.2)
    finally:
        p.kill()
        p.wait()
    rows = [line for line in out.split("\n") if line.startswith(str(p.pid))]
    assert rows == ["%-8d /bin/sh -c sleep\\x2060 a\\x0ab "
                    "t\\x09c\\\\d\\x20e" % p.pid], out
    assert "\nb " not in out


def test_long_commands(tmp_path):
    server = ctl_util.Server(tmp_path)
    try:
        label = "y" * 8200
        rc, out, err = monitor(server.prefix, "--pid", str(server.pid),
                               "mark", label)
        assert (rc, out) == (1, ""), (rc, out, err)
        assert err == ("ws-monitor: the command is 8208 characters long; "
                       "vgdb passes at most 8186 (the command was not "
                       "sent)\n"), err
        # 8186 characters in all: ws gets it, and refuses the label
        rc, out, err = monitor(server.prefix, "--pid", str(server.pid),
                               "mark", "y" * (8186 - 8))
        assert rc == 1 and out == ("ws mark: the label is longer than 255 "
                                   "characters; nothing recorded\n"), \
            (rc, out, err)
        assert server.finish() == 0
        out = server.output()
        assert not [e for e in out.events if e.kind == "mark"]
    finally:
        server.kill()
