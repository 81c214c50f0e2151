"""docscenes: the scenes of scripts/gen-docs.  Each runs one thing as a
user would and returns its parts, {PART: text}: the blocks marked
`<!-- gen SCENE.PART -->` in README.md and docs/*.md, and fact.* figures
that the prose around them must give.
"""

import glob
import os
import re
import subprocess
import time

from docrun import (SRCDIR, TIMEOUT, Terminal, compile_program,
                    excerpt, finish, gdb_transcript, output_lines,
                    screen_text, server, stack_block, tell, transcript,
                    vgdb, ws_tail)


def scene_phases(sc, docs):
    """control.md, "Regions": phases.c measured in its regions."""
    exe = compile_program(sc, docs, "phases.c")
    line = ("valgrind --tool=ws --ws-instr-atstart=no --ws-every=100 ./%s"
            % exe)
    rc, _, err = sc.run(line)
    assert rc == 0, err
    (out,) = [n for n in os.listdir(sc.dir) if n.startswith("ws.out.")]
    with open(sc.path(out)) as f:
        lines = f.read().rstrip("\n").split("\n")
    first = [i for i, l in enumerate(lines) if l.startswith("event ")][0]
    lines = lines[first:]

    trailer = [l for l in lines if l.startswith(("region ", "summary ",
                                                 "samples ", "end"))]
    body = [l for l in lines if l not in trailer
            and not l.startswith(("peak", "stack", "frame", "inline",
                                  "owner", "hot", "heap", "totals", "found",
                                  "site"))]
    begin = [i for i, l in enumerate(body) if l.startswith("dump-begin")]
    end = [i for i, l in enumerate(body) if l.startswith("dump-end")]

    def sample(i):
        return 0 <= i < len(body) and re.match(r"[0-9]", body[i])

    def keep(i, l):
        # every event, of each stretch of samples its first and its last,
        # of each dump its first two pages and its last one
        if l.startswith(("dump-page", "dump-owner")):
            b = max(k for k in begin if k < i)
            e = min(k for k in end if k > i)
            return i <= b + 4 or i >= e - 2
        return not sample(i) or not sample(i - 1) or not sample(i + 1)
    (load,) = [l for l in trailer if l.endswith(" label load")]
    return {"fact.load": "(`load` touches %s code pages" % load.split()[6],
            "summary": sc.normalise("$ %s\n...\n%s" % (line, ws_tail(err))),
            "events": sc.normalise("\n".join(excerpt(body, keep) + trailer))}


def scene_bad(sc, docs):
    """control.md, "Bad requests": the first of ctl_bad's warnings."""
    sc.copy_in("ctl_bad",
               os.path.join(sc.builddir, "tests", "progs", "ctl_bad"))
    rc, _, err = sc.run("valgrind --tool=ws ./ctl_bad")
    assert rc == 0, err
    lines = err.split("\n")
    (i,) = [i for i, l in enumerate(lines) if "WS_MARK ignored: its label "
            "pointer 0x0" in l]
    end = i + [k for k, l in enumerate(lines[i:])
               if "warns about this kind" in l][0]
    return {"warning": sc.normalise("\n".join(lines[i:end + 1]))}


def scene_server(sc, docs):
    """control.md: ws help, the refusals, ws help internal, WS status
    lines, against tests/progs/ctl_server waiting on its input."""
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws tests/progs/ctl_server 2000")
    pid = sc.shown_pid(p.pid) and p.pid

    def reply(c):
        return vgdb(sc, pid, c).rstrip("\n")
    parts = {"help": reply("ws help").lstrip("\n"),
             "refusals": "\n".join(reply(c) for c in (
                 "ws set tau 0", "ws series 2000", "ws dump d.%z",
                 "ws start", "ws frobnicate")),
             "internal": reply("ws help internal"),
             "wsreply": transcript(sc, pid, ["WS set tau 0",
                                             "WS mark warm cache"])}
    # the one ws option Valgrind may not change at run time
    parts["static"] = vgdb(sc, pid, "v.clo --ws-pagesize=64").rstrip("\n")
    finish(p)
    return {k: sc.normalise(v) for k, v in parts.items()}


def scene_session(sc, docs):
    """control.md, "From a shell: vgdb": a session and the events it
    leaves in the output file."""
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws tests/progs/ctl_server 2000")
    tell(p, "touch 0 300 1")
    text = transcript(sc, p.pid, [
        "ws status", "ws set every 50000", "ws series 3", "ws st",
        "ws mark warm cache", "ws stop", "ws start", "v.clo --ws-tau=20000",
        "ws dump snapshot.%p"])
    finish(p)
    (out,) = [n for n in os.listdir(sc.dir) if n.startswith("ws.out.")]
    with open(sc.path(out)) as f:
        events = [l for l in f.read().split("\n")
                  if l.startswith("event ") and " thread-" not in l]
    return {"vgdb": sc.normalise(text, [p.pid]),
            "events": sc.normalise("\n".join(events))}


def scene_gdb(sc, docs):
    """control.md, "From gdb: a worked session": phases.c stopped at its
    WS_DUMP, looked at with monitor commands."""
    exe = compile_program(sc, docs, "phases.c")
    src = docs.programs["phases.c"].split("\n")
    (bp,) = [i + 1 for i, l in enumerate(src) if "WS_DUMP(" in l]
    line = ("valgrind --tool=ws --ws-instr-atstart=no --ws-every=100 "
            "--vgdb-error=0 ./%s" % exe)
    p = sc.start(line, stdin=subprocess.DEVNULL)
    end = time.time() + 60
    while "target remote" not in sc.stderr_of(p) and time.time() < end:
        time.sleep(0.05)
    startup = sc.stderr_of(p).rstrip("\n").split("\n")
    pid = p.pid
    commands = ["target remote | vgdb --pid=%d" % pid, "break %d" % bp,
                "continue", "monitor ws status", "monitor ws dump",
                "monitor ws series 3", "monitor ws set tau 50000",
                "continue"]
    shown = gdb_transcript(sc, "./" + exe, commands)
    heap = [re.match(r" +([0-9]+) pages? \(.*\): heap blocks from ", l)
            for l in shown]
    heap = [int(m.group(1)) for m in heap if m]
    assert len(heap) == 1, ("scene_gdb: not one 'heap blocks from' line in "
                            "the dump: has the reply's wording changed?\n"
                            + "\n".join(shown))
    heap_pages = heap[0]
    assert p.wait(timeout=TIMEOUT) == 0
    while re.fullmatch(r"==[0-9]+== ?", startup[-1]):
        startup.pop()
    i = [k for k, l in enumerate(startup) if "(action at startup)" in l][0]
    return {"valgrind": sc.normalise(
                "\n".join(["$ " + line, "..."] + startup[i:]), [pid]),
            "gdb": sc.normalise("\n".join(shown), [pid]),
            "fact.break": "'break %d'" % bp,
            "fact.scratch": "its data pages are the %d pages that the "
                            "ten-page scratch block straddles" % heap_pages,
            # the page of libc's memset is not named by its address,
            # which moves with the machine's /etc/ld.so.cache
            "fact.code": "the window holds the page of `main` and `fill` "
                         "(%s) and the page of libc's `memset`;"
                         % [l.split()[0] for l in shown
                            if re.match(r"  0x[0-9a-f]+ .* first at main ",
                                        l)][0]}


def scene_break(sc, docs):
    """control.md, "Stopping at a spike": tests/progs/spike stopped by
    --ws-break=data>=1000 at its burst; what ws says, then gdb's bt and
    continue."""
    sc.copy_in("tests/progs/spike",
               os.path.join(sc.builddir, "tests", "progs", "spike"))
    line = "valgrind --tool=ws --ws-break=data>=1000 tests/progs/spike spike"
    p = sc.start(line, stdin=subprocess.DEVNULL)
    end = time.time() + TIMEOUT
    while "target remote" not in sc.stderr_of(p) and time.time() < end:
        time.sleep(0.05)
    err = sc.stderr_of(p).rstrip("\n").split("\n")
    (i,) = [k for k, l in enumerate(err) if "ws: break 1 " in l]
    pid = p.pid
    shown = gdb_transcript(sc, "tests/progs/spike",
                           ["target remote | vgdb --pid=%d" % pid, "bt",
                            "continue"])
    p.stdout.read()
    assert p.wait(timeout=TIMEOUT) == 0
    # the arguments gdb shows are addresses (of the mapping, of argv on
    # the stack) and the sweep's byte, which move with the machine
    shown = [re.sub(r" \((?:base|argc)=.*\) at ", " (…) at ", l)
             for l in shown]
    return {"stop": sc.normalise("\n".join(["$ " + line, "..."] + err[i:]),
                                 [pid]),
            "gdb": sc.normalise("\n".join(shown), [pid])}


def scene_spikegdb(sc, docs):
    """control.md, "A worked example: reindex's spike in gdb": demo/reindex
    started for gdb, a break set from gdb at the rise of the working set,
    the stop at the first rebuild (bt, ws since, ws dump), the stop at the
    second, the largest (ws since), continue."""
    for rel, top in (("demo/reindex", sc.builddir),
                     ("demo/reindex.cc", SRCDIR)):
        sc.copy_in(rel, os.path.join(top, rel))
    line = ("valgrind --tool=ws --ws-instr-atstart=no --vgdb-error=0 "
            "demo/reindex")
    p = sc.start(line, stdin=subprocess.DEVNULL)
    end = time.time() + TIMEOUT
    while "target remote" not in sc.stderr_of(p) and time.time() < end:
        time.sleep(0.05)
    pid = p.pid
    shown = gdb_transcript(
        sc, "demo/reindex",
        ["target remote | vgdb --pid=%d" % pid, "monitor ws break rise>=2000",
         "continue", "bt", "monitor ws since", "monitor ws dump", "continue",
         "monitor ws since", "continue"])
    p.stdout.read()
    assert p.wait(timeout=TIMEOUT) == 0
    err = sc.stderr_of(p).rstrip("\n").split("\n")
    stops = [k for k, l in enumerate(err) if " ws: break 1 " in l]
    assert len(stops) == 2, err
    # addresses in the libraries' mappings and the heap after them (where
    # the program waits before its first instruction, the hottest pages)
    # move with the machine's libraries: shown as 0x…
    def masked(l):
        return re.sub(r"\b0x0*[45][0-9a-fA-F]{6}\b", "0x…", l)
    shown = [masked(l) for l in shown]
    first = [masked(l) for l in err[stops[0]:stops[0] + 3]] + ["..."]
    since = [l for l in shown if l.startswith("ws since t=")]
    return {"valgrind": sc.normalise("\n".join(["$ " + line, "..."]
                                               + first), [pid]),
            "gdb": sc.normalise("\n".join(shown), [pid]),
            "fact.stops": "stops twice, at t={} and t={}".format(
                *[int(re.search(r" at t=([0-9]+)", err[k]).group(1))
                  for k in stops]),
            "fact.since": "{} of the {} data pages".format(
                *re.search(r": ([0-9]+) of the ([0-9]+) data pages",
                           since[-1]).groups())}


def scene_gdbws(sc, docs):
    """control.md, "From gdb: the `ws` command": gdb/ws-gdb.py against
    ctl_server after a few sweeps (gdb's `complete` shows what Tab
    offers)."""
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    sc.copy_in("gdb/ws-gdb.py", os.path.join(SRCDIR, "gdb", "ws-gdb.py"))
    p = server(sc, "valgrind --tool=ws --ws-every=10000 "
                   "tests/progs/ctl_server 2000")
    tell(p, "touch 0 400 3")
    shown = gdb_transcript(
        sc, "tests/progs/ctl_server",
        ["target remote | vgdb --pid=%d" % p.pid, "complete ws se",
         "complete ws break ", "ws series 2", "print $_ws_data()",
         "ws set tau 20000", "ws st"],
        before=["source gdb/ws-gdb.py"], after=["detach"])
    finish(p)
    # what gdb says about where the program is stopped (in libc's read,
    # without its source) is left out
    i = shown.index("(gdb) complete ws se")
    shown[2:i] = [shown[2], "..."]
    return {"session": sc.normalise("\n".join(shown), [p.pid])}


def scene_monitor(sc, docs):
    """control.md, "From ws-monitor": the listing and one command at a
    time, against ctl_server after a few sweeps."""
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws --ws-every=10000 "
                   "tests/progs/ctl_server 2000")
    tell(p, "touch 0 400 3")
    rc, listing, err = sc.run("ws-monitor")
    assert rc == 0, err
    # without the processes of the machine's other users (which it lists
    # as out of reach of this --vgdb-prefix)
    listing = listing.split("\nws processes that vgdb cannot reach")[0]
    text = transcript(sc, p.pid, ["series 3", "set tau 0"], tool="ws-monitor")
    finish(p)
    return {"list": sc.normalise("$ ws-monitor\n" + listing.rstrip("\n"),
                                 [p.pid]),
            "pid": sc.normalise(text)}


def scene_unreachable(sc, docs):
    """control.md: what ws-monitor says when it cannot reach a process:
    no such process, a process not under Valgrind, one under another
    tool, one started with another --vgdb-prefix, no vgdb."""
    monitor = os.path.join(sc.builddir, "monitor", "ws-monitor")
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    ws = server(sc, "valgrind --tool=ws tests/progs/ctl_server 10")
    sleeper = sc.start("sleep 120", stdin=subprocess.DEVNULL)
    none = sc.start("valgrind --tool=none sleep 120",
                    stdin=subprocess.DEVNULL)
    end = time.time() + 60
    while not glob.glob("%s-from-vgdb-to-%d-*" % (sc.prefix, none.pid)):
        assert time.time() < end, "valgrind --tool=none did not start"
        time.sleep(0.05)
    with open("/proc/sys/kernel/pid_max") as f:
        no_such = int(f.read())     # no process has this id
    sc.pids[no_such] = 4242
    runs = [(["--vgdb-prefix=" + sc.prefix, "--pid=%d" % no_such], None),
            (["--vgdb-prefix=" + sc.prefix, "--pid=%d" % sleeper.pid], None),
            (["--vgdb-prefix=" + sc.prefix, "--pid=%d" % none.pid], None),
            (["--vgdb-prefix=/tmp/p", "--pid=%d" % ws.pid], None),
            (["--vgdb-prefix=" + sc.prefix, "--pid=%d" % ws.pid],
             "/nonexistent")]
    said = []
    for args, path in runs:
        env = dict(sc.env, PATH=path or sc.env["PATH"])
        p = subprocess.run([monitor] + args + ["status"], cwd=sc.dir,
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT)
        assert p.returncode == 2, p.stdout
        said.append(p.stdout.decode(errors="replace").rstrip("\n"))
    finish(ws)
    return {"messages": sc.normalise("\n".join(said), [
        ws.pid, sleeper.pid, none.pid])}


def scene_prompt(sc, docs):
    """control.md, "From ws-monitor": the prompt, Tab and watch, on a
    pseudo-terminal, against ctl_server after a few sweeps."""
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws --ws-every=10000 "
                   "tests/progs/ctl_server 2000")
    tell(p, "touch 0 400 3")
    monitor = os.path.join(sc.builddir, "monitor", "ws-monitor")
    t = Terminal(sc, [monitor, "--vgdb-prefix=" + sc.prefix,
                      "--pid=%d" % p.pid])
    prompt = "ws(%d)> " % p.pid
    shown = ["$ ws-monitor --pid %d" % p.pid]
    shown += screen_text(t.until(re.escape(prompt))).rstrip("\n").split(
        "\n")[:-1]
    t.type("se\t\t")
    listing = screen_text(t.until(r"set\s*\r?\n.*" + re.escape(prompt)))
    shown.append(prompt + "se<Tab><Tab>")
    shown.append([l for l in listing.split("\n") if "series" in l][0]
                 .strip())
    t.type("ries 3\r")
    shown.append(prompt + "series 3")
    shown.append("...")
    t.until(re.escape(prompt))
    t.type("watch 0.5\r")
    shown.append(prompt + "watch 0.5")
    # the second frame: the first one the view redraws
    frame = t.until(r"\(frame 2\)(.|\n)*last [0-9]+, max(.|\n)*"
                    r"last [0-9]+, max [0-9]+ pages")
    t.type("q")
    t.until(re.escape(prompt))
    t.type("quit\r")
    assert os.WEXITSTATUS(t.close()) == 0
    finish(p)
    shown += screen_text(frame).rstrip("\n").split("\n")
    return {"session": sc.normalise("\n".join(l.rstrip(" ") for l in shown),
                                    [p.pid])}


def scene_format(sc, docs):
    """output-format.md: examples of each kind of line, from runs of the
    programs the text names."""
    parts = {}
    # a dump: the one of phases.c (docs/control.md), its first page of
    # each kind and its last
    exe = compile_program(sc, docs, "phases.c")
    lines = output_lines(sc, "--ws-instr-atstart=no --ws-every=100",
                         "./" + exe)
    (b,) = [i for i, l in enumerate(lines) if l.startswith("dump-begin")]
    e = lines.index([l for l in lines[b:] if l.startswith("dump-end")][0])
    heap = [i for i in range(b, e) if lines[i].startswith("dump-owner heap")]
    parts["dump"] = "\n".join(lines[b - 1:b + 2] + lines[heap[0] - 1:
                                                        heap[0] + 1]
                              + ["..."] + lines[e - 2:e + 1])
    # a peak with its stack and owners, and a stack with an inlined call
    lines = output_lines(sc, "", "tests/progs/spike spike")
    peak = [i for i, l in enumerate(lines)
            if re.match(r"peak [0-9]+ data .* largest", l)][0]
    words = lines[peak].split()
    owners = [l for l in lines if l.startswith("owner %s " % words[1])]
    parts["peak"] = "\n".join(
        stack_block(lines, words[8]) + [lines[peak]] + owners[:3]
        + [l for l in lines if l.startswith("peaks ")])
    # the same program built with -O2: a call inlined into the spike
    lines = output_lines(sc, "", "tests/progs/spike_o2 spike")
    inline = [i for i, l in enumerate(lines)
              if re.match(r"inline \S+ spike\.c:", l)][0]
    ident = [l for l in lines[:inline] if l.startswith("stack ")][-1]
    parts["stack"] = "\n".join(stack_block(lines, ident.split()[1]))
    # the hottest code page, and the hottest data page that the program's
    # own code touched first, with its owner
    lines = output_lines(sc, "--ws-instr-atstart=no", "demo/pageramp")
    data = [i for i, l in enumerate(lines)
            if re.match(r"hot data .* pageramp\.c:", l)][0]
    owner = data + 1
    while not lines[owner].startswith("hot-owner"):
        owner += 1
    parts["hot"] = "\n".join([l for l in lines if l.startswith("hot insn 1 ")]
                             + [lines[data], lines[owner]])
    # an allocation site whose chunks were never touched
    lines = output_lines(sc, "", "tests/progs/heap_known")
    site = [l for l in lines if l.startswith("heap-site ")
            and stack_block(lines, l.split()[2])[2].endswith(" site_never")]
    parts["site"] = "\n".join(stack_block(lines, site[0].split()[2])
                              + site[:1])
    # a peak's owners and the heap-window line of its heap owner
    lines = output_lines(sc, "", "tests/progs/own_spike")
    window = [l for l in lines if l.startswith("heap-window ")][0]
    owners = [l for l in lines if l.startswith("owner %s " %
                                               window.split()[1])]
    parts["window"] = "\n".join(owners[:2] + ["..."] + owners[-1:]
                                + [window])
    # manual.md, "Owners": the same peak's first owners
    (peak,) = [l for l in lines if l.startswith("peak %s data " %
                                                window.split()[1])]
    parts["owners"] = "\n".join([peak] + owners[:4] + ["..."])
    return {k: sc.normalise(v) for k, v in parts.items()}


def scene_heap(sc, docs):
    """control.md, `ws heap`: tests/progs/heap_server after `alloc 3 4`."""
    sc.copy_in("tests/progs/heap_server",
            os.path.join(sc.builddir, "tests", "progs", "heap_server"))
    p = server(sc, "valgrind --tool=ws tests/progs/heap_server")
    tell(p, "alloc 3 4")
    text = transcript(sc, p.pid, ["ws heap 1"])
    finish(p)
    return {"heap": sc.normalise(text, [p.pid])}


def scene_manual(sc, docs):
    """manual.md: the summary of `make demo`'s run, the refusals of bad
    options and `ws hot`."""
    sc.copy_in("demo/pageramp", os.path.join(sc.builddir, "demo", "pageramp"))
    line = "valgrind --tool=ws --ws-instr-atstart=no demo/pageramp"
    rc, _, err = sc.run(line)
    assert rc == 0, err
    parts = {"summary": sc.normalise("$ %s\n...\n%s" % (line,
                                                         ws_tail(err)))}
    for name, option in (("badopt", "--ws-pagesize=1000"),
                         ("missfile", "--ws-miss-file=/nonexistent/m")):
        rc, _, err = sc.run("valgrind --tool=ws %s demo/pageramp" % option)
        assert rc == 1, err
        parts[name] = sc.normalise("\n".join(
            l for l in err.rstrip("\n").split("\n")
            if l.startswith("valgrind: ")))
    sc.copy_in("tests/progs/ctl_server",
            os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws tests/progs/ctl_server 100")
    tell(p, "touch 0 20 3")
    tell(p, "touch 10 2 20000")
    parts["hot"] = sc.normalise(transcript(sc, p.pid, ["ws hot 2 data"]),
                                [p.pid])
    finish(p)
    return parts


def scene_miss(sc, docs):
    """manual.md, "Miss profile": tests/progs/miss and callgrind_annotate
    on its profile."""
    sc.copy_in("tests/progs/miss",
            os.path.join(sc.builddir, "tests", "progs", "miss"))
    line = ("valgrind --tool=ws --ws-every=10000 --ws-miss-file=ws.miss.%p "
            "tests/progs/miss 256 8 4 25")
    rc, _, err = sc.run(line)
    assert rc == 0, err
    files = [l for l in err.split("\n")
             if re.match(r"==[0-9]+== (Output file|Miss profile|To view .*?): ", l)]
    (miss,) = [n for n in os.listdir(sc.dir) if n.startswith("ws.miss.")]
    annotate = "callgrind_annotate --threshold=95 --auto=yes %s" % miss
    rc, out, err = sc.run(annotate)
    assert rc == 0, err
    out = out.rstrip("\n").split("\n")
    rule = "-" * 80
    totals = out.index(rule, [i for i, l in enumerate(out)
                              if l.startswith("WsDataMiss")][0] - 1)
    table = [i for i, l in enumerate(out) if l.endswith("file:function")][0]
    source = [i for i, l in enumerate(out)
              if l.startswith("-- Auto-annotated source:")][0]
    first = [i for i, l in enumerate(out)
             if "void fresh_touch(" in l][0]
    last = [i for i, l in enumerate(out)
            if i > first and re.search(r"\s}$", l)
            and "return sum;" in out[i - 1]][0]
    # the totals, the four functions with the most data misses, and the
    # source of the two functions the text explains
    shown = (["$ " + line, "..."] + files + ["$ " + annotate, "..."]
             + out[totals:table + 6] + ["..."] + out[source - 1:source + 2]
             + ["..."] + out[first:last + 1])
    def data_misses(marker):
        (l,) = [l for l in out if l.rstrip().endswith("/* %s */" % marker)]
        # the columns: data misses (share), insn misses (share), source
        m = re.match(r"\s*([0-9,]+)", l)
        return int(m.group(1).replace(",", ""))
    fresh, hot = data_misses("FRESH"), data_misses("HOT")
    return {"session": sc.normalise("\n".join(shown)),
            "fact.fresh": "Line 33 brought in {:,} data pages".format(fresh),
            "fact.hot": "4 per window ({} windows here)".format(hot // 4)}


def scene_routines(sc, docs):
    """manual.md, "Per-routine footprint", and output-format.md: the
    quadratic routine of tests/progs/rt_growth, its records and ws_print's
    report of it, and `ws routines` on tests/progs/ctl_server."""
    line = ("valgrind --tool=ws --ws-routines=yes --ws-out-file=ws.out "
            "tests/progs/rt_growth quad 4 8 16 32 64 128")
    sc.copy_in("tests/progs/rt_growth",
               os.path.join(sc.builddir, "tests", "progs", "rt_growth"))
    rc, _, err = sc.run(line)
    assert rc == 0, err
    with open(sc.path("ws.out")) as f:
        lines = f.read().rstrip("\n").split("\n")
    (i,) = [k for k, l in enumerate(lines) if l.startswith("routine ")
            and stack_block(lines, l.split()[2])[1].endswith(" rt_quad")]
    rows = [l for l in lines if l.startswith("routine-size %s "
                                             % lines[i].split()[1])]
    parts = {"record": "\n".join(stack_block(lines, lines[i].split()[2])
                                 + [lines[i]] + rows)}
    rc, out, err = sc.run("ws_print ws.out")
    assert rc == 0, err
    text = out.rstrip("\n").split("\n")
    b = [k for k, l in enumerate(text) if l.startswith("Routines: ")][0]
    first = [k for k in range(b, len(text))
             if re.match(r" +2  ", text[k])][0]
    plot = [k for k in range(b, len(text))
            if text[k].strip().startswith("rt_quad: max cost")][0]
    parts["text"] = "\n".join(["$ ws_print ws.out", "..."] + text[b:first]
                              + ["..."] + text[plot - 1:plot + 15])
    sc.copy_in("tests/progs/ctl_server",
               os.path.join(sc.builddir, "tests", "progs", "ctl_server"))
    p = server(sc, "valgrind --tool=ws --ws-routines=yes "
                   "tests/progs/ctl_server 100")
    tell(p, "touch 0 20 3")
    parts["monitor"] = transcript(sc, p.pid, ["ws routines 3"])
    finish(p)
    return {k: sc.normalise(v, [p.pid]) for k, v in parts.items()}


def scene_curves(sc, docs):
    """output-format.md and manual.md, "Locality curves": the records of
    knees' phase of pages, made a region, and ws_print's report of them."""
    sc.copy_in("tests/progs/knees",
               os.path.join(sc.builddir, "tests", "progs", "knees"))
    rc, _, err = sc.run("valgrind --tool=ws --ws-curves=exact "
                        "--ws-instr-atstart=no --ws-out-file=ws.out "
                        "tests/progs/knees -r 4096:64:4096:30")
    assert rc == 0, err
    with open(sc.path("ws.out")) as f:
        lines = f.read().split("\n")
    scope = "region:4096:64:4096:30 data page "

    def pick(word, rest):
        (line,) = [l for l in lines
                   if l.startswith("%s %s%s " % (word, scope, rest))]
        return line
    record = [pick("curve", "tau 2048"), pick("curve", "tau 4096"), "...",
              pick("mrc", "size 32"), pick("mrc", "size 64")]
    return curve_parts(sc, record, "  region:4096:64:4096:30, data pages:")


def curve_parts(sc, record, heading):
    """A curves scene's parts: its records, and ws_print's report of
    ws.out from the curve under heading to the blank line after it."""
    rc, out, err = sc.run("ws_print ws.out")
    assert rc == 0, err
    text = out.rstrip("\n").split("\n")
    first = text.index(heading)
    last = first + text[first:].index("") if "" in text[first:] \
        else len(text)
    return {"record": sc.normalise("\n".join(record)),
            "text": sc.normalise("\n".join(["$ ws_print ws.out", "..."]
                                            + text[first:last]))}


def scene_sampled(sc, docs):
    """output-format.md and manual.md, "Locality curves": the estimated
    curves (--ws-curves=sampled) of knees' two phases with ten times the
    rounds: a few records with their errors (from the windows, bounds and
    epochs), and ws_print's report."""
    sc.copy_in("tests/progs/knees",
               os.path.join(sc.builddir, "tests", "progs", "knees"))
    rc, _, err = sc.run("valgrind --tool=ws --ws-curves=sampled "
                        "--ws-out-file=ws.out "
                        "tests/progs/knees 4096:64:4096:300 "
                        "64:1024:8192:120")
    assert rc == 0, err
    with open(sc.path("ws.out")) as f:
        lines = f.read().split("\n")
    scope = "run data page "

    def pick(word, rest=""):
        return [l for l in lines
                if l.startswith("%s %s%s" % (word, scope, rest))]
    record = (pick("curve", "tau 2048 ") + pick("curve", "tau 4096 ")
              + pick("curve", "tau 8192 ") + ["..."]
              + pick("curve", "tau 131072 ") + ["..."] + pick("mrc", "size 1 ")
              + [l for l in pick("mrc") if l.endswith(" from footprint")][:1])
    return curve_parts(sc, record, "  run, data pages:")


SCENES = {"miss": scene_miss, "routines": scene_routines, "curves": scene_curves, "sampled": scene_sampled, "manual": scene_manual, "phases": scene_phases,
          "bad": scene_bad, "server": scene_server,
          "session": scene_session, "gdb": scene_gdb,
          "monitor": scene_monitor, "gdbws": scene_gdbws,
          "unreachable": scene_unreachable, "prompt": scene_prompt,
          "format": scene_format, "heap": scene_heap, "break": scene_break,
          "spikegdb": scene_spikegdb}
