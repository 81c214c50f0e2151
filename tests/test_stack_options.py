"""Valgrind's --num-callers and --show-below-main on the stacks ws writes
(docs/manual.md, section 4): the allocating stack of a heap block (a
dump's owner lines) and a peak's stack.

- callers: a block allocated in level1, called by level2 ... level5 and
  main, and a WS_DUMP of its pages (see its comment): the block's stack
  is those six frames, each at the line of its call;
- own_spike: a data peak in burst(), called by main (tests/test_owners.py).

--num-callers=N keeps the N innermost frames; below main is cut unless
--show-below-main=yes, which also names the code there by its functions
instead of "(below main)", as Valgrind's tools do.

--read-inline-info is on by default for ws, as for memcheck: ws puts
"--read-inline-info=yes" in front of the options the core reads
(docs/design.md, "Only the public API"), so that =no given in
$VALGRIND_OPTS wins as on the command line, and a program that execs
under --trace-children=yes gets it from its own Valgrind, not twice.
"""

import os
import subprocess

import pytest

import wslib

CALLERS = wslib.prog("callers")
CALLERS_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "callers.c")
OWN_SPIKE = wslib.prog("own_spike")
OWN_SPIKE_SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs",
                             "own_spike.c")


def _line_of(path, marker):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if marker in line:
                return n
    raise AssertionError("no %r in %s" % (marker, path))


def _allocation_frames():
    """The block's stack at the default depth: (location, function)."""
    frames = [("callers.c:%d" % _line_of(CALLERS_SRC, "callers: malloc"),
               "level1")]
    for n in range(2, 6):
        frames.append(("callers.c:%d" % _line_of(CALLERS_SRC,
                                                  "callers: level%d" % n),
                       "level%d" % n))
    frames.append(("callers.c:%d" % _line_of(CALLERS_SRC, "callers: main"),
                   "main"))
    return frames


def _block_stack(ws, *options, platform="amd64"):
    """The frames (location, function) of the stack that allocated the
    block, as the dump's owner lines name it, and the dump."""
    out = ws([wslib.prog("callers", platform)], *options).output
    # the block's stack is first named in the dump: written before the
    # dump's event line, the dump block right after it
    wslib.check_written_events(out)
    (dump,) = out.dumps
    heap = {p.owner.stack for p in dump.pages
            if p.kind == "data" and p.owner.kind == "heap"}
    assert len(heap) == 1, [p for p in dump.pages if p.kind == "data"]
    frames = out.stacks[heap.pop()]
    assert not any(w.inline for w in frames), frames   # -O0, noinline
    return [(w.location, w.function) for w in frames], dump


@pytest.mark.parametrize("platform", wslib.platforms())
def test_allocating_stack_is_cut_below_main(ws, platform):
    frames, _ = _block_stack(ws, platform=platform)
    assert frames == _allocation_frames()


@pytest.mark.parametrize("n", [1, 3, 6])
def test_num_callers_bounds_the_allocating_stack(ws, n):
    frames, _ = _block_stack(ws, "--num-callers=%d" % n)
    assert frames == _allocation_frames()[:n]


def test_show_below_main_keeps_the_frames_below_main(ws):
    frames, dump = _block_stack(ws, "--show-below-main=yes")
    assert frames[:6] == _allocation_frames()
    below = [f for _, f in frames[6:]]
    # glibc's start-up functions, then the program's own _start; what
    # follows _start is whatever the unwinder finds there
    assert "_start" in below and below.index("_start") >= 1, frames
    assert "(below main)" not in below, frames
    # the first access of the program's first code page (_start's) is
    # named by its function now, "(below main)" without the option
    _, default_dump = _block_stack(ws)
    start = [p.addr for p in dump.pages
             if p.kind == "insn" and p.where.function == "_start"]
    assert len(start) == 1, dump.pages
    (page,) = [p for p in default_dump.pages
               if p.kind == "insn" and p.addr == start[0]]
    assert page.where.function == "(below main)", page


def test_num_callers_counts_frames_below_main_too(ws):
    frames, _ = _block_stack(ws, "--show-below-main=yes", "--num-callers=7")
    assert len(frames) == 7 and frames[:6] == _allocation_frames(), frames
    assert frames[6][1] not in ("main", "(below main)"), frames


def _peak_stack(ws, *options):
    """The frames (location, function) of own_spike's data peak."""
    out = ws([OWN_SPIKE], *options).output
    data = [p for p in out.peaks if p.kind == "data"]
    assert data, out.peaks
    frames = out.stacks[max(data, key=lambda p: p.size).stack]
    return [(w.location, w.function) for w in frames if not w.inline]


def test_peak_stack_depth_and_below_main(ws):
    main_line = _line_of(OWN_SPIKE_SRC, "burst(heap);")
    default = _peak_stack(ws)
    assert [f for _, f in default] == ["burst", "main"], default
    assert default[1][0] == "own_spike.c:%d" % main_line, default
    assert _peak_stack(ws, "--num-callers=1") == default[:1]
    below = _peak_stack(ws, "--show-below-main=yes")
    assert below[:2] == default and "_start" in [f for _, f in below[2:]], \
        below


def test_read_inline_info_no_in_the_environment_wins(ws):
    """spike_o2's burst() is inlined into spike(): an inline line on the
    stack by default, none with --read-inline-info=no in $VALGRIND_OPTS
    (the core reads it before the command line, after ws's default)."""
    def stack(env):
        r = ws([wslib.prog("spike_o2"), "spike"], env=env)
        (p,) = [q for q in r.output.peaks if q.kind == "data"]
        return [(w.inline, w.function) for w in r.output.stacks[p.stack]]
    assert stack(None)[0] == (True, "burst")
    env = dict(os.environ, VALGRIND_OPTS="--read-inline-info=no")
    assert stack(env) == [(False, "spike"), (False, "main")]


def test_read_inline_info_default_once_per_valgrind(tmp_path):
    """hands execs itself twice under --trace-children=yes and -v: each
    of the three Valgrinds lists --read-inline-info=yes once among its
    options (each puts its own; none is passed on at exec)."""
    hands = wslib.prog("hands")
    wslib.require_built(hands)
    p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", "-v",
                        "--trace-children=yes",
                        "--ws-file=" + str(tmp_path / "ws.out"), hands,
                        "exec", "2"], cwd=str(tmp_path),
                       stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=300)
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err
    blocks = err.split("Valgrind options:")[1:]
    assert len(blocks) == 3, err
    for b in blocks:
        options = b.split("Contents of /proc/version")[0]
        assert options.count("--read-inline-info=yes") == 1, options
