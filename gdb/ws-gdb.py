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
# their arguments, as the connected ws describes them ("ws help
# internal").  docs/control.md (installed into $(docdir)/docs) describes
# the commands.
#
# It also adds the convenience functions $_ws_data() and $_ws_insn(), the
# current working-set sizes in pages, so that a breakpoint can test them:
# "break f if $_ws_data() > 1000".
#
# gdb's own "ws" is an alias of "while-stepping", used only in tracepoint
# action lists; this command takes its place, so spell that one out.

import os

import gdb



def _control_doc():
    """Where the commands are described: docs/control.md where make install
    puts it, $(docdir)/docs beside this script's $(datadir)/ws, else in the
    tree this script is in, else the man page that points to it."""
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../doc/ws/docs/control.md", "../docs/control.md"):
        path = os.path.normpath(os.path.join(here, rel))
        if os.path.isfile(path):
            return path
    return "control.md in ws's documentation directory (man ws-monitor)"


# What the connected ws knows, from its "ws help internal" (one record
# a line, docs/control.md "For programs"): {command: [argument]}, each
# argument a dict of "kind", "optional" and "choices", and the names of
# the settable parameters.  Learned the first time completion runs while
# gdb is connected; this script has no list of its own.
_INTERNAL_VERSION = "1"
_commands = {}
_params = []


def _learn():
    """Reads what the connected ws knows, once."""
    global _commands, _params
    if _commands:
        return
    try:
        if gdb.selected_inferior().pid <= 0:
            return
        text = gdb.execute("monitor ws help internal", to_string=True)
    except (gdb.error, RuntimeError):
        return
    commands, params, version = {}, [], None
    for line in text.split("\n"):
        w = line.split()
        if len(w) == 2 and w[0] == "ws-internal":
            version = w[1]
        elif version != _INTERNAL_VERSION:
            continue
        elif len(w) == 2 and w[0] == "command":
            commands[w[1]] = []
        elif len(w) >= 5 and w[0] == "arg" and w[1] in commands \
                and w[2] == str(len(commands[w[1]]) + 1):
            commands[w[1]].append({"optional": w[3] == "optional",
                                   "kind": w[4], "choices": w[5:]})
        elif len(w) >= 2 and w[0] == "param":
            params.append(w[1])
    _commands, _params = commands, params


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


def _resolve(word, names):
    """The one name that word names or abbreviates, or None (as ws's
    VG_(keyword_id) takes it)."""
    if word in names:
        return word
    found = [n for n in names if n.startswith(word)]
    return found[0] if len(found) == 1 else None


def _fits(arg, word):
    """Whether a word of the line may be the argument arg."""
    if arg["kind"] == "number":
        return word.isdigit()
    if arg["kind"] == "choice":
        return word in arg["choices"]
    if arg["kind"] == "param":
        return _resolve(word, _params) is not None
    return True


def _after(command, given):
    """What may come after the words given to command: (candidate words,
    whether a file name may come there); (None, False) if nothing."""
    args, i = _commands[command], 0
    # Each word given takes the first argument it may be, passing over
    # optional ones it may not.
    for word in given:
        while i < len(args):
            if args[i]["kind"] == "text":
                return None, False        # the rest of the line is text
            if _fits(args[i], word):
                break
            if not args[i]["optional"]:
                return None, False
            i += 1
        if i >= len(args):
            return None, False            # one word too many
        i += 1
    words, file_name = [], False
    # The next argument, and those after it while they are optional.
    for arg in args[i:]:
        if arg["kind"] == "choice":
            words += arg["choices"]
        elif arg["kind"] == "param":
            words += _params
        elif arg["kind"] == "file":
            file_name = True
        if not arg["optional"]:
            break
    return words, file_name


class WsCommand(gdb.Command):
    __doc__ = """Send a command to the ws tool of the program (monitor ws ...).

Usage: ws COMMAND [ARGUMENTS]

Sends "monitor ws COMMAND ARGUMENTS" to the Valgrind gdbserver of the
program, which must run under valgrind --tool=ws, with gdb connected to
it ("target remote | vgdb --pid=<pid>").  "ws" alone is "ws help".
Commands may be abbreviated while they stay unambiguous; Tab completes
them and their arguments (the parameters of "ws set", a file name).

"ws help" lists the commands of the ws the program runs under; this
command learns them, their arguments and the parameters of "ws set"
from it ("ws help internal") for completion.

A refused command answers with one line that says why and changes
nothing.  See %s.""" % _control_doc()

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
        _learn()
        words = text.split()
        index = len(words) if (not words or text[-1].isspace()) \
            else len(words) - 1         # the word being completed
        # gdb's word may be the end of ours ("thresh" of "peak-thresh":
        # gdb breaks words at '-'); what is returned completes gdb's.
        ours = "" if index == len(words) else words[-1]
        if index == 0:
            candidates, file_name = list(_commands), False
        else:
            command = _resolve(words[0], list(_commands))
            if command is None:
                return gdb.COMPLETE_NONE
            candidates, file_name = _after(command, words[1:index])
        if file_name:
            # A file name is one word, '/' and '.' included; a word of
            # the argument before it ("full" of "ws dump") comes first.
            if word is None:
                return gdb.COMPLETE_FILENAME
            return [c for c in candidates if c.startswith(word)] \
                or _file_names(word)
        if word is None or not ours.endswith(word):
            word = ours
        return [word + c[len(ours):] for c in candidates or []
                if c.startswith(ours)]


class _WsSize(gdb.Function):
    """The current size of a working set, in pages, from the ws tool of
    the program ("monitor ws status"), so that a breakpoint condition can
    test it: break f if $_ws_data() > 1000.  Outside a program running
    under ws it is an error."""

    def __init__(self, name, line):
        super(_WsSize, self).__init__(name)
        self._name = name
        self._line = line

    def invoke(self):
        try:
            text = gdb.execute("monitor ws status", to_string=True)
        except gdb.error as e:
            raise gdb.GdbError("$%s: gdb is not connected to a program "
                               "running under Valgrind's ws (%s)"
                               % (self._name, e))
        for line in text.split("\n"):
            w = line.split(":")
            if len(w) == 2 and w[0].strip() == self._line \
                    and w[1].strip().isdigit():
                return int(w[1])
        raise gdb.GdbError("$%s: 'monitor ws status' gave no '%s' line"
                           % (self._name, self._line))


class WsData(_WsSize):
    """$_ws_data(): the pages of the current data working set (ws status,
    "data pages").  Usage: break f if $_ws_data() > 1000"""

    def __init__(self):
        super(WsData, self).__init__("_ws_data", "data pages")


class WsInsn(_WsSize):
    """$_ws_insn(): the pages of the current instruction working set (ws
    status, "insn pages").  Usage: break f if $_ws_insn() > 100"""

    def __init__(self):
        super(WsInsn, self).__init__("_ws_insn", "insn pages")


WsCommand()
WsData()
WsInsn()
