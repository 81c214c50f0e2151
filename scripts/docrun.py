"""docrun: how scripts/gen-docs runs what the documents show.

A Scene is one run's directory, environment and normalisation (see
gen-docs for what is normalised and why); the helpers below start a
program that waits on its input, send it monitor commands through vgdb,
run gdb in batch mode as a session with prompts, and drive a program on a
pseudo-terminal as a person would.
"""

import fcntl
import os
import pty
import re
import select
import shlex
import shutil
import struct
import subprocess
import tempfile
import termios
import time

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOWN_DIR = "/home/you/work"
FIRST_PID = 4711
TIMEOUT = 120

# The environment of every run: what a shell gives at least, the same
# for everyone, so that the program starts with the same stack.  The
# dynamic linker finds the libraries in LIBDIR (LD_LIBRARY_PATH) and so
# never reads /etc/ld.so.cache: that file grows when packages are
# installed, which moves every library it loads (and with them every
# mapping made after them) and changes how many instructions and pages
# the program's start-up takes.
LIBDIR = "/usr/lib/x86_64-linux-gnu"
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
       "TERM": "dumb", "LD_LIBRARY_PATH": LIBDIR}


class Scene:
    """One scene's directory, runs and normalisation."""

    def __init__(self, builddir):
        self.builddir = builddir
        # /tmp/ws-doc-XXXXXXXX: the same length wherever the tree is
        self.dir = tempfile.mkdtemp(prefix="ws-doc-", dir="/tmp")
        assert len(self.dir) == len("/tmp/ws-doc-") + 8, self.dir
        os.symlink(os.path.join(builddir, ".in-place"),
                   os.path.join(self.dir, "lib"))
        with open(os.path.join(builddir, ".in-place",
                               ".valgrind-launcher")) as f:
            self.valgrind = f.read().strip()
        self.env = dict(ENV, HOME=self.dir,
                        VALGRIND_LIB=os.path.join(self.dir, "lib"))
        # the tree's programs through links in the scene's directory: the
        # environment's size, and with it the instruction counts of the
        # program's start-up, must not depend on where the tree is
        os.mkdir(self.path("bin"))
        for prog in ("monitor/ws-monitor", "print/ws_print"):
            os.symlink(os.path.join(builddir, prog),
                       self.path("bin", os.path.basename(prog)))
        self.env["PATH"] = "%s:%s" % (self.path("bin"), ENV["PATH"])
        self.prefix = os.path.join(self.dir, "vgdb")
        self.pids = {}
        self.procs = []

    def path(self, *rel):
        return os.path.join(self.dir, *rel)

    def copy_in(self, rel, target):
        """rel (in the scene's directory) as a copy of target: no path of
        the tree reaches the program or what ws names (a mapping's file)."""
        d = os.path.dirname(self.path(rel))
        os.makedirs(d, exist_ok=True)
        shutil.copy2(target, self.path(rel))

    def argv(self, line):
        """A shown command line as it is run: valgrind is the launcher of
        the build tree's Valgrind, vgdb and ws-monitor get the scene's
        --vgdb-prefix."""
        argv = shlex.split(line)
        if argv[0] == "valgrind":
            argv[0] = self.valgrind
            argv.insert(1, "--vgdb-prefix=" + self.prefix)
        elif argv[0] in ("vgdb", "ws-monitor"):
            argv.insert(1, "--vgdb-prefix=" + self.prefix)
        return argv

    def run(self, line):
        """Runs a shown command; returns (status, stdout, stderr)."""
        p = subprocess.run(self.argv(line), cwd=self.dir, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
        return (p.returncode, p.stdout.decode(errors="replace"),
                p.stderr.decode(errors="replace"))

    def start(self, line, stdin=subprocess.PIPE):
        """Starts a shown command; its standard error goes to a file of
        the scene (stderr_of)."""
        with open(self.path("stderr.%d" % len(self.procs)), "wb") as err:
            p = subprocess.Popen(self.argv(line), cwd=self.dir, env=self.env,
                                 stdin=stdin, stdout=subprocess.PIPE,
                                 stderr=err)
        self.procs.append(p)
        return p

    def stderr_of(self, p):
        with open(self.path("stderr.%d" % self.procs.index(p)),
                  errors="replace") as f:
            return f.read()

    def shown_pid(self, pid):
        if pid not in self.pids:
            self.pids[pid] = max([FIRST_PID - 1] + [
                v for v in self.pids.values() if v >= FIRST_PID]) + 1
        return self.pids[pid]

    def normalise(self, text, pids=()):
        """pids: the processes the text names other than in Valgrind's
        ==<pid>== prefixes, which are found here."""
        for pid in list(pids) + [int(m) for m in
                                 re.findall(r"^==([0-9]+)==", text, re.M)]:
            self.shown_pid(pid)
        # the scene's --vgdb-prefix is not shown (nor typed by a user)
        text = text.replace("--vgdb-prefix=%s " % self.prefix, "")
        for real, shown in self.pids.items():
            # only where a pid is named, not a count that has its digits:
            # ==pid==, pid N, --pid=N, --pid N, process N, file.N, the
            # prompt ws(N)> and the first column of ws-monitor's listing
            # (keeping its width)
            text = re.sub(r"(==|pid[ =]|--pid |process |\.|ws\()%d(?![0-9])"
                          % real, lambda m: m.group(1) + str(shown), text)
            text = re.sub(r"^%d( +)" % real, lambda m: "%-*d" % (
                len(m.group(0)), shown), text, flags=re.M)
        # where the tree is (source file names in debug information)
        text = text.replace(SRCDIR + "/", "")
        return text.replace(self.dir, SHOWN_DIR)

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_blocked(pid, timeout=30):
    """Until the process sits in read(0, ...): nothing runs while vgdb
    looks at it, so what it answers is the same on every run."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            with open("/proc/%d/syscall" % pid) as f:
                if f.read().split()[:2] == ["0", "0x0"]:
                    return
        except OSError:
            pass
        time.sleep(0.02)
    raise RuntimeError("process %d did not block reading its input" % pid)


def server(sc, line):
    """A program under ws that reads commands on its standard input
    (tests/progs/ctl_server), started and waiting."""
    p = sc.start(line)
    ready = p.stdout.readline().decode()
    if not ready.startswith("ready"):
        raise RuntimeError("%s said %r:\n%s" % (line, ready,
                                                  sc.stderr_of(p)))
    wait_blocked(p.pid)
    return p


def tell(p, command):
    p.stdin.write((command + "\n").encode())
    p.stdin.flush()
    answer = p.stdout.readline().decode()
    assert answer.startswith(("ok", "current")), answer
    wait_blocked(p.pid)


def finish(p):
    p.stdin.close()
    assert p.wait(timeout=TIMEOUT) == 0


def vgdb(sc, pid, command):
    """What vgdb prints for one monitor command (given as one word, as a
    shell user quotes a v.clo command)."""
    p = subprocess.run(sc.argv("vgdb --pid=%d" % pid) + [command],
                       cwd=sc.dir, env=sc.env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout.decode(errors="replace")


def transcript(sc, pid, commands, tool="vgdb"):
    """`$ vgdb --pid=N command` and its reply, for each command."""
    out = []
    for c in commands:
        shown = c if not c.startswith("v.") else '"%s"' % c
        if tool == "vgdb":
            # vgdb also says "sending command ..." on its stderr
            out.append("$ vgdb --pid=%d %s" % (pid, shown))
            out.append(vgdb(sc, pid, c).rstrip("\n"))
            continue
        line = "ws-monitor --pid %d %s" % (pid, c)
        p = subprocess.run(sc.argv(line), cwd=sc.dir, env=sc.env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=TIMEOUT)
        out.append("$ " + line + ("; echo $?" if p.returncode else ""))
        out.append(p.stdout.decode(errors="replace").rstrip("\n"))
        if p.returncode:
            out.append(str(p.returncode))
    return "\n".join(l for l in out if l != "")


def excerpt(lines, keep):
    """The lines keep() wants, each run of left-out lines as one '...'."""
    out = []
    for i, line in enumerate(lines):
        if keep(i, line):
            out.append(line)
        elif out and out[-1] != "...":
            out.append("...")
    return out


def ws_tail(stderr):
    """The summary ws ends its run with: from the Insn line to the end,
    without Valgrind's closing blank ==N== line."""
    lines = stderr.rstrip("\n").split("\n")
    (first,) = [i for i, l in enumerate(lines)
                if re.match(r"==[0-9]+== Insn avg/peak/total", l)]
    tail = lines[first:]
    while tail and re.fullmatch(r"==[0-9]+== ?", tail[-1]):
        tail.pop()
    return "\n".join(tail)


# ---------------------------------------------------------------------------
# The scenes

def compile_program(sc, docs, name):
    """FILE from the document's `<!-- program FILE -->` block, compiled
    as docs/control.md says (with debug information, no optimisation)."""
    with open(sc.path(name), "w") as f:
        f.write(docs.programs[name])
    cflags = subprocess.run(["pkg-config", "--cflags", "valgrind"],
                            stdout=subprocess.PIPE, check=True,
                            timeout=60).stdout.decode().split()
    exe = name.rsplit(".", 1)[0]
    subprocess.run(["gcc", "-g", "-O0", "-I", os.path.join(SRCDIR, "include")]
                   + cflags + ["-o", exe, name], cwd=sc.dir, check=True,
                   timeout=TIMEOUT)
    return exe


def gdb_transcript(sc, exe, commands, before=(), after=()):
    """gdb -q EXE running the commands in batch mode, as a session with
    prompts: each command after `(gdb) `, then what gdb printed for it
    (standard output and error, in order).  before: options shown on
    the command line; after: commands run but not shown."""
    argv = ["gdb", "-q", "-nx", "-batch", "-ex", "set pagination off"]
    for b in before:
        argv += ["-ex", b]
    for i, c in enumerate(list(commands) + list(after)):
        run = c.replace("vgdb ", "vgdb --vgdb-prefix=%s " % sc.prefix)
        argv += ["-ex", "echo @@%d\\n" % i, "-ex", run]
    argv.append(exe)
    g = subprocess.run(argv, cwd=sc.dir, env=sc.env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=TIMEOUT)
    out = g.stdout.decode(errors="replace").rstrip("\n").split("\n")
    shown = ["$ gdb -q %s%s" % ("".join("-ex '%s' " % b for b in before),
                                exe)]
    for l in out:
        m = re.fullmatch(r"@@([0-9]+)", l)
        if m:
            if int(m.group(1)) >= len(commands):
                break
            shown.append("(gdb) " + commands[int(m.group(1))])
        elif "does not support file transfer" not in l:
            shown.append(l)
    return shown


class Terminal:
    """A program on a pseudo-terminal of 100 x 40, as a person runs it:
    what it writes is read as it comes."""

    def __init__(self, sc, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(sc.dir)
            os.execve(argv[0], argv, dict(sc.env, TERM="xterm",
                                          COLUMNS="100", LINES="40"))
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ,
                    struct.pack("HHHH", 40, 100, 0, 0))
        self.seen = b""

    def type(self, keys):
        os.write(self.fd, keys.encode())

    def until(self, pattern, timeout=60):
        """Reads until pattern (a regex on the text read since the last
        call) is found; returns that text."""
        end = time.time() + timeout
        start = len(self.seen)
        while True:
            text = self.seen[start:].decode(errors="replace")
            if re.search(pattern, text):
                return text
            if time.time() > end:
                raise RuntimeError("no %r in %r" % (pattern, text[-2000:]))
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    pass

    def close(self):
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return status


def screen_text(raw):
    """What a terminal shows of raw output that has no cursor movements
    but line ends and screen clears: escape sequences out, from the last
    screen clear on."""
    raw = raw.split("\x1b[H\x1b[2J")[-1]
    raw = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]", "",
                 raw)
    return raw.replace("\r\n", "\n").replace("\r", "")


def output_lines(sc, line, program):
    """Runs `valgrind --tool=ws ... program` in the scene and returns the
    lines of its output file (ws.out)."""
    name = program.split()[0]
    if not name.startswith("./"):      # ./x: made in the scene
        sc.copy_in(name, os.path.join(sc.builddir, name))
    rc, _, err = sc.run("valgrind --tool=ws --ws-out-file=ws.out %s %s"
                        % (line, program))
    assert rc == 0, err
    with open(sc.path("ws.out")) as f:
        lines = f.read().rstrip("\n").split("\n")
    os.unlink(sc.path("ws.out"))
    return lines


def stack_block(lines, ident):
    """The lines of `stack <ident> n` and its n frames."""
    (i,) = [k for k, l in enumerate(lines)
            if l.startswith("stack %s " % ident)]
    return lines[i:i + 1 + int(lines[i].split()[2])]
