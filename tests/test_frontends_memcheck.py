"""ws_print (text, --csv, --html on fresh, per-thread and cut files;
malformed files, a folder, bad options) and ws-monitor (listing, one-shot
commands other than status, refused commands, processes it cannot talk
to) under memcheck: no errors, no definite or indirect leaks, and the
replies they give without it."""

import os
import re
import subprocess

import pytest

import ctl_util
import wslib


P = wslib.prog


# ----------------------------------------------------------------------
# The front-ends under memcheck

PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
MONITOR = os.path.join(wslib.TOP_BUILDDIR, "monitor", "ws-monitor")
GOLDEN = os.path.join(wslib.TESTS_DIR, "print_golden")
# Errors make memcheck exit with 99; definite and indirect leaks count as
# errors; possible and reachable ones do not (glibc and readline keep
# memory till exit on purpose).
MEMCHECK = ["valgrind", "--tool=memcheck", "-q", "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--error-exitcode=99"]


def memcheck(argv, timeout=120):
    """argv under memcheck: (status, stdout, stderr); stderr holds only
    what memcheck reports (-q) and what the program writes there."""
    wslib.require_built(argv[0])
    p = subprocess.run(MEMCHECK + argv, capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


def assert_clean(rc, err, want_rc):
    assert rc != 99 and not re.search(r"==[0-9]+== ", err), err[-4000:]
    assert rc == want_rc, (rc, err[-2000:])


@pytest.fixture(scope="module")
def print_inputs(tmp_path_factory):
    """A fresh file with marks, regions, a dump and a change of tau
    (ctl_macros), a per-thread file, a cut one, and malformed ones."""
    d = tmp_path_factory.mktemp("print")
    run = wslib.run_ws([P("ctl_macros")], ["--ws-instr-atstart=no"],
                       out_path=str(d / "macros.ws"))
    with open(run.out_path) as f:
        text = f.read()
    lines = text.split("\n")
    last = max(i for i, l in enumerate(lines) if l[:1].isdigit())
    files = {"macros": run.out_path,
             "threads": os.path.join(GOLDEN, "threads.ws"),
             "killed": os.path.join(GOLDEN, "killed.ws")}
    bad = {
        "bad-sample": "\n".join(lines[:16] + ["12 x 3"] + lines[16:]),
        "bad-version": re.sub(r"\Aws-output-format: [0-9]+",
                              "ws-output-format: 9", text),
        "binary": "\x00\xff\x01ws-output-format: 2\n\x00\x00",
        "empty": "",
        "header-only": "\n".join(lines[:13]) + "\n",
        "huge": "\n".join(lines[:last + 1] + ["9" * 5000 + " 1 1"]
                          + lines[last + 1:]),
        "cut-mid-line": text[:len(text) // 2],
    }
    for name, content in bad.items():
        path = str(d / (name + ".ws"))
        with open(path, "w", encoding="latin-1") as f:
            f.write(content)
        files[name] = path
    files["dir"] = str(d)
    return files


# (inputs, options, exit status): every kind of report on good files, and
# the files and options it must refuse
PRINT_CASES = [
    ("macros", [], 0), ("macros", ["--csv"], 0), ("macros", ["--html"], 0),
    ("macros", ["--width=30", "--height=4"], 0),
    ("threads", [], 0), ("threads", ["--csv"], 0), ("threads", ["--html"], 0),
    ("killed", [], 0), ("killed", ["--html"], 0), ("cut-mid-line", [], 0),
    ("bad-sample", [], 1), ("bad-version", [], 1), ("binary", [], 1),
    ("empty", [], 1), ("header-only", ["--csv"], 0), ("huge", [], 1),
    ("dir", [], 1), ("macros", ["--width=5"], 1), ("macros", ["--bogus"], 1),
]


@pytest.mark.parametrize("name,opts,want", PRINT_CASES,
                         ids=["%s%s" % (c[0], "".join(c[1]))
                              for c in PRINT_CASES])
def test_ws_print_under_memcheck(print_inputs, tmp_path, name, opts, want):
    opts = list(opts)
    if opts == ["--html"]:
        opts = ["--html=" + str(tmp_path / "r.html")]
    rc, out, err = memcheck([PRINT] + opts + [print_inputs[name]])
    # ws_print's own messages start with "ws_print: "; nothing else may
    # be on stderr
    err = "\n".join(l for l in err.split("\n")
                    if not l.startswith("ws_print: "))
    assert_clean(rc, err.strip("\n"), want)
    if want == 0 and opts[:1] == ["--csv"]:
        assert out.startswith("t,"), out[:200]
    if opts and opts[0].startswith("--html"):
        with open(str(tmp_path / "r.html")) as f:
            assert "</html>" in f.read()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    s = ctl_util.Server(tmp_path_factory.mktemp("mc-monitor"), pages=200)
    s.touch(0, 200, 20)
    yield s
    s.kill()


def _monitor_argv(server, *words, pid=None):
    argv = [MONITOR, "--vgdb-prefix=" + server.prefix]
    if pid is not False:
        argv.append("--pid=%d" % (server.pid if pid is None else pid))
    return argv + list(words)


def test_ws_monitor_listing_under_memcheck(live_server):
    """The listing mode (no --pid), with and without the right prefix."""
    rc, out, err = memcheck(_monitor_argv(live_server, pid=False))
    assert_clean(rc, err, 0)
    assert "%-8d %s 200" % (live_server.pid, ctl_util.SERVER) in out, out
    rc, out, err = memcheck([MONITOR])
    assert_clean(rc, err, 0)
    assert ("%-8d %s 200" % (live_server.pid, ctl_util.SERVER)) in out, out


@pytest.mark.parametrize("words,want,reply", [
    # all of them when there are fewer than 20
    (["series", "20"], 0, r"ws series: the last ([0-9]+) of ([0-9]+) samples "
     r"\(t insn data\):\n([0-9]+ [0-9]+ [0-9]+\n)+"),
    (["dump", "full"], 0, r"ws dump at t=[0-9]+: [0-9]+ insn pages, [0-9]+ "
     r"data pages in the window \([0-9]+ and [0-9]+ lines of 64 bytes\)\n.*"),
    (["help"], 0, r"\nws monitor commands .*"),
    (["set", "tau", "0"], 1, r"ws set tau: '0' is not a whole number from 1 "
     r"to 1000000000000000; nothing changed\n"),
    (["frobnicate"], 1, r"frobnicate does not match any of 'help status .*'\n")],
    ids=["series", "dump", "help", "refused", "unknown"])
def test_ws_monitor_one_shot_under_memcheck(live_server, words, want, reply):
    """One-shot commands other than status (which test_monitor.py runs
    under memcheck): long replies, refused commands, each the reply it
    is without memcheck."""
    rc, out, err = memcheck(_monitor_argv(live_server, *words))
    assert_clean(rc, err, want)
    m = re.fullmatch(reply, out, re.S)
    assert m, out
    if words[0] == "series":
        n, total = int(m.group(1)), int(m.group(2))
        assert n == min(20, total) and out.count("\n") == n + 1, out
    if words == ["dump", "full"]:
        ctl_util.parse_monitor_dump(out)


def test_ws_monitor_errors_under_memcheck(live_server):
    """A process that is gone, one not under Valgrind, a bad option."""
    p = subprocess.Popen(["sleep", "60"])
    try:
        rc, out, err = memcheck(_monitor_argv(live_server, "status",
                                              pid=p.pid))
        assert_clean(rc, err.replace(
            "ws-monitor: process %d (sleep) is not running under Valgrind\n"
            % p.pid, ""), 2)
    finally:
        p.kill()
        p.wait()
    gone = ctl_util.no_such_pid()
    rc, out, err = memcheck(_monitor_argv(live_server, "status", pid=gone))
    assert_clean(rc, err.replace("ws-monitor: there is no process %d\n"
                                 % gone, ""), 2)
    rc, out, err = memcheck([MONITOR, "--bogus"])
    assert_clean(rc, re.sub(r"ws-monitor: unknown option .*\n", "", err), 64)
