"""ws against an independent oracle: working sets recomputed exactly from
lackey's trace of every instruction and data access (tests/oracle.py).

First the oracle itself is checked, on hand-written traces and on a lackey
trace of one of our programs whose answer is known.  Then ws and lackey run
the same command through the same vg-in-place, with the same current
directory, standard input and standard output (/dev/null: glibc's stdio
runs different code for a pipe), so that the client sees the same
environment and executes the same instructions (checked: ws's clock at
exit equals lackey's instruction count) and, for every sample ws
took, ws's |WSi| and |WSd| must lie within the oracle's bounds for that
sample.

Tolerance.  ws takes the k-th sample at the first superblock boundary
t >= k*T and starts its window at the first superblock boundary s >= k*T -
tau, so its window is (s, t] with k*T - tau <= s < k*T - tau + 60 (a
superblock holds at most 60 instructions, VEX's default
--vex-guest-max-insns: oracle.SB_MAX).  Working sets grow as the window
starts earlier, so ws's count must lie in [lo, hi] where lo counts the pages
last touched in (k*T - tau + 60, t] and hi those in (k*T - tau, t]; the
oracle computes both at ws's own t.  hi - lo is the number of pages whose
last touch falls in those 60 instructions: 0 to 2 in the runs below (run
with -s to see the widest gap and the largest difference from the exact
window).  The bounds are exact: no page more is allowed, and nothing is widened to let a
mismatch pass.  Memory accessed by system calls is invisible to lackey, so
ws runs with --ws-syscalls=no.

Totals must be equal: the oracle counts a page again when it is touched
after munmap or a brk shrink gave it back, as ws must.

The final sample at exit is checked exactly: its window (t - w, t] is at
most tau long, begins where one of ws's epochs began, and the file states
its length w (`event t final w`); the oracle counts that window, and ws's
counts must be equal to it.
"""

import os
import random
import re
import shutil
import subprocess

import pytest

import oracle
import wslib

# ----------------------------------------------------------------------
# The oracle on hand-written traces


def _compute(trace, times, tau, pagesize=4096, every=None):
    return oracle.compute(trace.splitlines(True), times, tau, pagesize,
                          every or tau)


def test_oracle_counts_windows_exactly():
    # instruction n touches code page n (so its page is n << 12)
    trace = "".join("I  %08x,4\n S %08x,8\n" % (n << 12, 0x100000 + (n << 12))
                    for n in range(1, 11))
    res = _compute(trace, [4, 10], tau=3, every=3)
    # window (t - 3, t]: instructions t-2, t-1, t
    assert [(s.insn, s.data) for s in res.samples] == [(3, 3), (3, 3)]
    assert res.instructions == 10
    assert (res.insn_total, res.data_total) == (10, 10)
    # bounds: sample at t=4 is the 1st (k=1, T=3): hi window (0, 4],
    # lo window (50, 4] (empty)
    s = res.samples[0]
    assert (s.k, s.insn_hi, s.insn_lo, s.data_hi, s.data_lo) == (1, 4, 0, 4, 0)


def test_oracle_state_at_t_includes_data_of_instruction_t():
    trace = "I  00001000,4\n L 00050000,4\nI  00001004,4\n S 00060000,4\n"
    res = _compute(trace, [1, 2], tau=1)
    assert [(s.insn, s.data) for s in res.samples] == [(1, 1), (1, 1)]
    res = _compute(trace, [2], tau=2)
    assert (res.samples[0].insn, res.samples[0].data) == (1, 2)


def test_oracle_splits_straddling_accesses():
    trace = ("I  00000ffe,5\n"            # code pages 0 and 1
             " M 00010ffc,8\n"            # data pages 0x10 and 0x11
             " S 00020000,160\n"          # 1 page; 3 lines of 64 bytes
             "==1== a Valgrind message\n"
             "I  00001003,2\n")
    res = _compute(trace, [2], tau=2)
    assert (res.samples[0].insn, res.samples[0].data) == (2, 3)
    res = _compute(trace, [2], tau=2, pagesize=64)
    # code: 0xffe..0x1002 -> lines 0x3f and 0x40; 0x1003..0x1004 -> 0x40
    # data: 0x10ffc..0x11003 -> 2 lines; 0x20000..0x2009f -> 3 lines
    assert (res.samples[0].insn, res.samples[0].data) == (2, 5)
    # both granularities in one pass
    res = oracle.compute(trace.splitlines(True), [2], 2, 4096, 2,
                         linesize=64)
    s = res.samples[0]
    assert (s.insn, s.data, s.lines.insn, s.lines.data) == (2, 3, 2, 5)
    assert (res.insn_total, res.data_total, res.line_totals) == (2, 3, (2, 5))


def test_oracle_totals_count_a_page_again_after_unmap():
    trace = ("I  00001000,4\n S 00050000,8\n S 00060000,8\n"
             "SYSCALL[7,1](12) sys_brk ( 0x0 ) --> [pre-success] "
             "Success(0x00062000)\n"
             "I  00001004,4\n"
             "SYSCALL[7,1](11) sys_munmap ( 0x00050000, 8192 )[sync] --> "
             "Success(0x0)\n"
             "SYSCALL[7,1](12) sys_brk ( 0x61000 ) --> [pre-success] "
             "Success(0x00061000)\n"
             "I  00001008,4\n S 00050008,8\n S 00060008,8\n"
             "SYSCALL[7,1](12) sys_brk ( 0x60000 ) --> [pre-success] "
             "Success(0x00060000)\n"
             "I  0000100c,4\n S 00060010,8\n")
    res = _compute(trace, [4], tau=4)
    # 0x50 unmapped and touched again: 2 lives; 0x60 only loses its life
    # at the last brk (0x60000..0x61000 given back), then is touched again
    assert (res.insn_total, res.data_total) == (1, 4)
    # ...but in one window a page counts once
    assert (res.samples[0].insn, res.samples[0].data) == (1, 2)


def test_oracle_unmaps_by_the_kernels_rule():
    """munmap(addr, len) gives back len rounded up to the kernel's 4 KiB
    page (ld.so unmaps /etc/ld.so.cache with its file size); a failed
    munmap gives back nothing; a brk shrink gives back [new, old) with
    both ends rounded up.  In 64-byte pages every line of the kernel's
    pages dies; a 2 MiB page only partly given back lives on."""
    trace = ("I  00001000,4\n"
             " S 00050000,8\n S 00051ff8,8\n S 00052000,8\n"
             " S 00070000,8\n S 00061f00,8\n S 00062000,8\n S 00080000,8\n"
             "SYSCALL[7,1](12) sys_brk ( 0x0 ) --> [pre-success] "
             "Success(0x00062800)\n"
             "I  00001004,4\n"
             # 4097 bytes: the pages 0x50 and 0x51, not 0x52
             "SYSCALL[7,1](11) sys_munmap ( 0x00050000, 4097 )[sync] --> "
             "Success(0x0)\n"
             # not page-aligned: the kernel refuses it
             "SYSCALL[7,1](11) sys_munmap ( 0x00070008, 4096 )[sync] --> "
             "Failure(0x16)\n"
             # blocked: its result comes on a later line
             "SYSCALL[7,1](11) sys_munmap ( 0x00080000, 4096 ) --> "
             "[async] ... \n"
             "SYSCALL[7,1](11) ... [async] --> Success(0x0)\n"
             # 0x62800 -> 0x61100: pages 0x62 (up to 0x63000) and not 0x61
             "SYSCALL[7,1](12) sys_brk ( 0x61100 ) --> [pre-success] "
             "Success(0x00061100)\n"
             "I  00001008,4\n"
             " S 00050000,8\n S 00051ff8,8\n S 00052000,8\n"
             " S 00070000,8\n S 00061f00,8\n S 00062000,8\n S 00080000,8\n")
    res = _compute(trace, [3], tau=3)
    # data: 7 pages, then 0x50, 0x51, 0x62 and 0x80 again
    assert (res.insn_total, res.data_total) == (1, 11)
    res = _compute(trace, [3], tau=3, pagesize=64)
    assert (res.insn_total, res.data_total) == (1, 11)
    res = _compute(trace, [3], tau=3, pagesize=2 << 20)
    assert (res.insn_total, res.data_total) == (1, 1)


def test_oracle_counts_a_final_window_exactly():
    # code page n and data page 0x100 + n at instruction n
    trace = "".join("I  %08x,4\n S %08x,8\n" % (n << 12, 0x100000 + (n << 12))
                    for n in range(1, 11))
    # t=10 with T = tau = 4: a regular sample's bounds are those of
    # k = 2's window, a final one's the window it states, (10 - 1, 10]
    res = _compute(trace, [8, 10], tau=4, every=4)
    s = res.samples[1]
    assert (s.insn, s.insn_lo, s.insn_hi) == (4, 0, 6)
    res = oracle.compute(trace.splitlines(True), [8, 10], 4, 4096, 4,
                         finals={10: 2})
    s = res.samples[1]
    assert (s.insn, s.insn_lo, s.insn_hi, s.data, s.data_lo, s.data_hi) \
        == (2, 2, 2, 2, 2, 2)
    assert (res.samples[0].insn, res.samples[0].insn_hi) == (4, 4)


def test_oracle_counts_a_rep_instruction_once_or_each_time():
    # a rep stosb of 3 iterations at 0x2000 (lackey: 4 I lines, the last
    # one the final test of the count), between two other instructions;
    # the stores of all iterations belong to the one instruction
    trace = ("I  00001000,4\n"
             "I  00002000,2\n S 00050000,1\n"
             "I  00002000,2\n S 00060000,1\n"
             "I  00002000,2\n S 00070000,1\n"
             "I  00002000,2\n"
             "I  00003000,4\n")
    once = oracle.compute(trace.splitlines(True), [1, 2, 3], 1, 4096, 1,
                          accesses=True)
    assert once.instructions == 3
    assert [(s.insn, s.data) for s in once.samples] == [(1, 0), (1, 3),
                                                         (1, 0)]
    assert once.accesses["insn"] == {1: 1, 2: 1, 3: 1}
    each = oracle.compute(trace.splitlines(True), [2, 5], 2, 4096, 2,
                          count_rep="each")
    assert each.instructions == 6
    # (0, 2]: 0x1000 and the first iteration; (3, 5]: the third
    # iteration and the last test, on one code page
    assert [(s.insn, s.data) for s in each.samples] == [(2, 1), (1, 1)]
    with pytest.raises(ValueError):
        oracle.compute(trace.splitlines(True), [1], 1, 4096, 1,
                       count_rep="twice")


def test_oracle_refuses_what_it_does_not_understand():
    with pytest.raises(oracle.LackeyError):
        _compute("I  00001000,4\nX something\n", [1], tau=1)
    with pytest.raises(oracle.LackeyError):
        _compute("I  00001000,4\n", [2], tau=1)     # beyond the trace
    with pytest.raises(ValueError):
        _compute("I  00001000,4\n", [1, 1], tau=1)


# ----------------------------------------------------------------------
# The oracle on a real lackey trace of a program with a known answer

def test_oracle_on_known_program(tmp_path):
    """codepages straddle: 2 instruction pages, no data page, in every
    window inside its loop (600,000 instructions after ~130,000 of
    start-up)."""
    argv = [wslib.prog("codepages"), "straddle", "200000"]
    wslib.require_built(argv[0])
    T = 100000
    res = oracle.run(wslib.VG_IN_PLACE, argv, [k * T for k in range(1, 8)],
                     T, 4096, T, cwd=str(tmp_path))
    vals = [(s.insn, s.data) for s in res.samples]
    assert vals[2:] == [(2, 0)] * 5, vals
    assert 700000 < res.instructions < 800000, res.instructions


# ----------------------------------------------------------------------
# ws against the oracle

def _xz_input(tmp_path):
    rnd = random.Random(1)
    words = ["alpha", "beta", "gamma", "delta", "working", "set", "page",
             "valgrind", "sample", "window", "tau", "every"]
    text = " ".join(rnd.choice(words) + str(rnd.randrange(1000))
                    for _ in range(1400))
    path = tmp_path / "input.txt"
    path.write_text(text[:12000])
    return str(path)


SQL = """\
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<300)
INSERT INTO t SELECT i, printf('row%05d', (i*7919)%300), i*0.5 FROM n;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(c), max(b) FROM t WHERE b LIKE 'row001%';
"""


def _case(name, tmp_path):
    """(argv, stdin file or None, T, tau, environment or None) of each
    compared program; each runs 5,000,000 to 6,000,000 instructions (some
    50 samples), python3's start-up 21,000,000."""
    if name in ("xz", "xz-64"):
        xz = shutil.which("xz") or "/usr/bin/xz"
        return [xz, "-1", "-T1", "-c", _xz_input(tmp_path)], None, 100000, \
            100000, None
    if name == "sqlite3":
        sql = tmp_path / "script.sql"
        sql.write_text(SQL)
        sq = shutil.which("sqlite3") or "/usr/bin/sqlite3"
        return [sq, ":memory:"], str(sql), 100000, 250000, None
    if name == "touch":
        # our own program: stores, x87 helper loads, fxsave, atomics,
        # straddling stores and straddling groups, 1,000,000 instructions
        # each, tau < T
        return [wslib.prog("touch"), "80",
                "st,0,40,4096,10,1000000",
                "fld,%d,30,4096,10,1000000" % (40 * 4096),
                "fxs,0,60,4096,3,1000000",
                "atom,8,20,8192,10,1000000",
                "st4,4094,25,8192,10,1000000",
                "grp,4088,20,12288,10,1000000"], None, 100000, 40000, None
    if name == "reps":
        # rep-prefixed string instructions of 4,096 iterations and more,
        # on 3 pages of their own (--ws-count-rep: each iteration's
        # accesses are the one instruction's)
        return [wslib.prog("reps"), "12288", "40"], None, 5000, 5000, None
    if name in ("remap-m", "remap-b"):
        # pages given back (munmap / brk shrink) and touched again: the
        # totals count them twice, in ws and in the oracle
        return [wslib.prog("remap"), name[-1], "50", "1000000"], None, \
            50000, 100000, None
    if name == "bigcode-64":
        # straight-line code on more 64-byte lines than ws has code slots
        # for, 5,000,000 instructions
        return [wslib.prog("bigcode"), "25"], None, 100000, 100000, None
    # 32-bit programs (ws-x86-linux): the same straight-line code, tau < T
    # at 4 KiB and tau = T at 64 bytes; and every C allocation function
    # called 800 times (own_heap), tau > T
    if name in ("x86-bigcode", "x86-bigcode-64"):
        return [wslib.prog("bigcode", "x86"), "25"], None, 100000, \
            (40000 if name == "x86-bigcode" else 100000), None
    if name in ("x86-heap", "x86-heap-64"):
        return [wslib.prog("own_heap", "x86"), "calls", "800"], None, \
            100000, 250000, None
    if name in ("python3", "python3-64"):
        # an interpreter's start-up: imports, a big switch, many small
        # objects; string hashing fixed so that both runs build the same
        # dictionaries (the interpreter also looks at what its stderr is,
        # a pipe in both runs here)
        return ["/usr/bin/python3", "-S", "-c",
                "d = {i: str(i) for i in range(300)}"], None, 100000, \
            250000, dict(os.environ, PYTHONHASHSEED="0")
    raise ValueError(name)


def _run_with_stdin(fn, stdin_path):
    if stdin_path is None:
        return fn(subprocess.DEVNULL)
    with open(stdin_path, "rb") as f:
        return fn(f)


def _x86(*names):
    return [pytest.param(n, marks=pytest.mark.skipif(
        wslib.SECONDARY_PLATFORM != "x86-linux", reason=wslib.NO_X86_REASON))
        for n in names]


@pytest.mark.parametrize("name", ["xz", "xz-64", "sqlite3", "python3",
                                  "python3-64", "bigcode-64", "touch", "remap-m", "remap-b", "reps",
                                  "reps-each", "xz-each", "xz-l128",
                                  "touch-l16"]
                         + _x86("x86-bigcode", "x86-bigcode-64",
                                "x86-heap", "x86-heap-64", "x86-heap-l128"))
def test_ws_agrees_with_oracle(tmp_path, name):
    """"-each": ws with --ws-count-rep=each and the oracle counting every
    I line of lackey's trace; otherwise both take a rep-prefixed string
    instruction as one instruction (the default)."""
    count_rep = "each" if name.endswith("-each") else "once"
    name = name[:-len("-each")] if count_rep == "each" else name
    # "-lN": lines of N bytes (128: 32 lines a page, flagged inline; 16:
    # 256 lines a page, more than the IR flags, touched by helpers)
    linesize = None
    if re.search(r"-l[0-9]+\Z", name):
        name, linesize = name.rsplit("-l", 1)
        linesize = int(linesize)
    argv, stdin_path, T, tau, env = _case(name, tmp_path)
    # "-64": cache lines instead of pages, where a superblock's accesses
    # spread over more units, so the bounds below are wider
    pagesize = 64 if name.endswith("-64") else 4096
    for p in argv[:1]:
        if not os.access(p, os.X_OK):
            pytest.fail("%s is not installed (scripts/install-deps.sh "
                        "installs it)" % p)
    opts = ("--ws-every=%d" % T, "--ws-tau=%d" % tau, "--ws-syscalls=no",
            "--ws-pagesize=%d" % pagesize, "--ws-list-pages=yes",
            "--ws-count-rep=" + count_rep)
    if name.endswith("bigcode-64"):
        opts += ("--stats=yes",)
    if linesize:
        opts += ("--ws-linesize=%d" % linesize,)
    out_path = str(tmp_path / "ws.out")
    run = _run_with_stdin(
        lambda f: wslib.run_ws(argv, opts, out_path=out_path, stdin=f,
                               stdout=subprocess.DEVNULL, env=env),
        stdin_path)
    out = run.output
    assert (out.every, out.tau, out.header["syscalls"]) == (T, tau, "no")
    if name.endswith("bigcode-64"):
        # 12,288 lines of code: more than the 8192 code slots
        # (ws_codeslots.c), so that the pages given none, checked and
        # counted through the page table and their records, are compared
        # here too
        slots = re.search(r"code pages: ([\d,]+) in slots, ([\d,]+) without",
                          run.stderr)
        assert slots and int(slots.group(2).replace(",", "")) > 0, \
            run.stderr[-2000:]
    wslib.check_sample_times(out)
    times = [s.t for s in out.samples]
    assert len(times) >= 20, times

    # every run measures cache lines too (64 bytes, or the page when it is
    # smaller): the oracle counts both granularities in the same pass
    assert int(out.header["linesize"]) == (linesize or min(64, pagesize)), \
        out.header
    linesize = int(out.header["linesize"])
    res = _run_with_stdin(
        lambda f: oracle.run(wslib.VG_IN_PLACE, argv, times, tau, pagesize, T,
                             cwd=str(tmp_path), stdin=f, accesses=True,
                             env=env, count_rep=count_rep,
                             finals=out.final_windows, linesize=linesize),
        stdin_path)

    # ws and lackey must have run the same instructions: as many samples
    # as multiples of T fit in lackey's instruction count (the last may
    # fall after the last superblock boundary), and the final sample at
    # exit, at lackey's count (unless a sample was taken right then).
    # The final sample's window is the one its event states, at most tau:
    # the oracle counts it exactly.
    regular = [t for t in times if t not in out.finals]
    assert res.instructions // T - 1 <= len(regular) <= \
        res.instructions // T, (
            "ws took %d samples, lackey counted %d instructions (T=%d)"
            % (len(regular), res.instructions, T))
    assert list(out.finals) == ([res.instructions]
                                if regular[-1] != res.instructions else []), (
        out.finals, res.instructions)

    # ... exactly: the main thread's exit event is at ws's final count
    exits = [e.t for e in out.events if e.kind == "thread-exit"
             and e.args == ["1"]]
    assert exits == [res.instructions], (
        "ws's clock at exit %r, lackey counted %d instructions"
        % (exits, res.instructions))

    bad = []
    d_insn = d_data = gap = 0
    for w, o in zip(out.samples, res.samples):
        assert w.t == o.t
        d_insn = max(d_insn, abs(w.insn - o.insn))
        d_data = max(d_data, abs(w.data - o.data))
        gap = max(gap, o.insn_hi - o.insn_lo, o.data_hi - o.data_lo)
        if not (o.insn_lo <= w.insn <= o.insn_hi
                and o.data_lo <= w.data <= o.data_hi):
            bad.append("t=%d: ws insn %d data %d, oracle %r"
                       % (w.t, w.insn, w.data, o))
    print("%s: %d samples, %d instructions; max |ws - exact|: insn %d, "
          "data %d; widest bound %d; totals ws %s/%s oracle %d/%d"
          % (name, len(times), res.instructions, d_insn, d_data, gap,
             out.summary["insn"][2], out.summary["data"][2],
             res.insn_total, res.data_total))
    assert not bad, "%d of %d samples outside the oracle's bounds:\n%s" % (
        len(bad), len(times), "\n".join(bad[:20]))
    # the final sample: no longer than the others', exactly the oracle's
    for w, o in zip(out.samples, res.samples):
        if w.t in out.finals:
            window = out.final_windows[w.t]
            assert window is not None and window <= tau, (w.t, window, tau)
            assert (w.insn, w.data) == (o.insn, o.data), (
                "final sample at t=%d over (t - %d, t]: ws %d/%d, oracle %r"
                % (w.t, window, w.insn, w.data, o))
            print("%s: final sample at t=%d, window %d, insn %d data %d"
                  % (name, w.t, window, w.insn, w.data))
    # totals: distinct pages, a page touched again after munmap or a brk
    # shrink counting again (the oracle follows those system calls)
    assert (out.summary["insn"][2], out.summary["data"][2]) == (
        res.insn_total, res.data_total), "totals insn/data"

    check_lines(name, out, res, tau)

    # access counts per page (--ws-list-pages): exact for code pages; for
    # data pages the sum is exact, and an access that ws checks together
    # with others off the same base address may be counted on the
    # neighbouring page when the group crosses a page boundary
    if name.startswith("x86-"):
        align_x86_stack(out, res, pagesize)
    check_access_counts(name, out, res, pagesize)
    check_first_touches(name, out, res, pagesize)


def align_x86_stack(out, res, pagesize):
    """Valgrind's x86-linux places the client's stack below memory of its
    own whose size depends on the tool, so that the stack of a 32-bit
    program lies at other addresses under ws than under lackey (measured:
    156 pages apart), while its libraries, heap and mappings do not move.
    The stack's top is the highest data page in both runs (the auxiliary
    vector and the environment are there): ws's pages within 8 MiB (the
    main stack's limit) below its top are moved by the difference of the
    tops, and then compared page by page."""
    shift = pagesize.bit_length() - 1
    data = out.pages["data"]
    ws_top = max(data) >> shift
    delta = max(res.first["data"]) - ws_top
    limit = (8 << 20) >> shift
    out.pages["data"] = {
        ((a >> shift) + delta) << shift if (a >> shift) > ws_top - limit
        else a: v for a, v in data.items()}


def check_lines(name, out, res, tau):
    """The line columns against the oracle's line counts, with the same
    bounds as the pages' (the window starts at the same superblock
    boundary), the final sample exactly, the totals equal."""
    bad = []
    for w, o in zip(out.samples, res.samples):
        ol = o.lines
        exact = w.t in out.finals
        lo_i, hi_i = (ol.insn, ol.insn) if exact else (ol.insn_lo, ol.insn_hi)
        lo_d, hi_d = (ol.data, ol.data) if exact else (ol.data_lo, ol.data_hi)
        if not (lo_i <= w.insn_lines <= hi_i and lo_d <= w.data_lines <= hi_d):
            bad.append("t=%d%s: ws insn-lines %d data-lines %d, oracle %r"
                       % (w.t, " (final)" if exact else "", w.insn_lines,
                          w.data_lines, ol))
    print("%s: lines: totals ws %s/%s oracle %r"
          % (name, out.summary_lines["insn"][2], out.summary_lines["data"][2],
             res.line_totals))
    assert not bad, "%d of %d samples' lines outside the oracle's bounds:" \
        "\n%s" % (len(bad), len(out.samples), "\n".join(bad[:20]))
    assert (out.summary_lines["insn"][2], out.summary_lines["data"][2]) \
        == res.line_totals, "line totals insn/data"


def check_access_counts(name, out, res, pagesize):
    shift = pagesize.bit_length() - 1
    ws = {k: {a >> shift: n for a, (n, _) in out.pages[k].items() if n}
          for k in ("insn", "data")}
    assert ws["insn"] == res.accesses["insn"], "code page access counts"
    exact = res.accesses["data"]
    assert sum(ws["data"].values()) == sum(exact.values()), "data accesses"
    off = {p: ws["data"].get(p, 0) - exact.get(p, 0)
           for p in set(ws["data"]) | set(exact)
           if ws["data"].get(p, 0) != exact.get(p, 0)}
    moved = sum(abs(d) for d in off.values()) // 2
    print("%s: %d data accesses on %d pages; %d pages differ, %d accesses "
          "counted on a neighbouring page" % (name, sum(exact.values()),
                                              len(exact), len(off), moved))
    # a moved access goes to a neighbouring page, so along each run of
    # adjacent touched pages the gains and losses cancel
    pages = sorted(set(ws["data"]) | set(exact))
    run = 0
    for i, p in enumerate(pages):
        run += off.get(p, 0)
        if i + 1 == len(pages) or pages[i + 1] != p + 1:
            assert run == 0, ("pages up to 0x%x gained %d accesses from "
                              "pages that are not next to them"
                              % (p << shift, run))
    # and otherwise the counts are exact: a check's accesses are shared
    # out by their last bytes when its range crosses a page boundary.  The
    # one exception is not ws's: the dynamic linker parses LD_PRELOAD with
    # a strcspn() that reads whole words and indexes a table on its stack
    # frame with each byte, and the string's last word also holds the
    # first bytes behind AT_RANDOM, which Valgrind copies from its own
    # auxiliary vector, new in every run, right after the string near the
    # top of the client's stack.  Which units of that table get those
    # lookups changes from run to run, so lackey run twice on the same
    # program differs the same way (measured: 0 to 2 accesses, on adjacent
    # units within the stack's top 16 KiB).
    top = max(exact) + 1
    near_top = 16384 >> shift
    assert all(p >= top - near_top for p in off), (
        "counts differ away from the stack's top: %s"
        % {hex(p << shift): d for p, d in sorted(off.items())})
    assert moved <= 8, (moved, off)


def check_first_touches(name, out, res, pagesize):
    """Each page's first access (--ws-list-pages' ip): for code, the
    first instruction any of whose bytes lie on the page, exactly.  For
    data, the first instruction to access the page, or the instruction
    where ws checked it together with that access: a group of accesses
    off one base address is checked once, at its first access, which
    touches every page of the group's range then; the group lies in one
    exit-free stretch of a superblock, so that instruction ran among the
    last SB_MAX before the access."""
    shift = pagesize.bit_length() - 1
    first = {k: {a >> shift: where.ip for a, (_, where)
                 in out.pages[k].items()} for k in ("insn", "data")}
    wrong = {hex(p << shift): (hex(ip), hex(res.first["insn"].get(p, 0)))
             for p, ip in first["insn"].items()
             if ip != res.first["insn"].get(p)}
    assert not wrong, "code pages' first instructions (ws, lackey): %s" % wrong
    exact = earlier = 0
    for p, ip in first["data"].items():
        if ip == res.first["data"].get(p):
            exact += 1
            continue
        assert ip in res.first_recent.get(p, ()), (
            "data page 0x%x: ws names 0x%x as its first access, lackey 0x%x, "
            "which did not run shortly after it"
            % (p << shift, ip, res.first["data"].get(p, 0)))
        earlier += 1
    print("%s: first accesses of %d code pages exact; of %d data pages, %d "
          "exact, %d at the group's check just before"
          % (name, len(first["insn"]), len(first["data"]), exact, earlier))
