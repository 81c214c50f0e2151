# ws-gdb.py: a "ws" command for gdb, for programs that run under
# Valgrind's ws tool (valgrind --tool=ws).
#
# Copyright (C) 2026 the ws authors.
#
# This program is free software; you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation; either version 2 of the License, or (at
# your option) any later version.  The GNU General Public License is
# contained in the file COPYING.
#
# Load it with "source /usr/local/share/ws/ws-gdb.py" (the path depends
# on where ws was installed), in gdb or in ~/.gdbinit.  Then, once gdb is
# connected to the program ("target remote | vgdb --pid=N"), "ws status"
# does what "monitor ws status" does, and Tab completes ws's commands and
# the parameters of "ws set".  docs/control.md describes the commands.
#
# gdb's own "ws" is an alias of "while-stepping", used only in tracepoint
# action lists; this command takes its place, so spell that one out.

import os

import gdb

# ws's commands, as "monitor ws help" lists them in this version of ws;
# replaced by what the connected ws says the first time completion runs.
_COMMANDS = ["help", "status", "dump", "series", "set", "start", "stop",
             "mark", "hot", "peaks", "heap"]
_SET_PARAMS = ["tau", "every"]
_learned = False


def _learn_commands():
    """Reads the commands from the connected ws, once."""
    global _COMMANDS, _SET_PARAMS, _learned
    if _learned:
        return
    try:
        if gdb.selected_inferior().pid <= 0:
            return
        text = gdb.execute("monitor ws help", to_string=True)
    except (gdb.error, RuntimeError):
        return
    commands, params = [], []
    for line in text.split("\n"):
        words = line.split()
        if not line.startswith("  ws ") or len(words) < 2:
            continue
        if words[1] not in commands:
            commands.append(words[1])
        if (words[1] == "set" and len(words) > 2
                and not words[2].startswith("<")
                and words[2] not in params):
            params.append(words[2])
    if commands:
        _COMMANDS = commands
        _SET_PARAMS = params or _SET_PARAMS
        _learned = True


def _file_names(word):
    """The names of files and folders that start with word (gdb's own
    file-name completer only completes a command's first argument)."""
    folder, start = os.path.split(os.path.expanduser(word))
    shown = os.path.dirname(word)
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return []
    res = []
    for name in sorted(names):
        if not name.startswith(start) or (name[0] == "." and not start):
            continue
        path = os.path.join(folder, name)
        res.append(os.path.join(shown, name)
                   + ("/" if os.path.isdir(path) else ""))
    return res


def _resolve(word):
    """The one command that word names or abbreviates, or None."""
    if word in _COMMANDS:
        return word
    found = [c for c in _COMMANDS if c.startswith(word)]
    return found[0] if len(found) == 1 else None


class WsCommand(gdb.Command):
    """Send a command to the ws tool of the program (monitor ws ...).

Usage: ws COMMAND [ARGUMENTS]

Sends "monitor ws COMMAND ARGUMENTS" to the Valgrind gdbserver of the
program, which must run under valgrind --tool=ws, with gdb connected to
it ("target remote | vgdb --pid=<pid>").  "ws" alone is "ws help".
Commands may be abbreviated while they stay unambiguous; Tab completes
them, the parameters of "ws set", the kind of "ws hot", the key of "ws
heap" and the file name of "ws dump".

  ws help                 ws's list of commands
  ws status               time, tau, T, page size, on/off, current sizes,
                          samples so far, output file
  ws dump [<file>]        the pages of the current window, here or into
                          a file
  ws series [<n>]         the last n samples
  ws set tau <n>          the window tau from now on
  ws set every <n>        the sampling interval T from now on
  ws start, ws stop       measurement on (with a fresh window) or off
  ws mark <label>         a labelled event now; it names the region
  ws hot [<n>] [insn|data]   the hottest pages so far
  ws peaks                the peaks so far, with their stacks
  ws heap [<n>] [usage|useful|bytes|never]
                          the allocation sites that waste the most heap

A refused command answers with one line that says why and changes
nothing.  See docs/control.md of ws."""

    def __init__(self):
        super(WsCommand, self).__init__("ws", gdb.COMMAND_SUPPORT)

    def invoke(self, arg, from_tty):
        arg = arg.strip()
        try:
            gdb.execute("monitor ws " + (arg or "help"), from_tty)
        except gdb.error as e:
            if "not supported by this target" in str(e):
                raise gdb.GdbError(
                    "ws: gdb is not connected to a program running under "
                    "Valgrind; run it with valgrind --tool=ws --vgdb-error=0 "
                    "prog, then in gdb: target remote | vgdb --pid=<pid>")
            raise gdb.GdbError("ws: %s" % e)

    def complete(self, text, word):
        # gdb calls this twice: first with word None, to learn how to
        # split the line into words, then with the word to complete.
        _learn_commands()
        words = text.split()
        index = len(words) if (not words or text[-1].isspace()) \
            else len(words) - 1         # the word being completed
        command = _resolve(words[0]) if index > 0 else None
        if index == 1 and command == "dump":
            # A file name is one word, '/' and '.' included.
            if word is None:
                return gdb.COMPLETE_FILENAME
            return _file_names(word)
        word = word or ""
        if index == 0:
            return [c for c in _COMMANDS if c.startswith(word)]
        if index == 1 and command == "set":
            return [p for p in _SET_PARAMS if p.startswith(word)]
        # ws hot's kind and ws heap's key: right after the command, or
        # after its count.
        if command in ("hot", "heap") and (
                index == 1 or (index == 2 and words[1].isdigit())):
            keys = (("insn", "data") if command == "hot"
                    else ("usage", "useful", "bytes", "never"))
            return [k for k in keys if k.startswith(word)]
        return gdb.COMPLETE_NONE


WsCommand()
