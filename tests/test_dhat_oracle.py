"""tests/dhat_oracle.py, the DHAT cross-check of ws's heap figures: the
reader on hand-made input, then DHAT on the programs of tests/progs/heap_*
whose answers their sources give (each source says what DHAT must find,
and why), then ws's allocation sites matched to DHAT's by their stacks,
with the chunks, bytes and peaks both count."""

import json

import pytest

import dhat_oracle as dh
import wslib


def prog(name):
    return wslib.prog(name)


@pytest.fixture(scope="module")
def dhat(tmp_path_factory):
    """dhat(name): the DHAT profile of tests/progs/<name>, run once."""
    done = {}

    def profile(name):
        if name not in done:
            d = tmp_path_factory.mktemp(name)
            done[name] = dh.run(wslib.VG_IN_PLACE, [prog(name)],
                                str(d / "dhat.out"))
        return done[name]
    return profile


# ----------------------------------------------------------------------
# The reader

def test_histogram_run_lengths():
    assert dh.decode_histogram([5, -3, 4, 2]) == [5, 4, 4, 4, 2]
    assert dh.decode_histogram([-16, 100, -48, 0]) == [100] * 16 + [0] * 48
    assert dh.decode_histogram([]) == []
    for bad in ([-3], [-3, -4], [1, "2"], [-2, 1.5]):
        with pytest.raises(dh.DhatError):
            dh.decode_histogram(bad)


# DHAT's frames begin with the code's address, which moves with where the
# object loads; the reader takes the text after it, whatever it is: each
# frame is read after addresses of 1, 23 and 37 bits.
ADDRESSES = [1 << bits for bits in (0, 22, 36)]


def at(address, rest):
    """A frame as DHAT writes it: the address in hex, then the rest."""
    return "%#x: %s" % (address, rest)


@pytest.mark.parametrize("address", ADDRESSES)
@pytest.mark.parametrize("text,function,location", [
    ("site_a (heap_offsets.c:61)", "site_a", "heap_offsets.c:61"),
    ("_IO_file_doallocate (filedoalloc.c:101)",
     "_IO_file_doallocate", "filedoalloc.c:101"),
    ("memalign (in /usr/libexec/valgrind/"
     "vgpreload_dhat-amd64-linux.so)", "memalign",
     "(vgpreload_dhat-amd64-linux.so)"),
    ("??? (in /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)",
     "???", "(libstdc++.so.6.0.30)"),
    ("void std::vector<long, std::allocator<long> >::"
     "_M_realloc_insert<long const&>(__gnu_cxx::__normal_iterator<long*, "
     "std::vector<long, std::allocator<long> > >, long const&) "
     "(vector.tcc:453)",
     "void std::vector<long, std::allocator<long> >::_M_realloc_insert"
     "<long const&>(__gnu_cxx::__normal_iterator<long*, std::vector<long, "
     "std::allocator<long> > >, long const&)", "vector.tcc:453"),
    ("frob(int)", "frob(int)", "???"),
    ("???", "???", "???"),
    ("f (../sysdeps/x86_64/start.S:120)", "f", "start.S:120"),
])
def test_frames_as_ws_writes_them(text, function, location, address):
    f = dh.Frame(at(address, text))
    assert (f.function, f.location) == (function, location)


def test_replacement_frames_are_left_out():
    data = minimal([{"fs": [1, 2, 3]}])
    data["ftbl"] = ["[root]"] + [
        at(a, rest) for a, rest in zip(ADDRESSES, [
            "malloc (in /x/vgpreload_dhat-amd64-linux.so)",
            "site_b (heap_offsets.c:66)", "main (heap_offsets.c:109)"])]
    s = dh.Profile(data).sites[0]
    assert s.key() == (("site_b", "heap_offsets.c:66"),
                       ("main", "heap_offsets.c:109"))
    assert len(s.all_frames) == 3
    assert dh.Frame(at(1, "malloc (vg_replace_malloc.c:393)")).is_replacement()


def minimal(pps):
    """A DHAT file with the program points given (counts filled in)."""
    full = []
    for pp in pps:
        p = {k: 0 for k in ("tb", "tbk", "tl", "mb", "mbk", "gb", "gbk",
                            "eb", "ebk", "rb", "wb")}
        p.update({"fs": [1]})
        p.update(pp)
        full.append(p)
    return {"dhatFileVersion": 2, "mode": "heap", "verb": "Allocated",
            "bklt": True, "bkacc": True, "tu": "instrs", "Mtu": "Minstr",
            "tuth": 500, "cmd": "prog", "pid": 1, "te": 100, "tg": 50,
            "pps": full, "ftbl": ["[root]", "0x1: main (p.c:3)"]}


@pytest.mark.parametrize("change,why", [
    (lambda d: d.update(dhatFileVersion=1), "version 2"),
    (lambda d: d.update(mode="copy"), "heap profile"),
    (lambda d: d.pop("te"), "lacks 'te'"),
    (lambda d: d["pps"][0].update(fs=[2]), "index the frame table"),
    (lambda d: d["pps"][0].update(fs=[0]), "index the frame table"),
    (lambda d: d["pps"][0].pop("rb"), "a count rb"),
    (lambda d: d["pps"][0].update(acc=[-3, 1]), "one count per byte"),
    (lambda d: d.update(ftbl=["0x1: main (p.c:3)"]), "begins with [root]"),
])
def test_bad_files_refused(change, why):
    data = minimal([{"tb": 8, "tbk": 2, "acc": [-4, 1]}])
    assert dh.Profile(data).sites[0].histogram == [1, 1, 1, 1]
    change(data)
    with pytest.raises(dh.DhatError) as e:
        dh.parse(json.dumps(data))
    assert why in str(e.value)
    with pytest.raises(dh.DhatError):
        dh.parse("{not json")


def test_touched_bounds():
    """Two blocks of 4 bytes: offset 0 accessed twice, 1 and 3 once (4
    bytes read in all): 3 offsets accessed, in at most 2 + 1 + 1 blocks'
    bytes; counts that do not add up to the bytes read and written may
    have stopped or wrapped, and give no bounds."""
    data = minimal([{"tb": 8, "tbk": 2, "rb": 4, "acc": [2, 1, 0, 1]}])
    s = dh.Profile(data).sites[0]
    assert s.counts_exact() and s.touched_bounds() == (3, 4)
    data["pps"][0]["rb"] = 5
    with pytest.raises(dh.DhatError):
        dh.Profile(data).sites[0].touched_bounds()


def test_rounded_out_to_lines():
    # a 256-byte chunk at a line's start touched at 0..15, 64..71, 200:
    # its lines 0, 1 and 3
    assert dh.rounded_out({0, 15, 64, 71, 200}, 256) == 192
    # the same 24 bytes at 16 bytes into a line: one line, 24 bytes; at 48
    # bytes, two lines
    assert dh.rounded_out(range(24), 24, start=16) == 24
    assert dh.rounded_out({0}, 24, start=48) == 16
    assert dh.rounded_out({20}, 24, start=48) == 8
    assert dh.rounded_out(set(), 24) == 0


def test_matching_by_stack():
    data = minimal([{"tbk": 1, "fs": [1, 3]}, {"tbk": 2, "fs": [2, 3]},
                    {"tbk": 3, "fs": [2, 3]}])
    data["ftbl"] = ["[root]", "0x10: f (p.c:5)", "0x20: g (p.c:9)",
                    "0x30: main (p.c:20)"]
    prof = dh.Profile(data)
    assert prof.matching([("f", "p.c:5"), ("main", "p.c:20")]).blocks == 1
    assert prof.find("f").blocks == 1
    # two calls on one line: two sites, one key
    with pytest.raises(dh.DhatError):
        prof.matching([("g", "p.c:9"), ("main", "p.c:20")])
    with pytest.raises(dh.DhatError):
        prof.matching([("h", "p.c:1")])


# ----------------------------------------------------------------------
# DHAT on the programs (their sources give the answers)

def counts(site):
    return (site.blocks, site.bytes, site.max_bytes, site.reads,
            site.writes)


def test_offsets_program(dhat):
    prof = dhat("heap_offsets")
    a = prof.find("site_a")
    assert counts(a) == (100, 25600, 25600, 1600, 1700)
    want = [0] * 256
    want[0:16] = [100] * 16
    want[64:72] = [200] * 8
    want[200] = 100
    assert a.histogram == want
    assert a.counts_exact()
    assert len(a.accessed()) == 25 and a.interval() == 201
    # offsets 64..71 were read twice in each block: at most 100 blocks
    assert a.touched_bounds() == (25, 2500)
    # aligned to 64 bytes: lines 0, 1 and 3 of each chunk
    assert a.lines() == {0, 1, 3} and a.line_bytes() == 192
    b = prof.find("site_b")
    assert counts(b) == (50, 1200, 1200, 400, 1200)
    assert b.histogram == [100] * 8 + [50] * 16
    assert b.touched_bounds() == (24, 1200)
    assert b.line_bytes(start=48) == 24 and b.lines(start=48) == {0, 1}
    c = prof.find("site_c")
    assert counts(c) == (20, 20480, 20480, 0, 0)
    assert c.histogram == [0] * 1024 and c.accessed() == frozenset()
    d = prof.find("site_d")
    assert counts(d) == (10, 10250, 10250, 0, 20) and d.histogram is None
    e = prof.find("site_e")
    assert counts(e) == (4, 96, 96, 0, 32) and e.histogram is None
    f = prof.find("site_f")
    assert counts(f) == (5, 5, 5, 0, 0) and f.histogram == [0]


def test_oversized_program(dhat):
    """200,000 accesses to each of the first 16 offsets: DHAT writes the
    sums modulo 65,536 (3,392), and says so by counts that do not add up
    to the bytes written."""
    s = dhat("heap_oversized").find("site_oversized")
    assert counts(s) == (200000, 51200000, 51200000, 0, 3200000)
    assert s.histogram == [200000 % 65536] * 16 + [0] * 240
    assert not s.counts_exact()
    assert s.accessed() == frozenset(range(16))
    with pytest.raises(dh.DhatError):
        s.touched_bounds()


def test_untouched_program(dhat):
    prof = dhat("heap_untouched")
    unused = prof.find("site_unused")
    assert counts(unused) == (1000, 32000, 32000, 0, 0)
    assert unused.histogram == [0] * 32
    used = prof.find("site_used")
    assert counts(used) == (1000, 32000, 32000, 32000, 32000)
    assert used.histogram == [2000] * 32 and used.counts_exact()


def test_oneway_program(dhat):
    prof = dhat("heap_oneway")
    written = prof.find("site_written")
    assert counts(written) == (1000, 256000, 256000, 0, 256000)
    assert written.histogram == [1000] * 256
    read = prof.find("site_read")
    assert counts(read) == (1000, 256000, 256000, 256000, 0)
    assert read.histogram == [1000] * 256
    both = prof.find("site_both")
    assert counts(both) == (1000, 256000, 256000, 256000, 256000)
    assert both.histogram == [2000] * 256


def test_churn_program(dhat):
    s = dhat("heap_churn").find("site_churn")
    assert counts(s) == (1000, 32000, 32, 32000, 32000)
    assert s.histogram == [2000] * 32


def test_regrow_program(dhat):
    """Each realloc a block of the new size at the first allocation's site;
    its copy counted as read and written; no histogram once resized; a
    site's max only when its allocation raised the heap's maximum."""
    prof = dhat("heap_regrow")
    long_ = prof.find("regrow", "site_long")
    assert counts(long_)[:3] == (7, 520192, 262144)
    # the program writes 256 KiB (memset: at least that many bytes), reads
    # 256 KiB; the copies move 4 + 8 + ... + 128 KiB
    assert long_.writes >= 262144 + 258048
    assert long_.reads >= 262144 + 258048
    assert long_.histogram is None
    assert counts(prof.find("regrow", "site_twice"))[:3] == (6, 57344, 0)
    assert counts(prof.find("regrow", "site_short"))[:3] == (4, 24576, 0)


def test_vector_program(dhat):
    prof = dhat("heap_vector")
    regrown, reserved = None, None
    for s in prof.sites:
        names = [f.function for f in s.frames]
        if any("_M_realloc_insert" in n for n in names):
            regrown = s
        if any("::reserve(" in n for n in names):
            reserved = s
    assert counts(reserved) == (1, 80000, 80000, 80000, 80000)
    assert counts(regrown)[:3] == (15, 262136, 196608)
    # memmove moves 131064 bytes in all, the program writes and reads
    # 80000: at least that (libc's vectors may count some bytes twice)
    assert regrown.reads >= 211064 and regrown.writes >= 211064
    assert regrown.histogram is None


# ----------------------------------------------------------------------
# ws's sites against DHAT's

@pytest.mark.parametrize("name,max_zero", [
    # DHAT's max of the sites allocating under these functions is 0: they
    # never raised the heap's maximum (stdio's buffer comes after the
    # frees; heap_regrow.c says why for its two); ws's peak-live is the
    # site's own
    ("heap_offsets", {"puts"}),
    ("heap_regrow", {"site_twice", "site_short", "printf"}),
    ("heap_vector", {"printf"}),
])
def test_ws_sites_match_dhat_sites(dhat, tmp_path, name, max_zero):
    """Every ws allocation site is one DHAT site by its stack; the chunks,
    and the bytes (DHAT counts a block of 0 bytes as 1), are DHAT's; the
    peak-live bytes are DHAT's max where the heap only grew until the
    site's peak."""
    prof = dhat(name)
    out = wslib.run_ws([prog(name)], [],
                       out_path=str(tmp_path / "ws.out")).output
    matched = set()
    for h in out.heap_sites:
        frames = out.stacks[h.stack]
        s = prof.matching(dh.ws_key(frames))
        matched.add(id(s))
        empty = h["chunks"] if h["bytes"] == 0 else 0
        assert (h["chunks"], h["bytes"] + empty) == (s.blocks, s.bytes), h
        if {f.function.split("(")[0] for f in frames} & max_zero:
            assert s.max_bytes == 0, (h, s)
        else:
            assert h["peak-live"] + empty == s.max_bytes, (h, s)
    assert len(matched) == len(prof.sites) == len(out.heap_sites)


def test_stacks_cut_at_the_same_depth(tmp_path):
    """ws's --num-callers=3 keeps three frames below the allocation
    function; DHAT, given one more for its malloc replacement, keeps the
    same three (heap_vector's stacks are six or more deep)."""
    out = wslib.run_ws([prog("heap_vector")], ["--num-callers=3"],
                       out_path=str(tmp_path / "ws.out")).output
    prof = dh.run(wslib.VG_IN_PLACE, [prog("heap_vector")],
                  str(tmp_path / "dhat.out"), frames=3)
    for h in out.heap_sites:
        frames = [f for f in out.stacks[h.stack] if not f.inline]
        assert len(frames) == 3, frames
        assert prof.matching(dh.ws_key(out.stacks[h.stack])).blocks == \
            h["chunks"]
