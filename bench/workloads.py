"""The workloads: the inputs the real programs read (generated, the same
in every run), the synthetic programs of bench/progs compiled, and the
table of programs.py filled in with them."""

import os
import random
import subprocess

from common import PROGS, TOP, WS_HEADER, HarnessError, human_bytes, quote
from programs import PROGRAMS, Program


def write_if_changed(path, data):
    if isinstance(data, str):
        data = data.encode()
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with open(path, "wb") as f:
        f.write(data)


def gen_text_and_random(size, seed):
    """Deterministic compressible input: Zipf-distributed made-up words with
    numbers, in lines, mixed with chunks of random bytes."""
    rng = random.Random(seed)
    syll = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "en", "al",
            "or", "qu", "th", "be", "di", "ex"]
    vocab = ["".join(rng.choice(syll) for _ in range(rng.randint(1, 4)))
             for _ in range(3000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    out = bytearray()
    while len(out) < size:
        if rng.random() < 0.08:
            out += rng.randbytes(rng.randint(64, 4096))
        else:
            words = rng.choices(vocab, weights, k=rng.randint(50, 400))
            line = []
            for w in words:
                line.append(w)
                if rng.random() < 0.08:
                    line.append(str(rng.randint(0, 99999)))
            out += " ".join(line).encode() + b".\n"
    return bytes(out[:size])


SQL_SCRIPT = """\
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
BEGIN;
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, name TEXT NOT NULL, v REAL);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {rows})
INSERT INTO t(id, k, name, v)
  SELECT x, (x * 7919) % 100003, printf('name-%08x', (x * 2654435761) % 4294967296), x * 0.5
  FROM c;
CREATE INDEX t_k ON t(k);
COMMIT;
SELECT count(*), sum(v) FROM t WHERE k BETWEEN 1000 AND 50000;
SELECT count(*) FROM t AS a JOIN t AS b ON b.k = a.id WHERE a.id % 10 = 0;
SELECT name FROM t WHERE k = 4242;
"""

PY_DICT = """\
# dict-heavy workload for the ws benchmark: build, probe, invert, delete.
import sys
n = int(sys.argv[1])
rounds = int(sys.argv[2])
total = 0
for r in range(rounds):
    d = {}
    for i in range(n):
        d["k%d" % (i * 7 + r)] = i
    for i in range(0, n, 3):
        total += d.get("k%d" % i, -1)
    inv = {v: k for k, v in d.items()}
    for i in range(0, n, 2):
        del d[inv[i]]
    total += len(d) + len(inv)
print(total)
"""


def make_inputs(build, sizes):
    """Writes the real programs' inputs under |build| (the generated ones
    once per size); returns the values the table's templates name: the
    sizes, the inputs' paths, the scratch database, and the compressors'
    input sizes for people."""
    inputs = os.path.join(build, "inputs")
    tmp = os.path.join(build, "tmp")
    os.makedirs(inputs, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    v = dict(sizes)
    for key, size, seed, name in (("xz_in", sizes["xz_bytes"], 1, "xz"),
                                  ("bz_in", sizes["bz_bytes"], 2, "bzip2")):
        v[key] = os.path.join(inputs, "%s-%d.bin" % (name, size))
        if not os.path.exists(v[key]):
            write_if_changed(v[key], gen_text_and_random(size, seed))
    v["sql"] = os.path.join(inputs, "sqlite-%d.sql" % sizes["sql_rows"])
    write_if_changed(v["sql"], SQL_SCRIPT.format(rows=sizes["sql_rows"]))
    v["db"] = os.path.join(tmp, "bench.db")
    v["py"] = os.path.join(inputs, "dict.py")
    write_if_changed(v["py"], PY_DICT)
    v["xz_size"] = human_bytes(sizes["xz_bytes"])
    v["bz_size"] = human_bytes(sizes["bz_bytes"])
    return v


def make_programs(build, sizes, exes):
    """The benchmark programs, in the order of the table; exes maps C
    program name -> binary (a program whose binary is missing is left
    out)."""
    values = make_inputs(build, sizes)
    progs = []
    for t in PROGRAMS:
        if t.exe is not None and not exes.get(t.exe):
            continue
        v = dict(values, exe=exes.get(t.exe), **t.params)
        if "mult" in t.params:
            v["rounds"] = t.params["mult"] * sizes["longrun_base"]

        def fill(template):
            return None if template is None else template.format(**v)
        progs.append(Program(
            t.name, t.group, [fill(x) for x in t.argv], real=t.real,
            stdin=fill(t.stdin), env=t.env, tools=t.tools,
            client_requests=t.client_requests, needs=t.needs,
            describe=fill(t.describe), scratch=fill(t.scratch)))
    return progs


def compile_progs(build, notes):
    """Compile bench/progs/*.c with gcc -O2 -g; return name -> binary."""
    exes = {}
    bindir = os.path.join(build, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name in ("measure", "scale", "longrun", "sparse", "region"):
        src = os.path.join(PROGS, name + ".c")
        exe = os.path.join(bindir, name)
        cmd = ["gcc", "-O2", "-g", "-Wall", "-o", exe, src]
        if name == "region":
            if not os.path.exists(WS_HEADER):
                notes.append("region.c not built: %s does not exist yet, so "
                             "the --ws-instr-atstart=no case was not run"
                             % os.path.relpath(WS_HEADER, TOP))
                continue
            cmd[1:1] = ["-I", os.path.join(TOP, "include"),
                        "-I", os.path.join(TOP, "include", "valgrind"),
                        "-idirafter", "/usr/include/valgrind"]
        if (os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src)
                and (name != "region" or
                     os.path.getmtime(exe) >= os.path.getmtime(WS_HEADER))):
            exes[name] = exe
            continue
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            msg = r.stdout.decode("utf-8", "replace").strip()
            if name == "region":
                # the client-request header is still being written: a ws
                # problem to report, not a harness error
                notes.append("region.c did not compile against %s:\n%s"
                             % (os.path.relpath(WS_HEADER, TOP), msg))
                print("FAILED to compile region.c:\n" + msg, flush=True)
                continue
            raise HarnessError("cannot compile %s:\n$ %s\n%s" % (src, quote(cmd), msg))
        exes[name] = exe
    return exes
