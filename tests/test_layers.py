"""The layers of ws/ (docs/design.md, "Data flow"), as scripts/ws-graph.py
reads them from the sources: every file calls its own layer and those
below only (core/, output/, analyses/, control/, then ws_main.c), each
folder has one header on the one below, and neither the core's files
nor the folders call each other in a cycle.  The script is also run on
copies of ws/ with one rule broken, to show that it sees each."""

import os
import shutil
import subprocess
import sys

import wslib

SCRIPT = os.path.join(wslib.TOP_SRCDIR, "scripts", "ws-graph.py")
WS_DIR = os.path.join(wslib.TOP_SRCDIR, "ws")


def graph(ws_dir, *args):
    return subprocess.run([sys.executable, SCRIPT, *args, ws_dir],
                          capture_output=True, text=True, timeout=60)


def test_the_layers_hold():
    run = graph(WS_DIR, "--check")
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")


def test_the_graph_lists_every_file():
    run = graph(WS_DIR)
    assert run.returncode == 0, run.stdout
    listed = run.stdout.split("calls (")[0]
    for d, _, files in os.walk(WS_DIR):
        for f in files:
            if f.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(d, f), WS_DIR)
                assert "\n  %s: " % rel in listed, rel


def _broken(tmp_path, path, old, new):
    """A copy of ws/'s sources with |old| replaced by |new| in |path|."""
    copy = tmp_path / "ws"
    shutil.copytree(WS_DIR, str(copy),
                    ignore=shutil.ignore_patterns("*.o", "*.a", "ws-*",
                                                  ".deps", ".dirstamp"))
    target = copy / path
    text = target.read_text()
    assert old in text, (path, old)
    target.write_text(text.replace(old, new, 1))
    return str(copy)


def test_a_call_from_the_core_upwards_is_seen(tmp_path):
    copy = _broken(tmp_path, "core/ws_clock.c", "#include \"ws_core.h\"\n",
                   "#include \"ws_core.h\"\n"
                   "static void up(void) { WS_(peaks_init)(); }\n")
    run = graph(copy, "--check")
    assert run.returncode == 1
    assert "core/ws_clock.c calls analyses/ws_peaks.c, a layer above" \
        in run.stdout, run.stdout


def test_an_analysis_header_in_the_core_is_seen(tmp_path):
    copy = _broken(tmp_path, "core/ws_window.c", "#include \"ws_core.h\"",
                   "#include \"ws_analyses.h\"")
    run = graph(copy, "--check")
    assert run.returncode == 1
    assert "core/ws_window.c includes ws_analyses.h, not ws_core.h" \
        in run.stdout, run.stdout


def test_a_cycle_among_the_core_files_is_seen(tmp_path):
    copy = _broken(tmp_path, "core/ws_pagetable.c", "#include \"ws_core.h\"\n",
                   "#include \"ws_core.h\"\n"
                   "static void loop(void) { WS_(dtlb_flush)(); }\n")
    run = graph(copy, "--check")
    assert run.returncode == 1
    (cycle,) = [line for line in run.stdout.splitlines() if "<->" in line]
    assert {"core/ws_dtlb.c", "core/ws_pagetable.c"} <= \
        set(cycle.split(" <-> ")), run.stdout
