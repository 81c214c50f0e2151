"""Owners `file`, `freed`, `heap-other` and `unknown` named in a real
run (docs/manual.md, section 5; test_owners.py has heap, global, stack
and anon at a peak).

owner_kinds (see its comment) reads 3 pages of a file it maps, writes 3
pages of a heap block and frees it, writes 3 pages of malloc's top
chunk, writes 3 anonymous pages and unmaps them, then dumps
the working set: each of those pages is in the dump, with its owner.
"""

import re

import ctl_util
import wslib

OWNER_KINDS = wslib.prog("owner_kinds")
PAGES, PAGE = 3, 4096


def test_file_heap_other_and_unknown_owners(ws, tmp_path):
    data = tmp_path / "mapped"
    data.write_bytes(bytes(range(256)) * (PAGES * PAGE // 256 + 16))
    run = ws([OWNER_KINDS, str(data)], "--ws-every=1000000")
    where = {k: int(v, 16) for k, v in
             (line.split(" ") for line in run.stdout.splitlines())}
    assert set(where) == {"file", "freed", "raw", "unmapped"}, run.stdout
    out = run.output
    wslib.check_written_events(out)
    (dump,) = out.dumps
    owners = {p.addr: p.owner for p in dump.pages if p.kind == "data"}

    def owners_from(addr):
        first = addr & ~(PAGE - 1)
        pages = [first + i * PAGE for i in range(PAGES)]
        missing = [hex(p) for p in pages if p not in owners]
        assert not missing, "not in the dump: %s" % missing
        return [owners[p] for p in pages]

    # the file: mapped where the program says, named by its path
    assert [(o.kind, o.name) for o in owners_from(where["file"])] == \
        [("file", str(data))] * PAGES
    # the freed block's pages: in no live block (the small block after
    # it starts on the page after them), named by the freed block's
    # allocating stack (main's malloc) while they are in the window
    freed = owners_from(where["freed"])
    assert [o.kind for o in freed] == ["freed"] * PAGES
    assert len({o.stack for o in freed}) == 1
    assert "main" in [w.function for w in out.stacks[freed[0].stack]]
    # malloc's top chunk: heap, no block ever
    assert [o.kind for o in owners_from(where["raw"])] == \
        ["heap-other"] * PAGES
    # unmapped since they were written, still in the window
    assert [o.kind for o in owners_from(where["unmapped"])] == \
        ["unknown"] * PAGES


def test_monitor_words(ws, tmp_path):
    """The same owners as `ws dump` tells a person (issue 19 item 12:
    one vocabulary with ws_print): "file PATH" (never "mapping of"),
    "heap outside live blocks", addresses unpadded as memcheck prints
    them (0x4a4b000, never 0x0000000004a4b000), and ws hot's headings
    "Hot instruction pages" and "Hot data pages"."""
    data = tmp_path / "mapped"
    data.write_bytes(bytes(range(256)) * (PAGES * PAGE // 256 + 16))
    run = ws([OWNER_KINDS, str(data)], "--ws-every=1000000")
    where = {k: int(v, 16) for k, v in
             (line.split(" ") for line in run.stdout.splitlines())}
    err = run.stderr
    dump = err[err.index("ws dump at t="):err.index("Hot instruction pages")]
    md = ctl_util.parse_monitor_dump(dump)
    owners = {p.addr: p.owner for p in md.pages if p.kind == "data"}
    for name, words in (("file", "file %s" % data),
                        ("raw", "heap outside live blocks (allocator data, "
                                "free memory)"),
                        ("unmapped", "unknown")):
        first = where[name] & ~(PAGE - 1)
        assert [owners.get(first + i * PAGE) for i in range(PAGES)] == \
            [words] * PAGES, (name, dump)
    file_page = where["file"] & ~(PAGE - 1)
    assert re.search(r"^  data 0x%x  last access" % file_page, dump, re.M), \
        dump
    # a freed block as ws_print names it: address, then size in brackets
    assert re.search(r"^    owner: freed block 0x[1-9a-f][0-9a-f]* \([0-9]+ "
                     r"bytes\), allocated at\n", dump, re.M), dump
    assert not re.search(r"\b0x0[0-9a-f]", dump), dump
    assert "mapping of" not in err
    assert re.search(r"^Hot instruction pages: the 2 hottest of [0-9]+ "
                     r"touched .*\n(.*\n)*Hot data pages: the 2 hottest",
                     err, re.M), err[-3000:]
