"""Run ws (and lackey) from the build tree and read what ws writes.

- where things are: WS_TOP_SRCDIR, WS_TOP_BUILDDIR and WS_VG_IN_PLACE come
  from `make check`; without them the tree is the parent of tests/.
- run_ws(): runs `vg-in-place --tool=ws --ws-file=<unique file> ...` and
  returns a WsRun with the exit status, stderr, the parsed stderr summary
  and the parsed output file.
- parse_output(): a strict reader of the output file, format version 4
  (docs/output-format.md), and of versions 3 and 2 by their own grammars.
  Anything the grammar does not allow raises FormatError naming the line.
  Escaped strings (version 4) are decoded: unescape().
- parse_summary(): the summary ws prints on stderr at exit.
"""

import os
import re
import subprocess

import oracle

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.environ.get("WS_TOP_SRCDIR") or os.path.dirname(TESTS_DIR)
TOP_BUILDDIR = os.environ.get("WS_TOP_BUILDDIR") or TOP_SRCDIR
VG_IN_PLACE = (os.environ.get("WS_VG_IN_PLACE")
               or os.path.join(TOP_BUILDDIR, "vg-in-place"))

# The version ws writes.
FORMAT_VERSION = 6
# What this reader reads: version 4 strictly, version 3 (before strings
# were escaped and the heap usage lines; peaks as events in the body) and version 2 (before the stacks, peaks, owners and hot
# pages) by their own grammars, so that files kept from older runs (the
# ws_print goldens) can still be compared.
# Version 5 adds the cache lines (linesize, line columns, line figures in
# the summary and region lines).
# Version 6 adds the live heap bytes (the `heap` column, with
# --ws-heap=yes) and the heap-chunk records.
FORMAT_VERSIONS = (2, 3, 4, 5, 6)


_ESCAPE = re.compile(r"\\(?:x([0-9a-f]{2})|(\\)|(.?))")


def unescape(text):
    r"""A string as ws escaped it (docs/output-format.md, Escaping):
    `\\` is a backslash, `\xHH` the byte HH; the bytes are UTF-8 (or
    not: a byte that is no part of a character comes back as a lone
    surrogate, as Python's surrogateescape has it).  Raises ValueError on
    a backslash that starts neither."""
    if "\\" not in text:
        return text
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(text):
        out += text[pos:m.start()].encode("utf-8", "surrogateescape")
        if m.group(3) is not None:
            raise ValueError("a backslash starts neither \\\\ nor \\xHH "
                             "(two lower-case hex digits)")
        out += bytes([int(m.group(1), 16)]) if m.group(1) else b"\\"
        pos = m.end()
    out += text[pos:].encode("utf-8", "surrogateescape")
    return out.decode("utf-8", "surrogateescape")


def prog(name, platform="amd64"):
    """Path of a test program built by `make check` (tests/progs/NAME),
    or its 32-bit build (tests/progs32/NAME) for platform "x86"."""
    return os.path.join(TOP_BUILDDIR, "tests",
                        "progs32" if platform == "x86" else "progs", name)


def makefile_var(name):
    """A variable that configure set in the build's Makefile ("" if none)."""
    try:
        with open(os.path.join(TOP_BUILDDIR, "Makefile")) as f:
            for line in f:
                m = re.match(r"%s = (.*)$" % re.escape(name), line)
                if m:
                    return m.group(1).strip()
    except OSError:
        pass
    return ""


# The 32-bit platform configure chose to build ws for ("x86-linux"), or ""
# when it found no 32-bit toolchain; read from the Makefile, so that a
# build that should have made ws-x86-linux and did not fails the tests
# instead of skipping them.
SECONDARY_PLATFORM = makefile_var("WS_SEC_PLATFORM")
NO_X86_REASON = ("32-bit programs: this build has no ws-x86-linux (configure "
                 "found no 32-bit toolchain; scripts/install-deps.sh "
                 "installs gcc-multilib and g++-multilib on amd64, then "
                 "rerun ./configure)")


def platforms():
    """The platforms to run a test on, as pytest parameters: amd64, and
    x86 (32-bit programs), skipped with NO_X86_REASON when this build has
    no 32-bit ws."""
    import pytest
    return ["amd64", pytest.param("x86", marks=pytest.mark.skipif(
        SECONDARY_PLATFORM != "x86-linux", reason=NO_X86_REASON))]


def per_element(delay, a=1):
    """Instructions per element of a WS_LOOP (wsprog.h)."""
    return a + 4 + 2 * delay


def none_run(argv, *options, cwd=None):
    """argv under --tool=none: (status, stdout)."""
    require_built(argv[0])
    p = subprocess.run([VG_IN_PLACE, "--tool=none", "-q"]
                       + list(options) + list(argv), cwd=cwd,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def built(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


# ----------------------------------------------------------------------
# The output file

class FormatError(Exception):
    """The output file breaks the grammar of docs/output-format.md."""


# Header keys of format version 3, in the order the format gives them;
# version 4 adds count-rep before columns.
HEADER_KEYS = ("tool", "command", "pid", "ppid", "time-unit", "every", "tau",
               "pagesize", "syscalls", "per-thread", "instr-atstart",
               "columns")
HEADER_KEYS_V4 = HEADER_KEYS[:-1] + ("count-rep", "columns")
HEADER_KEYS_V5 = HEADER_KEYS_V4[:8] + ("linesize",) + HEADER_KEYS_V4[8:]
COLUMNS = "t insn data"
COLUMNS_PER_THREAD = "t insn data shared {tid insn data}..."
LINE_COLUMNS = " insn-lines data-lines"

# Text that runs to the end of its line (a label, a function name, a
# symbol, a path): no control characters, no leading or trailing space;
# "no two spaces in a row" is checked by _text().
_TEXT = r"([^ \x00-\x1f\x7f](?:[^\x00-\x1f\x7f]*[^ \x00-\x1f\x7f])?)"
_LABEL = _TEXT
# ip location function: a location is file:line (no blank: ws writes a
# blank in a file name as _), (object) or ???
_WHERE = (r"0x([0-9a-f]+) ([^ ]+:[0-9]+|\([^ ]+\)|\?\?\?) " + _TEXT)

_KEY = re.compile(r"([a-z][a-z0-9-]*): (.*)\Z")
_SAMPLE = re.compile(r"[0-9]+( [0-9]+)*\Z")
_EVENT = re.compile(r"event ([0-9]+) ([a-z][a-z0-9-]*)((?: [^ ]+)*)\Z")
_PEAK_ARGS = re.compile(r"([0-9]+) (insn|data) ([0-9]+) ([0-9]+)\Z")
_SUMMARY = re.compile(r"summary (insn|data) ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+)"
                      r"(?: lines ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+)"
                      r"(?: density ([0-9]+\.[0-9]{3}))?)?\Z")
_SAMPLES = re.compile(r"samples ([0-9]+)\Z")
_PEAKS = re.compile(r"peaks ([0-9]+)\Z")
_PEAKS_V4 = re.compile(r"peaks ([0-9]+) found ([0-9]+)\Z")
# version 4: peak N KIND T SIZE BASELINE WHY FROM STACK OWN
_PEAK_V4 = re.compile(r"peak ([0-9]+) (insn|data) ([0-9]+) ([0-9]+) ([0-9]+) "
                      r"((?:largest|region|detected)"
                      r"(?:,(?:largest|region|detected))*) (rise|sample) "
                      r"([0-9]+) ([0-9]+|-)\Z")
_PEAK_REGION = re.compile(r"peak-region ([0-9]+) " + _TEXT + r"\Z")
_DUMP_BEGIN = re.compile(r"dump-begin ([0-9]+)\Z")
_DUMP_PAGE = re.compile(r"dump-page (insn|data) 0x([0-9a-f]+) ([0-9]+) "
                        r"([0-9]+) " + _WHERE + r"\Z")
_DUMP_PAGE_V2 = re.compile(r"dump-page (insn|data) 0x([0-9a-f]+) ([0-9]+)\Z")
_DUMP_END = re.compile(r"dump-end ([0-9]+) ([0-9]+)(?: lines ([0-9]+) ([0-9]+))?\Z")
_STACK = re.compile(r"stack ([0-9]+) ([0-9]+)\Z")
_FRAME = re.compile(r"(frame|inline) " + _WHERE + r"\Z")
_OWNER_LINE = re.compile(r"owner ([0-9]+) ([0-9]+) (.*)\Z", re.S)
_HOT = re.compile(r"hot (insn|data) ([0-9]+) ([0-9]+) 0x([0-9a-f]+) "
                  + _WHERE + r"\Z")
_PAGE = re.compile(r"page (insn|data) 0x([0-9a-f]+) ([0-9]+) " + _WHERE + r"\Z")
_REGION = re.compile(
    r"region ([0-9]+) ([0-9]+) insn ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) "
    r"data ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) "
    r"(?:insn-lines ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) "
    r"data-lines ([0-9]+\.[0-9]) ([0-9]+) ([0-9]+) )?label " + _LABEL + r"\Z")
_INT = re.compile(r"[0-9]+\Z")
_SET_ARGS = re.compile(r"[a-z][a-z0-9-]* [1-9][0-9]*\Z")
# the parameters ws sets today (check_written_events)
SET_PARAMETERS = ("every", "tau", "peak-thresh")
_DUMP_FILE_ARGS = re.compile(r"file /" + _TEXT[1:-1] + r"?\Z")
# Version 4: a heap-site line, a heap-window line; keys and values in
# pairs after the ids.
_HEAP_SITE = re.compile(r"heap-site ([0-9]+) ([0-9]+)((?: [a-z][a-z0-9-]* "
                        r"[^ ]+)+)\Z")
_HEAP_WINDOW = re.compile(r"heap-window ([0-9]+) ([0-9]+)((?: [a-z][a-z0-9-]* "
                          r"[^ ]+)+)\Z")
_FRACTION = re.compile(r"(0\.[0-9]{3}|1\.000)\Z")
# The locality curves (--ws-curves=exact or sampled): curve and mrc
# lines in the trailer, after the routine lines and before the peaks; an
# estimate's keys follow the values (_ESTIMATE), others are skipped.
_CURVE = re.compile(r"curve (run|region:\S+) (insn|data) (page|line) tau "
                    r"([0-9]+) s ([0-9]+\.[0-9]{3}) m ([0-9]+\.[0-9]{3})"
                    r"((?: [a-z][a-z-]* \S+)*)$")
_MRC = re.compile(r"mrc (run|region:\S+) (insn|data) (page|line) size "
                  r"([0-9]+) miss ([0-9]+\.[0-9]{4})((?: [a-z][a-z-]* \S+)*)$")
_ESTIMATE = {"s-err": re.compile(r"[0-9]+\.[0-9]{3}\Z"),
             "m-err": re.compile(r"[0-9]+\.[0-9]{3}\Z"),
             "miss-err": re.compile(r"[0-9]+\.[0-9]{4}\Z"),
             "from": re.compile(r"(windows|footprint|epochs|bounds)\Z")}

# The per-routine footprint (--ws-routines=yes): routine lines in the
# trailer after the heap-site lines, each followed by its rows.
_ROUTINE = re.compile(r"routine ([0-9]+) ([0-9]+)((?: [a-z][a-z0-9-]* \S+)*)$")
_ROUTINE_SIZE = re.compile(r"routine-size ([0-9]+) ([0-9]+) count ([0-9]+) "
                           r"min ([0-9]+) mean ([0-9]+) max ([0-9]+)$")
# The misses of each stack (--ws-miss-file), after the routine lines.
_MISS_STACK = re.compile(r"miss-stack ([0-9]+) ([0-9]+) insn ([0-9]+) "
                         r"data ([0-9]+)$")
_FIT = re.compile(r"-?[0-9]+\.[0-9]{3}$")
ROUTINE_KEYS = ("calls", "cost", "rms-max", "trms-max", "thread-induced",
                "syscall-induced", "exponent", "r2")

# The keys every heap-site line has (docs/output-format.md); fractions are
# read as floats, the rest of the known keys as integers.
HEAP_SITE_KEYS = ("chunks", "bytes", "peak-live", "never",
                  "read-only", "write-only", "lifetime", "first-delay",
                  "idle-tail", "useful", "threads")
# ... and usage, or, when some chunks are below the resolution (their
# figures are bounds), these two in its place.
HEAP_BOUND_KEYS = ("below-resolution", "usage-max")
HEAP_FRACTIONS = ("usage", "usage-max", "useful", "lifetime-score", "score")
# The heap-scores line after the heap-site lines: the run's global scores.
HEAP_SCORES_KEYS = ("lifetime", "usage", "useful")
HEAP_WINDOW_KEYS = ("live", "window")

# Owners (docs/output-format.md, Owners), in the order of its table: the
# order of owners with equal page counts in a peak's breakdown.  `freed`
# and `code` are version 4's.
OWNER_KINDS = ("heap", "freed", "heap-other", "global", "stack", "file",
               "anon", "unknown", "code")
_OWNER = re.compile(r"(heap|freed) ([0-9]+)(?: 0x([0-9a-f]+) ([0-9]+))?\Z"
                    r"|(heap-other|anon|unknown|rest)\Z"
                    r"|(global|file) " + _TEXT + r"\Z"
                    r"|stack ([0-9]+)\Z"
                    r"|code ([^ ]+) " + _TEXT + r"\Z")
# A peak's breakdown has at most this many owner lines, `rest` included.
MAX_OWNER_LINES = 10


class Sample:
    """One sample line.  threads maps tid -> (insn, data) (per-thread
    runs only); shared is None without per-thread columns; insn_lines and
    data_lines None without line columns (version 5); heap, the live heap
    bytes, None without the heap column (version 6)."""

    __slots__ = ("t", "insn", "data", "shared", "threads", "lineno",
                 "insn_lines", "data_lines", "heap")

    def __init__(self, t, insn, data, shared=None, threads=None, lineno=0,
                 lines=(None, None), heap=None):
        self.t, self.insn, self.data = t, insn, data
        self.shared, self.threads, self.lineno = shared, threads, lineno
        self.insn_lines, self.data_lines = lines
        self.heap = heap

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


class Where:
    """ip location function: one code address (a frame, or where a page
    was first accessed).  inline: an `inline` line of a stack."""
    __slots__ = ("ip", "location", "function", "inline")

    def __init__(self, ip, location, function, inline=False):
        self.ip, self.location, self.function = ip, location, function
        self.inline = inline

    def __eq__(self, other):
        return (isinstance(other, Where) and
                (self.ip, self.location, self.function, self.inline) ==
                (other.ip, other.location, other.function, other.inline))

    def __repr__(self):
        return "<%s 0x%x %s %s>" % ("inline" if self.inline else "frame",
                                    self.ip, self.location, self.function)

    def named_by_offset(self):
        """Whether ws named code without a symbol by its object and the
        offset inside it (object+0x...), as docs/output-format.md says."""
        loc = self.location
        return loc.startswith("(") and \
            self.function.startswith(loc[1:-1] + "+0x")

    def words(self):
        """As ws_print names it: function (file:line), function (in
        object) without line information, the function alone when the
        location is unknown or the function is named by its offset."""
        loc = self.location
        if loc == "???" or self.named_by_offset():
            return self.function
        if loc.startswith("("):
            return "%s (in %s" % (self.function, loc[1:])
        return "%s (%s)" % (self.function, loc)


class Owner:
    """What lives in a page.  kind is one of OWNER_KINDS or 'rest';
    heap and freed: stack (the allocating stack's id), block and size
    (None when no single block is meant); stack: tid; global and file:
    name; code: object (a file's base name) and name (the function)."""
    __slots__ = ("kind", "stack", "block", "size", "tid", "name", "object",
                 "text")

    def __init__(self, text):
        self.text = text
        self.stack = self.block = self.size = self.tid = self.name = None
        self.object = None
        m = _OWNER.match(text)
        if not m or "  " in text:
            raise ValueError(text)
        if m.group(1) is not None:
            self.kind, self.stack = m.group(1), int(m.group(2))
            if m.group(3) is not None:
                self.block, self.size = int(m.group(3), 16), int(m.group(4))
        elif m.group(5) is not None:
            self.kind = m.group(5)
        elif m.group(6) is not None:
            self.kind, self.name = m.group(6), m.group(7)
        elif m.group(8) is not None:
            self.kind, self.tid = "stack", int(m.group(8))
        else:
            self.kind, self.object, self.name = "code", m.group(9), \
                m.group(10)

    def __str__(self):
        return self.text

    def __repr__(self):
        return "<owner %s>" % self.text


class DumpPage:
    """One dump-page line: kind, addr, since, accesses, where (the first
    access), owner (data pages)."""
    __slots__ = ("kind", "addr", "since", "accesses", "where", "owner")

    def __init__(self, kind, addr, since, accesses, where):
        self.kind, self.addr, self.since = kind, addr, since
        self.accesses, self.where, self.owner = accesses, where, None

    def __repr__(self):
        return "<dump-page %s 0x%x since=%d accesses=%d %r %s>" % (
            self.kind, self.addr, self.since, self.accesses, self.where,
            self.owner)


class Dump:
    """One dump block: t, pages as a list of DumpPage, label (of the
    `dump label` event before it; None in a dump file or a `ws dump`
    reply), counts {'insn': n, 'data': n} (dump-end's, equal to the
    pages'), and in a dump file its own stacks ({id: [Where, ...]})."""
    __slots__ = ("t", "pages", "lineno", "label", "counts", "stacks", "lines")

    def __init__(self, t, lineno=0, label=None):
        self.t, self.pages, self.lineno = t, [], lineno
        self.label, self.counts, self.stacks = label, None, None
        self.lines = None       # version 5 with lines: {'insn': n, ...}

    def count(self, kind):
        return sum(1 for p in self.pages if p.kind == kind)

    def addresses(self, kind):
        return [p.addr for p in self.pages if p.kind == kind]


class Peak:
    """A peak and its owner lines: n, t, kind, size, stack (an id of
    out.stacks), owners [(pages, Owner)].  Version 4 also has baseline
    (pages), why (a list of "largest", "region", "detected"), origin
    ("rise": the stack is where the window rose; "sample": where the
    program was at the sample), own (the index in the stack's lines of
    the first one in the program's own code, or None) and regions (the
    labels of the regions whose largest sample it is); in version 3
    those are None (regions []).  heap_window: {stack: (live, window)}
    from its heap-window lines (version 4)."""
    __slots__ = ("n", "t", "kind", "size", "stack", "owners", "lineno",
                 "baseline", "why", "origin", "own", "regions",
                 "heap_window")

    def __init__(self, n, t, kind, size, stack, lineno):
        self.n, self.t, self.kind, self.size = n, t, kind, size
        self.stack, self.owners, self.lineno = stack, [], lineno
        self.baseline = self.why = self.origin = self.own = None
        self.regions = []
        self.heap_window = {}

    @property
    def prominence(self):
        return self.size - self.baseline

    def __repr__(self):
        return "<peak %d t=%d %s %d base=%s why=%s %s stack=%s own=%s " \
            "regions=%r owners=%r>" % (
                self.n, self.t, self.kind, self.size, self.baseline,
                self.why, self.origin, self.stack, self.own, self.regions,
                self.owners)


class Hot:
    """A `hot` line: rank, accesses, addr, where (the first access),
    owner (data pages)."""
    __slots__ = ("kind", "rank", "accesses", "addr", "where", "owner")

    def __init__(self, kind, rank, accesses, addr, where):
        self.kind, self.rank, self.accesses = kind, rank, accesses
        self.addr, self.where, self.owner = addr, where, None

    def __repr__(self):
        return "<hot %s %d %d 0x%x %r %s>" % (
            self.kind, self.rank, self.accesses, self.addr, self.where,
            self.owner)


class Routine:
    """A routine line: id, stack (an id of out.stacks), values {key:
    value} (exponent and r2 as the file writes them: a decimal or '-'),
    and rows [(size, count, min, mean, max)] in increasing size."""
    __slots__ = ("id", "stack", "values", "lineno", "rows")

    def __init__(self, rid, stack, values, lineno):
        self.id, self.stack, self.values = rid, stack, values
        self.lineno = lineno
        self.rows = []

    def __getitem__(self, key):
        return self.values[key]


class HeapSite:
    """A heap-site line: id, stack (an id of out.stacks), and values
    {key: value}: the fractions as floats, other values that are whole
    numbers as ints, anything else (a key this reader does not know) as
    the text the file has."""
    __slots__ = ("id", "stack", "values", "lineno", "chunks")

    def __init__(self, sid, stack, values, lineno):
        self.id, self.stack, self.values = sid, stack, values
        self.lineno = lineno
        self.chunks = []        # its heap-chunk records (version 6)

    def __getitem__(self, key):
        return self.values[key]

    def __repr__(self):
        return "<heap-site %d stack=%d %r>" % (self.id, self.stack,
                                               self.values)


# A heap-chunk line (version 6): a site's chunk record, its fixed keys
# then any others (reads and writes with --ws-heap-usage=exact).
_T = r"([0-9]+|-)"
_HEAP_CHUNK = re.compile(r"heap-chunk ([0-9]+) alloc ([0-9]+) free " + _T
                         + r" size ([0-9]+) first " + _T + r" last " + _T
                         + r" lo " + _T + r" hi " + _T
                         + r"((?: [a-z][a-z0-9-]* [^ ]+)*)\Z")


class HeapChunk:
    """A heap-chunk line: alloc, free, size, first, last, lo, hi (None
    for '-'), and values, its other keys (reads and writes, as ints)."""
    __slots__ = ("alloc", "free", "size", "first", "last", "lo", "hi",
                 "values", "lineno")

    def __init__(self, fields, values, lineno):
        (self.alloc, self.free, self.size, self.first, self.last, self.lo,
         self.hi) = fields
        self.values, self.lineno = values, lineno

    def __repr__(self):
        return "<heap-chunk alloc=%r free=%r size=%r first=%r last=%r " \
            "lo=%r hi=%r %r>" % (self.alloc, self.free, self.size,
                                 self.first, self.last, self.lo, self.hi,
                                 self.values)


def _key_values(lineno, line, text, fractions=()):
    """The ' key value' pairs of text as a dict (each key once)."""
    words = text.split(" ")[1:]
    values = {}
    for k, v in zip(words[0::2], words[1::2]):
        if k in values:
            _bad(lineno, line, "key %s given twice" % k)
        if k in fractions:
            if not _FRACTION.match(v):
                _bad(lineno, line, "%s is a fraction from 0.000 to 1.000 "
                     "with three decimals" % k)
            values[k] = float(v)
        elif _INT.match(v):
            values[k] = int(v)
        else:
            values[k] = v
    return values


class WsOutput:
    """A parsed output file.

    header:   dict of all header keys (str values), in file order
    samples:  list of Sample;  events: list of Event;  comments: list of str
    argv:     the command line's words, decoded (version 4)
    exec:     the path of the `exec` event (the program exec'd), or None
    dumps:    list of Dump
    stacks:   {id: [Where, ...]} innermost first, inline lines included
    peaks:    list of Peak: peaks[n] is peak n, as its last event (the
              largest sample) and the owner lines after it have it
    regions:  {label: (regions, samples, (avg, peak, total) insn,
               (avg, peak, total) data)} from the trailer
    hot:      {'insn': [Hot, ...], 'data': [...]} hottest first
    pages:    {'insn': {addr: (accesses, Where)}, 'data': {...}}, the
              `page` lines of --ws-list-pages=yes
    heap_sites: list of HeapSite, in file order (version 4)
    routines: list of Routine, in file order (--ws-routines=yes)
    miss_stacks: [(stack id, insn, data)] in file order (--ws-miss-file)
    npeaks:   the trailer's `peaks` count (None if not read)
    found:    version 4: how many peaks the detector found (`peaks N
              found M`)
    finals:   the samples that are final samples (version 4: an
              `event T final W` follows each), by time
    final_windows: {t: W}, each final sample's window length W, at most
              the tau in effect (None in files written before the event
              gave it)
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
        self.argv = None
        self.exec = None
        self.stacks = {}
        self.peaks = []
        self.regions = {}
        self.hot = {"insn": [], "data": []}
        self.pages = {"insn": {}, "data": {}}
        self.heap_sites = []
        self.heap_scores = None
        self.routines = []
        self.miss_stacks = []
        self.curve_lines = []
        # (curve|mrc, scope, kind, unit, tau|size) -> an estimate's keys:
        # s-err, m-err, miss-err (floats), from (windows|footprint|epochs|bounds)
        self.curve_estimates = {}
        self.curves = {}
        self.mrc = {}
        self.npeaks = None
        self.found = None
        self.finals = {}
        self.final_windows = {}
        self.summary = {}
        self.summary_lines = {}     # version 5: {'insn': (avg, peak, total)}
        self.density = None         # version 5: the summary's data density
        self.region_lines = {}      # version 5: label -> (insn, data) lines
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


def _header_keys(out):
    if out.version >= 5:
        return HEADER_KEYS_V5
    return HEADER_KEYS_V4 if out.version >= 4 else HEADER_KEYS


def _has_lines(out):
    return out.version >= 5 and out.header.get("linesize", "0") != "0"


def _has_heap(out):
    """Whether the samples have the live heap bytes (version 6, a file
    of a run with --ws-heap=yes)."""
    return out.version >= 6 and " heap" in out.header.get("columns", "")


def _check_header(out, first_body_lineno):
    h = out.header
    keys = _header_keys(out)
    missing = [k for k in keys if k not in h]
    if missing:
        raise FormatError("header (ends before line %d) lacks key(s) %s"
                          % (first_body_lineno, ", ".join(missing)))
    order = [k for k in h if k in keys]
    if order != list(keys):
        raise FormatError("header keys out of order: %s (expected %s)"
                          % (" ".join(order), " ".join(keys)))
    if out.version >= 4 and h["count-rep"] not in ("once", "each"):
        raise FormatError("header count-rep: %r is not once or each"
                          % h["count-rep"])
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
    if out.version >= 5:
        if not _INT.match(h["linesize"]):
            raise FormatError("header linesize: %r is not an integer"
                              % h["linesize"])
        ls = int(h["linesize"])
        if ls and (ls & (ls - 1) or ls < 16 or ls > ps):
            raise FormatError("header linesize: %d is not 0 or a power of "
                              "two from 16 to the page size" % ls)
    want = "t insn data" + (LINE_COLUMNS if _has_lines(out) else "") + (
        " heap" if _has_heap(out) else "") + (
        " shared {tid insn data}..." if h["per-thread"] == "yes" else "")
    if h["columns"] != want:
        raise FormatError("header columns: %r, expected %r for per-thread %s"
                          % (h["columns"], want, h["per-thread"]))


def _sample(out, line, lineno):
    v = [int(x) for x in line.split(" ")]
    lines = (None, None)
    if _has_lines(out):
        if len(v) < 5:
            _bad(lineno, line, "a sample has 5 columns (t insn data "
                 "insn-lines data-lines)")
        lines = (v[3], v[4])
        del v[3:5]
    heap = None
    if _has_heap(out):
        if len(v) < 4:
            _bad(lineno, line, "a sample has the heap column")
        heap = v.pop(3)
    if not out.per_thread:
        if len(v) != 3:
            _bad(lineno, line, "a sample has the header's columns")
        return Sample(v[0], v[1], v[2], lineno=lineno, lines=lines,
                      heap=heap)
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
    return Sample(v[0], v[1], v[2], v[3], threads, lineno, lines, heap)


class _Reader:
    """The state of one parse_output(): which lines may come next."""

    def __init__(self, out):
        self.out = out
        self.v3 = out.version >= 3
        self.v4 = out.version >= 4
        # body (-> dump -> body) -> regions -> hot -> peaks -> summary
        # -> samples -> end; a stack block may interrupt the body
        self.state = "body"
        self.last_t = -1            # time order over samples and events
        self.last_sample = None
        self.dump = None
        self.stack = None           # (id, frames, frame lines still due)
        self.peak = None            # the peak whose owner lines may follow
        self.at_sample = False      # only peaks (and theirs) since a sample
        self.owned = None           # the page waiting for its owner line
        self.last_page = -1         # address of the last `page` line
        self.dump_label = None      # the label of a `dump label` event
                                    # just read: its dump block is due
        self.due_label = None       # ... as the line after it sees it
        self.lineno, self.cur = 0, ""   # the line being read
        self.prev_line_sample = False   # this line is a sample
        self.after_sample = False       # the line before was one

    def dec(self, text):
        """text decoded (version 4), or refused naming the line."""
        if not self.v4:
            return text
        try:
            return unescape(text)
        except ValueError as e:
            _bad(self.lineno, self.cur, str(e))

    def where(self, m, i, inline=False):
        """Where from the groups i, i+1, i+2 of match m (_WHERE)."""
        return Where(int(m.group(i), 16), self.dec(m.group(i + 1)),
                     self.dec(m.group(i + 2)), inline)

    def text_ok(self, lineno, line, text):
        if "  " in text:
            _bad(lineno, line, "two spaces in a row")

    def owner(self, lineno, line, text, rest_ok=False, block_ok=True):
        try:
            o = Owner(text)
        except ValueError:
            _bad(lineno, line, "an owner is 'heap ID [0xBLOCK SIZE]', "
                 "'heap-other', 'global SYMBOL', 'stack TID', 'file PATH', "
                 "'anon' or 'unknown'")
        if o.kind == "rest" and not rest_ok:
            _bad(lineno, line, "'rest' is only an owner line's owner")
        if o.name is not None:
            o.name = self.dec(o.name)
        if o.kind in ("freed", "code") and not self.v4:
            _bad(lineno, line, "'%s' owners are version 4's" % o.kind)
        if o.kind in ("heap", "freed"):
            if o.block is not None and not block_ok:
                _bad(lineno, line, "a peak's heap owners are summed by "
                     "allocation stack: '%s ID' without a block" % o.kind)
            self.known_stack(lineno, line, o.stack)
        return o

    def known_stack(self, lineno, line, sid):
        if sid not in self.out.stacks:
            _bad(lineno, line, "stack %d is not defined before this line"
                 % sid)

    def close_peak(self, lineno, line):
        """The owner lines of self.peak are over: they break down the data
        working set of the peak's sample (version 4: its working set of the
        peak's kind)."""
        p = self.peak
        if p is None:
            return
        self.peak = None
        total = sum(pages for pages, _ in p.owners)
        if self.v4:
            if "region" in p.why and not p.regions:
                _bad(lineno, line, "peak %d is a region's largest sample: "
                     "'peak-region' lines name the regions" % p.n)
            if total != p.size:
                _bad(lineno, line, "the owner lines of peak %d sum to %d "
                     "pages, the peak has %d" % (p.n, total, p.size))
            return
        if total != self.last_sample.data:
            _bad(lineno, line, "the owner lines of peak %d sum to %d pages, "
                 "the data working set of its sample has %d"
                 % (p.n, total, self.last_sample.data))

    def stack_line(self, lineno, line):
        sid, frames, due = self.stack
        m = _FRAME.match(line)
        if not m:
            _bad(lineno, line, "stack %d: expected %d more 'frame|inline IP "
                 "LOCATION FUNCTION' line(s)" % (sid, due))
        self.text_ok(lineno, line, m.group(4))
        w = self.where(m, 2, m.group(1) == "inline")
        if frames and frames[-1].inline and frames[-1].ip != w.ip:
            _bad(lineno, line, "an inline line has the ip of the line after "
                 "it")
        frames.append(w)
        due -= 1
        self.stack = (sid, frames, due)
        if due == 0:
            if w.inline:
                _bad(lineno, line, "a stack ends with a frame line (an "
                     "inline line is followed by its caller's line)")
            self.out.stacks[sid] = frames
            self.stack = None

    def stack_begin(self, lineno, line):
        m = _STACK.match(line)
        if not m:
            _bad(lineno, line, "a stack block begins 'stack ID N'")
        sid, n = int(m.group(1)), int(m.group(2))
        if sid == 0 or n == 0:
            _bad(lineno, line, "stack ids and line counts start at 1")
        if sid in self.out.stacks:
            _bad(lineno, line, "stack %d defined twice" % sid)
        self.stack = (sid, [], n)

    def owner_line(self, lineno, line):
        m = _OWNER_LINE.match(line)
        if not m:
            _bad(lineno, line, "an owner line is 'owner PEAK PAGES OWNER'")
        p = self.peak
        n, pages = int(m.group(1)), int(m.group(2))
        if p is None or n != p.n:
            _bad(lineno, line, "owner lines follow their peak %s (peak %s)"
                 % ("line" if self.v4 else "event", p.n if p else "none"))
        if pages == 0:
            _bad(lineno, line, "an owner line has at least one page")
        o = self.owner(lineno, line, m.group(3), rest_ok=True,
                       block_ok=False)
        if self.v4 and o.kind != "rest" and (o.kind == "code") != (
                p.kind == "insn"):
            _bad(lineno, line, "an instruction peak's owners are 'code "
                 "OBJECT FUNCTION', a data peak's are what lives in its "
                 "pages")
        if p.owners and p.owners[-1][1].kind == "rest":
            _bad(lineno, line, "'rest' is the last owner line")
        if p.heap_window:
            _bad(lineno, line, "owner lines come before the heap-window "
                 "lines of their peak")
        # one line per owner; but two names may be written alike (ws
        # writes a blank or control character in a name as _)
        if o.kind not in ("global", "file") and any(
                str(q) == str(o) for _, q in p.owners):
            _bad(lineno, line, "owner %s given twice" % o)
        if p.owners and o.kind != "rest":
            prev_pages, prev = p.owners[-1]
            if (prev_pages, -OWNER_KINDS.index(prev.kind)) < \
                    (pages, -OWNER_KINDS.index(o.kind)):
                _bad(lineno, line, "owner lines come largest first, ties in "
                     "the order of the owner table")
        p.owners.append((pages, o))
        if len(p.owners) > MAX_OWNER_LINES or (
                o.kind == "rest" and len(p.owners) != MAX_OWNER_LINES):
            _bad(lineno, line, "a peak has at most %d owner lines, the last "
                 "one 'rest' when there are more owners" % MAX_OWNER_LINES)

    def peak_event(self, lineno, line, t, args):
        m = _PEAK_ARGS.match(" ".join(args))
        if not m:
            _bad(lineno, line, "a peak event is 'event T peak N KIND SIZE "
                 "STACK'")
        n, kind, size, sid = (int(m.group(1)), m.group(2), int(m.group(3)),
                              int(m.group(4)))
        peaks = self.out.peaks
        if n > len(peaks):
            _bad(lineno, line, "peaks are numbered from 0 in file order "
                 "(expected at most %d)" % len(peaks))
        if n < len(peaks):
            # the peak goes on, larger: only the latest of its kind
            old = peaks[n]
            if old.kind != kind or any(p.kind == kind for p in peaks[n + 1:]):
                _bad(lineno, line, "peak %d is not the latest %s peak" %
                     (n, kind))
            if size <= old.size:
                _bad(lineno, line, "a peak's event comes again only when the "
                     "peak is larger (it was %d)" % old.size)
        s = self.last_sample
        if not self.at_sample or s.t != t:
            _bad(lineno, line, "a peak event follows the sample it flags, "
                 "at the same time")
        if size != getattr(s, kind):
            _bad(lineno, line, "the peak's size is not its sample's %s "
                 "column (%d)" % (kind, getattr(s, kind)))
        self.known_stack(lineno, line, sid)
        self.peak = Peak(n, t, kind, size, sid, lineno)
        if n == len(peaks):
            peaks.append(self.peak)
        else:
            peaks[n] = self.peak

    def event_args(self, lineno, line, kind, args):
        """The arguments of the event kinds docs/output-format.md names
        (unknown kinds are skipped, as readers must)."""
        if kind in ("thread-start", "thread-exit"):
            if not _INT.match(args):
                _bad(lineno, line, "%s takes one thread id" % kind)
        elif kind in ("start", "stop", "region-start"):
            if args:
                _bad(lineno, line, "%s takes no argument" % kind)
        elif kind == "set":
            if not _SET_ARGS.match(args):
                _bad(lineno, line, "a set event is 'set PARAMETER N' (N "
                     "from 1)")
        elif kind == "mark":
            self.label_ok(lineno, line, args)
        elif kind == "dump":
            if args.startswith("label "):
                self.label_ok(lineno, line, args[6:])
            elif args != "monitor" and (not _DUMP_FILE_ARGS.match(args)
                                        or "  " in args):
                _bad(lineno, line, "a dump event is 'dump label LABEL', "
                     "'dump file /PATH' or 'dump monitor'")

    def final_window(self, lineno, line, args):
        """`final W`: the final sample's window, 0 <= W <= the tau in
        effect (files written before it was given say `final` alone)."""
        if not args:
            return None
        tau = self.out.tau
        for e in self.out.events:
            if e.kind == "set" and e.args[0] == "tau":
                tau = int(e.args[1])
        if len(args) != 1 or not _INT.match(args[0]) or int(args[0]) > tau:
            _bad(lineno, line, "a final event gives the window's length, "
                 "at most tau (%d)" % tau)
        return int(args[0])

    def label_ok(self, lineno, line, label):
        if not re.match(_LABEL + r"\Z", label) or "  " in label \
                or len(label.encode()) > 255:
            _bad(lineno, line, "a label is 1 to 255 bytes, no control "
                 "characters, no blank at either end, no two in a row")

    def sample_index(self):
        """The samples by time, and the first largest of each kind, made
        once per count of samples (a file may list many peaks)."""
        samples = self.out.samples
        if getattr(self, "_indexed", None) != len(samples):
            self._by_t = {}
            for s in samples:
                self._by_t.setdefault(s.t, []).append(s)
            self._first_top = {}
            for kind in ("insn", "data"):
                top = max((getattr(s, kind) for s in samples), default=None)
                self._first_top[kind] = next(
                    (s for s in samples if getattr(s, kind) == top), None)
            self._indexed = len(samples)

    def samples_at(self, t):
        self.sample_index()
        return self._by_t.get(t, [])

    def first_largest(self, kind):
        self.sample_index()
        return self._first_top[kind]

    def peak_line(self, lineno, line):
        """A version 4 `peak` line in the trailer."""
        out = self.out
        m = _PEAK_V4.match(line)
        if not m:
            _bad(lineno, line, "a peak line is 'peak N KIND T SIZE BASELINE "
                 "WHY rise|sample STACK OWN'")
        g = m.groups()
        p = Peak(int(g[0]), int(g[2]), g[1], int(g[3]), int(g[7]), lineno)
        p.baseline, p.why, p.origin = int(g[4]), g[5].split(","), g[6]
        p.own = None if g[8] == "-" else int(g[8])
        if p.n != len(out.peaks):
            _bad(lineno, line, "peaks are numbered from 0 in file order "
                 "(expected %d)" % len(out.peaks))
        if len(set(p.why)) != len(p.why):
            _bad(lineno, line, "a reason given twice")
        if out.peaks:
            prev = out.peaks[-1]
            if prev.kind == "data" and p.kind == "insn":
                _bad(lineno, line, "instruction peaks come first")
            # the most prominent first (size - baseline; the baseline is
            # rounded, so neighbours may seem to differ by one page)
            if prev.kind == p.kind and p.prominence > prev.prominence + 1:
                _bad(lineno, line, "peaks of a kind come the most "
                     "prominent first")
        if p.stack == 0:
            _bad(lineno, line, "a peak has a stack")
        self.known_stack(lineno, line, p.stack)
        if p.own is not None and p.own >= len(out.stacks[p.stack]):
            _bad(lineno, line, "the own line lies beyond the stack's lines")
        at, first = self.samples_at(p.t), self.first_largest(p.kind)
        if not at or getattr(at[0], p.kind) != p.size:
            _bad(lineno, line, "no %s sample of %d pages at t=%d"
                 % (p.kind, p.size, p.t))
        if "largest" in p.why:
            top = getattr(first, p.kind)
            if (p.t, p.size) != (first.t, top):
                _bad(lineno, line, "the largest %s sample is the first of "
                     "%d pages, at t=%d" % (p.kind, top, first.t))
        self.peak = p
        out.peaks.append(p)
        self.state = "peak-list"

    def event(self, lineno, line):
        m = _EVENT.match(line)
        if not m:
            _bad(lineno, line, "an event is 'event T KIND ARGS...'")
        t, kind = int(m.group(1)), m.group(2)
        args = [self.dec(a) for a in m.group(3).split()]
        if self.out.exec is not None:
            _bad(lineno, line, "after an exec event only the trailer")
        if kind == "exec" and self.v4:
            if not args:
                _bad(lineno, line, "an exec event names the program")
            self.out.exec = " ".join(args)
        self.event_args(lineno, line, kind, m.group(3)[1:])
        self.dump_label = " ".join(args[1:]) if (
            kind == "dump" and args[:1] == ["label"]) else None
        if t < self.last_t:
            _bad(lineno, line, "event earlier than the line before it")
        self.last_t = t
        self.close_peak(lineno, line)
        if kind == "peak" and self.v4:
            _bad(lineno, line, "version 4 lists the peaks in the trailer "
                 "('peak' lines), not as events")
        if kind == "final" and self.v4:
            s = self.last_sample
            if not self.after_sample or s.t != t:
                _bad(lineno, line, "'event T final' follows the final "
                     "sample, at its time")
            self.out.finals[t] = s
            self.out.final_windows[t] = self.final_window(lineno, line,
                                                          args)
        if kind == "peak" and self.v3:
            self.peak_event(lineno, line, t, args)
        else:
            self.at_sample = False
        self.out.events.append(Event(t, kind, args, lineno))

    def dump_line(self, lineno, line):
        dump = self.dump
        if self.owned is not None:
            if not line.startswith("dump-owner "):
                _bad(lineno, line, "a data page's dump-page line is followed "
                     "by its 'dump-owner OWNER' line")
            self.owned.owner = self.owner(lineno, line, line[11:])
            self.owned = None
            return
        m = (_DUMP_PAGE if self.v3 else _DUMP_PAGE_V2).match(line)
        if m:
            if self.v3:
                self.text_ok(lineno, line, m.group(7))
                page = DumpPage(m.group(1), int(m.group(2), 16),
                                int(m.group(3)), int(m.group(4)),
                                self.where(m, 5))
            else:
                page = DumpPage(m.group(1), int(m.group(2), 16),
                                int(m.group(3)), None, None)
            if page.since > dump.t:
                _bad(lineno, line, "since is after the dump")
            if dump.pages:
                prev = dump.pages[-1]
                if (prev.kind == "data" and page.kind == "insn") or (
                        prev.kind == page.kind and prev.addr >= page.addr):
                    _bad(lineno, line, "instruction pages first, each kind "
                         "in increasing address order")
            dump.pages.append(page)
            if page.kind == "data" and self.v3:
                self.owned = page
            return
        m = _DUMP_END.match(line)
        if not m:
            _bad(lineno, line, "inside a dump only 'dump-page KIND 0xADDR "
                 "SINCE ACCESSES IP LOCATION FUNCTION' (with 'dump-owner "
                 "OWNER' after a data page) and 'dump-end N N' may appear"
                 if self.v3 else "inside a dump only 'dump-page KIND 0xADDR "
                 "SINCE' and 'dump-end N N' may appear")
        if (int(m.group(1)), int(m.group(2))) != (dump.count("insn"),
                                                  dump.count("data")):
            _bad(lineno, line, "dump-end counts differ from the dump-page "
                 "lines")
        dump.counts = {"insn": int(m.group(1)), "data": int(m.group(2))}
        if (m.group(3) is not None) != _has_lines(self.out):
            _bad(lineno, line, "dump-end has 'lines N N' exactly when the "
                 "file has lines")
        if m.group(3) is not None:
            dump.lines = {"insn": int(m.group(3)), "data": int(m.group(4))}
            for k in ("insn", "data"):
                if not dump.counts[k] <= dump.lines[k]:
                    _bad(lineno, line, "fewer lines than pages")
        self.out.dumps.append(dump)
        self.dump = None
        self.state = "body"

    def page_line(self, lineno, line):
        m = _PAGE.match(line)
        if not m:
            _bad(lineno, line, "a page line is 'page KIND 0xADDR ACCESSES IP "
                 "LOCATION FUNCTION'")
        self.text_ok(lineno, line, m.group(6))
        kind, addr = m.group(1), int(m.group(2), 16)
        pages = self.out.pages
        if kind == "insn" and pages["data"]:
            _bad(lineno, line, "insn pages are listed before data pages")
        if pages[kind] and self.last_page >= addr:
            _bad(lineno, line, "pages are listed in increasing address order")
        self.last_page = addr
        pages[kind][addr] = (int(m.group(3)), self.where(m, 4))

    def heap_scores_line(self, lineno, line):
        if self.out.heap_scores is not None:
            _bad(lineno, line, "one heap-scores line")
        v = _key_values(lineno, line, line[len("heap-scores"):],
                        HEAP_SCORES_KEYS)
        if tuple(v) != HEAP_SCORES_KEYS \
                or not all(isinstance(v[k], float) for k in v):
            _bad(lineno, line, "a heap-scores line is 'heap-scores lifetime "
                 "F usage F useful F'")
        self.out.heap_scores = v

    def heap_chunk_line(self, lineno, line):
        m = _HEAP_CHUNK.match(line)
        if not m:
            _bad(lineno, line, "a heap-chunk line is 'heap-chunk SITE alloc "
                 "T free T|- size N first T|- last T|- lo N|- hi N|-' and "
                 "then keys and values")
        sites = self.out.heap_sites
        if not sites or int(m.group(1)) != sites[-1].id:
            _bad(lineno, line, "heap-chunk lines follow the heap-site line "
                 "of their site")
        f = [None if g == "-" else int(g) for g in m.group(2, 3, 4, 5, 6, 7,
                                                            8)]
        alloc, free, size, first, last, lo, hi = f
        if (free is not None and free < alloc) \
                or (first is None) != (last is None) \
                or (first is not None
                    and not (alloc <= first <= last
                             and (free is None or last <= free))):
            _bad(lineno, line, "a chunk is freed after its allocation, and "
                 "accessed (first, then last) in between")
        if (lo is None) != (hi is None) or (
                lo is not None and (first is None or not lo <= hi < size)):
            _bad(lineno, line, "lo and hi are offsets in an accessed chunk")
        site = sites[-1]
        if site.chunks and alloc < site.chunks[-1].alloc:
            _bad(lineno, line, "a site's heap-chunk lines come in allocation "
                 "order")
        if len(site.chunks) == site["chunks"]:
            _bad(lineno, line, "at most one heap-chunk line per chunk")
        site.chunks.append(HeapChunk(f, _key_values(lineno, line,
                                                    m.group(9)), lineno))

    def heap_site_line(self, lineno, line):
        self.site_stack_due = False
        m = _HEAP_SITE.match(line)
        if not m:
            _bad(lineno, line, "a heap-site line is 'heap-site ID STACK' "
                 "followed by KEY VALUE pairs")
        sid, stack = int(m.group(1)), int(m.group(2))
        sites = self.out.heap_sites
        if sid != len(sites) + 1:
            _bad(lineno, line, "heap-site ids run from 1 in file order "
                 "(expected %d)" % (len(sites) + 1))
        self.known_stack(lineno, line, stack)
        if any(h.stack == stack for h in sites):
            _bad(lineno, line, "one heap-site line per allocation stack")
        v = _key_values(lineno, line, m.group(3), HEAP_FRACTIONS)
        missing = [k for k in HEAP_SITE_KEYS if k not in v]
        if missing:
            _bad(lineno, line, "a heap-site line lacks key(s) %s"
                 % " ".join(missing))
        for k in HEAP_SITE_KEYS:
            if k not in HEAP_FRACTIONS and not isinstance(v[k], int):
                _bad(lineno, line, "%s is a whole number" % k)
        if v["chunks"] == 0:
            _bad(lineno, line, "a site has allocated at least one chunk")
        bound = [k for k in HEAP_BOUND_KEYS if k in v]
        if ("usage" in v) == bool(bound) or bound not in ([], list(
                HEAP_BOUND_KEYS)):
            _bad(lineno, line, "a heap-site line has usage, or "
                 "below-resolution and usage-max")
        if bound and not (isinstance(v["below-resolution"], int)
                          and 1 <= v["below-resolution"] <= v["chunks"]):
            _bad(lineno, line, "below-resolution counts some of the site's "
                 "chunks")
        if v["never"] + v["read-only"] + v["write-only"] > v["chunks"] \
                or v["threads"] > v["chunks"] - v["never"]:
            _bad(lineno, line, "never, read-only and write-only chunks are "
                 "distinct, and threads counts accessed chunks, all among "
                 "the site's chunks")
        if v["peak-live"] > v["bytes"]:
            _bad(lineno, line, "peak-live is at most the bytes allocated")
        sites.append(HeapSite(sid, stack, v, lineno))

    def routine_line(self, lineno, line):
        m = _ROUTINE.match(line)
        if not m:
            _bad(lineno, line, "a routine line is 'routine ID STACK' followed "
                 "by KEY VALUE pairs")
        rid, stack = int(m.group(1)), int(m.group(2))
        routines = self.out.routines
        if rid != len(routines) + 1:
            _bad(lineno, line, "routine ids run from 1 in file order "
                 "(expected %d)" % (len(routines) + 1))
        self.known_stack(lineno, line, stack)
        words = m.group(3).split()
        v = dict(zip(words[::2], words[1::2]))
        missing = [k for k in ROUTINE_KEYS if k not in v]
        if missing:
            _bad(lineno, line, "a routine line lacks key(s) %s"
                 % " ".join(missing))
        for k in ROUTINE_KEYS[:6]:
            if not _INT.match(v[k]):
                _bad(lineno, line, "%s is a whole number" % k)
            v[k] = int(v[k])
        fitted = [_FIT.match(v[k]) is not None for k in ("exponent", "r2")]
        if fitted[0] != fitted[1] or (not fitted[0] and
                                      (v["exponent"], v["r2"]) != ("-", "-")):
            _bad(lineno, line, "exponent and r2 are both numbers with three "
                 "decimals or both '-'")
        if v["calls"] == 0 or v["rms-max"] > v["trms-max"]:
            _bad(lineno, line, "a routine has a call, and rms-max is at most "
                 "trms-max")
        routines.append(Routine(rid, stack, v, lineno))

    def miss_stack_line(self, lineno, line):
        m = _MISS_STACK.match(line)
        if not m:
            _bad(lineno, line, "a miss-stack line is 'miss-stack N STACK insn "
                 "N data N'")
        n, stack, insn, data = (int(x) for x in m.groups())
        if n != len(self.out.miss_stacks) + 1:
            _bad(lineno, line, "miss-stack numbers run from 1 in file order")
        if stack not in self.out.stacks:
            _bad(lineno, line, "stack %d is not defined before this line"
                 % stack)
        if insn + data == 0:
            _bad(lineno, line, "a miss-stack line has a miss")
        self.out.miss_stacks.append((stack, insn, data))
    def curve_line(self, lineno, line):
        m = _CURVE.match(line) or _MRC.match(line)
        if not m:
            _bad(lineno, line, "a curve line is 'curve SCOPE KIND UNIT tau N "
                 "s F m F', an mrc line 'mrc SCOPE KIND UNIT size N miss F'")
        scope = m.group(1)
        if scope.startswith("region:"):
            scope = "region:" + self.dec(scope[len("region:"):])
        key = (scope, m.group(2), m.group(3))
        points = (self.out.curves if line.startswith("curve ")
                  else self.out.mrc).setdefault(key, [])
        x = int(m.group(4))
        if x != (1 << (x.bit_length() - 1)) or (
                points and x != 2 * points[-1][0]) or (
                not points and x != (64 if line.startswith("curve ") else 1)):
            _bad(lineno, line, "a curve's taus double from 64, an mrc's "
                 "sizes from 1")
        values = m.groups()[4:-1]
        points.append((x,) + tuple(float(v) for v in values))
        words = m.groups()[-1].split()
        keys = dict(zip(words[::2], words[1::2]))
        for k, v in keys.items():
            if k in _ESTIMATE and not _ESTIMATE[k].match(v):
                _bad(lineno, line, "%s is followed by %s" % (
                    k, _ESTIMATE[k].pattern))
        if keys:
            self.out.curve_estimates[
                ("curve" if line.startswith("curve ") else "mrc",)
                + key + (x,)] = {k: (v if k == "from" else float(v))
                                 for k, v in keys.items()}
        self.out.curve_lines.append(line)

    def routine_size_line(self, lineno, line):
        m = _ROUTINE_SIZE.match(line)
        r = self.out.routines[-1]
        if not m or int(m.group(1)) != r.id:
            _bad(lineno, line, "a routine-size line is 'routine-size ID SIZE "
                 "count N min N mean N max N' after its routine's line")
        size, count, lo, mean, hi = (int(x) for x in m.groups()[1:])
        if r.rows and r.rows[-1][0] >= size:
            _bad(lineno, line, "a routine's sizes increase")
        if count == 0 or not lo <= mean <= hi:
            _bad(lineno, line, "a row has a count and min <= mean <= max")
        r.rows.append((size, count, lo, mean, hi))

    def heap_window_line(self, lineno, line):
        m = _HEAP_WINDOW.match(line)
        if not m:
            _bad(lineno, line, "a heap-window line is 'heap-window PEAK "
                 "STACK' followed by KEY VALUE pairs")
        n, stack = int(m.group(1)), int(m.group(2))
        p = self.peak
        if p is None or n != p.n:
            _bad(lineno, line, "heap-window lines follow the owner lines of "
                 "their peak (peak %s)" % (p.n if p else "none"))
        if not any(o.kind == "heap" and o.stack == stack
                   for _, o in p.owners):
            _bad(lineno, line, "a heap-window line names a heap owner of "
                 "its peak")
        if stack in p.heap_window:
            _bad(lineno, line, "heap-window %d given twice" % stack)
        v = _key_values(lineno, line, m.group(3))
        for k in HEAP_WINDOW_KEYS:
            if not isinstance(v.get(k), int):
                _bad(lineno, line, "a heap-window line has '%s N'" % k)
        if v["window"] > v["live"]:
            _bad(lineno, line, "the bytes in the window are some of the "
                 "live bytes")
        p.heap_window[stack] = (v["live"], v["window"])

    def hot_line(self, lineno, line):
        out = self.out
        if self.owned is not None:
            if not line.startswith("hot-owner "):
                _bad(lineno, line, "a data page's hot line is followed by its "
                     "'hot-owner OWNER' line")
            self.owned.owner = self.owner(lineno, line, line[10:])
            self.owned = None
            return True
        m = _HOT.match(line)
        if not m:
            return False
        self.text_ok(lineno, line, m.group(7))
        h = Hot(m.group(1), int(m.group(2)), int(m.group(3)),
                int(m.group(4), 16), self.where(m, 5))
        same = out.hot[h.kind]
        if h.rank != len(same) + 1:
            _bad(lineno, line, "hot %s ranks run from 1 (expected %d)"
                 % (h.kind, len(same) + 1))
        if same and (same[-1].accesses, -same[-1].addr) <= (h.accesses,
                                                             -h.addr):
            _bad(lineno, line, "hot pages come hottest first, ties in "
                 "increasing address order")
        same.append(h)
        if h.kind == "data":
            self.owned = h
        return True

    def line(self, lineno, line):
        self.after_sample = self.prev_line_sample
        self.prev_line_sample = False
        out = self.out
        self.lineno, self.cur = lineno, line
        if self.stack is not None:
            self.stack_line(lineno, line)
            return
        self.due_label, self.dump_label = self.dump_label, None
        if self.v3 and line.startswith("stack") and (
                self.state == "body" or self.owned is not None
                or (self.v4 and self.state in ("regions", "hot", "pages",
                                               "heap", "routines", "misses",
                                               "curves",
                                               "peak-list"))):
            # in the body, the stack of the owner line that is due, or
            # (version 4) of a heap site, a peak or its owners in the
            # trailer (written before the heap-site or peak line: the
            # lines before it are over)
            if self.v4:
                self.close_peak(lineno, line)
            self.stack_begin(lineno, line)
            return
        if self.v4 and self.state == "peak-list" and line.startswith(
                "peak-region "):
            m = _PEAK_REGION.match(line)
            p = self.peak
            if not m or p is None or int(m.group(1)) != p.n or p.owners:
                _bad(lineno, line, "'peak-region N LABEL' follows peak N's "
                     "line, before its owner lines")
            self.text_ok(lineno, line, m.group(2))
            if "region" not in p.why:
                _bad(lineno, line, "peak %d's reasons lack 'region'" % p.n)
            p.regions.append(self.dec(m.group(2)))
            return
        if self.v4 and self.state == "peak-list" and line.startswith(
                "owner "):
            self.owner_line(lineno, line)
            return
        if self.v4 and self.state == "peak-list" and line.startswith(
                "heap-window "):
            self.heap_window_line(lineno, line)
            return
        if self.v4 and self.state in ("body", "regions", "hot", "pages",
                                      "heap", "routines", "misses",
                                      "curves",
                                      "peak-list") and \
                line.startswith("peak ") and self.owned is None:
            self.close_peak(lineno, line)
            self.peak_line(lineno, line)
            return
        if self.state == "dump":
            self.dump_line(lineno, line)
            return
        if self.state == "end":
            _bad(lineno, line, "nothing may follow 'end'")
        if self.state == "samples":
            if line != "end":
                _bad(lineno, line, "'samples N' must be followed by 'end'")
            self.state = "end"
            return
        if self.v3 and self.state in ("body", "regions", "hot") and \
                self.hot_line(lineno, line):
            self.close_peak(lineno, line)
            self.state = "hot"
            return
        if self.v3 and self.state in ("body", "regions", "hot", "pages") \
                and line.startswith("page ") and self.owned is None:
            self.close_peak(lineno, line)
            self.page_line(lineno, line)
            self.state = "pages"
            return
        if self.state in ("body", "regions") and line.startswith("region"):
            self.close_peak(lineno, line)
            m = _REGION.match(line)
            if not m:
                _bad(lineno, line, "a region line is 'region N SAMPLES insn "
                     "AVG PEAK TOTAL data AVG PEAK TOTAL label LABEL'")
            g = m.groups()
            g = g[:8] + (g[14],) + g[8:14]
            self.text_ok(lineno, line, g[8])
            label = self.dec(g[8])
            if label in out.regions:
                _bad(lineno, line, "region %r given twice" % label)
            out.regions[label] = (int(g[0]), int(g[1]),
                                 (float(g[2]), int(g[3]), int(g[4])),
                                 (float(g[5]), int(g[6]), int(g[7])))
            if (g[9] is not None) != _has_lines(out):
                _bad(lineno, line, "a region line has line figures exactly "
                     "when the file has line columns")
            if g[9] is not None:
                out.region_lines[label] = (
                    (float(g[9]), int(g[10]), int(g[11])),
                    (float(g[12]), int(g[13]), int(g[14])))
            self.state = "regions"
            return
        if self.v4 and self.state in ("body", "regions", "hot", "pages",
                                      "heap") \
                and line.startswith("heap-site") and self.owned is None:
            self.close_peak(lineno, line)
            self.heap_site_line(lineno, line)
            self.state = "heap"
            return
        if self.state == "heap" and line.startswith("heap-scores"):
            self.heap_scores_line(lineno, line)
            return
        if self.state == "heap" and line.startswith("heap-chunk ") \
                and self.out.version >= 6:
            self.heap_chunk_line(lineno, line)
            return
        if self.v4 and self.state in ("body", "regions", "hot", "pages",
                                      "heap", "routines") \
                and line.startswith("routine ") and self.owned is None:
            self.routine_line(lineno, line)
            self.state = "routines"
            return
        if self.state == "routines" and line.startswith("routine-size "):
            self.routine_size_line(lineno, line)
            return
        if self.v4 and self.state in ("body", "regions", "hot", "pages",
                                      "heap", "routines", "misses") \
                and line.startswith("miss-stack ") and self.owned is None:
            self.miss_stack_line(lineno, line)
            self.state = "misses"
            return
        if self.v4 and self.state in ("body", "regions", "hot", "pages",
                                      "heap", "routines", "misses",
                                      "curves") \
                and line.startswith(("curve ", "mrc ")):
            self.curve_line(lineno, line)
            self.state = "curves"
            return
        if self.v3 and self.state in ("body", "regions", "hot", "pages",
                                      "heap", "routines", "misses", "curves",
                                      "peak-list") \
                and line.startswith("peaks"):
            self.close_peak(lineno, line)
            m = (_PEAKS_V4 if self.v4 else _PEAKS).match(line)
            if not m:
                _bad(lineno, line, "expected 'peaks N found M'" if self.v4
                     else "expected 'peaks N'")
            out.npeaks = int(m.group(1))
            if out.npeaks != len(out.peaks):
                _bad(lineno, line, "the file has %d peak %s"
                     % (len(out.peaks), "lines" if self.v4 else "events"))
            if self.v4:
                out.found = int(m.group(2))
                if out.found < sum(1 for p in out.peaks
                                   if "detected" in p.why):
                    _bad(lineno, line, "fewer found than detected peaks "
                         "listed")
            self.state = "peaks"
            return
        # version 2 has no `peaks N`: its trailer's region lines are
        # followed by the summary lines
        summary_ok = self.state in ("peaks", "summary") or (
            not self.v3 and self.state in ("body", "regions")
            and line.startswith(("summary", "samples")))
        if summary_ok:
            m = _SUMMARY.match(line)
            if m:
                if m.group(1) in out.summary:
                    _bad(lineno, line, "summary %s given twice" % m.group(1))
                out.summary[m.group(1)] = (float(m.group(2)), int(m.group(3)),
                                           int(m.group(4)))
                if (m.group(5) is not None) != _has_lines(out) or (
                        m.group(5) is not None
                        and (m.group(8) is not None) != (m.group(1) == "data")):
                    _bad(lineno, line, "a summary line has 'lines AVG PEAK "
                         "TOTAL' exactly when the file has line columns, "
                         "and data's 'density D' after it")
                if m.group(5) is not None:
                    out.summary_lines[m.group(1)] = (
                        float(m.group(5)), int(m.group(6)), int(m.group(7)))
                if m.group(8) is not None:
                    out.density = float(m.group(8))
                self.state = "summary"
                return
            m = _SAMPLES.match(line)
            if not m:
                _bad(lineno, line, "then only 'summary insn|data AVG PEAK "
                     "TOTAL' (AVG with one decimal) and 'samples N'")
            out.nsamples = int(m.group(1))
            self.state = "samples"
            return
        if self.state != "body" or line.startswith(("summary", "samples")):
            _bad(lineno, line, "the trailer is region lines, hot lines, "
                 "page lines, heap-site lines, 'peaks N', summary lines, "
                 "'samples N', 'end'" if self.v4 else
                 "the trailer is region lines, hot lines, "
                 "'peaks N', summary lines, 'samples N', 'end'" if self.v3
                 else "the trailer is region lines, summary lines, "
                 "'samples N', 'end'")
        if line[:1].isdigit():
            if out.exec is not None:
                _bad(lineno, line, "after an exec event only the trailer")
            if not _SAMPLE.match(line):
                _bad(lineno, line, "a sample is integers separated by single "
                     "spaces")
            s = _sample(out, line, lineno)
            if self.last_sample and s.t <= self.last_sample.t:
                _bad(lineno, line, "sample times must increase strictly "
                     "(previous %d)" % self.last_sample.t)
            if s.t < self.last_t:
                _bad(lineno, line, "sample earlier than the event before it")
            self.close_peak(lineno, line)
            self.last_t = s.t
            self.last_sample = s
            self.at_sample = True
            self.prev_line_sample = True
            out.samples.append(s)
        elif line.startswith("#"):
            out.comments.append(line)
        elif line.startswith("event"):
            self.event(lineno, line)
        elif self.v3 and not self.v4 and line.startswith("owner"):
            self.owner_line(lineno, line)
        elif line.startswith("dump-begin"):
            m = _DUMP_BEGIN.match(line)
            if not m:
                _bad(lineno, line, "expected 'dump-begin T'")
            self.close_peak(lineno, line)
            t = int(m.group(1))
            # the label of the `dump label` event on the line before, at
            # the same time (check_dump_events)
            self.dump = Dump(t, lineno, self.due_label
                             if t == self.last_t else None)
            if self.dump.t < self.last_t:
                _bad(lineno, line, "dump earlier than the line before it")
            self.at_sample = False
            self.state = "dump"
        else:
            _bad(lineno, line, "not a sample, event, stack, owner, dump, "
                 "comment or trailer line")


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
    if m.group(1) not in [str(v) for v in FORMAT_VERSIONS]:
        _bad(1, lines[0], "unknown format version (this reader knows %s)"
             % " and ".join(map(str, FORMAT_VERSIONS)))
    out.version = int(m.group(1))

    i = 1
    while i < len(lines):
        m = _KEY.match(lines[i])
        if not m:
            break
        if m.group(1) in out.header:
            _bad(i + 1, lines[i], "header key given twice")
        out.header[m.group(1)] = m.group(2)
        i += 1
    if i == len(lines) and not complete and "columns" not in out.header:
        return out                  # cut inside the header
    _check_header(out, i + 1)
    if out.version >= 4:
        try:
            out.argv = [unescape(w) for w in out.header["command"].split(" ")]
        except ValueError as e:
            raise FormatError("header command: %s" % e)
        out.header["command"] = " ".join(out.argv)

    r = _Reader(out)
    for j in range(i, len(lines)):
        r.line(j + 1, lines[j])

    if r.state == "end":
        out.complete = True
    elif complete:
        raise FormatError("the file ends without its trailer "
                          "('samples N' then 'end'); last line: %r"
                          % lines[-1])
    return out


def parse_dump_file(text):
    """A file written by `ws dump <file>` (docs/output-format.md, Dump
    files): returns (header dict, Dump), the Dump's stacks the file's
    own stack blocks.  Raises FormatError as parse_output does."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    # version 5 adds linesize and the dump-end's lines
    if not lines or lines[0] not in ("ws-dump-format: %d" % v
                                     for v in (4, 5)):
        raise FormatError("dump file: first line %r" % lines[:1])
    header, i = {}, 1
    while i < len(lines):
        m = _KEY.match(lines[i])
        if not m:
            break
        if m.group(1) in header:
            _bad(i + 1, lines[i], "header key given twice")
        header[m.group(1)] = m.group(2)
        i += 1
    for k in ("pid", "output-file", "time-unit", "every", "tau", "pagesize"):
        if k not in header:
            raise FormatError("dump file: no %r in the header" % k)
    out = WsOutput()
    out.version = int(lines[0].split(": ")[1])
    out.header = header
    r = _Reader(out)
    if i == len(lines) or not lines[i].startswith("dump-begin"):
        raise FormatError("dump file: expected 'dump-begin T' at line %d"
                          % (i + 1))
    for j in range(i, len(lines)):
        if out.dumps:
            _bad(j + 1, lines[j], "nothing may follow a dump file's "
                 "dump-end")
        r.line(j + 1, lines[j])
    if not out.dumps:
        raise FormatError("dump file: the dump block has no dump-end")
    dump = out.dumps[0]
    dump.stacks = out.stacks
    return header, dump


def read_output(path, complete=True):
    with open(path, encoding="utf-8") as f:
        return parse_output(f.read(), complete)


# ----------------------------------------------------------------------
# The summary on stderr

_STDERR_WS = re.compile(
    r"==(\d+)== (Insn|Data) avg/peak/total: (\d+\.\d)/(\d+)/(\d+) pages "
    r"\((\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?) kB\)"
    r"(?:, (\d+\.\d)/(\d+)/(\d+) lines(?:, density (\d\.\d{3}))?)?\Z")


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
            if m.group(9) is not None:
                res[kind + "_lines"] = (float(m.group(9)), int(m.group(10)),
                                        int(m.group(11)))
            if m.group(12) is not None:
                res["density"] = float(m.group(12))
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


def file_stderr(stderr, pid, path):
    """The stderr lines of process pid that belong to the program whose
    output file is path: a process that execs prints one summary per
    program (each ending with its `Output file:` line), so the lines
    after the previous summary up to that line."""
    block = []
    for line in stderr.split("\n"):
        if not line.startswith("==%s== " % pid):
            continue
        block.append(line)
        m = re.match(r"==\d+== Output file: (.+?)(?: \(incomplete.*)?\Z",
                     line)
        if m:
            if os.path.abspath(m.group(1)) == os.path.abspath(path):
                return "\n".join(block)
            block = []
    raise FormatError("stderr of pid %s has no summary for %s" % (pid, path))


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


def sanitizer_env():
    """The environment for the tree's ASan and UBSan builds: reports on,
    and without the user's LD_PRELOAD, which ASan refuses to follow
    (its runtime must load first) although the program is the suite's
    own."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env.update(ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    return env


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
    """Run argv under ws with options, writing the output file to out_path
    or to ws.out in tmpdir (a test's own folder, which pytest removes:
    the `ws` fixture gives one).  The current directory is that folder,
    so a stray default ws.out.<pid> lands there too.  check=True requires
    exit status 0."""
    require_built(argv[0])
    if out_path is None:
        if tmpdir is None:
            raise TypeError("run_ws needs out_path or tmpdir")
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

def final_window_range(out, t, sb_max=oracle.SB_MAX):
    """(lo, hi): the lengths the window of the final sample at t may have
    (docs/manual.md, "Final samples"), for a run of one thread in
    instruction time.  The window starts where the first epoch that
    began at or after t - tau began, or is empty (an epoch begins at t)
    when none did.  Epochs begin exactly at the start of measurement
    (which also ends the windows before it), a region's start and a
    change of T or tau (the events), and at the
    first superblock boundary at or after each j*T - tau after the last
    of those (up to sb_max instructions late).  lo == hi where the file
    tells exactly when that epoch began."""
    every, tau = out.every, out.tau
    starts = [] if out.header["instr-atstart"] == "no" else [(0, 0)]
    nominal = []                    # (first j*T - tau after a, T, tau)
    a = 0
    for e in out.events:
        if e.t > t or (e.t == t and e.kind == "final"):
            break
        interval = e.kind == "set" and e.args[0] in ("every", "tau")
        if e.kind == "start":
            # a fresh window: no epoch before it is in any window
            starts, nominal = [], []
        elif interval:
            nominal.append((a, e.t, every, tau))
        if interval or e.kind == "start":
            # the schedule starts again from here (a region's start
            # begins an epoch but leaves the schedule as it was)
            a = e.t
        if interval and e.args[0] == "every":
            every = int(e.args[1])
        elif interval:
            tau = int(e.args[1])
        if interval or e.kind in ("start", "region-start"):
            starts.append((e.t, e.t))
    nominal.append((a, t + 1, every, tau))
    for a, b, T, tu in nominal:
        j = (a + tu) // T + 1
        while j * T - tu < b:
            starts.append((j * T - tu, j * T - tu + sb_max - 1))
            j += 1
    # the first epoch that began at or after t - tau: it began between
    # the earliest candidate's earliest time (not before t - tau) and
    # the latest time of the first that certainly began after t - tau;
    # none certain: perhaps none, and the window is empty
    cands = [(lo, min(hi, t)) for lo, hi in starts
             if lo <= t and min(hi, t) >= t - tau]
    if not cands:
        return 0, 0
    earliest = max(t - tau, min(lo for lo, _ in cands))
    latest = min([hi for lo, hi in cands if lo >= t - tau], default=t)
    return t - latest, t - earliest


def check_final_windows(out, sb_max=oracle.SB_MAX):
    """Each final sample's stated window as final_window_range allows."""
    for t, window in out.final_windows.items():
        lo, hi = final_window_range(out, t, sb_max)
        assert lo <= window <= hi, (
            "final sample at t=%d: window %r, expected %d..%d"
            % (t, window, lo, hi))


def check_sample_times(out, sb_max=oracle.SB_MAX):
    """Samples in instruction time: the k-th sample (k = 1, 2, ...) is taken
    at the first superblock boundary at or after k*T, never early, and a
    superblock holds at most sb_max instructions.  A final sample (when
    measurement stops) is at the time it stopped; it comes after the
    others."""
    T = out.every
    regular = [s for s in out.samples if s.t not in out.finals]
    for k, s in enumerate(regular, 1):
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
    check_trailer_lines(out, summ)


def check_trailer_lines(out, summ):
    """Version 5 with lines: the trailer's line figures are the stderr
    summary's and what the line columns say; a page holds at most
    pagesize / linesize lines of the window and at least one; the
    density is the lines' average over the pages' lines."""
    if not _has_lines(out):
        return
    per_page = out.pagesize // int(out.header["linesize"])
    for kind in ("insn", "data"):
        avg, peak, total = out.summary_lines[kind]
        assert (avg, peak, total) == summ[kind + "_lines"], (
            kind, out.summary_lines[kind], summ.get(kind + "_lines"))
        values = [getattr(s, kind + "_lines") for s in out.samples]
        if values:
            assert peak == max(values), (kind, peak, max(values))
            mean = sum(values) / len(values)
            assert abs(avg - mean) <= 0.05 + 1e-9, (kind, avg, mean)
        for s in out.samples:
            pages, lines = getattr(s, kind), getattr(s, kind + "_lines")
            assert pages <= lines <= pages * per_page, (s, kind)
        pages_total = out.summary[kind][2]
        assert pages_total <= total <= pages_total * per_page, (kind, total)
    pages_sum = sum(s.data for s in out.samples)
    lines_sum = sum(s.data_lines for s in out.samples)
    want = lines_sum / (pages_sum * per_page) if pages_sum else 0.0
    assert abs(out.density - want) <= 0.0005 + 1e-9, (out.density, want)
    assert summ["density"] == out.density


def check_written_events(out):
    """What the grammar alone allows but ws never writes: each dump block
    follows its `event T dump label LABEL` line at the same time, and a
    `set` event names a parameter ws has (docs/output-format.md,
    Events)."""
    for d in out.dumps:
        assert d.label is not None, (
            "line %d: a dump block without its 'event %d dump label' line "
            "before it" % (d.lineno, d.t))
    for e in out.events:
        if e.kind == "set":
            assert e.args[0] in SET_PARAMETERS, (
                "line %d: set %s" % (e.lineno, " ".join(e.args)))


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
