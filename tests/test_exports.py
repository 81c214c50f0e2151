"""ws_print's exports (docs/manual.md, "Exports"; print/README.md):
folded stacks by function or by line, cut stacks marked, names whole,
nothing to show refused.

heap_known (tests/progs/heap_known.c) allocates whole pages from one
function per site, each called from main, so every site's stack and
bytes follow from its source.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

import wslib

KNOWN = wslib.prog("heap_known")
TOUCH = wslib.prog("touch")
WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
V3_FILE = os.path.join(wslib.TOP_SRCDIR, "tests", "print_golden",
                       "spikes-v3.ws")
PAGE = 4096
IDLE = 1000000

# heap_known's sites from its source: the function main calls, and the
# bytes it allocates (chunks x pages x 4096).
KNOWN_BYTES = {
    "site_first_page": 4 * 8 * PAGE,
    "site_never": 3 * 4 * PAGE,
    "site_idle": 16 * PAGE,
    "site_busy": 16 * PAGE,
    "site_write_only": 2 * 2 * PAGE,
    "site_read_only": 2 * 2 * PAGE,
    "site_shared": 1 * PAGE,
    "site_kept": 1 * PAGE,
}


def ws_print(*args):
    return subprocess.run([WS_PRINT] + [str(a) for a in args],
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    d = tmp_path_factory.mktemp("known")
    r = wslib.run_ws([KNOWN, str(IDLE)], out_path=str(d / "ws.out"))
    wslib.check_trailer(r)
    return r


@pytest.fixture(scope="module")
def known3(tmp_path_factory):
    """heap_known with stacks of at most 3 frames: main's sites are whole
    (pages, site_*, main), the second thread's is cut (pages,
    second_thread, start_thread: clone is left out)."""
    d = tmp_path_factory.mktemp("known3")
    r = wslib.run_ws([KNOWN, str(IDLE)], ["--num-callers=3"],
                     out_path=str(d / "ws.out"))
    return r


def folded_lines(stdout):
    got = []
    for line in stdout.splitlines():
        stack, n = line.rsplit(" ", 1)
        got.append((stack, int(n)))
    return got


# ----------------------------------------------------------------------
# --folded

def test_folded_by_function(known):
    """A frame is its function: heap_known's sites are exactly main, the
    site's function, pages, with the bytes the source allocates, worst
    first; the second thread's site starts at the thread's entry."""
    p = ws_print("--folded", "bytes", known.out_path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    got = folded_lines(p.stdout)
    from_main = {s: n for s, n in got
                 if s.startswith("main;") and s.endswith(";pages")}
    assert from_main == {"main;%s;pages" % fn: n
                         for fn, n in KNOWN_BYTES.items()}
    assert [n for _, n in got] == sorted((n for _, n in got), reverse=True)
    (thread,) = [s for s, _ in got if "second_thread" in s]
    assert thread.endswith(";start_thread;second_thread;pages")
    assert "(" not in "".join(from_main)
    # the same with the option spelt out
    assert ws_print("--folded-by=function", "--folded", "bytes",
                    known.out_path).stdout == p.stdout


def test_folded_by_line(known):
    """--folded-by=line names each frame as the report does, so the sites
    of main are main at its own line of each call."""
    out = known.output
    p = ws_print("--folded-by=line", "--folded", "bytes", known.out_path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    want = {}
    for h in out.heap_sites:
        frames = out.stacks[h.stack]
        want[";".join(f.words() for f in reversed(frames))] = \
            h["bytes"]
    assert dict(folded_lines(p.stdout)) == want
    src = open(os.path.join(wslib.TOP_SRCDIR, "tests", "progs",
                            "heap_known.c")).read().splitlines()
    for stack, _ in folded_lines(p.stdout):
        m = re.match(r"main \(heap_known\.c:(\d+)\);(site_\w+) ", stack)
        if m:
            assert src[int(m.group(1)) - 1].strip().startswith(
                m.group(2) + "("), stack


def test_folded_by_refused():
    p = ws_print("--folded-by=file", "--folded", "bytes", V3_FILE)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == ("ws_print: --folded-by takes function or line, "
                        "not 'file'\n")


def test_folded_marks_cut_stacks(known3):
    """With --num-callers=3 the header says so; main's sites have three
    frames and end in main (whole), the second thread's three frames end
    in start_thread (cut: clone is missing), and only it is marked."""
    out = known3.output
    assert out.header["num-callers"] == "3"
    p = ws_print("--folded", "bytes", known3.out_path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    got = dict(folded_lines(p.stdout))
    for fn, n in KNOWN_BYTES.items():
        assert got["main;%s;pages" % fn] == n
    assert got["[stack cut at 3 frames];start_thread;second_thread;pages"] \
        == PAGE
    for stack, _ in got.items():
        frames = stack.split(";")
        if frames[0] == "[stack cut at 3 frames]":
            assert len(frames) >= 4, stack
        else:
            assert frames[0] == "main", stack


def test_folded_below_main_is_a_root(known3, tmp_path):
    """A stripped program's stacks end in what Valgrind calls the code
    below its unnamed main, "(below main)": a stack that ends there is
    whole, however many frames it has.  Here main's three-frame sites of
    the --num-callers=3 run, with main renamed so."""
    text = open(known3.out_path).read()
    renamed = re.sub(r"^(frame 0x[0-9a-f]+ \S+) main$", r"\1 (below main)",
                     text, flags=re.M)
    assert renamed != text
    path = tmp_path / "below.ws"
    path.write_text(renamed)
    p = ws_print("--folded", "bytes", path)
    assert p.returncode == 0, p.stderr
    got = dict(folded_lines(p.stdout))
    for fn, n in KNOWN_BYTES.items():
        assert got["(below main);%s;pages" % fn] == n
    assert not any(k.startswith("[stack cut at 3 frames];(below main)")
                   for k in got), got


def test_folded_names_whole(known, tmp_path):
    """A function name of 5,000 bytes is written whole (the text
    report's lines stop at 1,200), a ';' in it as ':'."""
    text = open(known.out_path).read()
    long_name = "site_never" + "<int;" * 1000
    bad = re.sub(r"( heap_known\.c:\d+ )site_never\n",
                 lambda m: m.group(1) + long_name + "\n", text, count=1)
    assert bad != text
    path = tmp_path / "long.ws"
    path.write_text(bad)
    p = ws_print("--folded", "never", path)
    assert p.returncode == 0, p.stderr
    assert folded_lines(p.stdout) == [
        ("main;%s;pages" % long_name.replace(";", ":"), 3 * 4 * PAGE)]


def test_folded_nothing_to_show(known, ws, tmp_path):
    """Nothing to fold is an error with its reason, not an empty output
    that flame-graph tools refuse without saying why."""
    off = ws([KNOWN, "1000"], "--ws-heap-usage=no")
    # touch allocates (in the C library) only chunks it uses
    none = ws([TOUCH, "20", "st,0,10,4096,10,100000"])
    assert none.output.heap_sites
    assert all(h["never-bytes"] == 0 for h in none.output.heap_sites)
    cases = [
        (V3_FILE, "a format 3 file has no heap usage lines (ws writes them "
         "from format 4 on): nothing to fold"),
        (off.out_path, "heap usage was not followed in this run "
         "(--ws-heap-usage=no): nothing to fold"),
        (none.out_path, "no allocation site has bytes in chunks never "
         "touched (--folded never): nothing to fold"),
    ]
    for path, why in cases:
        p = ws_print("--folded", "never", path)
        assert (p.returncode, p.stdout) == (1, ""), path
        assert p.stderr == "ws_print: %s: %s\n" % (path, why)


# ----------------------------------------------------------------------
# --json

CTL_MACROS = wslib.prog("ctl_macros")
OWN_SPIKE = wslib.prog("own_spike")
THREADS = [wslib.prog("threads"), "30", "10", "20", "6000000"]
RT_GROWTH = [wslib.prog("rt_growth"), "quad", "4", "8", "16", "32"]

# Every kind of line of an output file (docs/output-format.md, the
# grammar), by its first word; events by their kind.
LINE_KINDS = {
    "sample", "stack", "frame", "inline", "dump-begin", "dump-page",
    "dump-owner", "dump-end", "region", "hot", "hot-owner", "page",
    "heap-site", "heap-chunk", "peak", "peak-region", "owner", "heap-window",
    "peaks",
    "summary", "samples", "end", "event thread-start", "event thread-exit",
    "event start", "event stop", "event set", "event mark", "event dump",
    "event final", "event peak", "routine", "routine-size", "miss-stack",
}


def line_kinds(path):
    kinds = set()
    for line in open(path, encoding="utf-8"):
        w = line.split()
        if not w or w[0].endswith(":") or w[0].startswith("ws-output"):
            continue
        kinds.add("sample" if w[0][0].isdigit()
                  else "event " + w[2] if w[0] == "event" else w[0])
    return kinds


@pytest.fixture(scope="module")
def json_runs(known, tmp_path_factory):
    """Files that hold every kind of line between them: ctl_macros (start,
    stop, marks, set, a dump block, regions and the peaks of regions, hot
    and page lines), own_spike (a heap peak's heap-window), a per-thread
    run, heap_known (heap sites, threads), a version 3 file (peak
    events) and rt_growth's routines and miss stacks."""
    d = tmp_path_factory.mktemp("json")
    runs = [
        wslib.run_ws([CTL_MACROS], ["--ws-instr-atstart=no",
                                    "--ws-list-pages=yes"],
                     out_path=str(d / "macros.ws")).out_path,
        wslib.run_ws([OWN_SPIKE], out_path=str(d / "spike.ws")).out_path,
        wslib.run_ws(THREADS, ["--ws-per-thread=yes"],
                     out_path=str(d / "threads.ws")).out_path,
        known.out_path,
        V3_FILE,
        wslib.run_ws(RT_GROWTH, ["--ws-routines=yes",
                                 "--ws-miss-file=" + str(d / "miss.prof")],
                     out_path=str(d / "routines.ws")).out_path,
    ]
    return d, runs


def where_of(j):
    return wslib.Where(int(j["ip"], 16), j["loc"], j["fn"])


def owner_text(j):
    return j["text"]


def check_json(path, j):
    """Every record of the file, as wslib reads it, is in the JSON."""
    out = wslib.read_output(path)
    assert j["schema"] == "ws-print-json" and j["schema_version"] == 1
    assert j["format_version"] == out.version
    assert j["complete"] == out.complete
    assert j["header"] == out.header
    # samples: the columns, the threads, which are final
    want = []
    for s in out.samples:
        row = [s.t, s.insn, s.data]
        if s.insn_lines is not None:
            row += [s.insn_lines, s.data_lines]
        if s.heap is not None:
            row.append(s.heap)
        if s.shared is not None:
            row += [s.shared, [[tid, i, dd] for tid, (i, dd)
                               in s.threads.items()]]
        if s.t in out.finals:
            row.append("final")
        want.append(row)
    assert j["samples"] == want
    # events
    got = []
    for e in j["events"]:
        k = e["kind"]
        args = {"thread-start": lambda: [str(e["tid"])],
                "thread-exit": lambda: [str(e["tid"])],
                "set": lambda: [e["param"], str(e["value"])],
                "mark": lambda: [e["label"]],
                "final": lambda: [str(e["window"])],
                "peak": lambda: [str(e["peak"])],
                }.get(k, lambda: [])()
        if k == "dump":
            args = [e["how"]] + ([e["label"]] if e["how"] == "label" else [])
        got.append((e["t"], k.split()[0], args))
    want = []
    for e in out.events:
        args = list(e.args)
        if e.kind == "mark":
            args = [" ".join(args)]
        if e.kind == "dump" and args[0] == "label":
            args = ["label", " ".join(args[1:])]
        if e.kind == "peak":
            args = args[:1]
        want.append((e.t, e.kind, args))
    assert got == want
    # dumps
    assert len(j["dumps"]) == len(out.dumps)
    for jd, d in zip(j["dumps"], out.dumps):
        assert (jd["t"], jd["label"]) == (d.t, d.label)
        assert (jd["insn_pages"], jd["data_pages"]) == (d.counts["insn"],
                                                        d.counts["data"])
        assert (jd.get("insn_lines"), jd.get("data_lines")) == \
            ((d.lines["insn"], d.lines["data"]) if d.lines else (None, None))
        assert [(p["kind"], int(p["addr"], 16), p["since"], p["accesses"],
                 where_of(p), p.get("owner") and owner_text(p["owner"]))
                for p in jd["pages"]] == \
            [(p.kind, p.addr, p.since, p.accesses, p.where,
              p.owner and str(p.owner)) for p in d.pages]
    # stacks
    assert {s["id"]: [wslib.Where(int(f["ip"], 16), f["loc"], f["fn"],
                                  f["inline"]) for f in s["frames"]]
            for s in j["stacks"]} == out.stacks
    # peaks, their owners and heap windows
    assert len(j["peaks"]) == len(out.peaks)
    for jp, p in zip(j["peaks"], out.peaks):
        assert (jp["n"], jp["t"], jp["kind"], jp["size"], jp["stack"]) == \
            (p.n, p.t, p.kind, p.size, p.stack)
        assert jp.get("baseline") == p.baseline
        assert jp.get("why") == p.why
        assert jp.get("from") == p.origin
        assert jp.get("own") == p.own
        assert jp["regions"] == p.regions
        assert [(o["pages"], owner_text(o["owner"])) for o in jp["owners"]] \
            == [(n, str(o)) for n, o in p.owners]
        assert {w["stack"]: (w["live"], w["window"])
                for w in jp["heap_windows"]} == p.heap_window
    # the trailer
    assert {r["label"]: (r["regions"], r["samples"], tuple(r["insn"]),
                         tuple(r["data"])) for r in j["regions"]} == \
        {k: (v[0], v[1], tuple(v[2]), tuple(v[3]))
         for k, v in out.regions.items()}
    assert {r["label"]: (tuple(r["insn_lines"]), tuple(r["data_lines"]))
            for r in j["regions"] if "insn_lines" in r} == \
        {k: (tuple(i), tuple(dd)) for k, (i, dd) in out.region_lines.items()}
    for kind in ("insn", "data"):
        assert [(h["rank"], h["accesses"], int(h["addr"], 16), where_of(h),
                 h.get("owner") and owner_text(h["owner"]))
                for h in j["hot"] if h["kind"] == kind] == \
            [(h.rank, h.accesses, h.addr, h.where, h.owner and str(h.owner))
             for h in out.hot[kind]]
        assert {int(p["addr"], 16): (p["accesses"], where_of(p))
                for p in j["pages"] if p["kind"] == kind} == out.pages[kind]
    assert [dict(h, site=None, stack=None) for h in j["heap_sites"]] == \
        [dict(h.values, site=None, stack=None) for h in out.heap_sites]
    assert [(h["site"], h["stack"]) for h in j["heap_sites"]] == \
        [(h.id, h.stack) for h in out.heap_sites]
    # the chunk records (format 6), '-' as null
    assert j["heap_chunks"] == [
        dict({"site": h.id, "alloc": c.alloc, "free": c.free, "size": c.size,
              "first": c.first, "last": c.last, "lo": c.lo, "hi": c.hi},
             **c.values)
        for h in out.heap_sites for c in h.chunks]
    # the routines, their keys' values as numbers (exponent and r2 too,
    # or "-" without a fit) and their rows
    def number(v):
        return v if isinstance(v, int) or v == "-" else float(v)
    assert [(r["id"], r["stack"],
             {k: v for k, v in r.items() if k not in ("id", "stack", "sizes")},
             [tuple(x) for x in r["sizes"]]) for r in j["routines"]] == \
        [(r.id, r.stack, {k: number(v) for k, v in r.values.items()}, r.rows)
         for r in out.routines]
    assert [(m["n"], m["stack"], m["insn"], m["data"])
            for m in j["miss_stacks"]] == \
        [(n, stack, i, dd)
         for n, (stack, i, dd) in enumerate(out.miss_stacks, 1)]
    # the locality curves, each with its points and LRU miss ratios
    assert [((c["scope"], c["kind"], c["unit"]),
             [(p["tau"], p["s"], p["m"]) for p in c["points"]],
             [(p["size"], p["miss"]) for p in c["lru"]])
            for c in j["curves"]] == \
        [(key, pts, out.mrc[key]) for key, pts in out.curves.items()]
    # an estimate's standard errors and what made it (--ws-curves=sampled)
    json_keys = {"s_err": "s-err", "m_err": "m-err", "miss_err": "miss-err",
                 "from": "from"}
    assert {(what,) + (c["scope"], c["kind"], c["unit"], p[x]):
            {json_keys[k]: v if k == "from" else float(v)
             for k, v in p.items() if k in json_keys}
            for c in j["curves"]
            for what, x, pts in (("curve", "tau", c["points"]),
                                 ("mrc", "size", c["lru"]))
            for p in pts if "from" in p} == out.curve_estimates
    assert all(c["estimate"] == any("from" in p for p in c["points"])
               for c in j["curves"])
    assert (j["peaks_listed"], j["peaks_found"]) == (out.npeaks, out.found)
    summary = {k: tuple(v) for k, v in out.summary.items()}
    summary.update({k + "_lines": tuple(v)
                    for k, v in out.summary_lines.items()})
    if out.density is not None:
        summary["density"] = out.density
    assert {k: v if k == "density" else tuple(v)
            for k, v in j["summary"].items()} == summary
    assert j["samples_count"] == out.nsamples


def test_json_round_trips_every_record_kind(json_runs):
    d, runs = json_runs
    kinds = set()
    for i, path in enumerate(runs):
        kinds |= line_kinds(path)
        target = d / ("run%d.json" % i)
        p = ws_print("--json", target, path)
        assert (p.returncode, p.stdout, p.stderr) == (0, "", ""), path
        with open(target, encoding="utf-8") as f:
            j = json.load(f)
        check_json(path, j)
        # standard output gives the same
        assert json.loads(ws_print("--json=-", path).stdout) == j
    assert LINE_KINDS <= kinds, LINE_KINDS - kinds


def test_json_refuses_bad_input(tmp_path, known):
    """A non-ws file, a cut file, or the output file given as the JSON's
    name: one line, exit status 1, and no JSON file (nor a temporary
    one) left behind."""
    target = tmp_path / "run.json"
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    cut = tmp_path / "cut.ws"
    text = open(known.out_path).read()
    lines = text.splitlines(True)
    cut.write_text("".join(lines[:30]) + "event 12 mark\n")
    for args, why in (
            ([junk], "junk.txt:1: not a ws output file"),
            ([cut], "cut.ws:31: a mark event needs a label"),
            ([known.out_path, known.out_path], "one output file at a time"),
    ):
        p = ws_print("--json", target, *args)
        assert p.returncode == 1 and p.stdout == "", p.stderr
        assert len(p.stderr.splitlines()) == 1 and why in p.stderr, p.stderr
        assert os.listdir(tmp_path) == sorted(["junk.txt", "cut.ws"]) or \
            sorted(os.listdir(tmp_path)) == ["cut.ws", "junk.txt"]
    p = ws_print("--json", known.out_path)
    assert p.returncode == 1
    assert "--json takes the JSON file's name first" in p.stderr


def test_json_schema_document_commands(known, tmp_path):
    """The commands docs/json-schema.md shows run as written on a real
    run, and what they print is the run's: the data peaks' sizes, the
    summary."""
    text = open(os.path.join(wslib.TOP_SRCDIR, "docs",
                             "json-schema.md"), encoding="utf-8").read()
    shown = re.search(r"\n\n((?:    .*\n)+)", text).group(1)
    commands = [l[4:] for l in shown.splitlines()]
    assert commands[0] == "ws_print --json run.json ws.out.1234"
    shutil.copy(known.out_path, tmp_path / "ws.out.1234")
    env = dict(os.environ, PATH=os.path.dirname(WS_PRINT) + ":"
               + os.environ["PATH"])
    outs = [subprocess.run(c, shell=True, cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True).stdout
            for c in commands]
    out = known.output
    assert outs[0] == ""
    assert outs[1].split() == [str(p.size) for p in out.peaks
                               if p.kind == "data"]
    summary = {k: list(v) for k, v in out.summary.items()}
    summary.update({k + "_lines": list(v)
                    for k, v in out.summary_lines.items()})
    summary["density"] = out.density
    assert outs[2] == "%r\n" % summary


def test_exports_on_the_fuzz_corpus_under_sanitizers(tmp_path):
    """--json and --pprof on every input of the fuzz corpus: exit status
    0 or 1, no sanitizer report, and JSON that Python reads whenever it
    is 0."""
    import test_print
    asan = test_print.PRINT_ASAN
    wslib.require_built(asan)
    env = wslib.sanitizer_env()
    for name in sorted(os.listdir(test_print.CORPUS)):
        p = subprocess.run([asan, "--pprof", str(tmp_path / "p.pb.gz"),
                            os.path.join(test_print.CORPUS, name)],
                           capture_output=True, env=env, timeout=60)
        err = p.stderr.decode("latin-1")
        assert p.returncode in (0, 1), (name, err[-3000:])
        assert "Sanitizer" not in err and "runtime error" not in err, (
            name, err[-3000:])
        p = subprocess.run([asan, "--json=-",
                            os.path.join(test_print.CORPUS, name)],
                           capture_output=True, env=env, timeout=60)
        err = p.stderr.decode("latin-1")
        assert p.returncode in (0, 1), (name, err[-3000:])
        assert "Sanitizer" not in err and "runtime error" not in err, (
            name, err[-3000:])
        if p.returncode == 0:
            assert json.loads(p.stdout.decode("utf-8"))["schema_version"] \
                == 1, name


# ----------------------------------------------------------------------
# --diff

MEMSPIKE = wslib.prog("memspike")


@pytest.fixture(scope="module")
def spikes(tmp_path_factory):
    """memspike with a table of 1000 and of 2000 pages: its one heap
    site (main's malloc) allocates exactly PAGES x 4096 bytes, and the
    memset of the table raises the data working set by PAGES pages."""
    d = tmp_path_factory.mktemp("spikes")
    return [wslib.run_ws([MEMSPIKE, str(n)], out_path=str(d / ("%d.ws" % n)))
            for n in (1000, 2000)]


def malloc_line():
    """The line of memspike.c that allocates its table."""
    src = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "memspike.c")
    (n,) = [n for n, line in enumerate(open(src), 1) if "malloc(" in line]
    return n


def change(a, b):
    d = b - a
    return "0" if d == 0 else "%+d (%+.1f %%)" % (d, d * 100.0 / a)


def test_diff_summary_and_heap_sites(spikes):
    a, b = spikes
    p = ws_print("--diff", a.out_path, b.out_path)
    assert (p.returncode, p.stderr) == (0, ""), p.stderr
    text = p.stdout
    oa, ob = a.output, b.output
    for kind in ("data", "insn"):
        pa = max(getattr(s, kind) for s in oa.samples)
        pb = max(getattr(s, kind) for s in ob.samples)
        assert "  %-22s %14d %14d  %s\n" % (kind + " peak", pa, pb,
                                             change(pa, pb)) in text
        ta, tb = oa.summary[kind][2], ob.summary[kind][2]
        assert "  %-22s %14d %14d  %s\n" % (kind + " total", ta, tb,
                                             change(ta, tb)) in text
    # the live heap, in bytes: the table is memspike's one chunk, so its
    # peak doubles exactly
    ha = max(s.heap for s in oa.samples)
    hb = max(s.heap for s in ob.samples)
    assert (ha, hb) == (4096000, 8192000)
    assert "  %-22s %14d %14d  %s\n" % ("live heap peak", ha, hb,
                                         change(ha, hb)) in text
    # the table grows by 1000 pages: the data peak by about as much (the
    # jitter of the pool around it moves it by less than its 190 pages)
    assert 1000 - 190 <= max(s.data for s in ob.samples) - \
        max(s.data for s in oa.samples) <= 1000 + 190
    # the same figures in 64-byte lines, and the data density
    lines = text[text.index("\nSummary, lines of 64 bytes:\n"):]
    for kind in ("data", "insn"):
        pa, pb = oa.summary_lines[kind][1], ob.summary_lines[kind][1]
        assert "  %-22s %14d %14d  %s\n" % (kind + " peak", pa, pb,
                                             change(pa, pb)) in lines
        ta, tb = oa.summary_lines[kind][2], ob.summary_lines[kind][2]
        assert "  %-22s %14d %14d  %s\n" % (kind + " total", ta, tb,
                                             change(ta, tb)) in lines
    assert "  %-22s %14.3f %14.3f  %+.3f\n" % (
        "data density", oa.density, ob.density,
        ob.density - oa.density) in lines
    # 1000 more pages of table, each of whose 64 lines memset writes; the
    # block starts at the same offset in its page in both runs (an mmap'd
    # chunk), so exactly 64000 more lines
    assert ob.summary_lines["data"][2] - oa.summary_lines["data"][2] == \
        64000
    heap = text[text.index("\nHeap sites, matched") + 1:]
    # the one site, matched by its function and line (both runs have it)
    assert heap.splitlines()[1:4] == [
        "  main (memspike.c:%d)" % malloc_line(),
        "  %-22s %14s %14s  change" % ("", "A", "B"),
        "  %-22s %14d %14d  +4096000 (+100.0 %%)" % ("bytes", 4096000,
                                                    8192000)]
    assert "(1 in both, 0 only in A, 0 only in B)" in heap.splitlines()[0]


def test_diff_fail_above(spikes):
    a, b = spikes
    p = ws_print("--diff", a.out_path, b.out_path, "--fail-above=50")
    assert p.returncode == 3, p.stderr
    pa = max(s.data for s in a.output.samples)
    pb = max(s.data for s in b.output.samples)
    assert p.stdout.endswith(
        "\nFAIL: 3 figures grew by more than 50 %%:\n"
        "  the run's data peak: %d -> %d, %s\n"
        "  the run's live heap peak: 4096000 -> 8192000, +4096000 "
        "(+100.0 %%)\n"
        "  the bytes of heap site main (memspike.c:%d): 4096000 -> 8192000, "
        "+4096000 (+100.0 %%)\n" % (pa, pb, change(pa, pb), malloc_line()))
    p = ws_print("--diff", a.out_path, b.out_path, "--fail-above=100")
    assert p.returncode == 0
    assert p.stdout.endswith("\nOK: 0 figures grew by more than 100 %\n")
    # the other way round nothing grew
    p = ws_print("--diff", b.out_path, a.out_path, "--fail-above=0")
    assert p.returncode == 0, p.stdout
    p = ws_print("--diff", a.out_path, b.out_path, "--fail-above=-1")
    assert p.returncode == 1
    assert p.stderr == ("ws_print: --fail-above takes a percentage (a "
                        "number from 0), not '-1'\n")


def test_diff_matches_heap_sites_by_lines(known, tmp_path):
    """heap_known with site_never and site_idle renamed site_x: two sites
    of the same functions (main, site_x, pages) at other lines.  Against
    itself each site is matched by its functions and lines: as many rows
    as sites, none summed.  Against a copy whose main moved (an edit:
    every line of main 100 further down) the lines differ, and the sites
    are matched by their functions alone: none only in one run, the two
    site_x sites one row."""
    text = open(known.out_path).read()
    renamed = re.sub(r"^(frame 0x[0-9a-f]+ \S+) site_(never|idle)$",
                     r"\1 site_x", text, flags=re.M)
    assert renamed.count(" site_x\n") >= 2
    moved = re.sub(r"^(frame 0x[0-9a-f]+ heap_known\.c:)(\d+) main$",
                   lambda m: "%s%d main" % (m.group(1),
                                            int(m.group(2)) + 100),
                   renamed, flags=re.M)
    assert moved != renamed
    a, b = tmp_path / "a.ws", tmp_path / "b.ws"
    a.write_text(renamed)
    b.write_text(moved)
    n = len(known.output.heap_sites)
    stacks = {tuple((f.function, f.location)
                    for f in known.output.stacks[h.stack])
              for h in known.output.heap_sites}
    assert len(stacks) == n
    p = ws_print("--diff", a, a)
    assert p.returncode == 0, p.stderr
    assert "lines where both runs have them, else functions; outermost " \
        "first), bytes allocated (%d in both, 0 only in A, 0 only in B):\n" \
        "  (%d sites the same in both, not listed)\n" % (n, n) in p.stdout
    p = ws_print("--diff", a, b)
    assert p.returncode == 0, p.stderr
    assert "(%d in both, 0 only in A, 0 only in B):\n" \
        "  (%d sites the same in both, not listed)\n" % (n - 1, n - 1) \
        in p.stdout


def test_diff_refuses_what_it_cannot_compare(spikes, known, ws, tmp_path):
    """Runs of two programs, of two page sizes, of two line sizes, a file
    that is no ws file, a cut run: one line, exit status 1, nothing on
    standard output; --force compares the first three all the same."""
    a = spikes[0]
    big = ws([MEMSPIKE, "1000"], "--ws-pagesize=8192")
    wide = ws([MEMSPIKE, "1000"], "--ws-linesize=128")
    junk = tmp_path / "junk"
    junk.write_text("not ws\n")
    cut = tmp_path / "cut.ws"
    cut.write_text("".join(open(a.out_path).readlines()[:40]))
    cases = [
        (known.out_path, "%s and %s: the runs are of different programs "
         "('memspike' and 'heap_known'); --force compares them all the "
         "same" % (a.out_path, known.out_path), True),
        (big.out_path, "%s and %s: the runs have different page sizes "
         "(4096 and 8192 bytes); --force compares them all the same"
         % (a.out_path, big.out_path), True),
        (wide.out_path, "%s and %s: the runs have different line sizes "
         "(64 and 128 bytes); --force compares them all the same"
         % (a.out_path, wide.out_path), True),
        (str(junk), "%s:1: not a ws output file: the first line is not "
         "'ws-output-format: 6'" % junk, False),
        (str(cut), "%s: the run did not finish (the file has no trailer): "
         "there is no summary to compare" % cut, False),
    ]
    for other, why, forced in cases:
        p = ws_print("--diff", a.out_path, other)
        assert (p.returncode, p.stdout) == (1, ""), other
        assert p.stderr == "ws_print: %s\n" % why
        p = ws_print("--diff", a.out_path, other, "--force")
        assert p.returncode == (0 if forced else 1), p.stderr
        if forced:
            assert "\nNote: the runs " in p.stdout


# ----------------------------------------------------------------------
# --pprof, read by go tool pprof

GO = shutil.which("go") or "/usr/bin/go"

# pprof's sample types and the ws_print figure each is (print/README.md)
PPROF_TYPES = {
    "chunks": lambda h: h["chunks"],
    "bytes": lambda h: h["bytes"],
    "untouched": lambda h: h["bytes"] - h["touched"],
    "never": lambda h: h["never-bytes"],
    "idle": lambda h: int(h["bytes"] * (1000 - round(h["useful"] * 1000))
                          / 1000 + 0.5),
}


def pprof(tmp_path, *args):
    """go tool pprof's output (its cache and config in tmp_path)."""
    env = dict(os.environ, HOME=str(tmp_path), PPROF_TMPDIR=str(tmp_path),
               GOCACHE=str(tmp_path / "gocache"))
    p = subprocess.run([GO, "tool", "pprof"] + [str(a) for a in args],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def pprof_top(tmp_path, path, sample, *more):
    """{function: (flat, cum)} from -top, in the sample type's unit."""
    text = pprof(tmp_path, "-top", "-unit=B", "-nodefraction=0",
                 "-nodecount=100000", "-sample_index=" + sample, *more, path)
    rows = {}
    body = text[text.index(" flat  flat%"):].splitlines()[1:]
    for line in body:
        w = line.split(None, 5)
        rows[w[5]] = (int(w[0].rstrip("B") or 0), int(w[3].rstrip("B")))
    return rows


def plain(rows):
    return {plain_name(fn): v for fn, v in rows.items()}


def pprof_name(f):
    """pprof names a function that was inlined "fn (inline)" (in -top
    only at some sample types: compare with plain_name())."""
    return f.function + (" (inline)" if f.inline else "")


def plain_name(name):
    return name[:-len(" (inline)")] if name.endswith(" (inline)") else name


def top_of(out, value):
    """What -top must show: per function, the value of the sites whose
    innermost frame is in it (flat) and of those whose stack goes
    through it, once per site (cum); functions with neither left out."""
    rows = {}
    for h in out.heap_sites:
        v = value(h)
        frames = out.stacks[h.stack]
        for fn in {pprof_name(f) for f in frames}:
            flat, cum = rows.get(fn, (0, 0))
            rows[fn] = (flat, cum + v)
        fn = pprof_name(frames[0])
        flat, cum = rows[fn]
        rows[fn] = (flat + v, cum)
    return {fn: fc for fn, fc in rows.items() if fc != (0, 0)}


def test_pprof_top_and_traces(known, tmp_path):
    """go tool pprof reads --pprof: -top gives every function's flat and
    cumulative figure of each sample type exactly as the sites are, and
    -traces every site's stack and value, by its site number."""
    path = tmp_path / "heap.pb.gz"
    p = ws_print("--pprof", path, known.out_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    assert open(path, "rb").read(2) == b"\x1f\x8b"        # gzip
    out = known.output
    inlined = {pprof_name(f) for st in out.stacks.values() for f in st
               if f.inline}
    for sample, value in PPROF_TYPES.items():
        top = pprof_top(tmp_path, path, sample)
        assert {fn for fn in top if fn.endswith(" (inline)")} <= inlined
        assert plain(top) == plain(top_of(out, value)), sample
    # the known answers, from heap_known's source
    top = pprof_top(tmp_path, path, "bytes")
    tls = sum(h["bytes"] for h in out.heap_sites
              if any(f.function.startswith("pthread_create")
                     for f in out.stacks[h.stack]))
    for fn, n in KNOWN_BYTES.items():
        # site_shared starts the second thread: its TLS is allocated too
        assert top[fn] == (0, n + (tls if fn == "site_shared" else 0))
    assert top["pages"][0] == sum(KNOWN_BYTES.values()) + 4096
    traces = pprof(tmp_path, "-traces", "-unit=B", "-sample_index=bytes",
                   path)
    got = {}
    for block in traces.split("-----------+")[1:]:
        lines = [l for l in block.splitlines()[1:] if l.strip()]
        if not lines:
            continue                    # after the last trace
        site = int(lines[0].split(":")[1])
        value = int(lines[1].split()[0].rstrip("B"))
        fns = [lines[1].split(None, 1)[1].strip()] + \
            [l.strip() for l in lines[2:]]
        got[site] = (value, fns)
    assert {site: (v, [plain_name(fn) for fn in fns])
            for site, (v, fns) in got.items()} == \
        {h.id: (h["bytes"], [f.function for f in out.stacks[h.stack]])
         for h in out.heap_sites}


def test_pprof_diff_base(spikes, tmp_path):
    """-diff_base of the run with 2000 pages against the one with 1000:
    main's malloc grew by exactly 1000 x 4096 bytes, as ws_print --diff
    says."""
    a, b = spikes
    pa, pb = tmp_path / "a.pb.gz", tmp_path / "b.pb.gz"
    for run, path in ((a, pa), (b, pb)):
        assert ws_print("--pprof", path, run.out_path).returncode == 0
    top = pprof_top(tmp_path, pb, "bytes", "-diff_base=%s" % pa)
    assert top == {"main": (4096000, 4096000)}
    diff = ws_print("--diff", a.out_path, b.out_path).stdout
    assert "  %-22s %14d %14d  +4096000 (+100.0 %%)" % (
        "bytes", 4096000, 8192000) in diff


def test_pprof_refuses(known, ws, tmp_path):
    off = ws([KNOWN, "1000"], "--ws-heap-usage=no")
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "p.pb.gz"
    for path, why in (
            (V3_FILE, "a file of format 3 or 2 has no heap sites"),
            (off.out_path, "heap usage was not followed in this run "
             "(--ws-heap-usage=no)")):
        p = ws_print("--pprof", target, path)
        assert (p.returncode, p.stdout) == (1, "")
        assert p.stderr == "ws_print: %s: %s: no profile to write\n" % (
            path, why)
        assert os.listdir(tmp_path / "out") == []
    p = ws_print("--pprof", known.out_path)
    assert p.returncode == 1 and "--pprof takes the profile's file name " \
        "first" in p.stderr


# ----------------------------------------------------------------------
# --trace: Chrome's trace-event format

class TraceError(Exception):
    pass


def trace_tracks(doc):
    """A reader of the Trace Event Format (Google's "Trace Event Format"
    document, the JSON Object Format that Perfetto's UI and
    chrome://tracing import), as a viewer builds its tracks from it.  No
    reader of the format is packaged in Debian 12 (Perfetto's
    trace_processor and Chromium's catapult are not), so this one applies
    the document's rules, and raises TraceError where a file breaks one:

    - the object: "traceEvents", a list, and only the document's other
      keys ("displayTimeUnit", "ms" or "ns"; "otherData", an object;
      "systemTraceEvents", "stackFrames", "samples",
      "controllerTraceDataKey", "metadata");
    - every event: a phase the document defines, "name" a non-empty
      string, "pid" and "tid" integers, "ts" a number of microseconds
      (metadata events need none), "cat" a string and "args" an object
      where given;
    - complete events ("X"): "dur" a number from 0; a thread's slices
      nest (two overlap only when one holds the other: the viewers stack
      them by depth, and flag the others);
    - instant events ("i", or the older "I"): "s" is "g", "p" or "t"
      ("t" when absent);
    - counter events ("C"): "args" maps each series to a number; the
      track is the process's counter of that name (and "id"), its value
      at each time the event's; one value per series and time;
    - metadata events ("M"): process_name and thread_name with a string
      args.name, process_sort_index and thread_sort_index with an
      integer args.sort_index, process_labels with args.labels.

    Returns {"counters": {(pid, name): [(ts, {series: value})] in time
    order}, "slices": {(pid, tid): [(ts, dur, name, depth)] in time
    order}, "instants": [(ts, scope, name)], "names": {(kind, pid, tid):
    name}}."""
    def need(cond, why, e=None):
        if not cond:
            raise TraceError(why + ("" if e is None else ": %r" % (e,)))

    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    need(isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list),
         "no traceEvents list")
    need(set(doc) <= {"traceEvents", "displayTimeUnit", "otherData",
                      "systemTraceEvents", "stackFrames", "samples",
                      "controllerTraceDataKey", "metadata"},
         "a key the format does not define", sorted(doc))
    need(doc.get("displayTimeUnit", "ms") in ("ms", "ns"),
         "displayTimeUnit is ms or ns")
    need(isinstance(doc.get("otherData", {}), dict), "otherData is an object")
    counters, slices, instants, names = {}, {}, [], {}
    for e in doc["traceEvents"]:
        need(isinstance(e, dict), "an event is an object", e)
        ph = e.get("ph")
        need(ph in ("B", "E", "X", "i", "I", "C", "b", "n", "e", "s", "t",
                    "f", "P", "N", "O", "D", "M", "V", "v", "R", "c",
                    "(", ")"), "an unknown phase", e)
        need(ph in ("X", "i", "I", "C", "M"),
             "a phase this reader does not build tracks of", e)
        need(isinstance(e.get("name"), str) and e["name"], "no name", e)
        need(all(isinstance(e.get(k), int) and not isinstance(e[k], bool)
                 for k in ("pid", "tid")), "pid and tid are integers", e)
        need("cat" not in e or isinstance(e["cat"], str), "cat", e)
        need("args" not in e or isinstance(e["args"], dict), "args", e)
        if ph == "M":
            a = e.get("args", {})
            if e["name"] in ("process_name", "thread_name"):
                need(isinstance(a.get("name"), str), "a name", e)
                names[(e["name"], e["pid"],
                       e["tid"] if e["name"] == "thread_name" else None)] = \
                    a["name"]
            elif e["name"] in ("process_sort_index", "thread_sort_index"):
                need(isinstance(a.get("sort_index"), int), "sort_index", e)
            else:
                need(e["name"] == "process_labels"
                     and isinstance(a.get("labels"), str),
                     "an unknown metadata event", e)
            continue
        need(number(e.get("ts")), "ts is a number", e)
        if ph == "X":
            need(number(e.get("dur")) and e["dur"] >= 0, "dur", e)
            slices.setdefault((e["pid"], e["tid"]), []).append(
                (e["ts"], e["dur"], e["name"]))
        elif ph in ("i", "I"):
            scope = e.get("s", "t")
            need(scope in ("g", "p", "t"), "instant scope", e)
            instants.append((e["ts"], scope, e["name"]))
        else:
            a = e.get("args")
            need(a and all(number(v) for v in a.values()),
                 "counter values are numbers", e)
            key = (e["pid"], e["name"]) + ((e["id"],) if "id" in e else ())
            counters.setdefault(key, []).append((e["ts"], a))
    for key, points in counters.items():
        points.sort(key=lambda p: p[0])
        times = [t for t, _ in points]
        need(len(set(times)) == len(times),
             "two values of counter %r at one time" % (key,))
    nested = {}
    for key, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        open_, out = [], []
        for ts, dur, name in ss:
            while open_ and open_[-1] <= ts:
                open_.pop()
            need(not open_ or ts + dur <= open_[-1],
                 "slices of thread %r overlap without nesting" % (key,),
                 (ts, dur, name))
            out.append((ts, dur, name, len(open_)))
            open_.append(ts + dur)
        nested[key] = out
    return {"counters": counters, "slices": nested, "instants": instants,
            "names": names}


def test_trace(json_runs):
    """ctl_macros as a timeline: a counter per sample with its columns at
    its time, a slice per measured stretch named by its mark, an instant
    for each mark, dump and parameter change, one per peak; and per
    thread id a counter track of its own."""
    d, runs = json_runs
    macros, _, threads = runs[:3]
    target = d / "macros.trace.json"
    p = ws_print("--trace", target, macros)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    doc = json.load(open(target, encoding="utf-8"))
    tracks = trace_tracks(doc)
    out = wslib.read_output(macros)
    # as a viewer shows it: the process named by the command, a counter
    # track of the working set in pages, one in lines and one of the live
    # heap bytes, each with a
    # point per sample, the measured stretches side by side on thread 1,
    # every instant global
    pid = int(out.header["pid"])
    assert tracks["names"] == {("process_name", pid, None):
                               out.header["command"]}
    assert tracks["counters"] == {
        (pid, "working set (pages)"): [(s.t, {"insn": s.insn, "data": s.data})
                                       for s in out.samples],
        (pid, "working set (lines)"): [(s.t, {"insn": s.insn_lines,
                                              "data": s.data_lines})
                                       for s in out.samples],
        (pid, "live heap (bytes)"): [(s.t, {"heap": s.heap})
                                     for s in out.samples]}
    assert {d for ss in tracks["slices"].values()
            for _, _, _, d in ss} == {0}
    assert {scope for _, scope, _ in tracks["instants"]} == {"g"}
    ev = doc["traceEvents"]
    assert [(e["ts"], e["args"]) for e in ev
            if e["ph"] == "C" and e["name"] == "working set (pages)"] == \
        [(s.t, {"insn": s.insn, "data": s.data}) for s in out.samples]
    assert [(e["ts"], e["args"]) for e in ev
            if e["ph"] == "C" and e["name"] == "working set (lines)"] == \
        [(s.t, {"insn": s.insn_lines, "data": s.data_lines})
         for s in out.samples]
    assert out.samples and out.samples[0].insn_lines is not None
    # measured stretches: start to stop, named by the mark before
    want, label, start = [], "measured", None
    for e in out.events:
        if e.kind == "mark":
            label = " ".join(e.args)
        elif e.kind == "start":
            start = e.t
        elif e.kind == "stop":
            want.append((start, e.t - start, label))
    assert [(e["ts"], e["dur"], e["name"]) for e in ev
            if e["ph"] == "X"] == want
    assert [l for _, _, l in want] == \
        ["alpha", "beta", "alpha"]
    instants = [(e["ts"], e["name"]) for e in ev if e["ph"] == "i"]
    for e in out.events:
        if e.kind == "mark":
            assert (e.t, "mark " + " ".join(e.args)) in instants
        if e.kind == "set":
            assert (e.t, "set " + e.args[0]) in instants
        if e.kind == "dump":
            assert (e.t, "dump " + " ".join(e.args[1:])) in instants
    assert [(e["ts"], e["args"]["size"]) for e in ev
            if e.get("cat") == "peak"] == [(p.t, p.size) for p in out.peaks]
    # per thread
    p = ws_print("--trace=-", threads)
    doc = json.loads(p.stdout)
    tracks = trace_tracks(doc)
    out = wslib.read_output(threads)
    # the process's pages, lines and live heap, and each thread's pages
    assert len(tracks["counters"]) == 3 + len(
        {tid for s in out.samples for tid in s.threads})
    got = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "C" and e["name"].startswith("thread "):
            tid = int(e["name"].split()[1])
            got.setdefault(tid, []).append(
                (e["ts"], e["args"]["insn"], e["args"]["data"]))
    want = {}
    for s in out.samples:
        for tid, (i, dd) in s.threads.items():
            want.setdefault(tid, []).append((s.t, i, dd))
    assert got == want and len(got) >= 2



def test_trace_live_heap(ws, tmp_path):
    """The live heap bytes of each sample as a counter track of its own,
    the file's column exactly (heap_regrow's buffers: not all zero), and
    no such track for a run without the heap followed."""
    r = ws([wslib.prog("heap_regrow")])
    target = tmp_path / "regrow.trace.json"
    p = ws_print("--trace", target, r.out_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    doc = json.load(open(target, encoding="utf-8"))
    heap = [(e["ts"], e["args"]) for e in doc["traceEvents"]
            if e["ph"] == "C" and e["name"] == "live heap (bytes)"]
    assert heap == [(s.t, {"heap": s.heap}) for s in r.output.samples]
    assert max(s.heap for s in r.output.samples) > 0
    r = ws([wslib.prog("heap_regrow")], "--ws-heap=no")
    p = ws_print("--trace", target, r.out_path)
    assert p.returncode == 0, p.stderr
    doc = json.load(open(target, encoding="utf-8"))
    assert not [e for e in doc["traceEvents"]
                if e["name"] == "live heap (bytes)"]

def test_trace_reader_refuses():
    """The reader holds files to the format's rules: each way of
    breaking one is refused."""
    def ev(**kw):
        return dict({"ph": "C", "pid": 1, "tid": 1, "ts": 0, "name": "n",
                     "args": {"a": 1}}, **kw)
    good = {"traceEvents": [ev(), ev(ts=5),
                            ev(ph="X", ts=0, dur=10, args={}),
                            ev(ph="X", ts=2, dur=3, args={}),
                            ev(ph="i", s="g"),
                            ev(ph="M", name="process_name",
                               args={"name": "x"})],
            "displayTimeUnit": "ns", "otherData": {}}
    tracks = trace_tracks(good)
    assert tracks["slices"] == {(1, 1): [(0, 10, "n", 0), (2, 3, "n", 1)]}
    assert tracks["counters"] == {(1, "n"): [(0, {"a": 1}), (5, {"a": 1})]}
    for bad in ([ev(args={"a": "1"})],              # a counter's string
                [ev(), ev()],                        # two values at a time
                [ev(ph="X")],                        # no dur
                [ev(ph="X", dur=10), ev(ph="X", ts=5, dur=10)],  # overlap
                [ev(ph="i", s="x")],                 # no such scope
                [ev(ph="B")],                        # no tracks built
                [ev(ph="Q")],                        # no such phase
                [ev(ts="0")],                        # ts not a number
                [ev(pid="1")],
                [ev(name="")],
                [ev(ph="M", name="process_name", args={})],
                [ev(ph="M", name="colour", args={"name": "x"})]):
        with pytest.raises(TraceError):
            trace_tracks(dict(good, traceEvents=bad))
    with pytest.raises(TraceError):
        trace_tracks(dict(good, displayTimeUnit="s"))
    with pytest.raises(TraceError):
        trace_tracks(dict(good, extra=1))


# ----------------------------------------------------------------------
# print/README.md's usage lines, run as shown

def readme_commands():
    """The commands of print/README.md's indented blocks that use an
    export (--folded, --json, --pprof, --trace, --diff) or read one (go
    tool pprof), with the commands its usage comments name ("# go tool
    pprof -top heap.pb.gz"); the rest of a comment and what a pipe
    feeds (flamegraph.pl, not in Debian) left out."""
    text = open(os.path.join(wslib.TOP_SRCDIR, "print", "README.md"),
                encoding="utf-8").read()
    commands = []
    for line in re.findall(r"^    (\S.*)$", text, re.M):
        line, _, comment = line.partition(" # ")
        line = line.partition(" | ")[0].strip()
        for c in (line, comment.strip()):
            if re.match(r"(ws_print .*--(folded|json|pprof|trace|diff)"
                        r"|go tool pprof )", c):
                commands.append(c)
    return commands


def test_readme_usage_lines(known, known3, spikes, tmp_path):
    """Every export's usage line in print/README.md runs as written on
    real runs under the names it uses (ws.out.1234 and ws.out.5678: two
    runs of heap_known; ws.out.before and ws.out.after: memspike with
    1000 and 2000 pages, and their --pprof profiles before.pb.gz and
    after.pb.gz), and gives what its comment says: a pprof profile that
    go tool pprof reads, JSON of the schema, a trace of the format, a
    diff of the two runs, folded stacks; so the README cannot drift from
    the options.  --fail-above=10 exits 3: the table grew by 100 %."""
    commands = readme_commands()
    shown = " ".join(commands)
    for option in ("--folded ", "--folded-by=", "--json ", "--pprof ",
                   "--trace ", "--diff ", "--fail-above=", "go tool pprof "):
        assert option in shown, (option, commands)
    for name, path in (("ws.out.1234", known.out_path),
                       ("ws.out.5678", known3.out_path),
                       ("ws.out.before", spikes[0].out_path),
                       ("ws.out.after", spikes[1].out_path)):
        shutil.copy(path, tmp_path / name)
    for name in ("before", "after"):
        assert ws_print("--pprof", tmp_path / (name + ".pb.gz"),
                        tmp_path / ("ws.out." + name)).returncode == 0
    env = dict(os.environ, HOME=str(tmp_path), PPROF_TMPDIR=str(tmp_path),
               GOCACHE=str(tmp_path / "gocache"),
               PATH=os.path.dirname(WS_PRINT) + ":" + os.path.dirname(GO)
               + ":" + os.environ["PATH"])
    for c in commands:
        p = subprocess.run(c, shell=True, cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
        fails = "--fail-above" in c
        assert p.returncode == (3 if fails else 0), (c, p.stderr)
        w = c.split()
        if c.startswith("go tool pprof"):
            assert " flat  flat%" in p.stdout, (c, p.stdout)
        elif "--json" in w:
            path = tmp_path / w[w.index("--json") + 1]
            assert json.load(open(path))["schema"] == "ws-print-json"
        elif "--trace" in w:
            path = tmp_path / w[w.index("--trace") + 1]
            assert trace_tracks(json.load(open(path)))["counters"]
        elif "--pprof" in w:
            path = tmp_path / w[w.index("--pprof") + 1]
            assert open(path, "rb").read(2) == b"\x1f\x8b"
        elif "--diff" in w:
            a, b = w[w.index("--diff") + 1:w.index("--diff") + 3]
            assert p.stdout.startswith("A: %s: " % a), p.stdout
            assert "\nB: %s: " % b in p.stdout
            if fails:
                assert "\nFAIL: " in p.stdout
        else:
            lines = folded_lines(p.stdout)
            assert lines and all(n > 0 for _, n in lines), c
            if "--folded-by=line" in w:
                assert all(re.search(r" \(heap_known\.c:\d+\)", st)
                           for st, _ in lines if st.startswith("main"))
