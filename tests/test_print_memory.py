"""ws_print's memory does not grow with the file: a long run's output
file of hundreds of megabytes is read in bounded memory, and every figure
ws_print reports from it stays exact.

- two valid output files of the same shape (tests/bigfile.py), of about
  7.5 and 31 MB (450,000 and 1,800,000 samples): ws_print's peak memory
  (the maximum resident set of its process, VmHWM, from wait4; see
  run()) for the
  text report, --csv and --html stays under BOUND and within SAME of the
  same run on the other file, also when the file comes through a pipe;
- the figures equal those the test computed from the numbers it wrote:
  the samples' count, each kind's largest sample and its peak, the
  detected peaks, the summary of a file cut short (averages and maxima
  of the samples), per-thread figures, the data chart row by row (the
  chart's rule of print/README.md, applied here to every sample), every
  row of --csv (a hash), and the HTML report's thinned samples (each a
  sample of the file, the largest kept, the file's count and averages);
- a peak line that names a time no sample has is refused at its line
  when the samples were let go, before a later malformed line.

BOUND: before the change ws_print kept the whole file and 48 bytes a
sample (about 4 times the file: 31 MB for the 7.5 MB file, 117 MB for
the 31 MB one).  Now it keeps the samples while they take at most 8 MiB
(WSP_KEPT_BYTES), then lets them go and reads them again; with its line
buffer, its records and the C library it needs about 10 MB whatever the
file's size (measured: 10.0 MB on 7.5, 31 and 250 MB files).  40 MB
leaves room for another C library or allocator and fails on anything
that grows with the file; SAME (3 MB) is what a quadrupled file may add
(measured 0.1 MB)."""

import hashlib
import json
import os
import subprocess

import pytest

import bigfile
import wslib

PRINT = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print")
MEASURE = os.path.join(wslib.TOP_BUILDDIR, "tests", "progs", "measure")

N_SMALL, N_BIG = 450000, 1800000
BOUND = 40 << 20
SAME = 3 << 20
WIDTH, HEIGHT = 100, 12


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("big")
    made = {}
    for name, n, kw in (("small", N_SMALL, {"csv": True}),
                        ("big", N_BIG, {}),
                        ("threads-cut", N_SMALL,
                         {"per_thread": True, "complete": False,
                          "csv": True}),
                        ("bad-peak", N_SMALL, {"bad_peak": True})):
        path = str(d / (name + ".ws"))
        made[name] = (path, bigfile.write(path, n, **kw))
    return made


def run(args, tmp_path, stdin=None):
    """ws_print args: (exit status, stdout, stderr, peak memory in
    bytes).  It runs under bench/progs/measure.c, which forks it and
    takes its ru_maxrss from wait4: a process forked from pytest would
    start from pytest's own high-water mark, which Linux carries across
    exec."""
    wslib.require_built(PRINT, MEASURE)
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    res = tmp_path / "measured"
    with open(out, "wb") as o, open(err, "wb") as e:
        p = subprocess.run([MEASURE, str(res), PRINT] + args,
                           stdin=stdin or subprocess.DEVNULL, stdout=o,
                           stderr=e, timeout=600)
    assert p.returncode == 0, p
    got = dict(kv.split("=") for kv in res.read_text().split())
    return (int(got["status"]), out.read_text(errors="replace"),
            err.read_text(errors="replace"), int(got["maxrss_kb"]) * 1024)


def piped(path, args, tmp_path):
    cat = subprocess.Popen(["cat", path], stdout=subprocess.PIPE)
    try:
        return run(args + ["-"], tmp_path, stdin=cat.stdout)
    finally:
        cat.stdout.close()
        cat.wait()


MODES = {
    "text": lambda tmp: ["--width=%d" % WIDTH, "--height=%d" % HEIGHT],
    "csv": lambda tmp: ["--csv=%s" % (tmp / "s.csv")],
    "html": lambda tmp: ["--html", str(tmp / "r.html")],
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_memory_does_not_grow_with_the_file(files, tmp_path, mode):
    rss = {}
    for name in ("small", "big"):
        rc, _, err, rss[name] = run(MODES[mode](tmp_path) + [files[name][0]],
                                    tmp_path)
        assert rc == 0, err
        assert rss[name] < BOUND, (name, rss[name])
    assert abs(rss["big"] - rss["small"]) < SAME, rss
    rc, _, err, through_pipe = piped(files["big"][0], MODES[mode](tmp_path),
                                     tmp_path)
    assert rc == 0, err
    assert through_pipe < BOUND, through_pipe


def kb(pages):
    return "%d" % (pages * 4)


def test_csv_is_every_sample(files, tmp_path):
    for name in ("small", "threads-cut"):
        path, fig = files[name]
        csv = tmp_path / "s.csv"
        rc, _, err, _ = run(["--csv=%s" % csv, path], tmp_path)
        assert rc == 0, err
        with open(csv, "rb") as f:
            assert f.readline().decode() == fig.csv_header()
            h = hashlib.sha256()
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        assert h.hexdigest() == fig.csv.hexdigest(), name
    # and through a pipe, whose copy is kept for the second reading
    path, fig = files["small"]
    rc, out, err, _ = piped(path, ["--csv"], tmp_path)
    assert rc == 0, err
    assert hashlib.sha256(out.split("\n", 1)[1].encode()).hexdigest() \
        == fig.csv.hexdigest()


def expected_rows(fig, n, kind, width, height):
    """The plot rows of a chart by the rule of print/README.md: time from
    0 to the last time, each column an equal share; a column shows the
    largest sample taken in it, '#' the column of the run's largest; a
    blank column the next sample when that sample's window (t - tau, t]
    reaches back into it; the y axis from 0 to the peak, '.' under half
    a row."""
    tops = [max(fig.max[k], 1) for k in ("insn", "data")]
    top = max(fig.max[kind], 1)
    yw = len(str(max(tops)))
    cols = width - yw - 5
    tmax = float(fig.last_t)
    tau = float(bigfile.EVERY)
    col = [-1.0] * cols
    prev = -1
    at = {"insn": 1, "data": 2}[kind]

    def tcol(t):
        c = int(t / tmax * cols // 1)
        return min(max(c, 0), cols - 1)

    for i in range(fig.n):
        s = bigfile.sample(i, n)
        t, v = float(s[0]), float(s[at])
        c = tcol(t)
        for e in range(prev + 1, c):
            if t - tau < (e + 1) * tmax / cols:
                col[e] = v
        col[c] = max(col[c], v)
        prev = c
    peak_col = tcol(float(fig.max_t[kind]))
    mid = height // 2 if height >= 6 and top >= 4 else 0
    rows = []
    for r in range(height, 0, -1):
        if r == height:
            row = "%*d ^" % (yw, top)
        elif r == mid:
            row = "%*.0f |" % (yw, top * r / height)
        else:
            row = "%*s |" % (yw, "")
        for c in range(cols):
            ch = " "
            if col[c] > 0:
                h = int(col[c] * height / top + 0.5)
                if h >= r:
                    ch = "#" if c == peak_col else ":"
                elif h == 0 and r == 1:
                    ch = "."
            row += ch
        rows.append(row.rstrip())
    return rows


def test_text_report_figures(files, tmp_path):
    path, fig = files["small"]
    rc, out, err, _ = run(["--width=%d" % WIDTH, "--height=%d" % HEIGHT, path],
                          tmp_path)
    assert rc == 0, err
    assert "\nSamples:      %d\n" % fig.n in out
    assert "\n  Samples: %d\n" % fig.n in out
    (_, ti, mi), (_, td, md) = fig.peaks[:2]
    assert "  insn %d pages (%s kB) at t=%d i, #0 in main (big.c:30)\n" \
        % (mi, kb(mi), ti) in out, out
    assert "  data %d pages (%s kB) at t=%d i, #1 in fill (big.c:12)\n" \
        % (md, kb(md), td) in out, out
    for k, (_, t, size) in enumerate(fig.peaks[2:], 2):
        assert "  #%d  %d pages (%s kB) at t=%d i, " % (k, size, kb(size), t) \
            in out, out
    lines = out.split("\n")
    at = lines.index("Data working set, pages of 4096 bytes") + 1
    assert lines[at:at + HEIGHT] == expected_rows(fig, N_SMALL, "data",
                                                  WIDTH, HEIGHT)


def test_cut_file_summary_and_threads(files, tmp_path):
    """A file with no trailer: the summary comes from the samples, the
    per-thread figures always do."""
    path, fig = files["threads-cut"]
    rc, out, err, _ = run(["--width=%d" % WIDTH, path], tmp_path)
    assert rc == 0, err
    assert "showing its %d samples" % fig.n in err
    for k in ("insn", "data"):
        avg10 = (fig.sum[k] * 10 * 2 + fig.n) // (2 * fig.n)
        assert "  %s avg/peak: %d.%d/%d pages" % (
            k.capitalize(), avg10 // 10, avg10 % 10, fig.max[k]) in out, out
    assert "  shared data pages avg/peak: %.1f/%d\n" % (
        fig.sum["shared"] / fig.n, fig.max["shared"]) in out, out
    for tid, (n, si, sd, pi, pd) in sorted(fig.threads.items()):
        assert "  %6d %8d  %-16s %s\n" % (
            tid, n, "%.1f/%d" % (si / n, pi), "%.1f/%d" % (sd / n, pd)) \
            in out, out


def test_html_thinned(files, tmp_path):
    path, fig = files["small"]
    report = tmp_path / "r.html"
    rc, _, err, _ = run(["--html", str(report), path], tmp_path)
    assert rc == 0, err
    text = report.read_text()
    at = text.index("var WS = ") + len("var WS = ")
    data, _ = json.JSONDecoder().raw_decode(text[at:])
    thinned = data["thinned"]
    assert thinned["samples"] == fig.n
    for k in ("insn", "data"):
        avg10 = (fig.sum[k] * 10 * 2 + fig.n) // (2 * fig.n)
        # the sum, for the summary's kB (ws gives them from the unrounded sum)
        assert thinned[k] == [avg10 / 10, fig.max[k], fig.sum[k]], k
        assert max(data[k]) == fig.max[k]
    kept = len(data["t"])
    assert kept <= 8 * thinned["buckets"] < fig.n
    for t, insn, d in zip(data["t"], data["insn"], data["data"]):
        assert bigfile.sample(bigfile.index_of(t), N_SMALL)[:3] == (t, insn, d)
    assert data["t"] == sorted(set(data["t"]))


def test_peak_checked_against_samples_let_go(files, tmp_path):
    """The samples are read again to check the peak lines: a peak at a
    time no sample has is refused at its line, not at the malformed line
    after it."""
    path, fig = files["bad-peak"]
    _, t, size = fig.peaks[3]
    rc, out, err, _ = run([path], tmp_path)
    assert rc == 1 and out == ""
    assert err == "ws_print: %s:%d: no sample has %d data pages at t=%d\n" \
        % (path, fig.bad_line, size, t), err


def test_streamed_reading_under_sanitizers(files, tmp_path):
    """The samples let go and read again (from a file, and from the copy
    of a pipe), a peak checked late, the thinned view, under ASan and
    UBSan: the same output as ws_print, no sanitizer report."""
    asan = os.path.join(wslib.TOP_BUILDDIR, "print", "ws_print_asan")
    wslib.require_built(asan)
    env = wslib.sanitizer_env()
    cases = [("threads-cut", args, pipe)
             for args in (["--width=60", "--height=6"], ["--csv"],
                          ["--html", str(tmp_path / "h")])
             for pipe in (False, True)]
    cases.append(("bad-peak", [], False))
    for name, args, pipe in cases:
        path = files[name][0]
        want = run(args + [path], tmp_path)
        cat = subprocess.Popen(["cat", path], stdout=subprocess.PIPE) \
            if pipe else None
        p = subprocess.run([asan] + args + ["-" if pipe else path],
                           stdin=cat.stdout if pipe else subprocess.DEVNULL,
                           capture_output=True, env=env, timeout=300)
        if pipe:
            cat.stdout.close()
            cat.wait()
        err = p.stderr.decode("latin-1")
        assert "Sanitizer" not in err and "runtime error" not in err, (
            name, args, err[-3000:])
        assert p.returncode == want[0], (name, args, err)
        name_in = "(stdin)" if pipe else path
        assert p.stdout.decode(errors="replace") \
            == want[1].replace(path, name_in), (name, args)
        assert err == want[2].replace(path, name_in)
