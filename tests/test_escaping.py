"""Every string ws writes is escaped (docs/output-format.md, Escaping) and
decodes to what it was (issue 16 item 8, issue 17 item 3).

- program arguments with a newline, a tab, a backslash, spaces at the
  ends and in a row, UTF-8 and bytes of no UTF-8 character, an empty one:
  the output file's command: line and the miss profile's cmd: line stay
  one line each, and decode to the arguments exactly; ws_print reads the
  file; callgrind_annotate reads the profile;
- labels (WS_MARK, WS_DUMP, and the region the last mark names) with a
  backslash, UTF-8, bytes of no UTF-8 character, 255 bytes: decoded as
  given; a label with a control character is still refused;
- a source file named "my file\\with<TAB>tab.c" in the debug information:
  the page and frame locations and the miss profile's file names decode
  to it, and stay one word where the grammar wants one.
"""

import os
import subprocess

import wslib

HANDS = wslib.prog("hands")
PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")

# every control character, 0x01 to 0x1f and 0x7f (the ends of the range
# escaped), between the characters either side of it that are not
CONTROLS = b"!" + bytes(range(1, 0x20)) + b" \x7f~"
ODD_ARGS = [b"a\nb", b"tab\there", b"back\\slash", b" lead", b"trail ",
            b"two  spaces", b"\xe2\x82\xac", b"\xff\xfe", b"", b"\x1b[31m",
            CONTROLS]


def ws(argv, tmp_path, opts=()):
    wslib.require_built(HANDS)
    return subprocess.run([wslib.VG_IN_PLACE.encode(), b"--tool=ws"]
                          + [o.encode() for o in opts] + argv,
                          cwd=str(tmp_path), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=300)


def test_odd_arguments(tmp_path):
    argv = [HANDS.encode(), b"work"] + ODD_ARGS
    p = ws(argv, tmp_path, ["--ws-file=ws.out", "--ws-miss-file=miss.out"])
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    out = wslib.read_output(str(tmp_path / "ws.out"))
    assert out.argv == [os.fsdecode(a) for a in argv]
    with open(str(tmp_path / "ws.out"), "rb") as f:
        text = f.read()
    text.decode("utf-8")                  # the file is UTF-8 throughout
    (cmd,) = [line for line in text.split(b"\n")
              if line.startswith(b"command: ")]
    assert all(c >= 0x20 and c != 0x7f for c in cmd)
    # each control character as \xNN, the characters around them as they are
    assert b" !" + b"".join(b"\\x%02x" % c for c in range(1, 0x20)) \
        + b"\\x20\\x7f~" in cmd, cmd
    with open(str(tmp_path / "miss.out"), "rb") as f:
        prof = f.read()
    prof.decode("utf-8")
    (pcmd,) = [line for line in prof.split(b"\n")
               if line.startswith(b"cmd: ")]
    assert pcmd[5:] == cmd[9:]
    r = subprocess.run([PRINT, str(tmp_path / "ws.out")],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    r = subprocess.run(["callgrind_annotate", str(tmp_path / "miss.out")],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()


def test_labels(tmp_path):
    labels = [b"a\\b", b"\xe2\x82\xacuro", b"bad \xff byte", b"x" * 255,
              b"tab\there"]
    p = ws([HANDS.encode(), b"mark"] + labels, tmp_path, ["--ws-file=ws.out"])
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 0, err
    # a control character is refused, as before; the others are kept
    assert "contains a control character" in err
    kept = [os.fsdecode(b) for b in labels[:-1]]
    out = wslib.read_output(str(tmp_path / "ws.out"))
    marks = [" ".join(e.args) for e in out.events if e.kind == "mark"]
    dumps = [" ".join(e.args[1:]) for e in out.events
             if e.kind == "dump" and e.args[0] == "label"]
    assert marks == kept and dumps == kept, (marks, dumps)
    # the region open at exit is named by the last mark
    assert list(out.regions) == [kept[-1]]
    r = subprocess.run([PRINT, str(tmp_path / "ws.out")],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()


def test_odd_source_file_name(tmp_path):
    p = ws([HANDS.encode(), b"odd"], tmp_path,
           ["--ws-file=ws.out", "--ws-list-pages=yes",
            "--ws-miss-file=miss.out"])
    assert p.returncode == 0, p.stderr.decode()
    out = wslib.read_output(str(tmp_path / "ws.out"))
    odd = "my file\\with\ttab.c"
    pages = [w for kind in ("insn", "data")
             for _, w in out.pages[kind].values()
             if w.function == "oddly_placed"]
    assert pages and {w.location.rsplit(":", 1)[0] for w in pages} == {odd}
    with open(str(tmp_path / "ws.out")) as f:
        raw = [line for line in f if " oddly_placed" in line]
    assert all("my\\x20file\\\\with\\x09tab.c:" in line for line in raw), raw
    with open(str(tmp_path / "miss.out")) as f:
        fl = [line for line in f if "my file" in line]
    assert fl and all(line.rstrip("\n").endswith(
        "odd dir/my file\\\\with\\x09tab.c") for line in fl), fl
