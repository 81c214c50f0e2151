"""Owners `file`, `freed`, `heap-other` and `unknown` named in a real
run (docs/manual.md, section 5; test_owners.py has heap, global, stack
and anon at a peak).

owner_kinds (see its comment) reads 3 pages of a file it maps, writes 3
pages of a heap block and frees it, writes 3 pages of malloc's top
chunk, writes 3 anonymous pages and unmaps them, then dumps
the working set: each of those pages is in the dump, with its owner.
"""

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
