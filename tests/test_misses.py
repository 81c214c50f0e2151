"""The miss profile (--ws-miss-file, docs/manual.md "Miss profile").

A working-set miss is an access that brings a page into the window of the
sample being built; ws counts them per instruction, Insn and Data pages
apart, and writes a callgrind-format profile at exit.

- tests/progs/miss (built -O2, see its comment) runs one line that stores
  to a fresh page of a big buffer between runs of another line that
  re-reads a few hot pages.  With tau = T the windows are the epochs, one
  per sample, and:
  * the fresh line's WsDataMiss is FRESH * PASSES exactly: it touches each
    fresh page once per pass, and a pass (about 160,000 instructions) is
    far longer than a window (10,000), so no two of its touches of a page
    share a window: every touch is a (page, window) pair of its own;
  * the hot line's WsDataMiss is HOT per window in which it ran, give or
    take the two windows at the ends of the loops (see test_hot_line);
  * summed over the file, WsDataMiss (WsInsnMiss) equals the sum over the
    samples of |WSd| (|WSi|) plus the pages of the last, partial window:
    every page of a window was brought into it by exactly one miss (also
    with tau = T/2, where nothing between the windows counts);
  * callgrind_annotate reads the file without a warning and ranks the
    fresh line's function first under WsDataMiss.
- without --ws-miss-file no profile is written; a name that cannot be
  used stops valgrind with status 1 before the program runs;
- a forked child writes its own profile (%p) with its own misses only.
"""

import os
import re
import subprocess

import pytest

import wslib

MISS = wslib.prog("miss")
MISS_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "miss.c")
T = 10000
FRESH, PASSES, HOT, REPEAT = 256, 8, 4, 25


def src_line(marker):
    """The line of tests/progs/miss.c that ends with /* marker */."""
    with open(MISS_SRC) as f:
        for n, line in enumerate(f, 1):
            if line.rstrip().endswith("/* %s */" % marker):
                return n
    raise AssertionError("no line marked %s in %s" % (marker, MISS_SRC))


# ----------------------------------------------------------------------
# A strict reader of the profile ws writes

class Cost:
    __slots__ = ("ob", "fl", "fn", "file", "addr", "line", "insn", "data")

    def __init__(self, ob, fl, fn, file, addr, line, insn, data):
        self.ob, self.fl, self.fn, self.file = ob, fl, fn, file
        self.addr, self.line, self.insn, self.data = addr, line, insn, data

    def __repr__(self):
        return "<%s %s %s:%d 0x%x %d %d>" % (self.ob, self.fn, self.file,
                                             self.line, self.addr,
                                             self.insn, self.data)


class Call:
    """A calls= line and the cost line after it: the caller (its object,
    file and function), the call site's position, the callee (object,
    file, function), the count and the inclusive costs."""
    __slots__ = ("caller", "addr", "line", "callee", "count", "insn",
                 "data")

    def __init__(self, caller, addr, line, callee, count, insn, data):
        self.caller, self.addr, self.line = caller, addr, line
        self.callee, self.count, self.insn, self.data = callee, count, \
            insn, data

    def __repr__(self):
        return "<call %s -> %s x%d %d %d>" % (self.caller[2], self.callee[2],
                                              self.count, self.insn,
                                              self.data)


class Profile:
    def __init__(self):
        self.header = {}       # key -> value; desc: lines in self.desc
        self.desc = []
        self.event_names = {}  # short -> long
        self.summary = None
        self.totals = None
        self.costs = []
        self.calls = []

    def sum(self, pred=lambda c: True):
        """(insn, data) summed over the cost lines pred accepts."""
        sel = [c for c in self.costs if pred(c)]
        return sum(c.insn for c in sel), sum(c.data for c in sel)


_COST = re.compile(r"0x([0-9a-f]+) ([0-9]+) ([0-9]+) ([0-9]+)\Z")
_SPEC = re.compile(r"(ob|fl|fi|fe|fn|cob|cfi|cfn)=\(([0-9]+)\)(?: (.+))?\Z")
_CALLS = re.compile(r"calls=([0-9]+) 0x([0-9a-f]+) ([0-9]+)\Z")


def read_profile(path):
    """The profile at path, checked against what ws promises to write:
    the header in callgrind's order, every name compressed and defined
    once before it is used, fi=/fe= only inside a function and the
    function's own file again at its end, calls= after cob=, cfi= and
    cfn= and followed by its cost line, summary and totals."""
    with open(path) as f:
        lines = f.read().split("\n")
    assert lines[-1] == "", "the file does not end with a newline"
    lines = lines[:-1]
    assert lines[0] == "# callgrind format", lines[0]
    p = Profile()
    i = 1
    keys = []
    while True:
        line = lines[i]
        i += 1
        m = re.match(r"([a-z]+): (.*)\Z", line)
        assert m, "header line %d: %r" % (i, line)
        k, v = m.groups()
        keys.append(k)
        if k == "desc":
            p.desc.append(v)
        elif k == "event":
            short, _, long_ = v.partition(" : ")
            p.event_names[short] = long_
        else:
            assert k not in p.header, "header line %d repeats %s" % (i, k)
            p.header[k] = v
        if k == "events":
            break
    order = [k for n, k in enumerate(keys) if k not in keys[:n]]
    assert order == ["version", "creator", "pid", "cmd", "desc",
                     "positions", "event", "events"], keys
    names = {"ob": {}, "fl": {}, "fn": {}}
    cur = {"ob": None, "fl": None, "fn": None, "file": None}
    callee = {}
    call = None
    for n, line in enumerate(lines[i:], i + 1):
        if line == "":
            continue
        m = re.match(r"(summary|totals): ([0-9]+) ([0-9]+)\Z", line)
        if m:
            assert getattr(p, m.group(1)) is None, "line %d: again" % n
            counts = dict(zip(p.header["events"].split(),
                              (int(m.group(2)), int(m.group(3)))))
            setattr(p, m.group(1), (counts["WsInsnMiss"],
                                    counts["WsDataMiss"]))
            continue
        assert p.totals is None, "line %d after totals: %r" % (n, line)
        m = _SPEC.match(line)
        if m:
            spec, num, name = m.groups()
            space = {"fi": "fl", "fe": "fl", "cob": "ob", "cfi": "fl",
                     "cfn": "fn"}.get(spec, spec)
            if name is not None:
                assert num not in names[space], (
                    "line %d defines %s (%s) again" % (n, space, num))
                names[space][num] = name
            assert num in names[space], "line %d: (%s) undefined" % (n, num)
            name = names[space][num]
            if spec.startswith("c"):
                assert cur["fn"] is not None, "line %d: %s= first" % (n, spec)
                callee[spec[1:]] = name
                continue
            if spec == "fn":
                assert cur["file"] == cur["fl"], (
                    "line %d: fn= while in another file than fl=" % n)
                cur["fn"] = name
            elif spec == "fl":
                cur["fl"] = cur["file"] = name
            elif spec == "ob":
                cur["ob"] = name
            else:
                assert cur["fn"] is not None, "line %d: %s= first" % (n, spec)
                assert (name == cur["fl"]) == (spec == "fe"), (
                    "line %d: %s= names %r, the function's file is %r"
                    % (n, spec, name, cur["fl"]))
                cur["file"] = name
            continue
        m = _CALLS.match(line)
        if m:
            assert set(callee) == {"ob", "fi", "fn"}, (
                "line %d: calls= without cob=, cfi= and cfn=" % n)
            call = (int(m.group(1)), dict(callee))
            callee = {}
            continue
        m = _COST.match(line)
        assert m, "line %d: %r" % (n, line)
        if call is not None:
            counts = dict(zip(p.header["events"].split(),
                              (int(m.group(3)), int(m.group(4)))))
            count, ce = call
            p.calls.append(Call((cur["ob"], cur["fl"], cur["fn"]),
                                int(m.group(1), 16), int(m.group(2)),
                                (ce["ob"], ce["fi"], ce["fn"]), count,
                                counts["WsInsnMiss"], counts["WsDataMiss"]))
            call = None
            continue
        assert None not in (cur["ob"], cur["fl"], cur["fn"]), \
            "line %d: a cost line before ob=, fl= and fn=" % n
        counts = dict(zip(p.header["events"].split(),
                          (int(m.group(3)), int(m.group(4)))))
        addr, ln = int(m.group(1), 16), int(m.group(2))
        insn, data = counts["WsInsnMiss"], counts["WsDataMiss"]
        assert insn + data > 0, "line %d: a cost line of zeros" % n
        p.costs.append(Cost(cur["ob"], cur["fl"], cur["fn"], cur["file"],
                            addr, ln, insn, data))
    assert p.summary is not None and p.totals is not None
    return p


def check_profile(p, run, argv):
    """What every profile says about its run."""
    assert p.header["version"] == "1"
    assert re.match(r"ws-[0-9]+\.[0-9]+\.[0-9]+\Z", p.header["creator"])
    assert p.header["positions"] == "instr line"
    # data first: readers rank by the first event unless told otherwise
    assert p.header["events"] == "WsDataMiss WsInsnMiss"
    assert list(p.event_names) == ["WsDataMiss", "WsInsnMiss"]
    assert ("Sort: by data misses, the first event; callgrind_annotate "
            "--sort=WsInsnMiss ranks by instruction misses") in p.desc
    assert all(p.event_names.values())
    assert p.header["cmd"] == " ".join(argv)
    assert "Page size: 4096 bytes" in p.desc
    # totals must be the sum of the cost lines; summary, the run's
    # whole cost, is the same sum here: every miss has a cost line
    assert p.totals == p.sum() == p.summary


# ----------------------------------------------------------------------
# The two lines of tests/progs/miss

MISS_ARGV = [MISS, str(FRESH), str(PASSES), str(HOT), str(REPEAT)]


@pytest.fixture(scope="module")
def miss_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("miss")
    prof = str(d / "miss.prof")
    run = wslib.run_ws(MISS_ARGV, ["--ws-every=%d" % T, "--ws-tau=%d" % T,
                                   "--ws-miss-file=" + prof],
                       out_path=str(d / "ws.out"))
    assert run.stdout == "0\n"
    return run, read_profile(prof), prof


def same_file(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def at_line(marker):
    n = src_line(marker)
    return lambda c: c.line == n and same_file(c.file, MISS_SRC)


def test_format(miss_run):
    run, p, prof = miss_run
    check_profile(p, run, MISS_ARGV)
    assert p.header["pid"] == str(run.summary["pid"])
    assert "Window: tau %d, sample every %d instructions (at exit)" % (
        T, T) in p.desc
    assert "==%d== Miss profile: %s" % (run.summary["pid"],
                                       prof) in run.stderr.splitlines()
    # the program's functions by their names, in the program's object,
    # at its source file (with its directory) and the lines of the code
    # (main's misses are the windows in which its code or stack page
    # comes back first through main rather than through the functions it
    # calls: that depends on where the windows' edges fall, which moves
    # with start-up's instruction count, and so with the environment's
    # size; the marked lines alone touch their pages)
    ours = [c for c in p.costs if c.ob == MISS]
    assert {"fresh_touch", "hot_touch"} <= {c.fn for c in ours}
    for c in ours:
        if c.fn in ("main", "fresh_touch", "hot_touch"):
            assert same_file(c.fl, MISS_SRC) and c.line > 0, c
    # code without line information (stubs of .plt and .init, stripped
    # code) is in file "(object)", the object's base name, so that
    # callgrind_annotate does not lump objects together and KCachegrind
    # (which shows what follows a file name's last '/') shows it whole;
    # there is always some (ld.so's and the preloaded core's stubs), and
    # some of it has no function name
    no_line = [c for c in p.costs if c.line == 0]
    assert [c for c in no_line if c.fn == "???"]
    for c in no_line:
        assert c.file == ("???" if c.ob == "???"
                          else "(%s)" % os.path.basename(c.ob)), c


def symbols(path):
    """{name: address} of the functions in the ELF file at path."""
    r = subprocess.run(["nm", path], capture_output=True, timeout=60,
                       check=True)
    res = {}
    for line in r.stdout.decode().split("\n"):
        f = line.split()
        if len(f) == 3 and f[1] in "tT":
            res[f[2]] = int(f[0], 16)
    return res


def test_addresses_of_the_object_file(miss_run):
    """Addresses are those of the object file (the load address taken
    off), as objdump and KCachegrind's machine-code view have them: the
    fresh line is fresh_touch's first instruction, the hot line inside
    hot_touch, which the symbol table places right after it."""
    _, p, _ = miss_run
    sym = symbols(MISS)
    (fresh,) = [c.addr for c in p.costs if at_line("FRESH")(c)]
    assert fresh == sym["fresh_touch"]
    assert sym["fresh_touch"] < sym["hot_touch"]
    for c in p.costs:
        if at_line("HOT")(c):
            assert sym["hot_touch"] < c.addr < sym["hot_touch"] + 0x100, c


def test_fresh_line(miss_run):
    """Every store of the fresh line brings its page in."""
    _, p, _ = miss_run
    fresh = [c for c in p.costs if at_line("FRESH")(c)]
    assert {c.fn for c in fresh} == {"fresh_touch"}
    # one store instruction: one cost line, one address
    assert len([c for c in fresh if c.data]) == 1, fresh
    assert p.sum(at_line("FRESH"))[1] == FRESH * PASSES


def test_hot_line(miss_run):
    """The hot line brings its HOT pages in once per window it runs in.
    A window lies wholly inside the loops or overlaps their start or
    end; one inside holds many calls of hot_touch (each about 630
    instructions, a window 10,000), so it has all HOT pages; the (at
    most) two at the ends may have some or none: with n windows that
    overlap the loops, HOT * (n - 2) <= count <= HOT * n."""
    run, p, _ = miss_run
    out = run.output
    (t0,) = [e.t for e in out.events if e.kind == "mark"
             and e.args == ["loops"]]
    (t1,) = [e.t for e in out.events if e.kind == "mark"
             and e.args == ["done"]]
    # a window (epoch) starts at each sample and ends at the next one
    starts = [0] + [s.t for s in out.samples]
    ends = [s.t for s in out.samples] + [float("inf")]
    n = sum(1 for a, b in zip(starts, ends) if a <= t1 and b > t0)
    count = p.sum(at_line("HOT"))[1]
    assert HOT * (n - 2) <= count <= HOT * n, (count, n)
    assert {c.fn for c in p.costs if at_line("HOT")(c)} == {"hot_touch"}


def check_windows_filled(run, p):
    """Summed over the file the misses are the sum of the (regular)
    samples' sizes plus the pages of the partial window after the last
    one, which the WS_DUMP after WS_STOP lists: its epoch began at or
    after the last sample (pages of the last sample's window have older
    epochs).  The final sample WS_STOP took has the dump's window: the
    last sample's, up to the stop."""
    out = run.output
    regular = [s for s in out.samples if s.t not in out.finals]
    assert regular, "no samples"
    (dump,) = out.dumps
    (final,) = out.finals.values()
    assert (final.insn, final.data) == (dump.count("insn"),
                                        dump.count("data"))
    last = regular[-1].t
    partial = {kind: sum(1 for pg in dump.pages if pg.kind == kind
                         and pg.since >= last) for kind in ("insn", "data")}
    insn, data = p.sum()
    assert data == sum(s.data for s in regular) + partial["data"]
    assert insn == sum(s.insn for s in regular) + partial["insn"]


def test_misses_fill_the_windows(miss_run):
    """With tau = T the windows tile time, one epoch each: each page of
    a sample's window came in by exactly one miss."""
    run, p, _ = miss_run
    check_windows_filled(run, p)
    last = [s.t for s in run.output.samples if s.t not in run.output.finals][-1]
    # the partial window's epoch began at the last sample itself
    assert all(pg.since <= last for pg in run.output.dumps[0].pages)


@pytest.mark.parametrize("platform", wslib.platforms())
def test_misses_fill_the_windows_tau_half(tmp_path, platform):
    """With tau = T/2 there is a gap before each window, where nothing is
    a miss (nor in any sample): the same sum holds; for the 32-bit build
    of the program too."""
    prof = str(tmp_path / "miss.prof")
    argv = [wslib.prog("miss", platform)] + MISS_ARGV[1:]
    run = wslib.run_ws(argv, ["--ws-every=%d" % T,
                                   "--ws-tau=%d" % (T // 2),
                                   "--ws-miss-file=" + prof],
                       out_path=str(tmp_path / "ws.out"))
    p = read_profile(prof)
    check_windows_filled(run, p)
    # the fresh line misses only in the windows: about half its stores
    fresh = p.sum(at_line("FRESH"))[1]
    assert 0.4 * FRESH * PASSES < fresh < 0.6 * FRESH * PASSES, fresh


def test_callgrind_annotate(miss_run):
    """callgrind_annotate, as the summary's last line says to run it (no
    --sort), reads the profile without a warning and ranks the fresh
    line's function first: by WsDataMiss, the first event (with the
    function only its store and its return, the line ranks first too)."""
    _, _, prof = miss_run
    r = subprocess.run(["callgrind_annotate", "--auto=no", prof],
                       capture_output=True, timeout=60,
                       cwd=os.path.dirname(prof))   # it shortens names under
                                                    # the current directory
    err = r.stderr.decode()
    assert r.returncode == 0 and err == "", err
    text = r.stdout.decode()
    assert "Events recorded:  WsDataMiss WsInsnMiss" in text
    assert "Event sort order: WsDataMiss WsInsnMiss" in text
    rows = text.split("file:function\n", 1)[1].split("\n")
    first = rows[1]    # after a line of dashes
    m = re.match(r"\s*([0-9,]+) \(\s*[0-9.]+%\)\s+([0-9,]+)"
                 r"(?: \(\s*[0-9.]+%\))?\s+(.*)\Z", first)
    assert m, text
    assert m.group(3) == "%s:fresh_touch [%s]" % (MISS_SRC, MISS), first
    data, insn = (int(m.group(i).replace(",", "")) for i in (1, 2))
    # Beyond the fresh line's misses: a window that begins inside
    # fresh_touch.  The function is one superblock, so a window can only
    # begin at its entry, between main's call and the store.  Then the
    # store, the first instruction of the window, brings in the code
    # page, and the return the stack's page that the call wrote in the
    # window before: one miss of each per such window.  Where the samples
    # fall depends on how many instructions the loader ran, so on the
    # environment and the paths (0, 1 and 2 such windows have all been
    # seen): any count is right if the two agree, and there are few.
    assert FRESH * PASSES <= data < FRESH * PASSES + 50, first
    assert insn == data - FRESH * PASSES, first


def test_callgrind_annotate_source(miss_run):
    """--auto=yes annotates miss.c: the fresh line carries its count."""
    _, _, prof = miss_run
    r = subprocess.run(["callgrind_annotate", "--auto=yes", prof],
                       capture_output=True, timeout=60,
                       cwd=os.path.dirname(prof))
    assert r.returncode == 0, r.stderr.decode()
    text = r.stdout.decode()
    (line,) = [l for l in text.split("\n") if l.endswith("/* FRESH */")]
    # the columns: WsDataMiss, WsInsnMiss (a count, 0 or '.'), the source
    assert re.match(r"\s*%s \([ 0-9.]+%%\)\s+\S+(?: \([ 0-9.]+%%\))?\s+"
                    r"\*p = 1;" % format(FRESH * PASSES, ","), line), line


# ----------------------------------------------------------------------
# When there is no profile, or no file for it

def test_no_option_no_profile(tmp_path):
    run = wslib.run_ws(MISS_ARGV[:1] + ["4", "1", "1", "1"],
                       out_path=str(tmp_path / "ws.out"))
    assert os.listdir(str(tmp_path)) == ["ws.out"]
    assert "Miss profile" not in run.stderr


BAD_NAMES = [
    ("/nonexistent-dir/miss.out",
     "--ws-miss-file: cannot create the miss profile "
     "'/nonexistent-dir/miss.out' (no such file or directory; a writable "
     "file name is accepted)"),
    ("miss.%q{WS_TEST_UNSET_VARIABLE}", None),
    ("ws.out", "--ws-miss-file: 'ws.out' is also the --ws-file output file "
     "(give another name)"),
]


@pytest.mark.parametrize("name,message", BAD_NAMES,
                         ids=[b[0] for b in BAD_NAMES])
def test_bad_name(tmp_path, name, message):
    """Refused before the program runs, status 1, a line naming the
    option; nothing is left behind."""
    marker = wslib.prog("marker")
    wslib.require_built(marker)
    mark = tmp_path / "ran"
    env = dict(os.environ)
    env.pop("WS_TEST_UNSET_VARIABLE", None)
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", "--ws-file=ws.out",
                        "--ws-miss-file=" + name, marker, str(mark)],
                       cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=60, env=env)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 1, err
    assert not mark.exists()
    assert os.listdir(str(tmp_path)) == []
    lines = [l for l in err.splitlines() if "--ws-miss-file" in l]
    assert lines, err
    if message is not None:
        assert lines == ["valgrind: " + message], err


# ----------------------------------------------------------------------
# Processes

def _profiles(d):
    """{pid: Profile} of the miss.<pid> files in d."""
    res = {}
    for f in os.listdir(str(d)):
        if f.startswith("miss."):
            p = read_profile(str(d / f))
            assert f == "miss." + p.header["pid"]
            res[int(p.header["pid"])] = p
    return res


def test_fork(tmp_path):
    """With %p the parent and the forked child each write their own
    profile, each with the misses of its own process only: the parent's
    loop (both runs of it) in the parent's, the child's loop in the
    child's.  The loops are assembly without line information: their
    functions are known by their symbols, their file is "(object)"."""
    rel_fork = wslib.prog("rel_fork")
    wslib.require_built(rel_fork)
    cmd = wslib.ws_command([rel_fork, "fork", "300000"],
                           ["--ws-miss-file=miss.%p"],
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err
    profs = _profiles(tmp_path)
    assert len(profs) == 2, os.listdir(str(tmp_path))
    outs = {int(o.header["pid"]): o for o in (
        wslib.read_output(str(tmp_path / f)) for f in os.listdir(
            str(tmp_path)) if f.startswith("ws."))}
    assert set(outs) == set(profs)
    (parent,) = [pid for pid in outs if int(outs[pid].header["ppid"])
                 not in outs]
    (child,) = [pid for pid in outs if pid != parent]

    def fns(prof):
        return {c.fn for c in prof.costs if c.data}

    pp, cp = profs[parent], profs[child]
    assert "rel_parent_touch" in fns(pp) and "rel_child_touch" not in fns(pp)
    assert "rel_child_touch" in fns(cp) and "rel_parent_touch" not in fns(cp)
    for pid, prof in profs.items():
        assert prof.totals == prof.sum() == prof.summary
        assert prof.header["cmd"] == "%s fork 300000" % rel_fork
    # each loop writes its pages (10, 20) in every window it runs in: all
    # of them in a window inside the loop (a sweep is 250 or 500
    # instructions, a window 100,000), some in one that overlaps its
    # start or end.  The parent's two loops run 1,000,000 instructions
    # each, the child's 300,000.  Its store has the most misses; its
    # return has the stack's.
    for pid, fn, pages, inside in ((parent, "rel_parent_touch", 10, 18),
                                   (child, "rel_child_touch", 20, 2)):
        costs = [c for c in profs[pid].costs if c.fn == fn]
        store = max(c.data for c in costs)
        windows = len(outs[pid].samples) + 1
        assert pages * inside <= store <= pages * windows, (fn, costs)
        obj = "(%s)" % os.path.basename(rel_fork)
        assert {(c.fl, c.file, c.line) for c in costs} == {(obj, obj, 0)}
    assert err.count("Miss profile: ") == 2, err


def test_fork_fixed_name(tmp_path):
    """Without %p the child cannot have a file of its own: it says so and
    the parent's profile is whole."""
    rel_fork = wslib.prog("rel_fork")
    wslib.require_built(rel_fork)
    cmd = wslib.ws_command([rel_fork, "fork", "300000"],
                           ["--ws-miss-file=miss.prof"],
                           str(tmp_path / "ws.%p.out"))
    p = subprocess.run(cmd, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err
    assert err.count("ws: --ws-miss-file=miss.prof names the parent's "
                     "file; this child writes no miss profile (use %p)") \
        == 1, err
    prof = read_profile(str(tmp_path / "miss.prof"))
    fns = {c.fn for c in prof.costs if c.data}
    assert "rel_parent_touch" in fns and "rel_child_touch" not in fns
    assert err.count("Miss profile: ") == 1, err


# ----------------------------------------------------------------------
# Calls and inclusive costs

def self_cost(p, fn):
    return p.sum(lambda c: c.fn == fn)


def test_calls_are_inclusive(miss_run):
    """main calls fresh_touch and hot_touch (noinline, directly), which
    call nothing: each call's cost is exactly its callee's own misses,
    and its count the calls miss.c makes, FRESH x PASSES of each, from
    one call site each."""
    _, p, _ = miss_run
    for callee in ("fresh_touch", "hot_touch"):
        calls = [c for c in p.calls
                 if c.caller[2] == "main" and c.callee[2] == callee]
        assert len(calls) == 1, (callee, p.calls)
        insn = sum(c.insn for c in calls)
        data = sum(c.data for c in calls)
        assert (insn, data) == self_cost(p, callee)
        assert calls[0].count == FRESH * PASSES, calls
        assert all(c.callee[1] == MISS_SRC or same_file(c.callee[1],
                                                        MISS_SRC)
                   for c in calls)
    # FRESH x PASSES data misses at the fresh line, all through main
    assert sum(c.data for c in p.calls if c.callee[2] == "fresh_touch") \
        >= FRESH * PASSES


def annotate_rows(prof, *options):
    """{function: (data, insn)} of callgrind_annotate's function rows."""
    r = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100"]
                       + list(options) + [prof], capture_output=True,
                       text=True, timeout=60, cwd=os.path.dirname(prof))
    assert r.returncode == 0 and "WARNING" not in r.stderr, r.stderr
    rows = {}
    # a count of 0 comes without a percentage
    num = r"([0-9,]+)(?: \([ 0-9.]+%\))?"
    for line in r.stdout.splitlines():
        m = re.match(r"\s*" + num + r"\s+" + num + r"\s+(\S+):(\S+)", line)
        if m:
            rows[m.group(4)] = tuple(int(m.group(k).replace(",", ""))
                                     for k in (1, 2))
    return rows


def test_callgrind_annotate_inclusive(miss_run):
    """callgrind_annotate --inclusive=yes: main's row is its own misses
    plus those of everything it called (the calls= lines), more than its
    own; its callees' rows are their calls' costs."""
    _, p, prof = miss_run
    incl = annotate_rows(prof, "--inclusive=yes")
    excl = annotate_rows(prof)
    own = self_cost(p, "main")
    below = [c for c in p.calls if c.caller[2] == "main"]
    want = (own[1] + sum(c.data for c in below),
            own[0] + sum(c.insn for c in below))
    assert incl["main"] == want
    assert incl["main"][0] > excl.get("main", (0, 0))[0]
    for callee in ("fresh_touch", "hot_touch"):
        calls = [c for c in p.calls if c.callee[2] == callee]
        assert incl[callee] == (sum(c.data for c in calls),
                                sum(c.insn for c in calls))


def test_callgrind_annotate_calls(miss_run):
    """callgrind_annotate --inclusive=yes --tree=calling: under main, its
    calls of fresh_touch and hot_touch, each FRESH x PASSES times (as
    miss.c's loops make them), fresh_touch's inclusive data misses
    exactly one per call (each stores to a fresh page), hot_touch's its
    own; main's inclusive row holds both."""
    _, p, prof = miss_run
    r = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100",
                        "--inclusive=yes", "--tree=calling", prof],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "WARNING" not in r.stderr, r.stderr
    num = r"([0-9,]+)(?: \([ 0-9.]+%\))?"
    below = {}
    main = None
    for line in r.stdout.splitlines():
        m = re.match(r"\s*%s\s+%s\s+\*\s+\S+:(\S+) " % (num, num), line)
        if m:
            main = m.group(3) == "main"
            continue
        m = re.match(r"\s*%s\s+%s\s+>\s+\S+:(\S+) \(([0-9,]+)x\)"
                     % (num, num), line)
        if m and main:
            below[m.group(3)] = tuple(int(m.group(k).replace(",", ""))
                                      for k in (1, 2, 4))
    calls = FRESH * PASSES
    fresh, hot = self_cost(p, "fresh_touch"), self_cost(p, "hot_touch")
    assert fresh[1] >= calls
    assert below["fresh_touch"] == (fresh[1], fresh[0], calls), below
    assert below["hot_touch"] == (hot[1], hot[0], calls), below
    assert annotate_rows(prof, "--inclusive=yes")["main"][0] >= \
        fresh[1] + hot[1]
    # no call is written with a count of 0, which callgrind_annotate
    # would read as a cost line of the caller's own
    assert all(c.count >= 1 for c in p.calls)


def test_nameless_functions_named_by_their_entry(tmp_path):
    """rel_nosym has no symbols: its functions are named by their entry,
    an address of the file (a direct call's target in its code, as
    objdump shows it), each its own function, and they call each other:
    outer calls middle, middle calls leaf.  (The loop leaf calls is an
    assembly function without CFI: unwinding from it, Valgrind finds
    middle's frame next, so its misses are named leaf's.)"""
    nosym = wslib.prog("rel_nosym")
    prof = str(tmp_path / "miss.prof")
    wslib.run_ws([nosym, "0"], ["--ws-miss-file=" + prof],
                 out_path=str(tmp_path / "ws.out"))
    p = read_profile(prof)
    mine = {c.fn for c in p.costs if c.ob == nosym} | \
        {c.caller[2] for c in p.calls if c.caller[0] == nosym}
    named = {fn for fn in mine if re.match(r"0x[0-9a-f]+\Z", fn)}
    dis = subprocess.run(["objdump", "-d", nosym], capture_output=True,
                         text=True, check=True).stdout
    targets = {int(t, 16) for t in
               re.findall(r"\tcall\s+([0-9a-f]+) ", dis)}
    assert len(named) >= 4, mine
    # and the functions entered through pointers (test_nameless_
    # functions_entered_through_pointers): what the C library calls,
    # .init, .fini, those of .init_array and .fini_array, and main,
    # whose address _start loads
    heads = subprocess.run(["objdump", "-h", nosym], capture_output=True,
                           text=True, check=True).stdout
    targets |= {int(a, 16) for a in re.findall(
        r" \.(?:init|fini) +[0-9a-f]+ +([0-9a-f]+) ", heads)}
    arrays = subprocess.run(["objdump", "-s", "-j", ".init_array", "-j",
                             ".fini_array", nosym], capture_output=True,
                            text=True, check=True).stdout
    targets |= {int.from_bytes(bytes.fromhex(w1 + w2), "little")
                for w1, w2 in re.findall(r"^ [0-9a-f]+ ([0-9a-f]{8}) "
                                         r"([0-9a-f]{8})", arrays, re.M)}
    targets |= {int(a, 16) for a in
                re.findall(r"\tlea +-?0x[0-9a-f]+\(%rip\),%rdi +# ([0-9a-f]+)",
                           dis)}
    assert {int(fn, 16) for fn in named} <= targets, (named, targets)
    arcs = {(c.caller[2], c.callee[2]) for c in p.calls
            if c.caller[2] in named and c.callee[2] in named}
    assert len(arcs) >= 2, arcs
    for caller, callee in arcs:
        # the caller's code holds a direct call to the callee
        assert re.search(r"\tcall\s+%s " % callee[2:], dis), (caller, callee)


def test_nameless_functions_entered_through_pointers(tmp_path):
    """miss_pointer has no symbols and calls its two functions only
    through pointers (main calls pointed_outer, which calls
    pointed_leaf): each is named by its entry, the address of the file
    the program prints, as a direct call's target is; the leaf's 16
    fresh pages are its own misses, the outer's 8 its own, and the call
    from the outer to the leaf carries the leaf's 16, counted once."""
    prog = wslib.prog("miss_pointer")
    prof = str(tmp_path / "miss.prof")
    r = wslib.run_ws([prog], ["--ws-miss-file=" + prof],
                     out_path=str(tmp_path / "ws.out"))
    entry = dict(line.split() for line in
                 r.stdout.splitlines())
    p = read_profile(prof)
    prog = os.path.realpath(prog)       # as the object is named
    outer, leaf = entry["outer"], entry["leaf"]
    assert p.sum(lambda c: c.ob == prog and c.fn == leaf) == (0, 16)
    assert p.sum(lambda c: c.ob == prog and c.fn == outer) == (0, 8)
    (call,) = [c for c in p.calls if c.caller[2] == outer]
    assert call.callee == (prog, "(miss_pointer)", leaf)
    assert (call.count, call.insn, call.data) == (1, 0, 16)
    # main's call through its pointer: the outer's misses and the leaf's
    (call,) = [c for c in p.calls if c.callee[2] == outer]
    assert (call.count, call.data) == (1, 24)


def test_miss_stacks_and_pprof(miss_run, tmp_path):
    """With --ws-miss-file the output file has the misses of each stack
    (miss-stack lines), whose sums are the miss profile's totals; ws_print
    --pprof turns them into samples that go tool pprof reads: its
    data-misses and insn-misses totals are the profile's, each function's
    own misses (flat) are those of the profile's cost lines in it, and
    -traces gives each line's count with its stack."""
    import test_exports as te
    run, p, _ = miss_run
    out = wslib.read_output(run.out_path)
    assert out.miss_stacks
    insn = sum(i for _, i, _ in out.miss_stacks)
    data = sum(d for _, _, d in out.miss_stacks)
    assert (insn, data) == tuple(p.totals)
    path = tmp_path / "miss.pb.gz"
    r = te.ws_print("--pprof", path, run.out_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    for sample, k in (("insn-misses", 0), ("data-misses", 1)):
        top = te.plain(te.pprof_top(tmp_path, path, sample))
        assert sum(flat for flat, _ in top.values()) == (insn, data)[k]
        for fn in ("fresh_touch", "hot_touch", "main"):
            own = p.sum(lambda c: c.fn == fn)[k]
            assert top.get(fn, (0, 0))[0] == own, (sample, fn)
    traces = te.pprof(tmp_path, "-traces", "-sample_index=data-misses",
                      path)
    got = {}
    for block in traces.split("-----------+")[1:]:
        lines = [l for l in block.splitlines()[1:] if l.strip()]
        if lines and lines[0].split(":")[0].strip() == "miss-stack":
            n = int(lines[0].split(":")[1])
            got[n] = (int(lines[1].split()[0]),
                      [lines[1].split(None, 1)[1].strip()]
                      + [l.strip() for l in lines[2:]])
    def named(f):       # pprof's name of code without a symbol
        return "??? (in %s" % f.location[1:] \
            if f.function == "???" and f.location.startswith("(") \
            else f.function
    want = {n: (d, [named(f) for f in out.stacks[stack]])
            for n, (stack, _, d) in enumerate(out.miss_stacks, 1)}
    assert {n: (v, [te.plain_name(fn) for fn in fns])
            for n, (v, fns) in got.items()} == want


def test_pprof_misses_diff_base(miss_run, tmp_path):
    """-diff_base of a run with twice the passes against miss_run:
    fresh_touch's data misses grew by what the two miss profiles say, and
    of those its fresh line's by FRESH * PASSES (each pass brings its
    FRESH pages in)."""
    import test_exports as te
    run, p, _ = miss_run
    prof = str(tmp_path / "miss2.prof")
    argv = [MISS, str(FRESH), str(2 * PASSES), str(HOT), str(REPEAT)]
    run2 = wslib.run_ws(argv, ["--ws-every=%d" % T, "--ws-tau=%d" % T,
                               "--ws-miss-file=" + prof],
                        out_path=str(tmp_path / "ws2.out"))
    p2 = read_profile(prof)
    base, new = tmp_path / "a.pb.gz", tmp_path / "b.pb.gz"
    for r, path in ((run, base), (run2, new)):
        assert te.ws_print("--pprof", path, r.out_path).returncode == 0
    top = te.plain(te.pprof_top(tmp_path, new, "data-misses",
                                "-diff_base=%s" % base))
    grew = p2.sum(lambda c: c.fn == "fresh_touch")[1] \
        - p.sum(lambda c: c.fn == "fresh_touch")[1]
    assert top["fresh_touch"][0] == grew
    # of which the fresh line's, known from the source (the rest of the
    # function, its stack frame's page, misses as windows fall)
    assert p2.sum(at_line("FRESH"))[1] - p.sum(at_line("FRESH"))[1] == \
        FRESH * PASSES
