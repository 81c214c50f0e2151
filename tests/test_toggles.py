"""Starting and stopping measurement often (the reliability review's third
round): a start or a stop must not cost a translation of every superblock
again, and what code instrumented while on does while off must count
nothing.

- tests/progs/rel_toggle pairs N: N regions in one thread, each storing
  once to a page by code on its own page; the same store again and a store
  to another page by other code while off, after each region.  The pages
  and their access counts are exact (--ws-list-pages=yes), and the number
  of translations Valgrind made (--stats=yes, "transtab: new") does not
  grow with N.
- rel_toggle storm: two threads toggle for ever while main sleeps 0.3 s
  and calls exit(7): the program ends, with --tool=none's status, and
  ws_print reads the file.
"""

import os
import re
import subprocess

import pytest

import wslib

P = wslib.prog("rel_toggle")
WS_PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
OPTS = ("--ws-instr-atstart=no", "--ws-list-pages=yes", "--stats=yes")
PER_CALL = 14            # wsprog.h: 1 + 4 + 2*1, + 4 a sweep, + 3 a call


def _pairs(ws, n):
    run = ws([P, "pairs", str(n)], *OPTS)
    on_page, off_page, on_code, off_code = (
        int(x, 16) >> 12 << 12 for x in run.stdout.split())
    new = re.search(r"transtab: new +([\d,]+)", run.stderr)
    assert new, run.stderr[-3000:]
    return run, (on_page, off_page, on_code, off_code), int(
        new.group(1).replace(",", ""))


def test_toggles_count_only_what_is_measured(ws):
    """While off, code that was instrumented while on may go on running
    (ws_sampler.c): it counts nothing, neither the accesses it makes to
    pages measured before nor pages it alone touches."""
    n = 3000
    run, (on_page, off_page, on_code, off_code), _ = _pairs(ws, n)
    out = run.output
    wslib.check_trailer(run)
    starts = [e for e in out.events if e.kind == "start"]
    stops = [e for e in out.events if e.kind == "stop"]
    assert (len(starts), len(stops)) == (n, n)
    assert len(out.finals) == n             # each region's final sample
    times = [s.t for s in out.samples]
    assert times == sorted(set(times))
    data, insn = out.pages["data"], out.pages["insn"]
    assert data[on_page][0] == n, data[on_page]
    assert insn[on_code][0] == PER_CALL * n, insn[on_code]
    assert off_page not in data and off_code not in insn


def test_toggles_make_no_translations_again(ws):
    """Before, every start and stop threw every translation away, so each
    pair made at least the two superblocks of its loop again: 2,900 more
    pairs, 5,800 more translations.  Now a stop keeps the instrumented code
    when the last one that threw it away is less than 100 ms ago, and the
    translations are thrown away at most twice in 100 ms: fewer than one
    more translation a pair unless the 2,900 pairs took seconds more (each
    takes tens of microseconds)."""
    _, _, few = _pairs(ws, 100)
    _, _, many = _pairs(ws, 3000)
    assert many - few < 2900, (few, many)


@pytest.mark.parametrize("fair", ["no", "yes"])
def test_toggling_threads_let_the_program_end(tmp_path, fair):
    """The program ends as under --tool=none, exit(7) in the main thread
    while two threads toggle; ws_print reads the file, complete, without a
    word (its sample times increase).  At first each toggle took
    milliseconds and the program did not end in ten minutes, with
    --fair-sched=yes too.  Then, with toggles of tens of microseconds, it
    ended with --fair-sched=yes but not under Valgrind's default lock,
    which is not fair: a toggling thread held it for its whole time slice
    (100,000 superblocks, seconds of ws's work) and took it straight back.
    Now a start or stop makes the thread yield soon, as under --tool=none,
    and the program ends in a second or two either way.  The timeout is a
    guard against a hang (the file grows by megabytes a second), no
    measure of speed."""
    status, _ = wslib.none_run([P, "storm"])
    assert status == 7
    out_path = str(tmp_path / "ws.out")
    run = wslib.run_ws([P, "storm"], ("--fair-sched=" + fair,),
                       out_path=out_path, timeout=120, check=False)
    assert run.returncode == 7, run.stderr[-3000:]
    # ws_print reads the whole file (some 166,000 regions in 11 MB here;
    # wslib's parser takes a long while over it)
    p = subprocess.run([WS_PRINT, out_path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=600)
    assert (p.returncode, p.stderr) == (0, b""), p.stderr


def test_ms_sample_times_increase(ws, tmp_path):
    """--ws-time-unit=ms: 200 regions far shorter than a millisecond, each
    with its final sample.  Time off does not count, so every one begins
    and ends in the millisecond the one before ended in; each sample is
    dated a millisecond after the one before it, and the events after it
    not before it.  Before, about 185 of the 200 repeated the time of the
    one before, and ws_print refused the file."""
    n = 200
    run = ws([P, "pairs", str(n)], "--ws-time-unit=ms",
             "--ws-instr-atstart=no")
    out = run.output
    wslib.check_trailer(run)
    times = [s.t for s in out.samples]
    assert len(times) == n
    assert all(a < b for a, b in zip(times, times[1:])), times
    p = subprocess.run([WS_PRINT, run.out_path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=600)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
