"""ws_print on what it is given: anything that is no ws output file is
refused from its first bytes, memory stays bounded whatever the input
(a device, an endless pipe), and version 4's escapes are decoded.

- /dev/zero, a binary, a NUL byte after a good first line: refused at
  once, exit status 1, `ws_print: FILE:LINE: why`; each run under an
  address-space limit that reading a gigabyte would break;
- an endless pipe of good samples: refused when it passes --max-size,
  under the same limit; bad --max-size values;
- a version 4 file with escaped strings (labels, a command line, file and
  function names, an owner's path): the text report shows each string
  decoded, control characters as \\xNN; the HTML report's data holds the
  decoded strings; a backslash that starts no escape is refused at its
  line, as tests/wslib.py refuses it.
"""

import json
import os
import re
import resource
import subprocess

import pytest

import wslib

PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")

# An address-space limit far below what reading the input whole would
# take, far above what ws_print needs for a small file (it maps its own
# code and libc: about 10 MB).
MEMORY_LIMIT = 256 << 20


def _limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def ws_print(*args, stdin=subprocess.DEVNULL, input=None):
    wslib.require_built(PRINT)
    p = subprocess.run([PRINT] + list(args), stdin=stdin, input=input,
                       capture_output=True, timeout=60, preexec_fn=_limit)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def test_dev_zero_refused_at_once():
    rc, out, err = ws_print("/dev/zero")
    assert rc == 1 and out == ""
    assert err == ("ws_print: /dev/zero:1: not a ws output file: the first "
                   "line is not 'ws-output-format: 6'\n"), err


def test_binary_refused_at_once():
    rc, _, err = ws_print(PRINT)
    assert rc == 1
    assert re.match(r"ws_print: .*/ws_print:1: not a ws output file", err), \
        err


def test_nul_after_a_good_first_line(tmp_path):
    path = tmp_path / "z"
    path.write_bytes(b"ws-output-format: 4\ntool: ws 0.1.0\n" + b"\0" * 100)
    rc, _, err = ws_print(str(path))
    assert rc == 1
    assert err == "ws_print: %s:3: a NUL byte: not a ws output file\n" % path


def test_endless_pipe_of_samples_is_bounded():
    """A header, then samples for ever: ws_print reads up to --max-size and
    stops with a reason, in bounded memory (the limit would break a
    reader that kept everything)."""
    wslib.require_built(PRINT)
    header = ("ws-output-format: 4\ntool: ws 0.1.0\ncommand: x\npid: 1\n"
              "ppid: 1\ntime-unit: i\nevery: 10\ntau: 10\npagesize: 4096\n"
              "syscalls: yes\nper-thread: no\ninstr-atstart: yes\n"
              "count-rep: once\ncolumns: t insn data\n")
    p = subprocess.Popen([PRINT, "--max-size=4M", "-"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=_limit)
    t = 0
    try:
        p.stdin.write(header.encode())
        chunk = []
        while p.poll() is None:
            for _ in range(10000):
                t += 10
                chunk.append("%d 3 4\n" % t)
            p.stdin.write("".join(chunk).encode())
            chunk = []
            assert t < 10 ** 8, "ws_print read 100 MB and went on"
    except BrokenPipeError:
        pass
    p.stdin.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 1
    assert err == ("ws_print: (stdin): the file is larger than 4194304 "
                   "bytes (--max-size=<bytes> reads larger ones)\n"), err


@pytest.mark.parametrize("value", ["", "0", "-1", "x", "4T", "1.5G",
                                   "99999999999999999999"])
def test_bad_max_size(value):
    rc, _, err = ws_print("--max-size=" + value, "/dev/null")
    assert rc == 1
    assert err == ("ws_print: --max-size takes a number of bytes (with k, M "
                   "or G), not '%s'\n" % value), err


# ----------------------------------------------------------------------
# Escapes

ESCAPED = r"""ws-output-format: 4
tool: ws 0.1.0
command: ./prog two\x20words a\x0ab C:\\dir
pid: 7
ppid: 1
time-unit: i
every: 100
tau: 100
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
count-rep: once
columns: t insn data
event 5 mark step 2\\3 \xe2\x82\xac
100 1 2
event 150 exec /bin/next\x20prog
hot data 1 9 0x1000 0x401000 my\x20file.c:12 fn\x09tab
hot-owner file /tmp/a\x0ab
stack 1 1
frame 0x401000 my\x20file.c:12 fn\x09tab
peak 0 data 100 2 0 largest sample 1 0
owner 0 2 file /tmp/a\x0ab
peaks 1 found 0
summary insn 1.0 1 1
summary data 2.0 2 2
samples 1
end
"""


def test_wslib_decodes(tmp_path):
    out = wslib.parse_output(ESCAPED)
    assert out.argv == ["./prog", "two words", "a\nb", "C:\\dir"]
    assert [e.args for e in out.events if e.kind == "mark"] == \
        [["step", "2\\3", "\u20ac"]]
    assert out.stacks[1][0].location == "my file.c:12"
    assert out.stacks[1][0].function == "fn\ttab"
    assert out.peaks[0].owners[0][1].name == "/tmp/a\nb"
    assert out.exec == "/bin/next prog"


def test_text_report_decodes(tmp_path):
    path = tmp_path / "ws.out"
    path.write_text(ESCAPED)
    rc, out, err = ws_print("--width=120", str(path))
    assert rc == 0, err
    assert "Command:      ./prog two words a\\x0ab C:\\dir\n" in out, out
    assert "step 2\\3 \u20ac" in out, out
    assert "fn\\x09tab (my file.c:12)" in out, out
    assert "at 150 i the program exec'd /bin/next prog; this file ends " \
        "there" in out, out


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def test_html_report_decodes(tmp_path):
    path = tmp_path / "ws.out"
    path.write_text(ESCAPED)
    html_path = tmp_path / "r.html"
    rc, _, err = ws_print("--html", str(html_path), str(path))
    assert rc == 0, err
    text = html_path.read_text()
    at = text.index("var WS = ") + len("var WS = ")
    data, _ = json.JSONDecoder().raw_decode(text[at:])
    strings = set(_strings(data))
    for s in ("step 2\\3 \u20ac", "fn\ttab", "my file.c:12", "/bin/next prog"):
        assert s in strings, (s, sorted(strings)[:50])
    assert any("/tmp/a\nb" in x for x in strings), sorted(strings)


@pytest.mark.parametrize("bad,line", [
    (r"event 5 mark step\q", 15),
    (r"event 5 mark end\x4", 15),
    (r"event 5 mark end\x4G", 15),
    (r"event 5 mark end\X41", 15),
    (r"event 5 mark end\\\x", 15),
])
def test_bad_escape_refused(tmp_path, bad, line):
    text = ESCAPED.replace(r"event 5 mark step 2\\3 \xe2\x82\xac", bad)
    path = tmp_path / "ws.out"
    path.write_text(text)
    rc, _, err = ws_print(str(path))
    assert rc == 1
    assert err == ("ws_print: %s:%d: a backslash starts neither \\\\ nor "
                   "\\xHH (two lower-case hex digits)\n" % (path, line)), err
    with pytest.raises(wslib.FormatError) as e:
        wslib.parse_output(text)
    assert "line %d" % line in str(e.value)


def test_label_length_counts_decoded_bytes(tmp_path):
    """A label of 255 bytes is allowed whatever its escapes make of its
    written length; 256 decoded bytes are one too many."""
    ok = ESCAPED.replace(r"step 2\\3 \xe2\x82\xac", "\\\\" * 255)
    path = tmp_path / "ok.out"
    path.write_text(ok)
    assert ws_print(str(path))[0] == 0
    bad = ESCAPED.replace(r"step 2\\3 \xe2\x82\xac", "\\\\" * 256)
    path = tmp_path / "bad.out"
    path.write_text(bad)
    rc, _, err = ws_print(str(path))
    assert rc == 1 and "longer than 255 bytes" in err, err
