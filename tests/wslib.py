"""Run ws (and lackey) from the build tree and read what ws writes.

- where things are: WS_TOP_SRCDIR, WS_TOP_BUILDDIR and WS_VG_IN_PLACE come
  from `make check`; without them the tree is the parent of tests/.
- run_ws(): runs `vg-in-place --tool=ws --ws-file=<unique file> ...` and
  returns a WsRun with the exit status, stderr, the parsed stderr summary
  and the parsed output file.
- parse_output(): a strict reader of the output file, format version 1
  (docs/output-format.md).  Anything the grammar does not allow raises
  FormatError naming the line.
- parse_summary(): the summary ws prints on stderr at exit.
"""

import os
import re
import subprocess
import tempfile

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.environ.get("WS_TOP_SRCDIR") or os.path.dirname(TESTS_DIR)
TOP_BUILDDIR = os.environ.get("WS_TOP_BUILDDIR") or TOP_SRCDIR
VG_IN_PLACE = (os.environ.get("WS_VG_IN_PLACE")
               or os.path.join(TOP_BUILDDIR, "vg-in-place"))

FORMAT_VERSION = 2


def prog(name):
    """Path of a test program built by `make check` (tests/progs/NAME)."""
    return os.path.join(TOP_BUILDDIR, "tests", "progs", name)


def built(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


# ----------------------------------------------------------------------
# The output file

class FormatError(Exception):
    """The output file breaks the grammar of docs/output-format.md."""


# Header keys of format version 2, in the order the format gives them.
HEADER_KEYS = ("tool", "command", "pid", "ppid", "time-unit", "every", "tau",
               "pagesize", "syscalls", "per-thread", "instr-atstart",
               "columns")
COLUMNS = "t insn data"
COLUMNS_PER_THREAD = "t insn data shared {tid insn data}..."

_KEY = re.compile(r"([a-z][a-z0-9-]*): (.*)\Z")
_SAMPLE = re.compile(r"[0-9]+( [0-9]+)*\Z")
_EVENT = re.compile(r"event ([0-9]+) ([a-z][a-z0-9-]*)((?: [^ ]+)*)\Z")
_SUMMARY = re.compile(r"summary (insn|data) ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+)\Z")
_SAMPLES = re.compile(r"samples ([0-9]+)\Z")
_DUMP_BEGIN = re.compile(r"dump-begin ([0-9]+)\Z")
_DUMP_PAGE = re.compile(r"dump-page (insn|data) 0x([0-9a-f]+) ([0-9]+)\Z")
_DUMP_END = re.compile(r"dump-end ([0-9]+) ([0-9]+)\Z")
_LABEL = r"([^ \x00-\x1f](?:[^\x00-\x1f]*[^ \x00-\x1f])?)"
_REGION = re.compile(
    r"region ([0-9]+) ([0-9]+) insn ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) "
    r"data ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) label " + _LABEL + r"\Z")
_INT = re.compile(r"[0-9]+\Z")


class Sample:
    """One sample line.  threads maps tid -> (insn, data) (per-thread
    runs only); shared is None without per-thread columns."""

    __slots__ = ("t", "insn", "data", "shared", "threads", "lineno")

    def __init__(self, t, insn, data, shared=None, threads=None, lineno=0):
        self.t, self.insn, self.data = t, insn, data
        self.shared, self.threads, self.lineno = shared, threads, lineno

    def __repr__(self):
        extra = ""
        if self.shared is not None:
            extra = " shared=%d threads=%r" % (self.shared, self.threads)
        return "<sample t=%d insn=%d data=%d%s>" % (self.t, self.insn,
                                                   self.data, extra)


class Event:
    __slots__ = ("t", "kind", "args", "lineno")

    def __init__(self, t, kind, args, lineno):
        self.t, self.kind, self.args, self.lineno = t, kind, args, lineno

    def __repr__(self):
        return "<event t=%d %s %s>" % (self.t, self.kind, " ".join(self.args))


class Dump:
    """One dump block: t, and pages as a list of (kind, address, since)."""
    __slots__ = ("t", "pages", "lineno")

    def __init__(self, t, lineno):
        self.t, self.pages, self.lineno = t, [], lineno

    def count(self, kind):
        return sum(1 for p in self.pages if p[0] == kind)


class WsOutput:
    """A parsed output file.

    header:   dict of all header keys (str values), in file order
    samples:  list of Sample;  events: list of Event;  comments: list of str
    dumps:    list of Dump
    regions:  {label: (regions, samples, (avg, peak, total) insn,
               (avg, peak, total) data)} from the trailer
    summary:  {'insn': (avg, peak, total), 'data': (...)} from the trailer
    nsamples: the trailer's `samples` count (None if the file was cut)
    complete: True if the file ends with the trailer's `end`
    """

    def __init__(self):
        self.version = None
        self.header = {}
        self.samples = []
        self.events = []
        self.comments = []
        self.dumps = []
        self.regions = {}
        self.summary = {}
        self.nsamples = None
        self.complete = False

    # convenient typed header values
    @property
    def every(self):
        return int(self.header["every"])

    @property
    def tau(self):
        return int(self.header["tau"])

    @property
    def pagesize(self):
        return int(self.header["pagesize"])

    @property
    def time_unit(self):
        return self.header["time-unit"]

    @property
    def per_thread(self):
        return self.header["per-thread"] == "yes"


def _bad(lineno, line, why):
    raise FormatError("line %d: %s: %r" % (lineno, why, line))


def _check_header(out, first_body_lineno):
    h = out.header
    missing = [k for k in HEADER_KEYS if k not in h]
    if missing:
        raise FormatError("header (ends before line %d) lacks key(s) %s"
                          % (first_body_lineno, ", ".join(missing)))
    order = [k for k in h if k in HEADER_KEYS]
    if order != list(HEADER_KEYS):
        raise FormatError("header keys out of order: %s (expected %s)"
                          % (" ".join(order), " ".join(HEADER_KEYS)))
    if not re.match(r"ws [0-9]+\.[0-9]+\.[0-9]+\Z", h["tool"]):
        raise FormatError("header tool: %r is not 'ws <version>'" % h["tool"])
    for k in ("pid", "ppid", "every", "tau", "pagesize"):
        if not _INT.match(h[k]):
            raise FormatError("header %s: %r is not an integer" % (k, h[k]))
    for k in ("every", "tau", "pagesize"):
        if int(h[k]) <= 0:
            raise FormatError("header %s: %r is not positive" % (k, h[k]))
    ps = int(h["pagesize"])
    if ps & (ps - 1):
        raise FormatError("header pagesize: %d is not a power of two" % ps)
    if h["time-unit"] not in ("i", "ms"):
        raise FormatError("header time-unit: %r is not i or ms" % h["time-unit"])
    for k in ("syscalls", "per-thread", "instr-atstart"):
        if h[k] not in ("yes", "no"):
            raise FormatError("header %s: %r is not yes or no" % (k, h[k]))
    want = COLUMNS_PER_THREAD if h["per-thread"] == "yes" else COLUMNS
    if h["columns"] != want:
        raise FormatError("header columns: %r, expected %r for per-thread %s"
                          % (h["columns"], want, h["per-thread"]))


def _sample(out, line, lineno):
    v = [int(x) for x in line.split(" ")]
    if not out.per_thread:
        if len(v) != 3:
            _bad(lineno, line, "a sample has 3 columns (t insn data)")
        return Sample(v[0], v[1], v[2], lineno=lineno)
    if len(v) < 7 or (len(v) - 4) % 3:
        _bad(lineno, line, "a per-thread sample is t insn data shared "
             "followed by one or more tid insn data triples")
    threads = {}
    prev = 0
    for i in range(4, len(v), 3):
        tid = v[i]
        if tid <= prev:
            _bad(lineno, line, "thread ids must increase")
        prev = tid
        threads[tid] = (v[i + 1], v[i + 2])
    return Sample(v[0], v[1], v[2], v[3], threads, lineno)


def parse_output(text, complete=True):
    """Parse the text of an output file.  complete=True requires the whole
    file, trailer and `end` included.  complete=False reads a file cut short
    (a killed run): a last line without its newline is ignored, and the
    trailer may be missing or partial, but every complete line must still
    follow the grammar."""
    out = WsOutput()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()                 # the text ended with a newline
    elif lines and not complete:
        lines.pop()                 # an unfinished last line
    if not lines:
        raise FormatError("empty file")

    m = re.match(r"ws-output-format: (.*)\Z", lines[0])
    if not m:
        _bad(1, lines[0], "the first line must be 'ws-output-format: N'")
    if m.group(1) != str(FORMAT_VERSION):
        _bad(1, lines[0], "unknown format version (this reader knows %d)"
             % FORMAT_VERSION)
    out.version = FORMAT_VERSION

    i = 1
    while i < len(lines):
        m = _KEY.match(lines[i])
        if not m:
            break
        if m.group(1) in out.header:
            _bad(i + 1, lines[i], "header key given twice")
        out.header[m.group(1)] = m.group(2)
        i += 1
    if i == len(lines) and not complete and HEADER_KEYS[-1] not in out.header:
        return out                  # cut inside the header
    _check_header(out, i + 1)

    state = "body"          # body (-> dump -> body) -> summary -> samples -> end
    last_t = -1                     # time order over samples and events
    last_sample_t = -1
    dump = None
    for j in range(i, len(lines)):
        line, lineno = lines[j], j + 1
        if state == "dump":
            m = _DUMP_PAGE.match(line)
            if m:
                dump.pages.append((m.group(1), int(m.group(2), 16),
                                   int(m.group(3))))
                continue
            m = _DUMP_END.match(line)
            if not m:
                _bad(lineno, line, "inside a dump only 'dump-page KIND 0xADDR "
                     "SINCE' and 'dump-end N N' may appear")
            if (int(m.group(1)), int(m.group(2))) != (dump.count("insn"),
                                                      dump.count("data")):
                _bad(lineno, line, "dump-end counts differ from the "
                     "dump-page lines")
            out.dumps.append(dump)
            state = "body"
            continue
        if state == "body" and line.startswith("dump-begin"):
            m = _DUMP_BEGIN.match(line)
            if not m:
                _bad(lineno, line, "expected 'dump-begin T'")
            dump = Dump(int(m.group(1)), lineno)
            if dump.t < last_t:
                _bad(lineno, line, "dump earlier than the line before it")
            state = "dump"
            continue
        if state == "body" and line.startswith("region"):
            m = _REGION.match(line)
            if not m:
                _bad(lineno, line, "a region line is 'region N SAMPLES insn "
                     "AVG PEAK TOTAL data AVG PEAK TOTAL label LABEL'")
            g = m.groups()
            if g[8] in out.regions:
                _bad(lineno, line, "region %r given twice" % g[8])
            out.regions[g[8]] = (int(g[0]), int(g[1]),
                                 (float(g[2]), int(g[3]), int(g[4])),
                                 (float(g[5]), int(g[6]), int(g[7])))
            continue
        if state == "end":
            _bad(lineno, line, "nothing may follow 'end'")
        if state == "samples":
            if line != "end":
                _bad(lineno, line, "'samples N' must be followed by 'end'")
            state = "end"
            continue
        if state == "body" and line[:1].isdigit():
            if not _SAMPLE.match(line):
                _bad(lineno, line, "a sample is integers separated by single "
                     "spaces")
            s = _sample(out, line, lineno)
            if s.t <= last_sample_t:
                _bad(lineno, line, "sample times must increase strictly "
                     "(previous %d)" % last_sample_t)
            if s.t < last_t:
                _bad(lineno, line, "sample earlier than the event before it")
            last_t = last_sample_t = s.t
            out.samples.append(s)
            continue
        if state == "body" and line.startswith("#"):
            out.comments.append(line)
            continue
        if state == "body" and line.startswith("event") and not out.regions:
            m = _EVENT.match(line)
            if not m:
                _bad(lineno, line, "an event is 'event T KIND ARGS...'")
            t, kind = int(m.group(1)), m.group(2)
            args = m.group(3).split()
            if kind in ("thread-start", "thread-exit"):
                if len(args) != 1 or not _INT.match(args[0]):
                    _bad(lineno, line, "%s takes one thread id" % kind)
            if t < last_t:
                _bad(lineno, line, "event earlier than the line before it")
            last_t = t
            out.events.append(Event(t, kind, args, lineno))
            continue
        if state in ("body", "summary") and line.startswith("summary"):
            m = _SUMMARY.match(line)
            if not m:
                _bad(lineno, line, "a summary line is 'summary insn|data "
                     "AVG PEAK TOTAL' with AVG to one decimal")
            if m.group(1) in out.summary:
                _bad(lineno, line, "summary %s given twice" % m.group(1))
            out.summary[m.group(1)] = (float(m.group(2)), int(m.group(3)),
                                       int(m.group(4)))
            state = "summary"
            continue
        if state in ("body", "summary") and line.startswith("samples"):
            m = _SAMPLES.match(line)
            if not m:
                _bad(lineno, line, "expected 'samples N'")
            out.nsamples = int(m.group(1))
            state = "samples"
            continue
        if state == "summary":
            _bad(lineno, line, "only summary lines or 'samples N' may follow "
                 "a summary line")
        _bad(lineno, line, "not a sample, event, comment or trailer line")

    if state == "end":
        out.complete = True
    elif complete:
        raise FormatError("the file ends without its trailer "
                          "('samples N' then 'end'); last line: %r"
                          % lines[-1])
    return out


def read_output(path, complete=True):
    with open(path, encoding="utf-8") as f:
        return parse_output(f.read(), complete)


# ----------------------------------------------------------------------
# The summary on stderr

_STDERR_WS = re.compile(
    r"==(\d+)== (Insn|Data) avg/peak/total: (\d+\.\d)/(\d+)/(\d+) pages "
    r"\((\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?) kB\)\Z")


def parse_summary(stderr):
    """The exit summary ws prints on stderr, as a dict:
    {'pid': n, 'insn': (avg, peak, total), 'insn_kb': (a, p, t),
     'data': ..., 'data_kb': ..., 'samples': n, 'output_file': name}.
    Raises FormatError when a summary line is missing or malformed."""
    res = {}
    for line in stderr.splitlines():
        m = _STDERR_WS.match(line)
        if m:
            kind = m.group(2).lower()
            if kind in res:
                raise FormatError("stderr: two %s summary lines" % kind)
            res["pid"] = int(m.group(1))
            res[kind] = (float(m.group(3)), int(m.group(4)), int(m.group(5)))
            res[kind + "_kb"] = tuple(float(m.group(x)) for x in (6, 7, 8))
            continue
        if re.match(r"==\d+== (Insn|Data) avg", line):
            raise FormatError("stderr: malformed summary line %r" % line)
        m = re.match(r"==(\d+)== Samples: (\d+)\Z", line)
        if m:
            res["samples"] = int(m.group(2))
            continue
        m = re.match(r"==(\d+)== Output file: (.+)\Z", line)
        if m:
            res["output_file"] = m.group(2)
    for k in ("insn", "data", "samples", "output_file"):
        if k not in res:
            raise FormatError("stderr has no %r summary line:\n%s"
                              % (k, stderr[-3000:]))
    return res


# ----------------------------------------------------------------------
# Running ws

class WsRun:
    """The result of run_ws()."""

    def __init__(self, argv, returncode, stdout, stderr, out_path):
        self.argv = argv
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.out_path = out_path
        self._output = None
        self._summary = None

    @property
    def output(self):
        """The parsed output file (complete, trailer included)."""
        if self._output is None:
            self._output = read_output(self.out_path)
        return self._output

    @property
    def summary(self):
        if self._summary is None:
            self._summary = parse_summary(self.stderr)
        return self._summary

    def check_ok(self):
        if self.returncode != 0:
            raise AssertionError("%s exited with status %d; stderr:\n%s"
                                 % (" ".join(self.argv), self.returncode,
                                    self.stderr[-4000:]))
        return self


def require_built(*paths):
    """Fail (not skip) when something `make check` builds is missing."""
    missing = [p for p in (VG_IN_PLACE,) + paths if not built(p)]
    if missing:
        raise AssertionError("not built: %s (run `make check` from the top "
                             "of the tree)" % ", ".join(missing))


def ws_command(argv, options=(), out_path=None, tool="ws"):
    cmd = [VG_IN_PLACE, "--tool=" + tool]
    if out_path is not None:
        cmd.append("--ws-file=" + out_path)
    return cmd + list(options) + list(argv)


def run_ws(argv, options=(), *, tmpdir=None, out_path=None, timeout=300,
           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=None,
           check=True):
    """Run argv under ws with options, writing the output file to a unique
    path (out_path, or ws.out in tmpdir, or a fresh temporary folder).
    The current directory is that folder, so a stray default ws.out.<pid>
    lands there too.  check=True requires exit status 0."""
    require_built(argv[0])
    if out_path is None:
        if tmpdir is None:
            tmpdir = tempfile.mkdtemp(prefix="ws-test-")
        out_path = os.path.join(str(tmpdir), "ws.out")
    cwd = os.path.dirname(out_path) or "."
    cmd = ws_command(argv, options, out_path)
    p = subprocess.run(cmd, cwd=cwd, stdin=stdin, stdout=stdout,
                       stderr=subprocess.PIPE, timeout=timeout, env=env)
    r = WsRun(cmd, p.returncode, (p.stdout or b"").decode(errors="replace"),
              p.stderr.decode(errors="replace"), out_path)
    if check:
        r.check_ok()
    return r


# ----------------------------------------------------------------------
# Checks shared by several tests

def check_sample_times(out, sb_max=50):
    """Samples in instruction time: the k-th sample (k = 1, 2, ...) is taken
    at the first superblock boundary at or after k*T, never early, and a
    superblock holds at most sb_max instructions."""
    T = out.every
    for k, s in enumerate(out.samples, 1):
        assert s.t >= k * T, ("sample %d taken early: t=%d < %d*T=%d"
                              % (k, s.t, k, k * T))
        assert s.t < k * T + sb_max, (
            "sample %d taken late: t=%d, more than a superblock (%d "
            "instructions) after %d*T=%d" % (k, s.t, sb_max, k, k * T))


def check_trailer(run):
    """Trailer = stderr summary = what the samples say."""
    out, summ = run.output, run.summary
    assert out.complete
    assert out.nsamples == len(out.samples), (
        "trailer says %s samples, the file has %d"
        % (out.nsamples, len(out.samples)))
    assert summ["samples"] == len(out.samples)
    assert os.path.abspath(summ["output_file"]) == os.path.abspath(
        run.out_path), (summ["output_file"], run.out_path)
    for kind in ("insn", "data"):
        assert kind in out.summary, "trailer lacks 'summary %s'" % kind
        avg, peak, total = out.summary[kind]
        assert (avg, peak, total) == summ[kind], (
            "%s: trailer %r, stderr %r" % (kind, out.summary[kind],
                                          summ[kind]))
        values = [getattr(s, kind) for s in out.samples]
        if values:
            mean = sum(values) / len(values)
            assert peak == max(values), (kind, peak, max(values))
            # avg is printed with one decimal: rounded or truncated
            assert abs(avg - mean) <= 0.05 + 1e-9 or \
                (avg <= mean < avg + 0.1 + 1e-9), (kind, avg, mean)
        else:
            assert (avg, peak) == (0.0, 0)
        assert total >= peak, (kind, total, peak)
        ps = out.pagesize
        # kB rounded to whole numbers or not; avg's kB may come from the
        # unrounded average, which can differ from the printed one by 0.1
        for got, pages, slack in zip(summ[kind + "_kb"], (avg, peak, total),
                                     (0.1 * ps / 1024, 0, 0)):
            kb = pages * ps / 1024
            assert abs(got - kb) <= 1.0 + slack + 1e-9, (
                "%s: %s pages of %d bytes are %.2f kB, stderr says %s"
                % (kind, pages, ps, kb, got))


def runs_of(samples, pred):
    """Maximal runs of consecutive samples satisfying pred, as lists."""
    runs, cur = [], []
    for s in samples:
        if pred(s):
            cur.append(s)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def show(samples, n=200):
    """Samples as a short string for assertion messages."""
    return " ".join("%d:%d/%d" % (s.t, s.insn, s.data) for s in samples[:n])
