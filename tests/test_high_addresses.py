"""Accesses at and above 2^47, the end of the amd64 user address space
(docs/manual.md, Limits): they fault, and ws counts neither them nor
their pages, where its tables (47 bits of address) would take them for
lower pages.  An access below 2^47 that faults counts like any other.

highaddr loads a byte of its page-aligned global `target` REPEAT times,
then makes each access given, catching SIGSEGV (see its comment):
`+0x800000000000` is target's address with bit 47 set, `=X` the address
X, `s` a write(2) from the address.
"""

import wslib

HIGHADDR = wslib.prog("highaddr")
REPEAT = 1000
BIT47 = 1 << 47
VSYSCALL = 0xffffffffff600000

# (access, what happens natively and under Valgrind): bit 47 set (not
# canonical), the kernel's half (canonical), 2^47 itself, the vsyscall
# page (readable only on kernels booted with vsyscall=emulate), a word
# load straddling 2^47, the last byte below 2^47 (not mapped: a fault,
# but a user address), write(2) from bit 47 set
ACCESSES = [("b+0x800000000000", "fault"), ("b+0xffff800000000000", "fault"),
            ("b=0x800000000000", "fault"), ("b=0xffffffffff600000", None),
            ("w=0x7fffffffffff", "fault"), ("b=0x7fffffffffff", "fault"),
            ("s+0x800000000000", "efault")]
# The same program with every access that goes at or above 2^47 replaced
# by one of target (already touched: no new page) with an argument as
# long, so that both runs lay out their stacks alike.
CONTROL = ["b+0x000000000000", "b+0x0000000000000000", "b+0x000000000000",
           "b+0x0000000000000000", "w=0x7fffffffffff", "b=0x7fffffffffff",
           "s+0x000000000000"]


def _run(ws, accesses):
    run = ws([HIGHADDR, str(REPEAT)] + accesses, "--ws-list-pages=yes")
    wslib.check_trailer(run)
    said = [line.split(" ") for line in run.stdout.splitlines()]
    assert [a for a, _ in said] == accesses, run.stdout
    return run, [r for _, r in said]


def test_accesses_beyond_user_space_are_not_counted(ws):
    run, said = _run(ws, [a for a, _ in ACCESSES])
    for (a, result), got in zip(ACCESSES, said):
        assert got == result or (result is None and got in ("fault", "ok")), (
            a, got)
    out = run.output
    data = out.pages["data"]
    target = [p for p, (n, w) in data.items() if n == REPEAT]
    # target's page has its REPEAT loads and no more: the two loads with
    # bit 47 set (or the kernel's half) on its address are not counted
    # on it
    assert len(target) == 1, sorted((hex(p), n) for p, (n, _) in
                                    data.items() if n >= REPEAT)
    # no page at or above 2^47, nor any page one of them would be taken
    # for: 2^47 as page 0, the vsyscall page as 0x7fffff600000
    assert all(p < BIT47 for p in data), sorted(map(hex, data))
    assert 0 not in data and (VSYSCALL & (BIT47 - 1)) not in data, (
        sorted(map(hex, data)))
    # the last page below 2^47 is a user page: the byte load there is
    # counted (it faults, but so does any access to an unmapped user
    # page), the word load straddling 2^47 is not, not even in part
    assert data[BIT47 - 4096][0] == 1, data[BIT47 - 4096]

    # the totals: the same as a run whose accesses at or above 2^47 load
    # target instead, which touches no new page
    control, said = _run(ws, CONTROL)
    assert said == ["ok", "ok", "ok", "ok", "fault", "fault", "ok"], said
    assert control.output.pages["data"][target[0]][0] == REPEAT + 4
    for kind in ("insn", "data"):
        assert out.summary[kind][2] == control.output.summary[kind][2], (
            kind, out.summary[kind], control.output.summary[kind])
