"""The locality curves of --ws-curves=sampled: estimates from observed
windows (docs/manual.md, "Locality curves"), each with its standard
error, against the exact oracle (tests/curve_oracle.py, from lackey's
trace of the same command, as tests/test_curves.py runs it).

The tolerance is three of the record's own standard errors, plus the
last printed digit.  Inside a window the values are exact (the same
sums the oracle makes over the same instants); what is left is which
instants were observed.  The windows are many (20 to 256) and the
estimate a mean over them, so its sampling error is close to normal and
its standard error an estimate from their spread: three of them cover
the truth 99.7 % of the time, a little less (t with n - 1 degrees of
freedom) for the fewest windows.  What no window sees is not in the
error: a stretch run once after the head (the change of phase, the exit
path) falls between windows, and a program whose windows all agree
(knees' code runs one loop on a page) has a standard error near 0.
Such a stretch's touches each move K m by at most 1 and K s(tau) by at
most tau; together they touch at most ONCE units that the loop does not
(static glibc's exit path runs a few thousand instructions over some
150 lines of code and their data; the oracle's code lines show 350
such touches at tau = 64), so the tolerance adds ONCE * 1000 / K to m
and ONCE * tau / K to s; and, since each of a stretch's references can
hit or miss whatever units it touches, 2 ONCE_INSNS / R to an LRU miss
ratio over R references (at most two references an instruction, the
stretches together at most ONCE_INSNS instructions, a few thousand;
0.05 on knees' data lines, whose windows all miss every cache below
1,024 lines): on 2.3 million instructions 0.23 misses per
1,000 and 0.015 units at tau = 64.  That leaves knees' code curves
(s = 1 in the loop, m near 0.1) loosely checked; its data curves (m
near 10 and 60 per 1,000) and xz's are checked closely.  The runs are
deterministic (the same
instructions, the windows at the same epochs), so a test either always
passes or always fails: it fails when the estimate or its error is
wrong, not by chance from run to run.
"""

import json
import re
import subprocess

import curve_oracle
import test_exports
import wslib

# knees' phases (test_curves.py's PHASES) with ten times their rounds:
# 2.6 million instructions, so that about 160 windows are taken after
# the head
PHASES = ["4096:64:4096:300", "64:1024:8192:120"]
from test_oracle import _xz_input

OPTIONS = ("--ws-curves=sampled", "--ws-syscalls=no")
L0_TAUS = [64 << j for j in range(7)]          # 64 .. 4096
ONCE = 512
ONCE_INSNS = 4096
LAG = 64            # Valgrind's superblocks: at most 50 instructions


def _ws(argv, tmp_path, options=()):
    run = wslib.run_ws(argv, OPTIONS + tuple(options), tmpdir=tmp_path,
                       stdout=subprocess.DEVNULL)
    return run, wslib.read_output(run.out_path)


def _check_long(key, want, got, tau, s, m, est):
    """A page curve's point above the windows' taus within its own
    error of the oracle's.  From epochs the error is the farthest the
    value can be off, the gaps' bounds being sure but for the clock the
    slow path reads, which lags a touch by at most a superblock (LAG
    instructions): each gap seen moves by at most that, K s(tau) by at
    most LAG a miss (a gap longer than tau - LAG, a first touch or a
    tail, each at most a miss) and K m(tau) not at all but where a gap lies within
    LAG of tau, which the last digit covers.  The bounds' points rest on
    the windows' values at 4096 as well: three of their standard
    errors and the allowance for what no window sees, as above."""
    if est["from"] == "epochs":
        slack_s = 2 * LAG * want.m(tau) / 1000 + 0.001
        slack_m = 0.001
    else:
        assert est["from"] == "bounds", (key, tau, est)
        win = got[L0_TAUS[-1]]
        slack_s = 3 * win["s-err"] + ONCE * L0_TAUS[-1] / want.k + 0.001
        slack_m = 3 * win["m-err"] + ONCE * 1000 / want.k + 0.001
    assert abs(s - want.s(tau)) <= est["s-err"] + slack_s, \
        (key, tau, s, want.s(tau), est)
    assert abs(m - want.m(tau)) <= est["m-err"] + slack_m, \
        (key, tau, m, want.m(tau), est)


def _check_within_errors(out, res):
    """Every curve point and every LRU miss ratio the windows answer
    within three standard errors (+ the last digit) of the oracle's; the
    page curves' points above the windows' taus, up to the run's length,
    within their own errors (_check_long)."""
    checked = 0
    for kind, unit in curve_oracle.KEYS:
        want = res.run[(kind, unit)]
        key = ("run", kind, unit)
        got = out.curves[key]
        assert [tau for tau, _, _ in got] == \
            (L0_TAUS if unit == "line" else curve_oracle.taus(want.k))
        for tau, s, m in got:
            est = out.curve_estimates[("curve",) + key + (tau,)]
            if tau > L0_TAUS[-1]:
                _check_long(key, want, {
                    t: out.curve_estimates[("curve",) + key + (t,)]
                    for t in L0_TAUS}, tau, s, m, est)
                checked += 1
                continue
            assert est["from"] == "windows"
            assert abs(s - want.s(tau)) <= \
                3 * est["s-err"] + ONCE * tau / want.k + 0.001, \
                (key, tau, s, want.s(tau), est)
            assert abs(m - want.m(tau)) <= \
                3 * est["m-err"] + ONCE * 1000 / want.k + 0.001, \
                (key, tau, m, want.m(tau), est)
            checked += 1
        sizes = out.mrc[key]
        assert [c for c, _ in sizes] == [1 << j for j in range(len(sizes))]
        for c, miss in sizes:
            est = out.curve_estimates[("mrc",) + key + (c,)]
            if est["from"] != "windows":
                continue
            exact = want.mrc_misses(c) / want.refs
            assert abs(miss - exact) <= \
                3 * est["miss-err"] + 2 * ONCE_INSNS / want.refs + 0.0001, \
                (key, c, miss, exact, est)
            checked += 1
    return checked


def test_knees_within_three_standard_errors(tmp_path):
    """knees' two phases.  Its code runs one loop per phase on one or two
    pages, so the windows agree closely and the standard errors of the
    code curves are small: a short run (test_curves.py's 0.35 million
    instructions) fails here, its exit path (a few thousand
    instructions on a dozen pages, after the last window) weighing more
    than the errors allow."""
    argv = [wslib.prog("knees_static")] + PHASES
    _, out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    assert _check_within_errors(out, res) >= 4 * 7 + 4


def test_a_real_program_within_three_standard_errors(tmp_path):
    """xz -1 of 12 kB (5.6 million instructions, dynamically linked:
    test_curves.py says why its data lines may differ from the oracle's
    by a few accesses, far below one standard error).  After its head
    (the first 131,072 instructions, observed whole) some 330 windows
    are due, more than the 256 kept: P doubles once, every other window
    is dropped, and the estimates stay within their errors."""
    xz = "/usr/bin/xz"
    argv = [xz, "-1", "-T1", "-c", _xz_input(tmp_path)]
    _, out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    assert _check_within_errors(out, res) >= 4 * 7 + 4
    # the errors are small enough to be of use: s within 3 % at tau = 64
    for kind, unit in curve_oracle.KEYS:
        est = out.curve_estimates[("curve", "run", kind, unit, 64)]
        s = out.curves[("run", kind, unit)][0][1]
        assert est["s-err"] < 0.03 * s, (kind, unit, est, s)


def _json_data_pages(run, tmp_path):
    """The run's data page curve as ws_print --json exports it, the
    export checked against the file."""
    js = tmp_path / "run.json"
    subprocess.run([test_exports.WS_PRINT, "--json", str(js), run.out_path],
                   check=True)
    j = json.loads(js.read_text())
    test_exports.check_json(run.out_path, j)
    (c,) = [c for c in j["curves"]
            if (c["scope"], c["kind"], c["unit"]) == ("run", "data", "page")]
    return c


def test_ws_print_finds_the_knee_and_shows_the_errors(tmp_path):
    """knees' phase of pages alone: 64 pages each stored once every
    P = 4096 instructions, so every store misses below tau = P and none
    but the first touches from P on: the knee is the step tau 2048 ->
    4096, and the pages it needs are s(4096), within the estimate's
    errors of the exact value (the oracle's run of the same command:
    nearly 64, the run's start-up and exit aside)."""
    argv = [wslib.prog("knees_static"), PHASES[0]]
    run, out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    c = _json_data_pages(run, tmp_path)
    assert c["estimate"] is True
    assert [(k["tau_from"], k["tau_to"]) for k in c["knees"]] == [(2048, 4096)]
    at = {p["tau"]: p for p in c["points"]}
    exact = res.run[("data", "page")].s(4096)
    assert exact > 60
    k = res.run[("data", "page")].k
    s = float(at[4096]["s"])
    assert abs(s - exact) <= 3 * float(at[4096]["s_err"]) + ONCE * 4096 / k
    assert c["knees"][0]["text"].startswith(
        "this run needs %d pages:" % -(-float(at[4096]["s"]) // 1))
    p = subprocess.run([test_exports.WS_PRINT, "--width=200", run.out_path],
                       stdout=subprocess.PIPE, universal_newlines=True,
                       check=True)
    assert "estimated from observed windows" in p.stdout
    s_err = out.curve_estimates[("curve", "run", "data", "page", 64)]["s-err"]
    m_err = out.curve_estimates[("curve", "run", "data", "page", 64)]["m-err"]
    assert "   +-%.3f +-%.3f" % (s_err, m_err) in p.stdout


def test_regions_and_bad_values(tmp_path):
    """Sampled mode estimates the run's curves only (a region's need
    --ws-curves=exact); a value that is none of the three is refused."""
    path = wslib.prog("knees_static")
    _, out = _ws([path, "-r"] + PHASES, tmp_path, ["--ws-instr-atstart=no"])
    assert {k[0] for k in out.curves} == {"run"}
    bad = wslib.run_ws([path, PHASES[0]], ("--ws-curves=some",),
                       tmpdir=tmp_path, check=False)
    assert bad.returncode == 1
    assert "--ws-curves takes no, sampled" in bad.stderr


_TRANSTAB = re.compile(r"transtab: new +([0-9,]+) \(([0-9,]+) -> ([0-9,]+);")


def test_sampled_mode_adds_no_instrumentation(tmp_path):
    """Sampled mode instruments nothing of its own: its windows are made
    by the core's slow paths, which every check reaches while a window
    is open (docs/design.md, "Sampled locality curves").  So the
    translations are those of a run without curves, byte for byte:
    Valgrind's --stats=yes counts the superblocks translated, the guest
    bytes and the host code made of them, the same in both runs (the
    same program, the same superblocks).  A pass of guarded calls, one
    per instruction and per access, makes the host code half as large
    again."""
    argv = [wslib.prog("knees_static"), PHASES[0]]
    made = []
    for mode in ("no", "sampled"):
        run = wslib.run_ws(argv, ("--ws-curves=" + mode, "--stats=yes"),
                           tmpdir=tmp_path, stdout=subprocess.DEVNULL)
        m = _TRANSTAB.search(run.stderr)
        assert m, run.stderr
        made.append(m.groups())
    assert made[0] == made[1]


_EST_ROW = re.compile(r" +([0-9,]+) +([0-9]+\.[0-9]{3}) +([0-9]+\.[0-9]{3})"
                      r" +\+-([0-9]+\.[0-9]{3}) \+-([0-9]+\.[0-9]{3})"
                      r"(?: \((epochs|bounds)\))?$")


def test_ws_curves_answers_live(server_factory):
    """'ws curves' in sampled mode gives the run's estimates and their
    errors so far (the server's start-up is past the head already).
    Once measurement is off they no longer change (a window cut short by
    the stop is dropped), and the trailer's records say the same."""
    s = server_factory(options=list(OPTIONS))
    s.touch(0, 64, 2000)
    assert s.vgdb("ws stop").startswith("ws stop: measurement off")
    reply = s.vgdb("ws curves data page")
    assert re.match(r"the run, data pages: its first 131,072 instructions "
                    r"and estimates from [1-9][0-9]* windows \(4,096 "
                    r"instructions measured in each\)\n", reply), reply
    rows = [m.groups() for m in map(_EST_ROW.match, reply.split("\n")) if m]
    out = s.run().output
    key = ("run", "data", "page")
    assert [(int(t.replace(",", "")), float(v), float(m))
            for t, v, m, _, _, _ in rows] == out.curves[key]
    assert [(float(se), float(me), f or "windows")
            for _, _, _, se, me, f in rows] == \
        [(out.curve_estimates[("curve",) + key + (tau,)]["s-err"],
          out.curve_estimates[("curve",) + key + (tau,)]["m-err"],
          out.curve_estimates[("curve",) + key + (tau,)]["from"])
         for tau, _, _ in out.curves[key]]
    assert out.curves[key][-1][0] > L0_TAUS[-1]


def test_long_period_knee_from_epochs(tmp_path):
    """knees' phase of 512 pages stored once each every P = 700,000
    instructions, 8 rounds (5.6 million instructions): from the source,
    every store misses below tau = P and only the first touches from P
    on, so the page curve steps between tau = 2^19 and 2^20, far above
    the windows' taus.  Sampled mode gives those taus from ws's epochs
    (every 100,000 instructions): each point within its own error of the
    oracle's (_check_long), the step's 512 * 7 misses within the two
    points' errors (P lies more than an epoch from both taus, so the
    bounds of every gap fall on one side: the errors of m are a last
    digit), and ws_print names the knee with the pages it needs."""
    pages, period, rounds = 512, 700000, 8
    argv = [wslib.prog("knees_static"),
            "4096:%d:%d:%d" % (pages, period, rounds)]
    run, out = _ws(argv, tmp_path)
    res = curve_oracle.run(wslib.VG_IN_PLACE, argv, cwd=str(tmp_path))
    for kind in ("insn", "data"):
        key = ("run", kind, "page")
        want = res.run[(kind, "page")]
        got = out.curves[key]
        assert [tau for tau, _, _ in got] == curve_oracle.taus(want.k)
        windows = {t: out.curve_estimates[("curve",) + key + (t,)]
                   for t in L0_TAUS}
        for tau, s, m in got:
            if tau > L0_TAUS[-1]:
                _check_long(key, want, windows, tau, s, m,
                            out.curve_estimates[("curve",) + key + (tau,)])
    key = ("run", "data", "page")
    k = res.run[("data", "page")].k
    at = {tau: (s, m) for tau, s, m in out.curves[key]}
    err = {tau: out.curve_estimates[("curve",) + key + (tau,)]
           for tau in (1 << 19, 1 << 20)}
    assert err[1 << 19]["from"] == err[1 << 20]["from"] == "epochs"
    step = (at[1 << 19][1] - at[1 << 20][1]) * k / 1000
    assert abs(step - pages * (rounds - 1)) <= \
        (err[1 << 19]["m-err"] + err[1 << 20]["m-err"] + 0.002) * k / 1000
    c = _json_data_pages(run, tmp_path)
    (knee,) = [n for n in c["knees"] if n["tau_to"] == 1 << 20]
    assert knee["tau_from"] == 1 << 19
    assert at[1 << 20][0] >= pages
    assert knee["text"].startswith(
        "this run needs %d pages:" % -(-at[1 << 20][0] // 1))
    assert {p["from"] for p in c["points"] if p["tau"] > L0_TAUS[-1]} \
        == {"bounds", "epochs"}
