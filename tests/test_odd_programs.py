"""Programs without symbols (gcc -s, strip --strip-all) and C++
exceptions thrown and caught across frames: no crash, the same output and
status as under --tool=none, the exact working sets inside the loops."""

import os
import subprocess

import wslib


P = wslib.prog


# ----------------------------------------------------------------------
# No symbols, C++ exceptions

def test_no_symbols(ws, tmp_path):
    """Programs without a symbol table or debug info: rel_nosym (linked
    with -s) and a copy of rel_exit stripped with strip --strip-all.  No
    crash, the same output and status as under --tool=none, the exact
    working sets inside the loops, and no name of the program's own
    functions anywhere in the file (where a location is written, it can
    only be a placeholder)."""
    stripped = str(tmp_path / "rel_exit_stripped")
    subprocess.run(["strip", "--strip-all", "-o", stripped, P("rel_exit")],
                   check=True)
    syms = subprocess.run(["nm", stripped], capture_output=True)
    assert b"no symbols" in syms.stderr, syms
    syms = subprocess.run(["nm", P("rel_nosym")], capture_output=True)
    assert b"no symbols" in syms.stderr, syms
    for argv, pattern, names in (
            ([P("rel_nosym"), "4"], [(10, 1), (20, 1)],
             ("rel_nosym_", "rel_nosym.c")),
            ([stripped, "exit", "9"], [(10, 1)],
             ("rel_exit_touch", "rel_exit.c"))):
        rc, stdout = wslib.none_run(argv)
        run = ws(argv, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr
        assert rc == int(argv[-1])
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        # each loop runs ~500,000 instructions: 4 windows inside it
        for data, insn in pattern:
            inside = [s for s in out.samples if (s.insn, s.data)
                      == (insn, data)]
            assert len(inside) >= 4, (argv, wslib.show(out.samples))
        with open(run.out_path) as f:
            text = f.read()
        for name in names:
            assert name not in text and name not in run.stderr, name
        # format 3: stacks and hot pages name code by ip location
        # function; in the stripped program the function is the object
        # and the offset inside it, the ip less one load bias for all
        # (a multiple of the page size)
        wheres = [w for frames in out.stacks.values() for w in frames] + \
            [h.where for kind in out.hot for h in out.hot[kind]]
        base = os.path.basename(argv[0])
        biases = {w.ip - int(w.function[len(base) + 1:], 16)
                  for w in wheres if w.location == "(%s)" % base}
        assert all(w.named_by_offset() for w in wheres
                   if w.location == "(%s)" % base), wheres
        assert len(biases) == 1 and biases.pop() % 4096 == 0, wheres


def test_cxx_exceptions(ws, tmp_path):
    """2,000 C++ exceptions thrown through 2 to 21 frames with
    destructors, a third of them caught and rethrown on the way; the same
    under --tool=none and ws, also stripped; then the loop's exact
    window."""
    stripped = str(tmp_path / "rel_exc_stripped")
    subprocess.run(["strip", "--strip-all", "-o", stripped, P("rel_exc")],
                   check=True)
    want = ("thrown 2000 caught 2000 destroyed 23000 rethrown 533 "
            "sum 1999000\n")
    for exe in (P("rel_exc"), stripped):
        argv = [exe, "2000", "5"]
        rc, stdout = wslib.none_run(argv)
        assert (rc, stdout) == (5, want)
        run = ws(argv, check=False)
        assert (run.returncode, run.stdout) == (rc, stdout), run.stderr
        wslib.check_trailer(run)
        out = run.output
        wslib.check_sample_times(out)
        inside = [s for s in out.samples if s.insn == 1]
        assert len(inside) >= 3 and {s.data for s in inside} == {10}, \
            wslib.show(out.samples)
