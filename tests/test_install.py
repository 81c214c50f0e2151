"""make install (issue 19 item 5, docs/ws_print.1.in, docs/ws-monitor.1.in):
the installed programs come with man pages that `man -l` renders without a
warning and that describe every option their --help lists, the manual and
the other documents are installed, and what the installed programs point
to (ws_print --help, ws-monitor --help, gdb's `help ws`) is a file that
make install installed.

One `make install DESTDIR=<tmp>` of the build tree, shared by the tests:
the paths the programs name are absolute ($(docdir), fixed at configure
time), so each is looked for under DESTDIR.
"""

import os
import re
import shutil
import subprocess

import pytest

import wslib


def _env():
    """The environment without make check's own make variables, so that
    the make run here is a make of its own (no jobserver to share)."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    env["LC_ALL"] = "C.UTF-8"
    return env


@pytest.fixture(scope="module")
def dest(tmp_path_factory):
    d = tmp_path_factory.mktemp("install")
    p = subprocess.run(["make", "-C", wslib.TOP_BUILDDIR, "install",
                        "DESTDIR=%s" % d], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=_env(), timeout=300)
    assert p.returncode == 0, p.stdout.decode()[-3000:]
    files = {}
    for root, _, names in os.walk(str(d)):
        for n in names:
            full = os.path.join(root, n)
            files[full[len(str(d)):]] = full
    return str(d), files


def installed(files, suffix):
    (path,) = [v for k, v in files.items() if k.endswith(suffix)]
    return path


def render(page):
    """The page as man -l shows it on an 80-column terminal; man's and
    groff's warnings (--warnings) must be none."""
    assert shutil.which("man"), ("man is not installed (make check runs "
                                 "scripts/install-deps.sh check: man-db)")
    env = _env()
    env["MANWIDTH"] = "80"
    env["MAN_KEEP_FORMATTING"] = ""
    p = subprocess.run(["man", "--warnings", "-l", page],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=60)
    assert p.returncode == 0 and p.stderr == b"", p.stderr.decode()
    # man formats for a pager; without a terminal it still overstrikes
    # bold and underlined letters (x\bx, _\bx): keep the letters
    return re.sub(r".\x08", "", p.stdout.decode())


def help_options(text):
    """The options a --help lists: words that start with -- or -h."""
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-h)\b", text)))


def usage(files, program):
    """What the program's --help prints; for valgrind-ws, the tool's own
    part of `valgrind --tool=ws --help` (the build tree's ws)."""
    if program == "valgrind-ws":
        p = subprocess.run([wslib.VG_IN_PLACE, "--tool=ws", "--help"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60)
        text = p.stdout.decode()
        return text[text.index("user options for ws:"):
                    text.index("Extra options read from")]
    exe = installed(files, "/bin/" + program)
    p = subprocess.run([exe, "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    return p.stdout.decode()


@pytest.mark.parametrize("program,page", [
    ("ws_print", "ws_print.1"), ("ws-monitor", "ws-monitor.1"),
    ("valgrind-ws", "valgrind-ws.1")])
def test_man_page(dest, program, page):
    _, files = dest
    path = installed(files, "/share/man/man1/" + page)
    text = render(path)
    name = program.upper()
    assert text.startswith("%s(1)" % name), text[:200]
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS",
                    "EXIT STATUS", "SEE ALSO"):
        assert "\n%s\n" % section in text, section
    assert "@" not in text, "an unsubstituted @...@ in %s" % page
    opts = help_options(usage(files, program))
    assert len(opts) >= 5 and (
        "--help" in opts or program == "valgrind-ws"), opts
    flat = re.sub(r"\s+", " ", text.replace("\u2010", "-"))
    for opt in opts:
        # the page's options section has each as a heading: --width=n
        assert re.search(r"(?<![\w-])%s\b" % re.escape(opt), flat), (
            "%s(1) does not describe %s" % (program, opt))


def test_documents_installed(dest):
    _, files = dest
    src = wslib.TOP_SRCDIR
    wanted = ["README.md", "print/README.md"] + [
        "docs/" + n for n in sorted(os.listdir(os.path.join(src, "docs")))
        if n.endswith(".md")]
    for rel in wanted:
        path = installed(files, "/share/doc/ws/" + rel)
        with open(path, "rb") as a, open(os.path.join(src, rel), "rb") as b:
            assert a.read() == b.read(), rel
    # the README's picture, at the path the README names
    installed(files, "/share/doc/ws/docs/images/ws-report.png")


def named_paths(text):
    return re.findall(r"(/\S+?\.md)\b", text)


@pytest.mark.parametrize("program", ["ws_print", "ws-monitor"])
def test_help_names_installed_documents(dest, program):
    d, files = dest
    exe = installed(files, "/bin/" + program)
    p = subprocess.run([exe, "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    text = p.stdout.decode()
    assert "man %s" % program in text
    assert "docs/" not in re.sub(r"/\S*docs/", "", text), (
        "--help names a document by its path in the source tree")
    paths = named_paths(text)
    assert paths, text
    for path in paths:
        assert os.path.isfile(d + path), "%s names %s, not installed" % (
            program, path)


def test_gdb_help_names_installed_control_md(dest):
    d, files = dest
    gdb = shutil.which("gdb")
    assert gdb, "gdb is not installed (scripts/install-deps.sh check)"
    script = installed(files, "/share/ws/ws-gdb.py")
    p = subprocess.run([gdb, "-nx", "-batch", "-ex", "source " + script,
                        "-ex", "help ws"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    text = p.stdout.decode()
    (path,) = named_paths(text)
    assert path == installed(files, "/share/doc/ws/docs/control.md"), text


@pytest.mark.parametrize("platform", wslib.platforms())
def test_tool_installed_for_each_platform(dest, platform):
    """make install puts ws-<platform> beside Valgrind's none-<platform>
    for amd64 and, when this build made it, for x86 (32-bit programs):
    the file built here, whole."""
    name = "ws-%s-linux" % platform
    tool = installed(dest[1], "/" + name)
    assert os.path.dirname(tool[len(dest[0]):]) \
        == wslib.makefile_var("VALGRIND_LIBEXECDIR")
    with open(tool, "rb") as a, \
            open(os.path.join(wslib.TOP_BUILDDIR, "ws", name), "rb") as b:
        assert a.read() == b.read()
