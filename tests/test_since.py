"""What a person stopped in gdb reads first (docs/control.md, "Stopping at
a spike"): `ws dump` sums the window up on one screen (its sizes, its
largest owners with their allocation sites on one line, its most accessed
pages), `ws since` lists the data pages that entered the window since the
last look (a dump, a `ws since`, a break stop), by owner, with the lines
that brought them in; in code without symbols both name the object and
the address inside it, never "???".

The program: progs/since (docs in its source) asks for the replies itself
(VALGRIND_MONITOR_COMMAND), so they come on Valgrind's log in the order
it asks: `ws dump` after block a (A_PAGES pages, from the line marked
"since: malloc a") was written, `ws since` after block b (B_PAGES, "since:
malloc b") and G_PAGES pages of the global g_table were, and block a again,
then `ws since` again.  It runs with a window longer than the run, so no
page leaves it: the pages that entered it between the two looks are
exactly block b's and g_table's.  progs/since_stripped is the same
program linked with -s (the same code, checked below)."""

import os
import re
import subprocess

import pytest

import wslib

SINCE = wslib.prog("since")
STRIPPED = wslib.prog("since_stripped")
SRC = os.path.join(wslib.TOP_SRCDIR, "tests", "progs", "since.c")
A_PAGES, B_PAGES, G_PAGES = 300, 200, 10
# longer than the run (about 140,000 instructions)
OPTIONS = ("--ws-tau=1000000000", "--ws-every=1000000")


def _line(marker):
    with open(SRC) as f:
        for i, line in enumerate(f, 1):
            if "/* %s */" % marker in line:
                return i
    raise AssertionError("no %r in %s" % (marker, SRC))


def _replies(stderr):
    """The replies the program asked for, in order: each a list of lines
    (the log's other lines, ==pid== ..., left out)."""
    replies = []
    for line in stderr.split("\n"):
        if line.startswith("ws dump at t=") or line.startswith("ws since t="):
            replies.append([])
        if replies and line and not line.startswith("=="):
            replies[-1].append(line)
    return replies


OWNER = re.compile(r" +([0-9]+) pages? +\(([0-9.]+)%\): (.*)\Z")
BROUGHT = re.compile(r" +([0-9]+) brought in by (.*)\Z")
SINCE_HEAD = re.compile(r"ws since t=([0-9]+) \(([^)]*)\): ([0-9]+) of the "
                        r"([0-9]+) data pages in the window entered it "
                        r"since(; by owner:)?\Z")
DUMP_HEAD = re.compile(r"ws dump at t=([0-9]+): ([0-9]+) insn pages, "
                       r"([0-9]+) data pages in the window \([0-9]+ and "
                       r"[0-9]+ lines of 64 bytes\)\Z")


def _since(reply):
    """(t, what, entered, in window, [(pages, owner, [(pages, line)])])"""
    m = SINCE_HEAD.match(reply[0])
    assert m, reply
    owners = []
    for line in reply[1:]:
        o, b = OWNER.match(line), BROUGHT.match(line)
        if o:
            owners.append((int(o.group(1)), o.group(3), []))
        else:
            assert b and owners, (line, reply)
            owners[-1][2].append((int(b.group(1)), b.group(2)))
    return (int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)),
            owners)


def _dump(reply):
    """(t, insn, data, {section: [lines]}) of a ws dump summary."""
    m = DUMP_HEAD.match(reply[0])
    assert m, reply
    assert reply[1].startswith("  (pages of 4096 bytes; 'ws dump full' "), \
        reply
    sections, name = {}, None
    for line in reply[2:]:
        if not line.startswith(" "):
            name = line
            sections[name] = []
        else:
            sections[name].append(line)
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), sections


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    wslib.require_built(SINCE, STRIPPED)
    d = tmp_path_factory.mktemp("since")
    out = {}
    for prog in (SINCE, STRIPPED):
        run = wslib.run_ws([prog], OPTIONS,
                           out_path=str(d / (os.path.basename(prog)
                                             + ".out")))
        assert run.returncode == 0, run.stderr[-3000:]
        out[prog] = run
    return out


def test_dump_fits_a_screen(runs):
    """`ws dump`: at most 40 lines; the data pages by owner add up to the
    window's, the largest being block a's A_PAGES pages named by their
    allocation site on one line (alloc_a, since.c:<malloc a>); the most
    accessed pages, most first, at most 5 data and 3 instruction pages;
    the owners' section of the instruction pages at most 5 lines."""
    reply = _replies(runs[SINCE].stderr)[0]
    assert len(reply) <= 40, reply
    t, insn, data, sections = _dump(reply)
    owners = [OWNER.match(l) for l in sections["Data pages by owner:"]]
    assert all(owners), reply
    assert sum(int(o.group(1)) for o in owners) == data
    assert (int(owners[0].group(1)), owners[0].group(3)) == (
        A_PAGES, "heap blocks from alloc_a (since.c:%d)"
        % _line("since: malloc a"))
    code = [OWNER.match(l) for l in sections["Instruction pages by owner:"]]
    assert all(code) and len(code) <= 5, reply
    assert sum(int(o.group(1)) for o in code) == insn
    for kind, most in (("data", 5), ("instruction", 3)):
        hot = sections["Most accessed %s pages in the window (accesses so "
                       "far):" % kind]
        counts = [int(l.split()[1]) for l in hot]
        assert 0 < len(hot) <= most and counts == sorted(counts,
                                                         reverse=True), hot
    # a page of block a among the hottest names its block on one line
    block = [l for l in sections["Most accessed data pages in the window "
                                 "(accesses so far):"] if "heap" in l]
    assert all(re.search(r"  heap block 0x[0-9a-f]+ \(%d bytes\) from "
                         r"alloc_a \(since\.c:%d\)\Z"
                         % (A_PAGES * 4096, _line("since: malloc a")), l)
               for l in block), block


def test_since_lists_what_entered_by_owner_and_line(runs):
    """`ws since` after the dump: exactly block b's B_PAGES pages and
    g_table's G_PAGES entered the window (block a's, written again, were
    in it already), each owner with the lines that brought its pages in;
    the second `ws since`, with nothing touched, finds none."""
    replies = _replies(runs[SINCE].stderr)
    assert len(replies) == 3, replies
    t_dump = _dump(replies[0])[0]
    t, what, entered, window, owners = _since(replies[1])
    assert (t, what, entered) == (t_dump, "ws dump", B_PAGES + G_PAGES)
    touch_b = "touch_b (since.c:%d)" % _line("since: touch b")
    touch_g = "touch_g (since.c:%d)" % _line("since: touch g")
    (b_pages, b_owner, b_lines), (g_pages, g_owner, g_lines) = owners
    assert (b_pages, b_owner) == (B_PAGES, "heap blocks from alloc_b "
                                  "(since.c:%d)" % _line("since: malloc b"))
    assert (g_pages, g_owner, g_lines) == (G_PAGES, "global g_table",
                                           [(G_PAGES, touch_g)])
    # glibc writes the header of an mmapped chunk, 16 bytes before the
    # block, on the block's first page: malloc brings that page in
    assert b_lines[0] == (B_PAGES - 1, touch_b), b_lines
    assert len(b_lines) == 2 and b_lines[1][0] == 1 \
        and "malloc" in b_lines[1][1], b_lines
    t2, what2, entered2, window2, owners2 = _since(replies[2])
    assert (t2 > t, what2, entered2, window2, owners2) == (
        True, "ws since", 0, window, [])


def _text(path, tmp_path):
    """The bytes of the program's .text."""
    out = str(tmp_path / (os.path.basename(path) + ".text"))
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.text", path,
                    out], check=True)
    with open(out, "rb") as f:
        return f.read()


def test_code_without_symbols_is_named_by_its_address_in_the_object(
        runs, tmp_path):
    """In since_stripped, which has no symbol, the owners and lines are
    the object's name and the address inside it (the address less the
    object's load bias): each such address is the one addr2line names the
    marked line with in since, the same code with symbols (the test checks
    that their .text is the same), and no two pieces of code share a
    name."""
    assert _text(SINCE, tmp_path) == _text(STRIPPED, tmp_path)
    replies = _replies(runs[STRIPPED].stderr)
    owner_a = OWNER.match(_dump(replies[0])[3]["Data pages by owner:"][0])
    _, _, _, _, owners = _since(replies[1])
    named = re.compile(r"(?:heap blocks from )?since_stripped\+0x([0-9a-f]+)"
                       r"\Z")
    where = {
        "since: malloc a": owner_a.group(3),
        "since: malloc b": owners[0][1],
        "since: touch b": owners[0][2][0][1],
        # g_table has no symbol either: anonymous memory (the .bss past
        # the file), brought in by touch_g
        "since: touch g": owners[1][2][0][1]}
    assert owners[1][1] == "anonymous memory", owners
    offsets = {}
    for marker, text in where.items():
        m = named.match(text)
        assert m, (marker, text)
        offsets[marker] = m.group(1)
    assert len(set(offsets.values())) == len(offsets), offsets
    p = subprocess.run(["addr2line", "-e", SINCE] + ["0x" + o for o in
                                                    offsets.values()],
                       stdout=subprocess.PIPE, check=True,
                       universal_newlines=True)
    lines = [l.split(" ")[0].rsplit(":", 1) for l in p.stdout.split("\n")
             if l]
    assert [(os.path.basename(f), int(n)) for f, n in lines] == \
        [("since.c", _line(marker)) for marker in offsets], (lines, offsets)
