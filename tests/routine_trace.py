"""Events for the routine model (routine_model.py) from a lackey trace of a
one-threaded program of tests/progs/rt_*.c, so that the answers those
programs' sources state can be checked instruction by instruction, and
ws's routine records compared with the model's.

The program prints "rt NAME ENTRY RET" for each routine to follow
(rtprog.h): an activation of NAME begins at the instruction at ENTRY and
ends after its `ret` at RET.  A routine announced with RET (nil) never
returns; its activations end where the program lands back from a longjmp
made with rt_setjmp's context: at the instruction to which rt_setjmp's
`ret` returned (the bridge learns it from the trace), every pending
activation ends.  Only the announced routines are followed; what they
call is theirs (their callees' instructions and accesses count for them,
as a callee's do for its caller).

From lackey's --trace-mem=yes stream (oracle.py describes it): every I
line inside an activation is one instruction of it ("insns"); every L, S
and M line is a read, a write, or a read then a write of each 64-byte
line its bytes reach, inside activations or not (a line's earlier
accesses decide whether a read is induced), except the load of a
followed routine's `ret`: the return address is no input (rtprog.h; ws
leaves out the load that gives a `ret` its target, and so would this for
every `ret` it knew of).  From --trace-syscalls=yes:
the buffer a successful read or pread64 filled is written by the kernel
("kwrite"), before the next instruction.  All of it is thread 1: the
programs this reads run one thread.
"""

import os
import re
import subprocess

import oracle

LINE_SHIFT = 6
_ANNOUNCE = re.compile(r"rt (\S+) (0x[0-9a-f]+|\(nil\)) (0x[0-9a-f]+|\(nil\))$")
_READ_CALL = re.compile(r"SYSCALL\[\d+,(\d+)\]\((?:0|17)\) sys_p?read(?:64)? "
                        r"\( \d+, (0x[0-9a-f]+), ")
_RESULT = re.compile(r".*--> (?:\[[a-z-]+\] )?(Success|Failure)\((0x[0-9a-f]+)\)")


def announced(stdout):
    """{entry: name} and {ret: name} from the program's "rt" lines."""
    entries, rets = {}, {}
    for line in stdout.splitlines():
        m = _ANNOUNCE.match(line)
        if not m:
            continue
        name, entry, ret = m.groups()
        entries[int(entry, 16)] = name
        if ret != "(nil)":
            rets[int(ret, 16)] = name
    return entries, rets


def lines_of(addr, size):
    return range(addr >> LINE_SHIFT, ((addr + max(size, 1) - 1) >> LINE_SHIFT)
                 + 1)


def events(trace, entries, rets):
    """The model's events from the lines of a lackey trace."""
    out = []
    stack = []                  # names of the pending activations
    pop_next = False            # the last instruction was the top's ret
    setjmp_ret = None           # rt_setjmp's ret ran: its target comes next
    landing = None              # where a longjmp to rt_setjmp's context lands
    pending_read = None         # the buffer of a read or pread64 in flight
    at_ret = False              # the current instruction is a followed ret
    for line in trace:
        c = line[:1]
        if c == "I":
            addr = int(line[3:].split(",", 1)[0], 16)
            if pop_next:
                out.append(("ret", 1))
                stack.pop()
                pop_next = False
            if setjmp_ret:
                landing = addr
                setjmp_ret = False
            elif addr == landing:
                out += [("ret", 1)] * len(stack)
                stack = []
            if addr in entries:
                stack.append(entries[addr])
                out.append(("call", 1, entries[addr]))
            if stack:
                out.append(("insns", 1, 1))
            at_ret = addr in rets
            if at_ret:
                if rets[addr] == "rt_setjmp":
                    setjmp_ret = True
                if stack and stack[-1] == rets[addr]:
                    pop_next = True
        elif c == " " and line[1:2] in ("L", "S", "M") and line[2:3] == " ":
            kind = line[1]
            if at_ret and kind == "L":
                continue
            addr, size = line[3:].split(",")
            span = lines_of(int(addr, 16), int(size))
            if kind in "LM":
                out += [("read", 1, x) for x in span]
            if kind in "SM":
                out += [("write", 1, x) for x in span]
        elif "SYSCALL" in line or "-->" in line:
            m = _READ_CALL.match(line)
            if m:
                pending_read = int(m.group(2), 16)
            if pending_read is not None:
                m = _RESULT.match(line)
                if m:
                    n = int(m.group(2), 16)
                    if m.group(1) == "Success" and n > 0:
                        out += [("kwrite", x)
                                for x in lines_of(pending_read, n)]
                    pending_read = None
    if pop_next:
        out.append(("ret", 1))
    return out


def run(vg_in_place, argv, tmpdir, leave=(), timeout=600):
    """(events, stdout) of argv run under lackey, following the routines
    it announces but those named in |leave|; the trace goes through a
    file in |tmpdir|, as the program says where its routines are only on
    its standard output."""
    path = os.path.join(str(tmpdir), "lackey.trace")
    with open(path, "w") as log:
        p = subprocess.run(oracle.lackey_command(vg_in_place, argv,
                                                 log.fileno()),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, pass_fds=(log.fileno(),),
                           cwd=str(tmpdir), timeout=timeout)
    if p.returncode != 0:
        raise oracle.LackeyError("lackey exited with status %d: %s"
                                 % (p.returncode, p.stderr[-2000:]))
    stdout = p.stdout.decode()
    entries, rets = announced(stdout)
    entries = {a: n for a, n in entries.items() if n not in leave}
    rets = {a: n for a, n in rets.items() if n not in leave}
    with open(path, errors="replace") as f:
        evs = events(f, entries, rets)
    os.unlink(path)
    return evs, stdout
