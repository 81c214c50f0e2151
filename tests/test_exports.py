"""ws_print's exports (docs/manual.md, "Exports"; print/README.md):
folded stacks by function or by line, cut stacks marked, names whole,
nothing to show refused.

heap_known (tests/progs/heap_known.c) allocates whole pages from one
function per site, each called from main, so every site's stack and
bytes follow from its source.
"""

import os
import re
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


def report_where(f):
    """A frame as the text report names it: function (file:line), or
    function (in object) without line information."""
    if f.location == "???":
        return f.function
    if f.location.startswith("("):
        return "%s (in %s" % (f.function, f.location[1:])
    return "%s (%s)" % (f.function, f.location)


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
        want[";".join(report_where(f) for f in reversed(frames))] = \
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
