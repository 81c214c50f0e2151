"""Helpers for tests/test_control.py: the parts of output format 3 that
client requests and monitor commands add, dump files, and driving a
program under ws from outside with vgdb and gdb.

- parse_output(): reads an output file of format 3.  The lines version 2
  added (dump blocks, region lines; docs/output-format.md) are checked
  here, strictly; the rest goes through wslib's reader, which checks the
  header, samples, events, time order and trailer.
- parse_dump_file(): a file written by `ws dump <file>`.
- Server: tests/progs/ctl_server under ws, blocked reading a pipe that
  the test writes to; vgdb() sends it monitor commands.
"""

import os
import re
import subprocess
import time

import wslib

FORMAT_VERSION = wslib.FORMAT_VERSION

_DUMP_BEGIN = re.compile(r"dump-begin ([0-9]+)\Z")
_DUMP_PAGE = re.compile(r"dump-page (insn|data) 0x([0-9a-f]+) ([0-9]+) "
                        r"([0-9]+) (0x[0-9a-f]+ \S+ \S.*)\Z")
_DUMP_OWNER = re.compile(r"dump-owner (\S.*)\Z")
_DUMP_END = re.compile(r"dump-end ([0-9]+) ([0-9]+)\Z")
_AVG = r"([0-9]+\.[0-9])"
_REGION = re.compile(r"region ([0-9]+) ([0-9]+) insn %s ([0-9]+) ([0-9]+) "
                     r"data %s ([0-9]+) ([0-9]+) label (\S+(?: \S+)*)\Z"
                     % (_AVG, _AVG))
_LABEL = re.compile(r"[^\x00-\x1f\x7f ]+( [^\x00-\x1f\x7f ]+)*\Z")


class Dump:
    """One dump block: t, pages = [(kind, address, since)], counts =
    {'insn': n, 'data': n} from dump-end."""

    def __init__(self, t):
        self.t, self.pages, self.counts = t, [], None
        self.label = None
        # (kind, address) -> [accesses, first access text, owner text]
        self.details = {}

    def addresses(self, kind):
        return [a for k, a, _ in self.pages if k == kind]


class Region:
    def __init__(self, m):
        self.regions, self.samples = int(m.group(1)), int(m.group(2))
        self.insn = (float(m.group(3)), int(m.group(4)), int(m.group(5)))
        self.data = (float(m.group(6)), int(m.group(7)), int(m.group(8)))
        self.label = m.group(9)

    def __repr__(self):
        return "<region %s x%d samples=%d insn=%r data=%r>" % (
            self.label, self.regions, self.samples, self.insn, self.data)


class FormatError(wslib.FormatError):
    pass


def _read_stack(lines, i, stacks):
    """A stack block at lines[i] (a dump file's own), into stacks, read
    by wslib's reader of output files; returns the next index."""
    out = wslib.WsOutput()
    out.version, out.stacks = FORMAT_VERSION, stacks
    reader = wslib._Reader(out)
    reader.stack_begin(i + 1, lines[i])
    i += 1
    while reader.stack is not None:
        if i == len(lines):
            raise FormatError("dump file: the file ends inside stack %d"
                              % reader.stack[0])
        reader.stack_line(i + 1, lines[i])
        i += 1
    return i


def _read_block(lines, i, where, stacks=None):
    """The dump block starting at lines[i]; returns (Dump, next index).
    stacks: the stack blocks a dump file holds ({id: [Where, ...]}, as
    wslib has an output file's), which stand before the dump-owner line
    that first names them; None in an output file, whose stacks stand
    outside its dump blocks."""
    m = _DUMP_BEGIN.match(lines[i])
    if not m:
        raise FormatError("%s line %d: expected 'dump-begin T', got %r"
                          % (where, i + 1, lines[i]))
    d = Dump(int(m.group(1)))
    i += 1
    last = {}
    while i < len(lines):
        m = _DUMP_PAGE.match(lines[i])
        if m:
            kind, addr, since = m.group(1), int(m.group(2), 16), \
                int(m.group(3))
            if kind == "insn" and "data" in last:
                raise FormatError("%s line %d: insn page after data pages"
                                  % (where, i + 1))
            if last.get(kind, -1) >= addr:
                raise FormatError("%s line %d: addresses must increase"
                                  % (where, i + 1))
            if since > d.t:
                raise FormatError("%s line %d: since %d is after the dump "
                                  "at %d" % (where, i + 1, since, d.t))
            last[kind] = addr
            d.pages.append((kind, addr, since))
            d.details[(kind, addr)] = [int(m.group(4)), m.group(5), None]
            i += 1
            if kind == "data":
                while (stacks is not None and i < len(lines)
                       and wslib._STACK.match(lines[i])):
                    i = _read_stack(lines, i, stacks)
                m = _DUMP_OWNER.match(lines[i]) if i < len(lines) else None
                if not m:
                    raise FormatError("%s line %d: a data page's dump-owner "
                                      "line is missing" % (where, i + 1))
                d.details[(kind, addr)][2] = m.group(1)
                heap = re.match(r"heap ([0-9]+)", m.group(1))
                if stacks is not None and heap \
                        and int(heap.group(1)) not in stacks:
                    raise FormatError("%s line %d: heap owner's stack %s is "
                                      "not in the file" % (where, i + 1,
                                                           heap.group(1)))
                i += 1
            continue
        m = _DUMP_END.match(lines[i])
        if not m:
            raise FormatError("%s line %d: expected dump-page or dump-end, "
                              "got %r" % (where, i + 1, lines[i]))
        d.counts = {"insn": int(m.group(1)), "data": int(m.group(2))}
        for kind in ("insn", "data"):
            if d.counts[kind] != len(d.addresses(kind)):
                raise FormatError("%s line %d: dump-end says %d %s pages, "
                                  "the block lists %d" % (
                                      where, i + 1, d.counts[kind], kind,
                                      len(d.addresses(kind))))
        return d, i + 1
    raise FormatError("%s: dump block without dump-end" % where)


def parse_output(text):
    """A complete output file of format 3.  Returns wslib's WsOutput with
    two more attributes: dumps (list of Dump, from WS_DUMP, each with its
    label) and regions (list of Region, in file order)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "ws-output-format: %d" % FORMAT_VERSION:
        raise FormatError("line 1: expected 'ws-output-format: %d', got %r"
                          % (FORMAT_VERSION, lines[:1]))
    rest, dumps, regions = [], [], []
    i = 1
    in_trailer = False
    while i < len(lines):
        line = lines[i]
        if line.startswith("dump"):
            if not (rest and rest[-1].startswith("event ")
                    and rest[-1].split(" ")[2:4] == ["dump", "label"]):
                raise FormatError("line %d: a dump block must follow an "
                                  "'event T dump label L' line" % (i + 1))
            d, i = _read_block(lines, i, "output")
            d.label = rest[-1].split(" ", 4)[4]
            if d.t != int(rest[-1].split(" ")[1]):
                raise FormatError("dump-begin %d != its event's time" % d.t)
            dumps.append(d)
            continue
        if line.startswith("region"):
            m = _REGION.match(line)
            if not m:
                raise FormatError("line %d: bad region line %r"
                                  % (i + 1, line))
            regions.append(Region(m))
            in_trailer = True
            i += 1
            continue
        if in_trailer and not line.startswith(
                ("hot", "page ", "heap-site ", "peaks", "stack", "frame",
                 "inline", "summary", "samples", "end")):
            raise FormatError("line %d: %r after a region line"
                              % (i + 1, line))
        if line.startswith("event "):
            _check_event(line, i + 1)
        rest.append(line)
        i += 1
    rest.insert(0, "ws-output-format: %d" % wslib.FORMAT_VERSION)
    out = wslib.parse_output("\n".join(rest) + "\n")
    if "instr-atstart" not in out.header:
        raise FormatError("header lacks instr-atstart")
    out.dumps, out.regions = dumps, regions
    return out


def _check_event(line, lineno):
    """The arguments of the event kinds that version 2 added."""
    parts = line.split(" ", 3)
    kind = parts[2] if len(parts) > 2 else ""
    args = parts[3] if len(parts) > 3 else ""
    ok = True
    if kind in ("start", "stop"):
        ok = args == ""
    elif kind == "set":
        ok = re.match(r"(every|tau|peak-thresh) [1-9][0-9]*\Z", args) is not None
    elif kind == "mark":
        ok = _LABEL.match(args) is not None and len(args.encode()) <= 255
    elif kind == "dump":
        ok = (args == "monitor" or re.match(r"file /\S+\Z", args) or
              (args.startswith("label ") and _LABEL.match(args[6:])
               and len(args[6:].encode()) <= 255))
    if not ok:
        raise FormatError("line %d: bad %s event %r" % (lineno, kind, line))


def read_output(path):
    with open(path, encoding="utf-8") as f:
        return parse_output(f.read())


def parse_dump_file(text):
    """A dump file: returns (header dict, Dump); the Dump's stacks are
    the file's stack blocks, {id: [Where, ...]} innermost first."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "ws-dump-format: %d" % FORMAT_VERSION:
        raise FormatError("dump file: first line %r" % lines[:1])
    header = {}
    i = 1
    while i < len(lines) and re.match(r"[a-z][a-z0-9-]*: ", lines[i]):
        k, v = lines[i].split(": ", 1)
        header[k] = v
        i += 1
    for k in ("pid", "output-file", "time-unit", "every", "tau", "pagesize"):
        if k not in header:
            raise FormatError("dump file: no %r in the header" % k)
    stacks = {}
    d, i = _read_block(lines, i, "dump file", stacks)
    d.stacks = stacks
    if i != len(lines):
        raise FormatError("dump file: %r after dump-end" % lines[i])
    return header, d


def check_trailer(out, stderr, out_path):
    """The trailer agrees with the samples and with the summary on stderr
    (wslib.check_trailer does the same for version 1 files)."""
    summ = wslib.parse_summary(stderr)
    assert out.complete and out.nsamples == len(out.samples)
    assert summ["samples"] == len(out.samples)
    assert os.path.abspath(summ["output_file"]) == os.path.abspath(out_path)
    for kind in ("insn", "data"):
        assert out.summary[kind] == summ[kind], (kind, out.summary, summ)
        vals = [getattr(s, kind) for s in out.samples]
        if vals:
            assert out.summary[kind][1] == max(vals)
            assert abs(out.summary[kind][0] - sum(vals) / len(vals)) \
                <= 0.05 + 1e-9


def events(out, kind=None):
    """(t, kind, args) of the events, or of one kind."""
    return [(e.t, e.kind, " ".join(e.args)) for e in out.events
            if kind is None or e.kind == kind]


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


# ----------------------------------------------------------------------
# A program under ws, steered through a pipe, vgdb and gdb

SERVER = wslib.prog("ctl_server")


class Server:
    """tests/progs/ctl_server PAGES under ws.  Its standard input is a pipe
    this object writes to; after each command it waits for the program's
    answer and then until the program is blocked reading the pipe again,
    so that nothing runs while vgdb looks at it."""

    def __init__(self, tmpdir, pages=2000, options=(), vgdb_error=None):
        wslib.require_built(SERVER)
        self.dir = str(tmpdir)
        self.out_path = os.path.join(self.dir, "ws.out")
        self.prefix = os.path.join(self.dir, "vgdb")
        opts = ["--vgdb=yes", "--vgdb-prefix=" + self.prefix] + list(options)
        if vgdb_error is not None:
            opts.append("--vgdb-error=%d" % vgdb_error)
        self.argv = wslib.ws_command([SERVER, str(pages)], opts,
                                     self.out_path)
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
        """Until the program sits in read(0, ...) (syscall 0, fd 0)."""
        end = time.time() + timeout
        path = "/proc/%d/syscall" % self.pid
        while time.time() < end:
            try:
                with open(path) as f:
                    words = f.read().split()
            except OSError:
                words = []
            if words[:2] == ["0", "0x0"]:
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
        rc = self.p.wait(timeout=60)
        self.p.stdout.close()
        self._stderr.close()
        return rc

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
                "output file": "output_file"}


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
        if key in ("time", "tau", "every", "pagesize"):
            val = int(val.split(" ")[0])
        elif key in ("insn", "data", "samples", "peaks"):
            val = int(val)
        res[key] = val
    assert set(res) == set(_STATUS_KEYS.values()) | {"pid"}, res
    return res


_MON_DUMP_HEAD = re.compile(r"ws dump at t=([0-9]+): ([0-9]+) insn pages, "
                            r"([0-9]+) data pages in the window\Z")
_MON_DUMP_PAGE = re.compile(r"  (insn|data) 0x([0-9a-f]{16})  last access at "
                            r"or after t=([0-9]+), ([0-9]+) accesses, "
                            r"first at (0x[0-9a-f]+ \S+ \S.*)\Z")


def parse_monitor_dump(text):
    """The reply to `ws dump` (no file): a Dump whose counts come from the
    first line; every page line is checked."""
    lines = [l for l in text.split("\n") if l != ""]
    m = _MON_DUMP_HEAD.match(lines[0])
    assert m, "not a dump reply: %r" % text[:300]
    d = Dump(int(m.group(1)))
    d.counts = {"insn": int(m.group(2)), "data": int(m.group(3))}
    assert lines[1].startswith("  (pages of "), lines[1]
    for line in lines[2:]:
        if line.startswith("    owner: "):
            assert d.pages and d.pages[-1][0] == "data", line
            d.details[d.pages[-1][:2]][2] = line[11:]
            continue
        if line.startswith("      "):      # the owner's allocation stack
            continue
        m = _MON_DUMP_PAGE.match(line)
        assert m, "dump line %r" % line
        d.pages.append((m.group(1), int(m.group(2), 16), int(m.group(3))))
        d.details[d.pages[-1][:2]] = [int(m.group(4)), m.group(5), None]
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

