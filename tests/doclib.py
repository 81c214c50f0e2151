"""How a document shows runs, for the documents a test replays as they
are written (docs/example.md, tests/test_example.py; docs/heap-example.md,
tests/test_heap_usage.py) and for scripts/gen-docs, which rewrites their
excerpts from a new run.

The conventions: a line `$ command` starts a command (split into words
as a POSIX shell would, quotes included) and the lines up to
the next command or the end of the block are excerpts of its output
(standard error for valgrind, standard output otherwise); a block without
a command quotes more of the last command's output; a line `...` leaves
lines out (the lines between two `...` are consecutive in the output), a
`…` inside a line stands for any text (used for paths that depend on
where the tree is, and for addresses in shared libraries, which move with
/etc/ld.so.cache).  ==PID== prefixes match whatever the pid.
"""

import os
import re
import shlex
import shutil
import subprocess


def doc_blocks(text):
    """The document's fenced blocks without a language, as lists of
    lines (a block with one, such as a program's source, is skipped)."""
    blocks, cur, other = [], None, False
    for line in text.splitlines():
        if other:
            other = line != "```"
        elif cur is None:
            if line == "```":
                cur = []
            elif line.startswith("```"):
                other = True
        elif line == "```":
            blocks.append(cur)
            cur = None
        else:
            cur.append(line)
    return blocks


def commands(blocks):
    """[(command, [excerpt, ...])]: an excerpt is the quoted lines ('...'
    included) under a command in one block; a block without a command
    adds an excerpt to the last command."""
    out = []
    for block in blocks:
        if not block[0].startswith("$ "):
            assert out, "a block quotes output before any command"
            out[-1][1].append([])
        for line in block:
            if line.startswith("$ "):
                out.append((line[2:], [[]]))
            else:
                out[-1][1][-1].append(line)
    return [(c, [e for e in ex if e]) for c, ex in out]


def normalise(line):
    return re.sub(r"^==[0-9]+==", "==PID==", line)


def line_matches(want, got):
    want, got = normalise(want), normalise(got)
    if "…" not in want:
        return want == got
    pattern = ".*".join(re.escape(p) for p in want.split("…"))
    return re.fullmatch(pattern, got) is not None


def segments(excerpt):
    """The excerpt's runs of consecutive lines, split at '...'."""
    out, seg = [], []
    for line in excerpt:
        if line == "...":
            out.append(seg)
            seg = []
        else:
            seg.append(line)
    out.append(seg)
    return out


def find_excerpt(excerpt, lines, doc):
    """Assert the excerpt's segments are in lines, in order, each one
    consecutive."""
    at = 0
    for seg in segments(excerpt):
        if not seg:
            continue
        for start in range(at, len(lines) - len(seg) + 1):
            if all(line_matches(w, lines[start + k])
                   for k, w in enumerate(seg)):
                at = start + len(seg)
                break
        else:
            raise AssertionError(
                "%s quotes lines that the run does not print (make docs "
                "rewrites them):\n%s\n--- the run printed:\n%s"
                % (doc, "\n".join(seg), "\n".join(lines)))


def run_commands(text, where, tools):
    """Runs each command of the document as it is written, from the
    folder where; tools maps the first word of a command (./vg-in-place,
    print/ws_print) to the program to run.  Returns [(command, excerpts,
    output lines)]: standard error for valgrind, standard output
    otherwise.  The environment is the test's without COLUMNS and LINES,
    which would set ws_print's width."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES")}
    runs = []
    for command, excerpts in commands(doc_blocks(text)):
        argv = shlex.split(command)
        if argv[0] in tools:
            argv[0] = tools[argv[0]]
        elif argv[0] == "callgrind_annotate":
            argv[0] = shutil.which(argv[0])
            assert argv[0], "callgrind_annotate is not installed (valgrind)"
        else:
            raise AssertionError("the document runs an unknown command: %s"
                                 % command)
        p = subprocess.run(argv, cwd=str(where), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=300)
        assert p.returncode == 0, (command, p.stderr.decode())
        valgrind = command.startswith("./vg-in-place ")
        shown = (p.stderr if valgrind else p.stdout).decode()
        runs.append((command, excerpts, shown.splitlines()))
    return runs
