"""ws_print on the files `ws dump FILE` writes (print/wsp_dump_view.c):

- a real dump of tests/progs/ctl_server under ws (the conftest `server`
  fixture, `ws dump` through vgdb): the text view's header, summary,
  owners and page tables, and --csv, each against wslib's reading of
  the same file (tests/wslib.py, parse_dump_file);
- malformed dump files: `ws_print: FILE:LINE: what is wrong`, status 1;
- --html and --folded refused on a dump file.
"""

import collections
import csv
import io
import os
import re

import pytest

import test_print
import wslib

ws_print = test_print.ws_print
where_text = test_print.where_text
PAGE = 4096
T = 100000
WIDTH = 400             # wide enough that no line of the view is cut


def owner_words(d, o):
    """An owner in ws_print's words, a heap owner's stack being the dump
    file's own (wslib: d.stacks)."""
    if o.kind in ("heap", "freed"):
        head = ("%s block 0x%x (%d bytes) from " % (o.kind, o.block, o.size)
                if o.block is not None else "%s blocks from " % o.kind)
        return head + where_text(test_print.naming(d.stacks[o.stack], None))
    return {"heap-other": "heap outside live blocks (allocator data, free "
                          "memory)",
            "stack": "stack of thread %s" % o.tid,
            "anon": "anonymous memory", "unknown": "unknown"}.get(o.kind) \
        or "%s %s" % (o.kind, o.name)


def group_key(o):
    if o.kind in ("heap", "freed"):
        return (o.kind, o.stack)
    return (o.kind, o.name, o.tid)


@pytest.fixture
def dump_file(server):
    """A dump of ctl_server after it touched 50 pages of its buffer:
    (path, header, Dump, server)."""
    server.touch(0, 50)
    reply = server.vgdb("ws dump dump.%p")
    path = os.path.join(server.dir, "dump.%d" % server.pid)
    assert reply.endswith("written to %s\n" % path), reply
    with open(path) as f:
        header, d = wslib.parse_dump_file(f.read())
    return path, header, d, server


def test_dump_text_view(dump_file):
    path, header, d, server = dump_file
    p = ws_print("--width=%d" % WIDTH, path)
    assert p.returncode == 0 and p.stderr == b"", p.stderr
    text = p.stdout.decode()
    lines = text.split("\n")
    rule = "-" * WIDTH
    n_insn, n_data = d.counts["insn"], d.counts["data"]
    acc = {k: sum(pg.accesses for pg in d.pages if pg.kind == k)
           for k in ("insn", "data")}
    assert lines[:13] == [
        rule,
        "Dump file:    %s (ws dump, format 5)" % path,
        "PID:          %d" % server.pid,
        "Output file:  %s (the run's)" % server.out_path,
        "Time:         %d i" % d.t,
        "Every (T):    %d i" % T,
        "Window (tau): %d i" % T,
        "Page size:    %d bytes" % PAGE,
        rule,
        "Working set at t=%d i: the pages accessed in the current window"
        % d.t,
        "  Instruction pages: %d (%d kB), %d accesses so far"
        % (n_insn, n_insn * 4, acc["insn"]),
        "  Data pages:        %d (%d kB), %d accesses so far"
        % (n_data, n_data * 4, acc["data"]),
        ""]
    assert header["pid"] == str(server.pid)

    # the data pages by owner: most pages first, ties in file order, at
    # most 10, then the rest in one line
    groups = collections.OrderedDict()
    for pg in d.pages:
        if pg.kind == "data":
            g = groups.setdefault(group_key(pg.owner), [pg.owner, 0, 0])
            g[1] += 1
            g[2] += pg.accesses
    ranked = sorted(groups.values(), key=lambda g: -g[1])
    i = lines.index("Data pages by owner (most pages first):")
    assert lines[i + 1].split() == ["pages", "accesses", "owner"]
    want = []
    for o, pages, accesses in ranked[:10]:
        if o.kind in ("heap", "freed"):
            o = wslib.Owner("%s %d" % (o.kind, o.stack))
        want.append("  %8d %10d  %s" % (pages, accesses, owner_words(d, o)))
    if len(ranked) > 10:
        want.append("  %8d %10s  the %d other owners"
                    % (sum(g[1] for g in ranked[10:]), "",
                       len(ranked) - 10))
    assert lines[i + 2:i + 2 + len(want)] == want
    assert lines[i + 2 + len(want)] == ""
    # the pages this test touched are there, in ctl_server's buffer
    assert len(ranked) >= 3

    # every page, in the file's order, unpadded addresses
    for kind, title in (("insn", "Instruction"), ("data", "Data")):
        pages = [pg for pg in d.pages if pg.kind == kind]
        i = lines.index("%s pages (%d), in address order:" % (title,
                                                              len(pages)))
        aw = max(7, max(len("0x%x" % pg.addr) for pg in pages))
        got = lines[i + 2:]
        got = got[:got.index("")]
        want = []
        for pg in pages:
            row = "  %-*s %12s %10d  " % (aw, "0x%x" % pg.addr,
                                          "%d i" % pg.since, pg.accesses)
            if kind == "insn":
                want.append(row + where_text(pg.where))
            else:
                want.append(row + owner_words(d, pg.owner))
                want.append(" " * (aw + 28) + "first access: "
                            + where_text(pg.where))
        assert got == want, kind
    touched = {server.base + k * PAGE for k in range(50)}
    shown = set(int(a, 16) for a in re.findall(r"^  (0x[0-9a-f]+) ", text,
                                               re.M))
    assert touched <= shown


def test_dump_csv(dump_file, tmp_path):
    path, header, d, server = dump_file
    p = ws_print("--csv", path)
    assert p.returncode == 0 and p.stderr == b""
    rows = list(csv.reader(io.StringIO(p.stdout.decode())))
    assert rows[0] == ["kind", "address", "since", "accesses", "ip",
                       "location", "function", "owner"]
    assert rows[1:] == [
        [pg.kind, "0x%x" % pg.addr, str(pg.since), str(pg.accesses),
         "0x%x" % pg.where.ip, pg.where.location, pg.where.function,
         owner_words(d, pg.owner) if pg.kind == "data" else ""]
        for pg in d.pages]
    # --csv=FILE writes the same
    out = tmp_path / "pages.csv"
    assert ws_print("--csv=%s" % out, path).returncode == 0
    assert out.read_bytes() == p.stdout


def test_dump_refuses_html_and_folded(dump_file, tmp_path):
    path = dump_file[0]
    for args, what in ((["--html", str(tmp_path / "r.html")],
                        "HTML report"),
                       (["--folded", "usage"], "heap usage lines")):
        p = ws_print(*(args + [path]))
        assert p.returncode == 1 and p.stdout == b""
        assert p.stderr.decode() == (
            "ws_print: %s: a dump file (from 'ws dump FILE') has no %s; "
            "ws_print shows it as text, --csv or --json\n" % (path, what))
    assert not (tmp_path / "r.html").exists()


def test_readme_excerpt():
    """print/README.md's dump view is what ws_print prints on the corpus
    file it names, up to the excerpt's "..."."""
    with open(os.path.join(wslib.TOP_SRCDIR, "print", "README.md")) as f:
        readme = f.read()
    sec = readme.split("## Dump files\n", 1)[1].split("\n## ", 1)[0]
    block = sec.split(":\n\n", 1)[1].split("\n    ...\n", 1)[0]
    excerpt = [line[4:] for line in block.split("\n")]
    p = ws_print("--width", "80", "tests/print_corpus/seed-dump.ws",
                 cwd=wslib.TOP_SRCDIR)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.decode().split("\n")
    assert len(excerpt) > 30 and lines[:len(excerpt)] == excerpt


GOOD_DUMP = """\
ws-dump-format: 4
pid: 7
output-file: /tmp/ws.out.7
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
dump-begin 1500
dump-page insn 0x10b000 1000 912 0x10b1a0 marker.c:41 main
dump-page data 0x4a2c000 1000 40 0x10b1c4 marker.c:44 main
stack 1 1
frame 0x10b1c0 marker.c:43 main
dump-owner heap 1 0x4a2c040 8192
dump-page data 0x4a2d000 0 3 0x10b1c4 marker.c:44 main
dump-owner heap 1 0x4a2c040 8192
dump-end 1 2
"""

MALFORMED_DUMPS = [
    (GOOD_DUMP.replace("format: 4", "format: 3"), 1,
     "dump format version 3; this ws_print reads versions 4 to 5", False),
    (GOOD_DUMP.replace("tau: 1000\n", ""), 7,
     "the dump file's header (which ends before this line) lacks the key "
     "tau", False),
    (GOOD_DUMP.replace("pagesize: 4096", "pagesize: 4000"), 7,
     "header pagesize: 4000 is not a power of two", True),
    (GOOD_DUMP.replace("pid: 7\n", "pid: 7\npid: 8\n"), 3,
     "header key 'pid' given twice", False),
    (GOOD_DUMP.replace("dump-begin 1500\n", ""), 8,
     "after the header, a dump file has its dump block ('dump-begin T')",
     False),
    (GOOD_DUMP.replace("dump-end 1 2\n", ""), 16,
     "the dump file ends inside its dump block (no 'dump-end')", False),
    (GOOD_DUMP.replace("dump-end 1 2", "dump-end 1 3"), 16,
     "dump-end says 1 insn and 3 data pages, the block has 1 and 2", False),
    (GOOD_DUMP + "dump-begin 1600\n", 17,
     "nothing may follow the dump block's 'dump-end'", False),
    (GOOD_DUMP.replace("dump-owner heap 1 0x4a2c040 8192\ndump-page data "
                       "0x4a2d000", "dump-page data 0x4a2d000"), 13,
     "a data page's dump-page line is followed by its 'dump-owner OWNER' "
     "line", False),
    (GOOD_DUMP.replace("stack 1 1\nframe 0x10b1c0 marker.c:43 main\n", ""),
     11, "stack 1", False),
    (GOOD_DUMP.rstrip("\n"), 16,
     "the last line has no newline: the dump file was cut short", True),
]


@pytest.mark.parametrize("text,line,why,lib_accepts", MALFORMED_DUMPS,
                         ids=[str(i) for i in range(len(MALFORMED_DUMPS))])
def test_malformed_dump(tmp_path, text, line, why, lib_accepts):
    """One line naming the file and the line, exit status 1.  wslib
    refuses the same files, but for two where ws_print is stricter on
    purpose: a page size that is no power of two, and a cut last line
    (ws writes a dump file whole)."""
    path = tmp_path / "dump.7"
    path.write_text(text)
    p = ws_print(str(path))
    assert p.returncode == 1 and p.stdout == b""
    err = p.stderr.decode()
    assert err.startswith("ws_print: %s:%d: " % (path, line)), err
    assert why in err and err.count("\n") == 1, err
    if lib_accepts:
        wslib.parse_dump_file(text)
    else:
        with pytest.raises(wslib.FormatError):
            wslib.parse_dump_file(text)


def test_good_dump_by_hand(tmp_path):
    """The format's own example shape: exact text, heap owners by their
    stack, the two pages of one block grouped."""
    path = tmp_path / "dump.7"
    path.write_text(GOOD_DUMP)
    p = ws_print("--width=100", str(path))
    assert p.returncode == 0 and p.stderr == b""
    assert p.stdout.decode().split("\n")[9:] == [
        "Working set at t=1500 i: the pages accessed in the current window",
        "  Instruction pages: 1 (4 kB), 912 accesses so far",
        "  Data pages:        2 (8 kB), 43 accesses so far",
        "",
        "Data pages by owner (most pages first):",
        "     pages   accesses  owner",
        "         2         43  heap blocks from main (marker.c:43)",
        "",
        "(since: the page was last accessed at or after that time;",
        " accesses: all its accesses so far in the run)",
        "",
        "Instruction pages (1), in address order:",
        "  address         since   accesses  where first accessed",
        "  0x10b000       1000 i        912  main (marker.c:41)",
        "",
        "Data pages (2), in address order:",
        "  address          since   accesses  owner, then its first access",
        "  0x4a2c000       1000 i         40  heap block 0x4a2c040 (8192 "
        "bytes) from main (marker.c:43)",
        "                                     first access: main "
        "(marker.c:44)",
        "  0x4a2d000          0 i          3  heap block 0x4a2c040 (8192 "
        "bytes) from main (marker.c:43)",
        "                                     first access: main "
        "(marker.c:44)",
        ""]
