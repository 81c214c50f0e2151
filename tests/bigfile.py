"""Large synthetic output files of format 4, valid by the grammar of
docs/output-format.md, for ws_print on files as long as long runs write
(tests/test_print_memory.py, bench/print_memory.py).

write(path, n_samples, per_thread=False, complete=True) writes the file
and returns its Figures: what ws_print must report from it, computed
here from the numbers written (the count, each column's sum and largest
value with the time of its first largest sample, each thread id's
figures, the peaks, and with csv the SHA-256 of the rows --csv must
write).

The samples follow a deterministic pattern (a sawtooth with phases, one
largest instruction sample at a third of the run, one largest data
sample at two thirds), with a mark every 100,000 samples and a stop and
a start in the middle; per-thread files have thread 1 throughout and
thread 2 in every other stretch of 50,000 samples.  The trailer has a
region, hot pages, a stack, a peak line for each kind's largest sample
and three detected peaks at samples spread over the run (each with owner
lines that add up to its size), the summary and the count.  A file that
is not complete ends without its trailer, in the middle of a sample
line, as a killed run leaves it.  bad_peak: the second detected peak
names a time no sample has, and a malformed line follows the trailer's
peak lines (a reader must name the peak's line, the earlier one)."""

import hashlib

EVERY = 1000
LABELS = ["parse", "build", "query", "flush", "idle"]
MARK_EVERY = 100000
TIDS = (1, 2)                 # the per-thread columns' thread ids


def header(per_thread):
    return ("ws-output-format: 4\ntool: ws 0.1.0\ncommand: ./long-run --big\n"
            "pid: 4242\nppid: 1\ntime-unit: i\nevery: %d\ntau: %d\n"
            "pagesize: 4096\nsyscalls: yes\nper-thread: %s\n"
            "instr-atstart: yes\ncount-rep: once\nheap-usage: no\n"
            "columns: %s\n" % (EVERY, EVERY, "yes" if per_thread else "no",
                               "t insn data shared {tid insn data}..."
                               if per_thread else "t insn data"))


class Figures:
    """What a file holds, as ws_print must report it."""

    def __init__(self, per_thread, csv):
        self.per_thread = per_thread
        self.with_csv = csv
        self.n = 0
        self.sum = {"insn": 0, "data": 0, "shared": 0}
        self.max = {"insn": 0, "data": 0, "shared": 0}
        self.max_t = {"insn": None, "data": None}
        self.threads = {}        # tid -> [n, sum insn, sum data, max i, max d]
        self.last_t = 0
        self.peaks = []          # (kind, t, size), in the trailer's order
        self.csv = hashlib.sha256()
        self.cut = False
        self.bad_line = None     # bad_peak: the line of the bad peak

    def add(self, t, insn, data, shared, thr):
        self.n += 1
        self.last_t = t
        sm, mx = self.sum, self.max
        sm["insn"] += insn
        sm["data"] += data
        sm["shared"] += shared
        if insn > mx["insn"]:
            mx["insn"] = insn
            self.max_t["insn"] = t
        if data > mx["data"]:
            mx["data"] = data
            self.max_t["data"] = t
        if shared > mx["shared"]:
            mx["shared"] = shared
        if self.with_csv:
            row = "%d,%d,%d" % (t, insn, data)
            if self.per_thread:
                by_tid = {tid: (ti, td) for tid, ti, td in thr}
                row += ",%d" % shared + "".join(
                    ",%d,%d" % by_tid[tid] if tid in by_tid else ",,"
                    for tid in TIDS)
            self.csv.update((row + "\n").encode())
        if not self.per_thread:
            return
        for tid, ti, td in thr:
            s = self.threads.setdefault(tid, [0, 0, 0, 0, 0])
            s[0] += 1
            s[1] += ti
            s[2] += td
            s[3] = max(s[3], ti)
            s[4] = max(s[4], td)

    def csv_header(self):
        if not self.per_thread:
            return "t,insn,data\n"
        return "t,insn,data,shared" + "".join(
            ",tid%d_insn,tid%d_data" % (tid, tid) for tid in TIDS) + "\n"


def detected_at(n):
    """Three samples well inside the run that the trailer lists as
    detected peaks, most prominent first (by the sizes they have)."""
    return [n // 5 + 11, n // 2 + 17, 4 * n // 5 + 23]


def special(n):
    """The samples that stand out: index -> (insn, data) or None for the
    pattern's own."""
    s = {n // 3: (900, None), 2 * n // 3: (None, 9000)}
    for k, i in enumerate(detected_at(n)):
        s[i] = (None, 800 - 50 * k)
    return s


def sample(i, n, specials=None):
    """The columns of sample i of n: t, insn, data, shared, threads."""
    t = EVERY * (i + 1) + i % 7
    insn = 20 + (i * 37) % 50
    data = 100 + (i * 7919) % 400 + (i // 10000) % 3 * 50
    sp = (specials if specials is not None else special(n)).get(i)
    if sp:
        insn = sp[0] if sp[0] is not None else insn
        data = sp[1] if sp[1] is not None else data
    shared = data // 4
    thr = [(1, insn - insn // 4, data - shared - 3)]
    if (i // 50000) % 2:
        thr.append((2, insn // 4, shared + 3))
    return t, insn, data, shared, thr


def index_of(t):
    """The sample index of a sample time."""
    return t // EVERY - 1


class Writer:
    def __init__(self, f):
        self.f = f
        self.lines = 0

    def write(self, text):
        self.f.write(text)
        self.lines += text.count("\n")


def write(path, n_samples, per_thread=False, complete=True, bad_peak=False,
          csv=False):
    n = n_samples
    assert n >= 100000, "thread 2 and the peaks need room"
    fig = Figures(per_thread, csv)
    wanted = {i: None for i in detected_at(n)}
    with open(path, "w") as f:
        out = Writer(f)
        out.write(header(per_thread))
        out.write("event 0 thread-start 1\n")
        buf = []
        specials = special(n)
        for i in range(n):
            t, insn, data, shared, thr = sample(i, n, specials)
            if i == n // 2:
                buf.append("event %d stop\nevent %d start\n" % (t - 3, t - 2))
            if i % MARK_EVERY == 0 and i:
                buf.append("event %d mark %s\n"
                           % (t - 1, LABELS[(i // MARK_EVERY) % 5]))
            if per_thread:
                buf.append("%d %d %d %d %s\n" % (
                    t, insn, data, shared,
                    " ".join("%d %d %d" % x for x in thr)))
            else:
                buf.append("%d %d %d\n" % (t, insn, data))
            if complete or i < n - 1:     # a cut last line is left out
                fig.add(t, insn, data, shared, thr)
            if i in wanted:
                wanted[i] = (t, data)
            if len(buf) >= 20000:
                out.write("".join(buf))
                buf = []
        if not complete:
            # a killed run: no trailer, the last line cut in two
            last = buf.pop()
            out.write("".join(buf))
            out.write(last[:len(last) // 2])
            fig.cut = True
            return fig
        t_end = fig.last_t
        buf.append("event %d final\nevent %d thread-exit 1\n" % (t_end, t_end))
        out.write("".join(buf))
        out.write("region 2 %d insn 40.0 900 100 data 300.0 9000 12000 "
                  "label parse\n" % (n // 2))
        out.write("hot insn 1 1000000 0x401000 0x401000 big.c:10 main\n"
                  "hot data 1 5000000 0x600000 0x401010 big.c:12 fill\n"
                  "hot-owner anon\n"
                  "stack 1 2\nframe 0x401010 big.c:12 fill\n"
                  "frame 0x401100 big.c:30 main\n")
        mi, md = fig.max["insn"], fig.max["data"]
        out.write("peak 0 insn %d %d 20 largest rise 1 1\n"
                  % (fig.max_t["insn"], mi))
        out.write("owner 0 %d code big main\n" % mi)
        out.write("peak 1 data %d %d 100 largest,detected rise 1 0\n"
                  % (fig.max_t["data"], md))
        out.write("owner 1 %d heap 1\nowner 1 %d anon\n" % (md - 1000, 1000))
        fig.peaks = [("insn", fig.max_t["insn"], mi),
                     ("data", fig.max_t["data"], md)]
        # detected peaks, most prominent first: baselines that make each
        # one stand out less than the one before
        for k, i in enumerate(detected_at(n)):
            t, data = wanted[i]
            base = data - (600 - 100 * k)
            if bad_peak and k == 1:
                t += 1
                fig.bad_line = out.lines + 1
            out.write("peak %d data %d %d %d detected sample 1 -\n"
                      % (2 + k, t, data, base))
            out.write("owner %d %d anon\n" % (2 + k, data))
            fig.peaks.append(("data", t, data))
        if bad_peak:
            out.write("peaks 5 found four\n")
        out.write("peaks %d found 4\n" % len(fig.peaks))
        for k in ("insn", "data"):
            avg10 = (fig.sum[k] * 10 * 2 + fig.n) // (2 * fig.n)
            out.write("summary %s %d.%d %d %d\n"
                      % (k, avg10 // 10, avg10 % 10, fig.max[k],
                         fig.max[k] * 2))
        out.write("samples %d\nend\n" % fig.n)
    return fig
