"""The locality curves of --ws-curves=exact against the exact oracle
(tests/curve_oracle.py, from lackey's trace of the same command): every
curve and mrc record, number for number, at pages and lines, for the run
and for named regions; the knees where tests/progs/knees.c puts them; and
a real program.

ws and lackey run the same command through the same vg-in-place, in the
same directory, with standard input and output on /dev/null, so that the
client executes the same instructions (tests/test_oracle.py); ws runs
with --ws-syscalls=no (lackey does not see the kernel's accesses, and
the curves count the program's own: docs/manual.md).  knees_static is
linked statically: a dynamically linked program's dynamic linker reads a
few bytes that Valgrind makes random in every run (test_oracle.py,
check_access_counts), which moves 0 to 2 data accesses between adjacent
lines near the stack's top, so that its data-line records may differ
from the oracle's in the last digits; the real program's test bounds
that.
"""

import json
import re
import subprocess

import curve_oracle
import oracle
import test_exports
import test_print
import wslib

from test_oracle import _xz_input

# (stride, units, period, rounds) of knees' phases (knees.c says what
# their curves are): 64 pages with a period of 4096 instructions, and
# 1024 lines on 16 pages with a period of 8192
PAGES = (4096, 64, 4096, 30)
LINES = (64, 1024, 8192, 12)
PHASES = ["%d:%d:%d:%d" % p for p in (PAGES, LINES)]

OPTIONS = ("--ws-curves=exact", "--ws-syscalls=no")


def _ws(argv, tmp_path, options=()):
    run = wslib.run_ws(argv, OPTIONS + tuple(options), tmpdir=tmp_path,
                       stdout=subprocess.DEVNULL)
    return wslib.read_output(run.out_path)


def _records(out, scope):
    return sorted(line for line in out.curve_lines
                  if line.split()[1] == scope)


def test_knees_run_equals_the_oracle(tmp_path):
    argv = [wslib.prog("knees_static")] + PHASES
    out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    expected = sorted(res.records("run"))
    assert _records(out, "run") == expected
    # all four curves, taus from 64 to the first power of two >= K
    assert {k[1:] for k in out.curves} == set(curve_oracle.KEYS)
    assert out.curves[("run", "data", "page")][-1][0] == \
        curve_oracle.taus(res.instructions)[-1]


def _symbol(path, name):
    nm = subprocess.run(["nm", path], stdout=subprocess.PIPE, check=True,
                        universal_newlines=True).stdout
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] == name:
            return int(fields[0], 16)
    raise AssertionError("no symbol %s in %s" % (name, path))


def test_knees_regions_equal_the_oracle_and_have_their_knees(tmp_path):
    """knees -r makes each phase a region named after its argument; the
    oracle delimits the same regions by the last instructions of their
    WS_START and WS_STOP requests.  Measurement is off outside them."""
    path = wslib.prog("knees_static")
    argv = [path, "-r"] + PHASES
    out = _ws(argv, tmp_path, ["--ws-instr-atstart=no"])
    res = curve_oracle.run(
        wslib.VG_IN_PLACE, argv, cwd=str(tmp_path),
        region_insns=(_symbol(path, "knees_region_start"),
                      _symbol(path, "knees_region_stop")))
    assert len(res.regions) == 2
    for i, label in enumerate(PHASES):
        scope = "region:" + label
        assert _records(out, scope) == sorted(
            res.records("region:%d" % i, name=scope)), label

    # the knees where the source puts them (knees.c): in the phase of
    # pages every store misses below tau = P and none but the first
    # touches from P on; an LRU cache of fewer than N pages misses every
    # store, one of N pages only the first round's
    stride, n, p, rounds = PAGES
    k = res.regions[0][("data", "page")].k
    scope = "region:" + PHASES[0]
    for unit in ("page", "line"):            # one line on each page
        for tau, s, m in out.curves[(scope, "data", unit)]:
            misses = n * rounds if tau < p else n
            assert m == float(curve_oracle.ratio(misses * 1000, k, 3)), tau
        for size, miss in out.mrc[(scope, "data", unit)]:
            assert miss == (1.0 if size < n
                            else float(curve_oracle.ratio(1, rounds, 4)))
    # the phase of lines: the lines' step at P, the pages' at P - 252
    stride, n, p, rounds = LINES
    scope = "region:" + PHASES[1]
    k = res.regions[1][("data", "line")].k
    for unit, units, step in (("line", n, p), ("page", n // 64, p - 252)):
        for tau, s, m in out.curves[(scope, "data", unit)]:
            misses = units * rounds if tau < step else units
            assert m == float(curve_oracle.ratio(misses * 1000, k, 3)), \
                (unit, tau)


def test_a_real_program_equals_the_oracle(tmp_path):
    """xz -1 of 12 kB (5.6 million instructions, dynamically linked).
    Every record but the data lines' is equal.  The data lines' may not
    be (the module's docstring): at most 2 accesses differ, and a touch
    moved from one line to another changes the misses at any tau by at
    most 2 (its own, and whether the next touch of either line misses)
    and K s(tau) by at most 2 tau (each line's time in the window), so
    m by at most 4000 / K and s by 4 tau / K, plus the last digit's
    rounding.  Their LRU curve is compared exactly on knees_static."""
    xz = "/usr/bin/xz"
    argv = [xz, "-1", "-T1", "-c", _xz_input(tmp_path)]
    out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    k = res.instructions
    expected = sorted(res.records("run"))
    exact = [r for r in expected if " data line " not in r]
    assert [r for r in _records(out, "run") if " data line " not in r] \
        == exact
    want = res.run[("data", "line")]
    got = out.curves[("run", "data", "line")]
    assert [tau for tau, _, _ in got] == curve_oracle.taus(k)
    for tau, s, m in got:
        assert abs(s - want.s(tau)) <= 4 * tau / k + 0.001, tau
        assert abs(m - want.m(tau)) <= 4000 / k + 0.001, tau
    assert len(out.mrc[("run", "data", "line")]) == \
        len(curve_oracle.sizes(want.units))


def test_curves_off_by_default_and_bad_values_refused(tmp_path):
    argv = [wslib.prog("knees_static"), PHASES[0]]
    run = wslib.run_ws(argv, ("--ws-syscalls=no",), tmpdir=tmp_path,
                       stdout=subprocess.DEVNULL)
    assert wslib.read_output(run.out_path).curve_lines == []
    bad = wslib.run_ws(argv, ("--ws-curves=yes",), tmpdir=tmp_path,
                       check=False)
    assert bad.returncode == 1
    assert "--ws-curves takes no, sampled" in bad.stderr


def test_a_forked_child_has_curves_of_its_own(tmp_path):
    """rel_fork: the parent runs some 2,000,000 instructions and more for
    its start-up, the child about 300,000: the child's curves start at the
    fork (its file holds none of the parent's samples, nor its curves),
    so they end at the first power of two at or above its own length."""
    argv = [wslib.prog("rel_fork"), "fork", "300000"]
    wslib.require_built(argv[0])
    cmd = wslib.ws_command(argv, OPTIONS, str(tmp_path / "ws.%p"))
    subprocess.run(cmd, cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, timeout=600)
    last = sorted(wslib.read_output(str(p)).curves[("run", "data", "page")]
                  [-1][0] for p in tmp_path.glob("ws.*"))
    assert last == [1 << 19, 1 << 22], last


def _tenths(m):
    """m (misses per 1,000 instructions, three decimals) with one decimal,
    rounded half up as ws_print rounds it."""
    return curve_oracle.ratio(round(m * 1000), 1000, 1)


def test_ws_print_names_the_knees(tmp_path):
    """The text report, --json and --html name each phase's knee in words, with
    the figures of its curve (the knee rule: docs/manual.md, "Locality
    curves"): the phase of pages needs its 64 pages (its working set at
    tau = P), with less every store misses."""
    argv = [wslib.prog("knees_static"), "-r"] + PHASES
    run = wslib.run_ws(argv, OPTIONS + ("--ws-instr-atstart=no",),
                       tmpdir=tmp_path, stdout=subprocess.DEVNULL)
    out = wslib.read_output(run.out_path)
    pts = {tau: (s, m) for tau, s, m in
           out.curves[("region:" + PHASES[0], "data", "page")]}
    want = ("region %s needs 64 pages: with less, misses rise from %s to %s "
            "per 1,000 instructions" % (PHASES[0], _tenths(pts[4096][1]),
                                        _tenths(pts[2048][1])))
    assert pts[4096][0] > 63 and _tenths(pts[2048][1]) == "15.6"
    p = subprocess.run([test_exports.WS_PRINT, "--width=200", run.out_path],
                       stdout=subprocess.PIPE, universal_newlines=True,
                       check=True)
    assert "    Knee: %s.\n" % want in p.stdout
    assert p.stdout.count("Knee: ") == 12 - p.stdout.count("No knee")
    js = tmp_path / "run.json"
    subprocess.run([test_exports.WS_PRINT, "--json", str(js), run.out_path],
                   check=True)
    j = json.loads(js.read_text())
    test_exports.check_json(run.out_path, j)
    (c,) = [c for c in j["curves"] if (c["scope"], c["kind"], c["unit"])
            == ("region:" + PHASES[0], "data", "page")]
    assert c["knees"] == [{"tau_from": 2048, "tau_to": 4096, "text": want}]
    # the HTML report: a plot of m and s against log tau and one of the
    # LRU miss ratio against log size for each curve, its knees named
    page = tmp_path / "run.html"
    subprocess.run([test_exports.WS_PRINT, "--html", str(page),
                    run.out_path], check=True)
    res, _ = test_print.page_results(str(page), "none")
    assert res["curves"] == [
        {"title": "%s, %s %ss" % (c["scope"], "code" if c["kind"] == "insn"
                                  else "data", c["unit"]),
         "lines": [len(c["points"])] * 2 + [len(c["lru"])],
         "knees": [k["text"] for k in c["knees"]]} for c in j["curves"]]
    assert want in [k for c in res["curves"] for k in c["knees"]]


_ROW = re.compile(r" +([0-9,]+) +([0-9]+\.[0-9]+)(?: +([0-9]+\.[0-9]+))?$")


def _reply_rows(reply):
    """'ws curves' reply of the run: [(tau, s, m)], [(size, miss)]."""
    curve, lru = [], []
    for line in reply.split("\n\n")[0].split("\n")[1:]:
        m = _ROW.match(line)
        if m:
            x = int(m.group(1).replace(",", ""))
            if m.group(3) is not None:
                curve.append((x, float(m.group(2)), float(m.group(3))))
            else:
                lru.append((x, float(m.group(2))))
    return curve, lru


def test_ws_curves_answers_live(server_factory):
    """'ws curves' gives the curves so far: once measurement is off the
    clock stands still, so the reply then is what the output file's
    curve and mrc lines say at the end; refused without the option and
    for a word it does not know."""
    s = server_factory(options=list(OPTIONS))
    s.touch(0, 20, 3)
    assert s.vgdb("ws stop").startswith("ws stop: measurement off")
    replies = {(kind, unit): s.vgdb("ws curves %s %s" % (kind, unit))
               for kind, unit in curve_oracle.KEYS}
    assert s.vgdb("ws curves") == replies[("data", "page")]
    assert re.match(r"the run, data pages: [0-9,]+ instructions so far\n",
                    replies[("data", "page")])
    assert s.vgdb("ws curves x").startswith(
        "ws curves: 'x' is none of insn, data, page and line")
    out = s.run().output
    for (kind, unit), reply in replies.items():
        assert _reply_rows(reply) == (out.curves[("run", kind, unit)],
                                      out.mrc[("run", kind, unit)])
    off = server_factory()
    assert off.vgdb("ws curves").startswith(
        "ws curves: the curves are not measured in this run")


def test_diff_curves(tmp_path):
    """ws_print --diff of knees' phase of 64 pages (A) against one of 96
    (B): each curve whose points differ is listed with both runs' knees,
    as ws_print --json names them for each run, and every tau at which s
    or m changed, with both files' figures; the count line says how many
    curves are in both and the same."""
    runs, named = [], []
    for units in (64, 96):
        d = tmp_path / str(units)
        d.mkdir()
        run = wslib.run_ws([wslib.prog("knees_static"),
                            "4096:%d:4096:30" % units], OPTIONS, tmpdir=d,
                           stdout=subprocess.DEVNULL)
        runs.append(run.out_path)
        j = json.loads(test_exports.ws_print("--json=-", run.out_path).stdout)
        named.append({(c["scope"], c["kind"], c["unit"]):
                      [k["text"] for k in c["knees"]] for c in j["curves"]})
    p = test_exports.ws_print("--diff", *runs)
    assert p.returncode == 0, p.stderr
    text = p.stdout[p.stdout.index("\nLocality curves, matched by scope"):]
    a, b = (wslib.read_output(r) for r in runs)
    listed, same = 0, 0
    for key in a.curves:
        pa, pb = a.curves[key], b.curves[key]
        if pa == pb:
            same += 1
            continue
        listed += 1
        head = "\n  %s %s %s\n" % key
        block = text[text.index(head) + len(head):]
        end = re.search(r"\n  [^ ]", block)
        block = block[:end.start() + 1] if end else block
        want = []
        for run, k in (("A", named[0][key]), ("B", named[1][key])):
            want += ["    knee in %s: %s" % (run, t) for t in k] or \
                ["    knees in %s: none" % run]
        want.append("    %14s %12s %12s %12s %12s" % ("tau", "s in A",
                                                      "s in B", "m in A",
                                                      "m in B"))
        for (tau, s1, m1), (tau2, s2, m2) in zip(pa, pb):
            assert tau == tau2
            if (s1, m1) != (s2, m2):
                want.append("    %14d %12.3f %12.3f %12.3f %12.3f"
                            % (tau, s1, s2, m1, m2))
        assert block.splitlines()[:len(want)] == want, key
    assert listed >= 2                    # the data pages and lines at least
    assert "  (%d in both, 0 only in A, 0 only in B; %d the same in both, " \
        "not listed)\n" % (len(a.curves), same) in text
