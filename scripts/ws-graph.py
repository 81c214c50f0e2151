#!/usr/bin/python3
"""ws-graph: who includes what and who calls whom in ws/, and whether the
layers hold (docs/design.md, "Data flow").

usage: scripts/ws-graph.py [--check] [WS_DIR]

WS_DIR is the tool's source folder (default: ws/ beside this script's
folder).  Without --check it prints, for every file, the headers of ws's
it includes and the files whose WS_() functions it calls, then the same
per folder; then the rules below, each with "ok" or what breaks it.
With --check it prints only what breaks a rule.  The exit status is 1
when a rule is broken, 0 otherwise.

The rules:
- the layers, from the bottom: core/, output/, analyses/, control/, and
  ws_main.c on top; a file calls functions of its own layer and of
  those below only (a call upwards goes through the core's events, its
  watch, or a hook that the upper layer registers);
- a folder has one header (ws_<folder>.h, ws_core.h for core/), which
  includes the header of the layer below and no other of ws's (core's
  none); a .c file includes its own folder's header and no other of
  ws's (ws_main.c: the top one);
- no cycle among the core's files' calls, no cycle among the folders,
  no include cycle.

A "call" is a use of a function WS_(name) defined in another file (an
identifier followed by "(" where it is defined); the uses of variables
are listed apart, as data, and are not calls.  Comments and strings are
left out.  It reads C as text: a WS_() name defined by a macro is not
seen.
"""

import collections
import os
import re
import sys

LAYERS = ["core", "output", "analyses", "control", "."]
HEADER = {"core": "ws_core.h", "output": "ws_output.h",
          "analyses": "ws_analyses.h", "control": "ws_control.h"}
# Includes that are not ws's own headers: Valgrind's and the client's.
FOREIGN = re.compile(r"pub_tool_|valgrind/")


def strip(text):
    """The C text without comments and string or char literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])+'", "' '", text)


DEF = re.compile(r"^[A-Za-z_][\w \t*(),]*?\bWS_\((\w+)\)\s*([(\[=;])", re.M)
USE = re.compile(r"\bWS_\((\w+)\)")


def folder(path):
    return os.path.dirname(path) or "."


def read(ws_dir):
    files = sorted(os.path.relpath(os.path.join(d, f), ws_dir)
                   for d, _, fs in os.walk(ws_dir) for f in fs
                   if f.endswith((".c", ".h")))
    src, code = {}, {}
    for f in files:
        with open(os.path.join(ws_dir, f), encoding="utf-8") as h:
            src[f] = h.read()
        code[f] = strip(src[f])
    defined, is_function = {}, {}
    for f in files:
        if not f.endswith(".c"):
            continue
        for m in DEF.finditer(code[f]):
            start = code[f].rfind("\n", 0, m.start()) + 1
            if code[f][start:m.end()].lstrip().startswith(("extern",
                                                            "static")):
                continue
            defined.setdefault(m.group(1), f)
            is_function.setdefault(m.group(1), m.group(2) == "(")
    calls = collections.defaultdict(set)
    data = collections.defaultdict(set)
    for f in files:
        if not f.endswith(".c"):
            continue
        for m in USE.finditer(code[f]):
            d = defined.get(m.group(1))
            if d is None or d == f:
                continue
            (calls if is_function[m.group(1)] else data)[f].add(d)
    # From the source: stripping blanked the names.
    includes = {f: re.findall(r'^\s*#\s*include\s+"([^"]+)"', src[f], re.M)
                for f in files}
    return files, includes, calls, data


def cycles(nodes, edges):
    """The strongly connected components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def rank(path):
    f = folder(path)
    return LAYERS.index(f) if f in LAYERS else None


def check(files, includes, calls):
    """[(rule, [what breaks it])]."""
    layering, headers = [], []
    for f in files:
        fo = folder(f)
        if rank(f) is None:
            layering.append("%s: a folder that is no layer" % f)
            continue
        for d in sorted(calls.get(f, ())):
            if rank(d) is not None and rank(d) > rank(f):
                layering.append("%s calls %s, a layer above" % (f, d))
        own = [i for i in includes[f] if not FOREIGN.match(i)]
        if f.endswith(".h"):
            below = LAYERS.index(fo) - 1
            want = [HEADER[LAYERS[below]]] if below >= 0 else []
            if os.path.basename(f) != HEADER.get(fo):
                headers.append("%s: a second header in %s/" % (f, fo))
        else:
            want = [HEADER.get(fo, HEADER["control"])]
        if own != want:
            headers.append("%s includes %s, not %s"
                           % (f, " ".join(own) or "nothing of ws's",
                              " ".join(want) or "nothing of ws's"))
    core = {f: {d for d in calls.get(f, ()) if folder(d) == "core"}
            for f in files if folder(f) == "core"}
    by_folder = collections.defaultdict(set)
    for f, ds in calls.items():
        for d in ds:
            if folder(d) != folder(f):
                by_folder[folder(f)].add(folder(d))
    basename = {os.path.basename(f): f for f in files if f.endswith(".h")}
    inc_edges = {f: {basename[i] for i in includes[f] if i in basename}
                 for f in files}
    return [
        ("each file calls its own layer and those below", layering),
        ("one header per folder, on the one below", headers),
        ("no cycle among the core's calls",
         [" <-> ".join(c) for c in cycles(sorted(core), core)]),
        ("no cycle among the folders",
         [" <-> ".join(c) for c in cycles(sorted(by_folder), by_folder)]),
        ("no include cycle",
         [" <-> ".join(c) for c in cycles(files, inc_edges)]),
    ], by_folder


def main(argv):
    only_check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    ws_dir = args[0] if args else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ws")
    files, includes, calls, data = read(ws_dir)
    rules, by_folder = check(files, includes, calls)
    if not only_check:
        print("includes (file: ws's headers it includes)")
        for f in files:
            own = [i for i in includes[f] if not FOREIGN.match(i)]
            print("  %s: %s" % (f, " ".join(own) or "-"))
        print("calls (file -> files whose functions it calls)")
        for f in files:
            if calls.get(f):
                print("  %s -> %s" % (f, " ".join(sorted(calls[f]))))
        print("data (file -> files whose variables it reads or writes)")
        for f in files:
            if data.get(f):
                print("  %s -> %s" % (f, " ".join(sorted(data[f]))))
        print("folders (folder -> folders whose functions it calls)")
        for fo in LAYERS:
            if by_folder.get(fo):
                print("  %s -> %s" % (fo, " ".join(
                    sorted(by_folder[fo], key=LAYERS.index))))
    broken = False
    for rule, faults in rules:
        if not only_check:
            print("%s: %s" % (rule, "ok" if not faults else "BROKEN"))
        for what in faults:
            print("  " + what if not only_check else what)
        broken = broken or bool(faults)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
