"""--ws-routines=yes on the programs whose answers their sources state
(tests/progs/rt_*, checked on lackey's trace by test_routine_progs.py):
ws's routine and routine-size records for the announced routines must be
exactly the reference model's (routine_model.py) fed with the lackey trace
of the same run, and the answers the sources state; without the option
the file has no routine records."""

import os
import re
import subprocess

import pytest

import routine_model as rm
import routine_trace
import wslib

WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
ROUTINE = re.compile(r"routine (\d+) (\d+)((?: \S+ \S+)*)$")
SIZE = re.compile(r"routine-size (\d+) (\d+) count (\d+) min (\d+) "
                  r"mean (\d+) max (\d+)$")


def routine_records(path):
    """{function name: (routine line's keys, [routine-size lines without
    the id])} from the output file's trailer; the names come from the
    stack blocks the routine lines name."""
    names, by_id, out = {}, {}, {}
    stack = None
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines:
        if line.startswith("stack "):
            stack = int(line.split()[1])
        elif line.startswith("frame ") and stack is not None:
            names.setdefault(stack, line.split()[-1])
            stack = None
        elif line.startswith("routine "):
            m = ROUTINE.match(line)
            assert m, line
            words = m.group(3).split()
            keys = dict(zip(words[::2], words[1::2]))
            name = names[int(m.group(2))]
            if name in out:         # two unnamed, or two "main"s (ld.so)
                name += "#" + m.group(1)
            by_id[m.group(1)] = name
            out[name] = (keys, [])
        elif line.startswith("routine-size "):
            m = SIZE.match(line)
            assert m and m.group(1) in by_id, line
            out[by_id[m.group(1)]][1].append(
                " ".join(line.split()[2:]))
    return out


def model_records(acts):
    """The same from the model's activations."""
    out = {}
    routines = rm.summarize(acts)
    for rec in rm.records(routines):
        words = rec.split()
        if words[0] == "routine":
            name = sorted(routines)[int(words[1]) - 1]
            out[name] = (dict(zip(words[3::2], words[4::2])), [])
        else:
            name = sorted(routines)[int(words[1]) - 1]
            out[name][1].append(" ".join(words[2:]))
    return out


def ws_routines(ws, argv):
    """The records, after the whole file has been read strictly by
    wslib (and by ws_print, which must find the routines section)."""
    r = ws([wslib.prog(argv[0])] + argv[1:], "--ws-routines=yes")
    out = wslib.read_output(r.out_path)
    assert out.header["routines"] == "yes"
    assert out.routines
    text = subprocess.run([WS_PRINT, r.out_path], capture_output=True,
                          check=True, timeout=120).stdout.decode()
    assert "Routines: cost against input" in text
    return routine_records(r.out_path), r


def compare_with_model(tmp_path, ws, argv, names, leave=()):
    """ws's records of |names| against the model's on the lackey trace."""
    got, _ = ws_routines(ws, argv)
    evs, _ = routine_trace.run(wslib.VG_IN_PLACE,
                               [wslib.prog(argv[0])] + argv[1:], tmp_path,
                               leave)
    want = model_records(rm.by_definition(evs))
    for name in names:
        assert got[name] == want[name], name
    return got


def test_sum_lines(tmp_path, ws):
    sizes = [1, 2, 3, 8, 100, 300, 1000]
    got = compare_with_model(tmp_path, ws,
                             ["rt_growth", "lines"] + [str(n) for n in sizes],
                             ["rt_sum_lines"])
    keys, rows = got["rt_sum_lines"]
    assert (keys["calls"], keys["cost"], keys["rms-max"], keys["trms-max"]) \
        == ("7", str(sum(4 * n + 2 for n in sizes)), "1000", "1000")
    # rows of 300 and 1000 are their buckets', 288 and 992
    assert [r.split()[0] for r in rows] == ["1", "2", "3", "8", "100", "288",
                                            "992"]
    assert 0.9 < float(keys["exponent"]) < 1.0


def test_quad(tmp_path, ws):
    sizes = [4, 8, 16, 32, 64, 128]
    got = compare_with_model(tmp_path, ws,
                             ["rt_growth", "quad"] + [str(n) for n in sizes],
                             ["rt_quad"])
    keys, rows = got["rt_quad"]
    assert rows == ["%d count 1 min %d mean %d max %d"
                    % (n, c, c, c) for n, c in
                    ((n, 4 * n * n + 4 * n + 3) for n in sizes)]
    assert 1.9 < float(keys["exponent"]) < 2.0


@pytest.mark.parametrize("k,d", [(3, 5), (20, 12)])
def test_recursion(tmp_path, ws, k, d):
    got = compare_with_model(tmp_path, ws, ["rt_recur", str(k), str(d)],
                             ["rt_rec"])
    keys, _ = got["rt_rec"]
    # every activation reads the k lines once; the total is the
    # outermost's (d levels below it)
    assert (keys["calls"], keys["rms-max"], keys["trms-max"], keys["cost"]) \
        == (str(d + 1), str(k), str(k), str(d * (8 * k + 10) + 8 * k + 7))


def test_syscall_induced(tmp_path, ws):
    b, r = 5, 7
    got = compare_with_model(tmp_path, ws, ["rt_sysin", str(b), str(r)],
                             ["rt_sysin"])
    keys, rows = got["rt_sysin"]
    assert (keys["rms-max"], keys["trms-max"], keys["syscall-induced"],
            keys["thread-induced"]) == (str(b), str(r * b), str(r * b), "0")
    c = r * (4 * b + 9) + 3
    assert rows == ["%d count 1 min %d mean %d max %d" % (r * b, c, c, c)]


def test_longjmp(tmp_path, ws):
    n = 3
    compare_with_model(tmp_path, ws, ["rt_longjmp", str(n)],
                       ["rt_longjmp", "rt_lj_a", "rt_lj_b", "rt_lj_c",
                        "rt_lj_after"],
                       leave=("rt_gl_a", "rt_gl_b", "rt_gl_c"))


def test_exception(ws):
    n = 4
    got, _ = ws_routines(ws, ["rt_exc", str(n)])
    keys, rows = got["rt_ex_after"]
    assert (keys["calls"], keys["rms-max"], keys["trms-max"]) == \
        (str(n), "8", "8")
    assert rows == ["8 count %d min 36 mean 36 max 36" % n]
    # rt_ex_a's activations end in main, not in rt_ex_after
    assert int(got["rt_ex_a"][0]["calls"]) == n
    assert int(got["rt_ex_a"][0]["cost"]) + int(keys["cost"]) \
        <= int(got["main"][0]["cost"])


@pytest.mark.parametrize("b,r", [(1, 1), (3, 4), (8, 50)])
def test_thread_induced(ws, b, r):
    """rt_prodcons.c's answers, whatever the interleaving."""
    got, _ = ws_routines(ws, ["rt_prodcons", str(b), str(r)])
    c, p = got["rt_consume"][0], got["rt_produce"][0]
    assert (c["rms-max"], c["trms-max"], c["thread-induced"],
            c["syscall-induced"]) == \
        (str(b + 1), str(r * (b + 1)), str(r * b + r - 1), "0")
    assert (p["rms-max"], p["trms-max"], p["thread-induced"],
            p["syscall-induced"]) == ("0", str(r - 1), str(r - 1), "0")


def test_off_by_default(ws):
    r = ws([wslib.prog("rt_growth"), "lines", "1", "2"])
    out = wslib.read_output(r.out_path)
    assert "routines" not in out.header and out.routines == []
    with open(r.out_path) as f:
        assert not [x for x in f if x.startswith("routine")]


def test_bad_value():
    p = wslib.run_ws([wslib.prog("rt_growth"), "lines", "1"],
                     ["--ws-routines=maybe"], out_path="/dev/null",
                     check=False)
    assert p.returncode == 1
    assert "--ws-routines" in p.stderr


ROW = re.compile(r" +(\d+) +(-?\d+\.\d\d|-) +(\d\.\d\d|-) +(\d+) +[\d,]+ +"
                 r"[\d,]+ +[\d,]+ +[\d,]+ +\d+/\d+ +(\S+)")


def test_monitor(server_factory):
    """'ws routines <n>' lists the first n routines closed so far, ranked as
    the trailer will; refused without the option and for a bad n."""
    s = server_factory(options=["--ws-routines=yes"])
    reply = s.vgdb("ws routines 3")
    lines = reply.strip().split("\n")
    assert re.match(r"routines \(activations closed so far: [\d,]+ of \d+ "
                    r"routines\)$", lines[0]), reply
    rows = [ROW.match(x) for x in lines[2:] if ROW.match(x)]
    assert [int(m.group(1)) for m in rows] == [1, 2, 3], reply
    assert s.vgdb("ws routines 0").startswith(
        "ws routines: '0' is not a number of routines from 1 to 1000")
    assert s.vgdb("ws routines x").startswith("ws routines: 'x' is not")
    off = server_factory()
    assert off.vgdb("ws routines").startswith(
        "ws routines: routines are not followed in this run")


def test_calls_through_the_plt(ws):
    """A call to printf@plt is an activation of printf (the stub jumps
    through its GOT slot), as many as the program makes: main's one per
    size and rt_announce's (LD_BIND_NOW=1: with lazy binding a stub's
    first call runs the dynamic linker's resolver, which is the activation
    then)."""
    sizes = ["4", "8", "16"]
    r = ws([wslib.prog("rt_growth"), "quad"] + sizes, "--ws-routines=yes",
           env=dict(os.environ, LD_BIND_NOW="1"))
    got = routine_records(r.out_path)
    assert got["printf"][0]["calls"] == str(len(sizes) + 1)
    assert got["strtol"][0]["calls"] == str(2 * len(sizes))


def test_rank_by_what_matters(ws):
    """rt_rank.c: a tiny start-up routine with a steep fit (rt_steep,
    exponent near 2.7 over 5 sizes that span 4, 3,908 instructions) and a
    big quadratic one (rt_big, 1.4 M instructions, most of the run).  ws
    ranks rt_big first and does not call rt_steep out (its cost is under
    1 % of the costliest routine's), so ws_print does not flag it; the
    routines called out come in the model's order (routine_model.rank)."""
    sizes = ["16", "32", "64", "128", "256", "512"]
    r = ws([wslib.prog("rt_rank")] + sizes, "--ws-routines=yes")
    got = routine_records(r.out_path)
    order = list(got)       # routine_records keeps the file's order
    assert order[0] == "rt_big"
    steep = got["rt_steep"][0]
    assert (steep["calls"], steep["cost"], steep["rms-max"]) == \
        ("5", "3908", "8")
    assert float(steep["exponent"]) > float(got["rt_big"][0]["exponent"])
    # the model ranks the same records the same way
    routines = {}
    for name, (keys, rows) in got.items():
        rt = rm.Routine(name)
        rt.cost = int(keys["cost"])
        for row in rows:
            w = row.split()
            rt.rows[int(w[0])] = rm.Row()
            rt.rows[int(w[0])].max = int(w[-1])
        routines[name] = rt
    ranked = [x.name for x in rm.rank(routines)]
    called_out = ranked[:ranked.index("rt_steep")]
    assert order[:len(called_out)] == called_out
    assert "rt_steep" not in called_out and len(called_out) >= 2
    text = subprocess.run([WS_PRINT, r.out_path], capture_output=True,
                          check=True, timeout=120).stdout.decode()
    first = re.search(r"\n +1  (\S+) .*\n +cost ~ input\^\S+ .*: grows\n"
                      r" +faster than its input\n", text)
    assert first and first.group(1) == "rt_big", text


def test_html_routines(ws, tmp_path):
    """The HTML report's routines section (rt_rank.c): a row per routine
    in the file's order, each fit said as the text report says it; the
    plot of the first routine with a growing fit (rt_big) puts each
    input size's max cost on logarithmic axes (the sizes and costs of
    its routine-size lines, equally spaced for sizes that double) with
    the fit's exponent as the dashed line's slope; a click on
    rt_steep's row plots rt_steep."""
    import math
    import test_print
    sizes = ["16", "32", "64", "128", "256", "512"]
    r = ws([wslib.prog("rt_rank")] + sizes, "--ws-routines=yes")
    got = routine_records(r.out_path)
    order = list(got)
    report = str(tmp_path / "report.html")
    subprocess.run([WS_PRINT, "--html", report, r.out_path], check=True,
                   timeout=120)
    res, _ = test_print.page_results(report, "")
    assert res["routinesHidden"] is False
    rows = res["routines"]
    out = wslib.read_output(r.out_path)
    assert len(out.routines) > 100 and len(rows) == 100   # the loader's too
    # the rows name the routines in the file's order, as the text does
    assert [row[1] for row in rows] == \
        [test_print.where_text(out.stacks[x.stack][0])
         for x in out.routines[:100]]
    big = got["rt_big"][0]
    assert rows[0][2] == "input^%.2f (r2 %.2f): grows faster than its " \
        "input" % (float(big["exponent"]), float(big["r2"]))
    steep = order.index("rt_steep")
    assert "grows faster" not in rows[steep][2]
    assert rows[steep][4:6] == ["5", "3,908"]

    plot = res["routinePlot"]
    assert plot["routine"] == 0 and plot["name"].startswith("rt_big ")
    want = [(int(w.split()[0]), int(w.split()[-1]))
            for w in got["rt_big"][1]]
    pts = plot["points"]
    assert [(p["size"], p["max"]) for p in pts] == want
    assert [p["size"] for p in pts] == [int(s) for s in sizes]

    def per_decade(key, value):
        a, b = pts[0], pts[-1]
        return (b[key] - a[key]) / (math.log10(b[value])
                                    - math.log10(a[value]))
    px_x, px_y = per_decade("cx", "size"), per_decade("cy", "max")
    for p in pts:   # on the axes' logarithmic scales, to a float's error
        assert abs(pts[0]["cx"] + px_x * math.log10(p["size"] / pts[0]["size"])
                   - p["cx"]) < 1e-6
        assert abs(pts[0]["cy"] + px_y * math.log10(p["max"] / pts[0]["max"])
                   - p["cy"]) < 1e-6
    x1, y1, x2, y2 = plot["fit"]
    slope = (y2 - y1) / (x2 - x1) * px_x / px_y
    assert abs(slope - float(big["exponent"])) < 1e-6

    res, _ = test_print.page_results(report, "click:routine:%d" % steep)
    plot = res["routinePlot"]
    assert plot["routine"] == steep and plot["name"].startswith("rt_steep ")
    assert [p["size"] for p in plot["points"]] == [2, 3, 4, 6, 8]


def test_diff_routines(ws):
    """ws_print --diff of rt_rank with 4 sizes (A) and 6 (B): rt_big's
    costs are the files' (it ran for 16..128 lines, then for 16..512),
    its fit is said in both runs, flagged in B only (A has 4 sizes, a
    flag needs 5); with --fail-above=50 it is the one failure: the
    routines whose costs grew more (main, which called it) are not
    called out, and the loader's did not change."""
    runs = []
    for sizes in (["16", "32", "64", "128"],
                  ["16", "32", "64", "128", "256", "512"]):
        r = ws([wslib.prog("rt_rank")] + sizes, "--ws-routines=yes")
        runs.append((r.out_path, routine_records(r.out_path)["rt_big"][0]))
    (a, big_a), (b, big_b) = runs
    p = subprocess.run([WS_PRINT, "--diff", a, b, "--fail-above=50"],
                       capture_output=True, timeout=120)
    assert p.returncode == 3, p.stderr
    text = p.stdout.decode()
    section = text[text.index("\nRoutines, matched by function"):]
    block = section[section.index("\n  rt_big (in rt_rank)\n"):]
    ca, cb = int(big_a["cost"]), int(big_b["cost"])
    assert "\n  cost %s %14d %14d  +%d (+%.1f %%)\n" % (
        " " * 17, ca, cb, cb - ca, (cb - ca) * 100.0 / ca) in block
    assert "\n  calls %s %14d %14d  +2 (+50.0 %%)\n" % (" " * 16, 4, 6) \
        in block
    assert "\n  cost against input     input^%.2f (r2 %.2f) -> " \
        "input^%.2f (r2 %.2f), grows faster\n" % (
            float(big_a["exponent"]), float(big_a["r2"]),
            float(big_b["exponent"]), float(big_b["r2"])) in block
    assert text.endswith(
        "FAIL: 1 figure grew by more than 50 %%:\n  the cost of routine "
        "rt_big (in rt_rank): %d -> %d, +%d (+%.1f %%)\n"
        % (ca, cb, cb - ca, (cb - ca) * 100.0 / ca)), text[-600:]
    # a run against itself: every routine the same, none listed
    p = subprocess.run([WS_PRINT, "--diff", b, b], capture_output=True,
                       check=True, timeout=120)
    m = re.search(r"\nRoutines, matched by function .*\((\d+) in both, 0 "
                  r"only in A, 0 only in B\):\n  \((\d+) routines the "
                  r"same in both, not listed\)\n", p.stdout.decode())
    assert m and m.group(1) == m.group(2)
