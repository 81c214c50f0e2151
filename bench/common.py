"""What the modules of the benchmark harness share: where the tree and
the built tool are, the harness's errors, and small helpers for numbers,
command lines and log files."""

import os
import re
import shutil
import statistics

BENCH = os.path.dirname(os.path.abspath(__file__))
# `make bench` passes WS_TOP_SRCDIR, WS_TOP_BUILDDIR and WS_VG_IN_PLACE (the
# tree may be built out of the source folder); run by hand, the defaults are
# this source tree.
TOP = os.path.abspath(os.environ.get("WS_TOP_SRCDIR") or os.path.dirname(BENCH))
TOP_BUILD = os.path.abspath(os.environ.get("WS_TOP_BUILDDIR") or TOP)
PROGS = os.path.join(BENCH, "progs")
VG_IN_PLACE = os.path.abspath(os.environ.get("WS_VG_IN_PLACE")
                              or os.path.join(TOP_BUILD, "vg-in-place"))
WS_HEADER = os.path.join(TOP, "include", "valgrind", "ws.h")


class HarnessError(Exception):
    pass


class UsageError(Exception):
    pass


def have(binary):
    return shutil.which(binary) is not None


def quote(argv):
    out = []
    for a in argv:
        if re.fullmatch(r"[\w@%+=:,./-]+", a):
            out.append(a)
        else:
            out.append("'" + a.replace("'", "'\\''") + "'")
    return " ".join(out)


def tail(path, n=12):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return ["(cannot read %s: %s)" % (path, e)]
    lines = data.decode("utf-8", "replace").rstrip("\n").split("\n")
    return lines[-n:] if lines != [""] else ["(empty)"]


def median(xs):
    return statistics.median(xs) if xs else None


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def human_bytes(n):
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f:
            v = n / f
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.1f %s" % (v, unit))
    return "%d B" % n


def fmt_ratio(x):
    return "-" if x is None else "%.2f" % x


def fmt_s(x):
    return "-" if x is None else "%.2f" % x


def write_section(path, begin, end, text):
    """Put |text| (a markdown section from the line |begin| to the line
    |end|) into the file at |path|: in place of the one that is there,
    else at the end."""
    old = open(path).read() if os.path.exists(path) else ""
    if begin in old and end in old:
        i, j = old.index(begin), old.index(end) + len(end)
        new = old[:i] + text.rstrip("\n") + old[j:]
    else:
        new = old.rstrip("\n") + "\n\n---\n\n" + text
    with open(path, "w") as f:
        f.write(new)
