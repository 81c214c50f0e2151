"""Helpers for the tests that steer ws: output files read by wslib with
the checks of what ws writes, replies of monitor commands, and driving a
program under ws from outside with vgdb and gdb.

- read_output(): wslib's reading of an output file ws wrote, with
  wslib.check_written_events.
- parse_status(), parse_monitor_dump(): the replies to `ws status` and
  `ws dump full` (the dump as a wslib.Dump).
- Server: tests/progs/ctl_server (or another program) under ws with
  vgdb on, its standard input a pipe the test writes to; vgdb() sends
  it monitor commands.  tests/conftest.py gives the `server` and
  `server_factory` fixtures.
"""

import os
import re
import subprocess
import time

import wslib


def read_output(path):
    """A complete output file ws wrote (wslib's reader), with what ws
    writes beyond the grammar checked."""
    out = wslib.read_output(path)
    wslib.check_written_events(out)
    return out


def events(out, kind=None):
    """(t, kind, args) of the events, or of one kind.  A final event's
    window is checked here (wslib.check_final_windows: exact where the
    file says when its epoch began) and left out of its args."""
    wslib.check_final_windows(out)
    return [(e.t, e.kind, "" if e.kind == "final" else " ".join(e.args))
            for e in out.events if kind is None or e.kind == kind]


def on_intervals(out):
    """[(t_start, t_stop)] of measurement, from the start/stop events;
    measurement on from t=0 when the header says instr-atstart: yes; an
    interval still open at the end ends at None."""
    ivs, on = [], 0 if out.header["instr-atstart"] == "yes" else None
    for e in out.events:
        if e.kind == "start":
            assert on is None, "start while on at line %d" % e.lineno
            on = e.t
        elif e.kind == "stop":
            assert on is not None, "stop while off at line %d" % e.lineno
            ivs.append((on, e.t))
            on = None
    if on is not None:
        ivs.append((on, None))
    return ivs


def no_such_pid():
    """A process id no process can have: the kernel hands out ids below
    pid_max only (a killed process's id may be reused at once)."""
    with open("/proc/sys/kernel/pid_max") as f:
        return int(f.read())


# ----------------------------------------------------------------------
# A program under ws, steered through a pipe, vgdb and gdb

SERVER = wslib.prog("ctl_server")


class Server:
    """tests/progs/ctl_server PAGES under ws.  Its standard input is a pipe
    this object writes to; after each command it waits for the program's
    answer and then until the program is blocked reading the pipe again,
    so that nothing runs while vgdb looks at it.

    argv: another program instead, which says `ready` when it runs and
    ends at the end of its input (rel_race: it runs flat out meanwhile,
    so nothing waits for it to block)."""

    def __init__(self, tmpdir, pages=2000, options=(), vgdb_error=None,
                 argv=None):
        self.busy = argv is not None
        argv = list(argv) if self.busy else [SERVER, str(pages)]
        wslib.require_built(argv[0])
        self.dir = str(tmpdir)
        self.out_path = os.path.join(self.dir, "ws.out")
        self.prefix = os.path.join(self.dir, "vgdb")
        opts = ["--vgdb=yes", "--vgdb-prefix=" + self.prefix] + list(options)
        if vgdb_error is not None:
            opts.append("--vgdb-error=%d" % vgdb_error)
        self.argv = wslib.ws_command(argv, opts, self.out_path)
        self.stderr_path = os.path.join(self.dir, "stderr")
        self._stderr = open(self.stderr_path, "wb")
        self.p = subprocess.Popen(self.argv, cwd=self.dir,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=self._stderr)
        self.pid = self.p.pid
        self.base = None
        if vgdb_error is None:
            self._ready()

    def _ready(self):
        line = self._answer()
        if self.busy:
            assert line == "ready", "%s said %r" % (self.argv, line)
            return
        m = re.match(r"ready (0x[0-9a-f]+)\Z", line)
        assert m, "ctl_server said %r" % line
        self.base = int(m.group(1), 16)
        self.wait_blocked()

    def _answer(self):
        line = self.p.stdout.readline().decode()
        if not line:
            self.p.wait(timeout=30)
            raise AssertionError("ctl_server ended (status %s); stderr:\n%s"
                                 % (self.p.returncode, self.stderr()[-3000:]))
        return line.rstrip("\n")

    def wait_blocked(self, timeout=30):
        """Until the program sits in read(0, ...) (syscall 0, fd 0; read is
        syscall 3 for a 32-bit program, whose Valgrind is 32-bit too)."""
        end = time.time() + timeout
        path = "/proc/%d/syscall" % self.pid
        while time.time() < end:
            try:
                with open(path) as f:
                    words = f.read().split()
            except OSError:
                words = []
            if words[:2] in (["0", "0x0"], ["3", "0x0"]):
                return
            time.sleep(0.02)
        raise AssertionError("ctl_server did not block reading its input")

    def cmd(self, line):
        """Sends a command line, returns the program's answer."""
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        answer = self._answer()
        self.wait_blocked()
        return answer

    def touch(self, first, count, sweeps=1):
        assert self.cmd("touch %d %d %d" % (first, count, sweeps)) == "ok"

    def vgdb(self, command):
        """Sends one monitor command with vgdb; returns what it printed on
        standard output (the reply).  vgdb exits 0 even when the command
        is refused, so callers check the text."""
        p = subprocess.run(["vgdb", "--vgdb-prefix=" + self.prefix,
                            "--pid=%d" % self.pid, "--wait=20", command],
                           capture_output=True, timeout=60)
        err = p.stderr.decode(errors="replace")
        assert p.returncode == 0, "vgdb %r: status %d\n%s" % (
            command, p.returncode, err)
        assert "sending command %s to pid %d" % (command, self.pid) in err, \
            err
        return p.stdout.decode(errors="replace")

    def status(self):
        return parse_status(self.vgdb("ws status"))

    def finish(self):
        """Ends the program (end of input); returns its exit status."""
        self.p.stdin.close()
        rc = self.p.wait(timeout=120)
        self.p.stdout.close()
        self._stderr.close()
        return rc

    def run(self):
        """finish(), requiring exit status 0: the run as a wslib.WsRun
        (its stderr and output file)."""
        rc = self.finish()
        assert rc == 0, self.stderr()[-3000:]
        return wslib.WsRun(self.argv, rc, "", self.stderr(), self.out_path)

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self._stderr.close()

    def stderr(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def output(self):
        return read_output(self.out_path)


_STATUS_KEYS = {"measurement": "measurement", "time": "time", "tau": "tau",
                "every (T)": "every", "page size": "pagesize",
                "insn pages": "insn", "data pages": "data",
                "samples": "samples", "peaks": "peaks",
                "output file": "output_file", "line size": "linesize",
                "insn lines": "insn_lines", "data lines": "data_lines",
                "live heap": "heap"}
# given only when lines are measured (--ws-linesize other than 0)
_STATUS_LINE_KEYS = {"linesize", "insn_lines", "data_lines", "density"}


def parse_status(text):
    """The reply to `ws status` as a dict (numbers as int); raises
    AssertionError if a field is missing or the layout is wrong."""
    lines = text.strip("\n").split("\n")
    m = re.match(r"ws status \(pid ([0-9]+)\):\Z", lines[0])
    assert m, "not a status reply: %r" % text
    res = {"pid": int(m.group(1))}
    for line in lines[1:]:
        m = re.match(r"  ([a-zA-Z() ]+): +(.*)\Z", line)
        assert m and m.group(1) in _STATUS_KEYS, "status line %r" % line
        key, val = _STATUS_KEYS[m.group(1)], m.group(2)
        if key in ("time", "tau", "every", "pagesize", "linesize"):
            val = int(val.split(" ")[0])
        elif key == "heap":
            m = re.match(r"([0-9]+) bytes\Z", val)
            assert m, "status line %r" % line
            val = int(m.group(1))
        elif key == "data_lines":
            m = re.match(r"([0-9]+) \(density ([0-9]\.[0-9]{3})\)\Z", val)
            assert m, "status line %r" % line
            val = int(m.group(1))
            res["density"] = float(m.group(2))
        elif key in ("insn", "data", "samples", "peaks", "insn_lines"):
            val = int(val)
        res[key] = val
    # the live heap only when the heap is followed (--ws-heap=yes)
    keys = set(_STATUS_KEYS.values()) | {"pid", "density"}
    assert set(res) - {"heap"} in (keys - {"heap"},
                                   keys - {"heap"} - _STATUS_LINE_KEYS), res
    return res


_MON_DUMP_HEAD = re.compile(r"ws dump at t=([0-9]+): ([0-9]+) insn pages, "
                            r"([0-9]+) data pages in the window"
                            r"(?: \([0-9]+ and [0-9]+ lines of [0-9]+ "
                            r"bytes\))?\Z")
# addresses unpadded, as memcheck prints them
_MON_DUMP_PAGE = re.compile(r"  (insn|data) 0x([1-9a-f][0-9a-f]*)  last "
                            r"access at or after t=([0-9]+), ([0-9]+) "
                            r"accesses, "
                            r"first at (0x[0-9a-f]+ \S+ \S.*)\Z")


def parse_monitor_dump(text):
    """The reply to `ws dump full`: a wslib.Dump whose counts come
    from the first line, each data page's owner the reply's words for it;
    every page line is checked."""
    lines = [l for l in text.split("\n") if l != ""]
    m = _MON_DUMP_HEAD.match(lines[0])
    assert m, "not a dump reply: %r" % text[:300]
    d = wslib.Dump(int(m.group(1)))
    d.counts = {"insn": int(m.group(2)), "data": int(m.group(3))}
    assert lines[1].startswith("  (pages of "), lines[1]
    for line in lines[2:]:
        if line.startswith("    owner: "):
            assert d.pages and d.pages[-1].kind == "data", line
            d.pages[-1].owner = line[11:]      # in words, not a file's
            continue
        if line.startswith("      "):      # the owner's allocation stack
            continue
        m = _MON_DUMP_PAGE.match(line)
        assert m, "dump line %r" % line
        where = m.group(5).split(" ", 2)
        d.pages.append(wslib.DumpPage(
            m.group(1), int(m.group(2), 16), int(m.group(3)),
            int(m.group(4)), wslib.Where(int(where[0], 16), where[1],
                                         where[2])))
    for kind in ("insn", "data"):
        assert len(d.addresses(kind)) == d.counts[kind], (kind, d.counts)
    return d


def gdb_batch(prog, prefix, commands, timeout=120):
    """Runs gdb in batch mode on prog, connected through vgdb to the
    process waiting under prefix; returns (status, stdout, stderr) with
    gdb's warning about remote file transfer left out of stderr."""
    argv = ["gdb", "-batch", "-nx", "-q", "-ex", "set confirm off",
            "-ex", "set pagination off",
            "-ex", "target remote | vgdb --wait=30 --vgdb-prefix=" + prefix]
    for c in commands:
        argv += ["-ex", c]
    argv.append(prog)
    p = subprocess.run(argv, capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    err = "\n".join(l for l in p.stderr.decode(errors="replace").split("\n")
                    if "does not support file transfer" not in l)
    return p.returncode, p.stdout.decode(errors="replace"), err

