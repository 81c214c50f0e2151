"""The miss profile in KCachegrind itself (Debian's kcachegrind), on a
virtual X server (xvfb-run, with a D-Bus session, which KCachegrind
needs to start).

tests/progs/miss's profile is loaded; the window, titled with the file's
name and the command of its cmd: line, shows that the whole header was
read; nothing on KCachegrind's standard error says that loading failed.
Then, as a user would: a click into the flat profile's search field,
"main" typed, a click on the first row; KCachegrind says on its standard
error which function it selected ('Selected  "main"'), and the callee
view (the lower right pane of its default layout) holds rows that it did
not hold before: main's calls of fresh_touch and hot_touch.  Each step
waits at most a bounded time for what it needs (the window, the
selection), never for the screen as such; the screenshots are X window
dumps (xwd) read here.

The clicks are at places of KCachegrind's default layout in its default
640x480 window (the flat profile's search field, its first row), which
the fresh HOME it runs with gives it.
"""

import os
import shutil
import struct
import subprocess
import sys
import time

import pytest

if __name__ != "__main__":
    import wslib

SEARCH = (95, 89)         # the flat profile's search field
FIRST_ROW = (190, 139)    # the first row of the flat profile
WAIT = 60                 # seconds, at most, for the window and the selection


def read_xwd(path):
    """(width, height, rows of (r, g, b) tuples) of an X window dump of
    depth 24 in 32-bit pixels (what Xvfb's 24-bit screen gives)."""
    data = open(path, "rb").read()
    h = struct.unpack(">25I", data[:100])
    size, version, width, height = h[0], h[1], h[4], h[5]
    byte_order, bytes_per_line, ncolors = h[7], h[12], h[19]
    assert version == 7 and bytes_per_line == 4 * width, h
    pixels = data[size + 12 * ncolors:]
    rows = []
    for y in range(height):
        line = pixels[y * bytes_per_line:(y + 1) * bytes_per_line]
        if byte_order == 0:        # LSBFirst: B G R x
            rows.append([(line[x + 2], line[x + 1], line[x])
                         for x in range(0, 4 * width, 4)])
        else:
            rows.append([(line[x + 1], line[x + 2], line[x + 3])
                         for x in range(0, 4 * width, 4)])
    return width, height, rows


def drive(profile, folder):
    """Runs inside xvfb-run and dbus-run-session: KCachegrind on
    profile, the clicks, two window dumps (before.xwd, after.xwd) in
    folder; its standard error in folder/kcachegrind.err.  Exit status
    0, or 2 with the step that did not happen."""
    home = os.path.join(folder, "home")
    os.makedirs(os.path.join(home, ".config"), exist_ok=True)
    os.makedirs(os.path.join(home, "run"), mode=0o700, exist_ok=True)
    with open(os.path.join(home, ".config", "kcachegrindrc"), "w") as f:
        f.write("[TipOfDay]\nRunOnStart=false\n")
    env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=os.path.join(home,
                                                                   "run"))
    err_path = os.path.join(folder, "kcachegrind.err")

    def xdotool(*args):
        return subprocess.run(["xdotool"] + [str(a) for a in args],
                              capture_output=True, text=True,
                              timeout=30).stdout

    def wait_for(what):
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            got = what()
            if got:
                return got
            time.sleep(0.25)
        return None

    def window():
        for w in xdotool("search", "--class", "kcachegrind").split():
            if os.path.basename(profile) in xdotool("getwindowname", w):
                return w
        return None

    def dump(win, name):
        with open(os.path.join(folder, name), "wb") as f:
            subprocess.run(["xwd", "-silent", "-id", win], stdout=f,
                           check=True, timeout=30)

    with open(err_path, "w") as err:
        kc = subprocess.Popen(["kcachegrind", profile], env=env,
                              stdout=subprocess.DEVNULL, stderr=err)
    try:
        win = wait_for(window)
        if win is None:
            print("no KCachegrind window named after %s" % profile)
            return 2
        with open(os.path.join(folder, "title"), "w") as f:
            f.write(xdotool("getwindowname", win))
        # the selection KCachegrind makes at load, before the clicks
        if not wait_for(lambda: "Selected" in open(err_path).read()):
            print("KCachegrind selected nothing at load")
            return 2
        # the views follow it in the same event, as after the clicks
        xdotool("sleep", "1")
        dump(win, "before.xwd")
        xdotool("windowfocus", "--sync", win)
        xdotool("mousemove", "--window", win, *SEARCH, "click", "1")
        xdotool("type", "--delay", "50", "main")
        # the list is filtered a moment after the typing: a click on its
        # first row selects main once it is
        def main_selected():
            xdotool("mousemove", "--window", win, *FIRST_ROW, "click", "1")
            xdotool("sleep", "0.5")
            return 'Selected  "main"' in open(err_path).read()

        if not wait_for(main_selected):
            print("KCachegrind did not select main")
            return 2
        # the views follow the selection in the same event; a dump is
        # taken once the X server has done the drawing asked before it
        xdotool("sleep", "1")
        dump(win, "after.xwd")
        return 0
    finally:
        kc.terminate()
        try:
            kc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            kc.kill()
            kc.wait()


def test_kcachegrind_shows_main_s_callees(tmp_path):
    for tool in ("kcachegrind", "xvfb-run", "dbus-run-session", "xdotool",
                 "xwd"):
        if shutil.which(tool) is None:
            pytest.skip("%s is not installed (scripts/install-deps.sh check "
                        "installs it where Debian has it)" % tool)
    prof = str(tmp_path / "miss.prof")
    run = wslib.run_ws([wslib.prog("miss"), "256", "8", "4", "25"],
                       ["--ws-every=10000", "--ws-miss-file=" + prof],
                       out_path=str(tmp_path / "ws.out"))
    assert run.stdout == "0\n"
    p = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1024x768x24",
                        "dbus-run-session", sys.executable, __file__, prof,
                        str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    err = open(tmp_path / "kcachegrind.err").read()
    assert p.returncode == 0, (p.stdout, p.stderr, err)
    # loaded: the title has the cmd: line's command; no loading error
    cmd = " ".join([wslib.prog("miss"), "256", "8", "4", "25"])
    assert (tmp_path / "title").read_text().startswith(
        "%s [%s]" % (prof, cmd))
    assert "rror" not in err and "failed" not in err.lower(), err
    # the callee view holds main's callees once main is selected
    w, h, before = read_xwd(str(tmp_path / "before.xwd"))
    w2, h2, after = read_xwd(str(tmp_path / "after.xwd"))
    assert (w, h) == (w2, h2) == (640, 480)
    colours = {px for row in after for px in row}
    assert len(colours) > 50, len(colours)          # not a blank window

    def dark(rows):
        """Pixels of text in the callee list: the lower right pane,
        below its header, above its scroll bar."""
        return {(x, y) for y in range(295, 405) for x in range(w // 2 + 30,
                                                               w - 10)
                if sum(rows[y][x]) < 3 * 128}

    # main's callees, not what the selection KCachegrind made at load
    # shows there (since code entered through pointers has names of its
    # own, that selection has callees of its own too)
    assert len(dark(after)) > 100, len(dark(after))
    assert dark(after) != dark(before)


if __name__ == "__main__":
    sys.exit(drive(sys.argv[1], sys.argv[2]))
