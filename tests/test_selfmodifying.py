"""Code written, rewritten and protected at run time (rel_jit,
--smc-check=all): code written into RWX and RW-then-RX mappings, rewritten
in place, made non-executable and back, the program's own text made
writable and patched, code that rewrites the code it calls; the working
set inside each phase is exactly the phase's code pages (no data), and
the run-wide totals differ between two layouts by exactly the pages the
layouts differ by.  Output and exit status as under --tool=none."""


import wslib


P = wslib.prog


# ----------------------------------------------------------------------
# Code written, rewritten and protected at run time

JIT_T = 10000
# phase -> (code pages, data pages) of a window inside it; see rel_jit.c
JIT_PHASES = {"rx1": (2, 0), "rx2": (2, 0), "rx3": (5, 0),
              "text": (1, 20), "text2": (1, 20), "smc": (2, 2)}


def jit_pages(k1, k2):
    """(code pages, pages written) of rel_jit's RWX mapping A for K1, K2:
    jit1's chain, jit2's int3 fill and chain, smc's two pages."""
    code = set(range(k1)) | set(range(2, 2 + k2)) | {0, 1}
    written = code | set(range(min(k1, 2)))
    return len(code), len(written)


def phase_windows(out):
    """{phase: [(insn, data)] of the samples whose window lies between
    WS_MARK(phase) and the WS_MARK("end") after it}."""
    marks = [(e.t, e.args[0]) for e in out.events if e.kind == "mark"]
    res = {}
    for (t0, name), (t1, end) in zip(marks, marks[1:]):
        if name == "end":
            continue
        assert end == "end", marks
        res[name] = [(s.insn, s.data) for s in out.samples
                     if s.t - out.tau >= t0 and s.t <= t1]
    return res


def test_jit_smc(ws, tmp_path):
    opts = ["--smc-check=all", "--ws-every=%d" % JIT_T]
    totals = {}
    for k1, k2 in ((3, 4), (1, 1)):
        argv = [P("rel_jit"), str(k1), str(k2)]
        rc, stdout = wslib.none_run(argv, "--smc-check=all")
        assert rc == 0, stdout
        run = ws(argv, *opts, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr[-3000:]
        # the code returned what only the current code returns
        assert "wrong" not in stdout and "text 20 ones 20 twos\n" in stdout
        assert "smc %d\n" % (20000 * 20001 // 2) in stdout
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        windows = phase_windows(out)
        want = dict(JIT_PHASES, jit1=(k1, 0), jit2=(k2, 0))
        assert sorted(windows) == sorted(want)
        for phase, (insn, data) in want.items():
            got = windows[phase]
            # Inside a chain phase a window that spans the return to
            # run_chain between its two calls also holds run_chain's code
            # page and the stack page the call pushed on.
            allowed = {(insn, data)}
            if data == 0:
                allowed.add((insn + 1, 1))
            assert set(got) <= allowed and got.count((insn, data)) >= 8, \
                (phase, got)
        totals[(k1, k2)] = (out.summary["insn"][2], out.summary["data"][2])
    # everything but mapping A's layout is the same in the two runs
    (i1, d1), (i2, d2) = totals[(3, 4)], totals[(1, 1)]
    ci1, w1 = jit_pages(3, 4)
    ci2, w2 = jit_pages(1, 1)
    assert (i1 - i2, d1 - d2) == (ci1 - ci2, w1 - w2), totals
