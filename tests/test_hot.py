"""Hot pages and per-page access counts: --ws-hot, --ws-list-pages, ws hot.

The access counts of pages that only the assembly loops of tests/progs/
touch are known exactly from the program's parameters (wsprog.h): a loop
of `count` elements a page apart does `sweeps` sweeps, so each element's
page gets `sweeps` accesses per access instruction (two for a
read-modify-write), and the loop's code page, which holds nothing else,
runs 3 + sweeps * (count * per_element + 4) instructions per call.  The
whole run's counts are checked against lackey in tests/test_oracle.py.
"""

import re

import pytest

import wslib

PAGE = 4096


P = wslib.prog


def sweeps_for(insns, count, per_el):
    """ws_sweeps_for() of wsprog.h: the sweeps the program makes."""
    return max(1, insns // (count * per_el + 4))


# 4 pages stored to 300,000 times each: far more than any page of the
# dynamic linker or libc gets (tens of thousands), so they are the 4
# hottest data pages whatever start-up does.
COUNT, DELAY, INSNS = 4, 10, 31500000


# accesses per instruction, as Valgrind's IR (and lackey) see them: a
# read-modify-write is a load and a store; lock xadd is a load and then a
# compare-and-swap, which loads and stores again
@pytest.mark.parametrize("kind,weight", [("st", 1), ("ld", 1), ("rmw", 2),
                                         ("atom", 3)])
def test_hot_pages_have_exact_counts(tmp_path, kind, weight):
    pe = wslib.per_element(DELAY)
    sweeps = sweeps_for(INSNS, COUNT, pe)
    run = wslib.run_ws([P("touch"), str(COUNT),
                        "%s,0,%d,%d,%d,%d" % (kind, COUNT, PAGE, DELAY,
                                              INSNS)],
                       ["--ws-hot=%d" % COUNT], tmpdir=tmp_path)
    out = run.output
    data, insn = out.hot["data"], out.hot["insn"]
    assert len(data) == COUNT and len(insn) == COUNT, (data, insn)
    assert [h.accesses for h in data] == [weight * sweeps] * COUNT
    # equal counts rank by address: the mapping's pages in order
    base = data[0].addr
    assert [h.addr for h in data] == [base + i * PAGE for i in range(COUNT)]
    assert base % (2 << 20) == 0, "touch aligns its mapping to 2 MiB"
    # the loop's code page: every instruction of the one call
    loop = insn[0]
    assert loop.accesses == 3 + sweeps * (COUNT * pe + 4)
    assert loop.where.function == "touch_" + kind
    # each data page was first touched by the loop's access instruction
    assert all(h.where.ip // PAGE == loop.addr // PAGE for h in data)
    assert all(h.where.function == "touch_" + kind for h in data)
    assert [h.rank for h in data] == list(range(1, COUNT + 1))
    # the owner of each page: an anonymous mapping (not heap, not a file)
    assert all(h.owner.kind == "anon" for h in data), [h.owner for h in data]


def test_list_pages_sums_to_the_clock(tmp_path):
    """Every instruction executed is one access to one code page, so the
    code pages' counts sum to ws's clock at exit (measurement on all the
    time); with --ws-hot=0 the trailer has no hot lines."""
    run = wslib.run_ws([P("touch"), "20", "st,0,20,4096,10,1000000"],
                       ["--ws-list-pages=yes", "--ws-hot=0"],
                       tmpdir=tmp_path)
    out = run.output
    assert out.hot == {"insn": [], "data": []}
    exit_t = [e.t for e in out.events
              if e.kind == "thread-exit" and e.args == ["1"]]
    assert sum(n for n, _ in out.pages["insn"].values()) == exit_t[0]
    # as many pages listed as the summary counts distinct pages (no page
    # of this program is unmapped and mapped again)
    assert len(out.pages["insn"]) == out.summary["insn"][2]
    assert len(out.pages["data"]) == out.summary["data"][2]
    # the mapping's 20 pages: exactly one store per sweep each
    pe = wslib.per_element(10)
    sweeps = sweeps_for(1000000, 20, pe)
    counts = sorted(out.pages["data"].items())
    mapped = [(a, n) for a, (n, _) in counts if n == sweeps]
    assert len(mapped) == 20, counts
    assert [a for a, _ in mapped] == [mapped[0][0] + i * PAGE
                                      for i in range(20)]


@pytest.mark.parametrize("unit", [PAGE, 64])
def test_group_counts_follow_each_access(tmp_path, unit):
    """touch's grp kind: two 8-byte loads off one base with a store 5000
    bytes on between them, at an offset 8 bytes before a boundary.  ws
    checks the loads as one 16-byte group and the store on its own, and
    counts the second load on the group after the store's check was
    emitted; the group crosses the boundary, so its accesses are shared
    out by their last bytes.  Each of the three units gets exactly one
    access per sweep: the first load's, the second load's, the store's."""
    delay, insns = 10, 1000000
    sweeps = sweeps_for(insns, 1, wslib.per_element(delay, a=3))
    offset = unit - 8
    run = wslib.run_ws([P("touch"), "3", "grp,%d,1,4096,%d,%d"
                        % (offset, delay, insns)],
                       ["--ws-list-pages=yes", "--ws-pagesize=%d" % unit,
                        "--ws-hot=0"], tmpdir=tmp_path)
    counts = {a: n for a, (n, _) in run.output.pages["data"].items()}
    store = (offset + 5000) // unit * unit
    # the mapping starts on a 2 MiB boundary and only the loop touches it
    bases = [a for a in counts if a % (2 << 20) == 0 and a + store in counts]
    assert len(bases) == 1, sorted(counts.items())
    base = bases[0]
    mapping = {a - base: n for a, n in counts.items()
               if base <= a < base + 3 * PAGE}
    assert mapping == {0: sweeps, unit: sweeps, store: sweeps}


def test_locations_no(tmp_path):
    run = wslib.run_ws([P("touch"), "4", "st,0,4,4096,10,100000"],
                       ["--ws-hot=3", "--ws-locations=no"], tmpdir=tmp_path)
    for kind in ("insn", "data"):
        hot = run.output.hot[kind]
        assert len(hot) == 3
        assert all((h.where.location, h.where.function) == ("???", "???")
                   for h in hot)


# ----------------------------------------------------------------------
# ws hot, against ctl_server blocked on its pipe

_HOT_HEAD = re.compile(r"Hot (instruction|data) pages: the ([0-9]+) "
                       r"hottest of ([0-9]+) touched \(accesses so far; "
                       r"pages of ([0-9]+) bytes\)\Z")
_HOT_ROW = re.compile(r" *([0-9]+) +([0-9]+)  0x([0-9a-f]+)  first at (.*)\Z")


def parse_hot(text):
    """The reply to ws hot: {'instruction'|'data': [(rank, accesses, addr,
    first, owner)]}; owner is the text after 'owner: ' (data pages)."""
    res = {}
    rows = None
    for line in text.strip("\n").split("\n"):
        m = _HOT_HEAD.match(line)
        if m:
            rows = res[m.group(1)] = []
            assert int(m.group(4)) == PAGE
            continue
        m = _HOT_ROW.match(line)
        if m:
            rows.append([int(m.group(1)), int(m.group(2)),
                         int(m.group(3), 16), m.group(4), None])
            continue
        m = re.match(r" +owner: (.*)\Z", line)
        if m and rows and rows[-1][4] is None:
            rows[-1][4] = m.group(1)
            continue
        # a stack under an owner, indented further
        assert line.startswith("   ") and rows, "ws hot line %r" % line
    return res


def test_ws_hot(server):
    # 10 pages stored to 200,000 times each (ctl_server's loop: delay 10)
    sweeps = 200000
    server.touch(0, 10, sweeps)
    hot = parse_hot(server.vgdb("ws hot 10 data"))
    assert list(hot) == ["data"]
    rows = hot["data"]
    assert [r[0] for r in rows] == list(range(1, 11))
    assert [r[1] for r in rows] == [sweeps] * 10
    assert [r[2] for r in rows] == [server.base + i * PAGE
                                    for i in range(10)]
    assert all("ctl_server_touch" in r[3] for r in rows), rows
    assert all(r[4] is not None for r in rows), rows

    both = parse_hot(server.vgdb("ws hot 1"))
    assert list(both) == ["instruction", "data"]
    code = both["instruction"][0]
    assert "ctl_server_touch" in code[3]
    # the loop's page ran this call and the one of setting up: at least
    # this call's instructions (wsprog.h)
    assert code[1] >= 3 + sweeps * (10 * wslib.per_element(10) + 4)
    assert both["data"][0][:3] == rows[0][:3]

    # a count larger than the pages there are lists them all
    many = parse_hot(server.vgdb("hot 100000 insn"))["instruction"]
    assert 1 < len(many) < 100000


@pytest.mark.parametrize("command,reason", [
    ("ws hot 0", "ws hot: '0' is not a number of pages from 1 to 100000"),
    ("ws hot 100001", "ws hot: '100001' is not a number of pages from 1 "
                      "to 100000"),
    ("ws hot x", "ws hot: 'x' is neither a number of pages nor insn or "
                 "data"),
    ("ws hot 5 code", "ws hot: 'code' is neither a number of pages nor "
                      "insn or data"),
    ("ws hot 5 data more", "ws hot: unexpected argument 'more'; nothing "
                           "changed"),
])
def test_ws_hot_bad_arguments(server, command, reason):
    assert server.vgdb(command) == reason + "\n"


def test_stack_page_owner_after_exit(tmp_path):
    """The hot pages are written at exit, when the main thread has ended:
    its stack must still be named (the stack pointer's page at start-up
    is among the hottest pages of any program)."""
    run = wslib.run_ws([P("touch"), "4", "st,0,4,4096,10,100000"],
                       ["--ws-hot=20"], tmpdir=tmp_path)
    owners = [(h.addr, h.owner.kind, h.owner.tid)
              for h in run.output.hot["data"]]
    assert any(kind == "stack" and tid == 1 for _, kind, tid in owners), \
        owners
    assert not any(kind == "anon" and addr >= 0x1ff0000000
                   for addr, kind, _ in owners), owners
