"""An independent model of ws's peaks (docs/manual.md, "Peaks"): from a
run's samples alone, which samples the detector flags, which runs of them
are peaks and where each peak's record ends, and which peaks the output
file must list (the largest sample of each kind, of the run and of each
named region, then the most prominent detected peaks up to --ws-peaks).

The arithmetic is the C code's, operation for operation, in IEEE doubles
(Python's floats are the same doubles, and neither the C code nor this one
fuses a multiply and an add), including the square root and exp(-y) ws
computes without libm, so every decision, boundaries included, must come
out the same: a sample exactly at a threshold is flagged or not in both.

What the model does not know: a forked child's detector goes on from its
parent's statistics (compare parents only), and the stacks and owners
(the tests check those against the programs' sources).
"""

WARMUP = 5
MIN_RISE_BYTES = 16384
SIGMA_UNIT = 5.0
MEAN_UNIT = 10.0
DAMPING = 0.25
MOVE_DIV = 16


def square_root(x):
    """ws_peaks.c's square_root: Newton's iteration from above."""
    if x <= 0.0:
        return 0.0
    r = x if x > 1.0 else 1.0
    for _ in range(2000):
        nxt = 0.5 * (r + x / r)
        if nxt >= r:
            break
        r = nxt
    return r


def exp_minus(y):
    """ws_peaks.c's exp_minus: exp(-y) by halving, Taylor, squaring."""
    if y > 700.0:
        return 0.0
    halvings = 0
    while y > 0.5:
        y /= 2.0
        halvings += 1
    term = total = 1.0
    for i in range(1, 17):
        term *= -y / i
        total += term
    for _ in range(halvings):
        total *= total
    return total


class Detector:
    """One kind's detector."""

    def __init__(self, window, pagesize):
        self.window = window
        self.min_rise = max(MIN_RISE_BYTES // pagesize, 1)
        self.mean = self.var = 0.0
        self.seen = 0
        self.in_peak = False
        self.run_size = 0

    def stands_out(self, x, thresh):
        rise = x - self.mean
        if self.seen < WARMUP or rise < float(self.min_rise):
            return False
        fano = self.var / self.mean if self.mean > 0.0 else 1.0e9
        c = 1.0 - exp_minus(fano / 2.0)
        limit = float(thresh) * (c * square_root(self.var) / SIGMA_UNIT
                                 + (1.0 - c) * self.mean / MEAN_UNIT)
        return rise > limit

    def learn(self, x):
        alpha = 2.0 / (float(self.window) + 1.0)
        self.seen += 1
        if alpha < 1.0 / float(self.seen):
            alpha = 1.0 / float(self.seen)
        delta = x - self.mean
        self.mean += alpha * delta
        self.var = (1.0 - alpha) * (self.var + alpha * delta * delta)


class Record:
    """A sample that may be reported: i (its index among the samples), t,
    size, baseline (the mean it was compared with), and why."""

    def __init__(self, kind, i, t, size, baseline):
        self.kind, self.i, self.t, self.size = kind, i, t, size
        self.baseline = baseline
        self.largest = self.detected = False
        self.regions = []

    @property
    def prominence(self):
        return self.size - self.baseline

    def key(self):
        """Sort key: the most prominent first (as more_prominent)."""
        rel = self.prominence / (self.baseline if self.baseline > 1.0
                                 else 1.0)
        return (-self.prominence, -rel, self.t, self.kind != "insn")

    def why(self):
        return [w for w, on in (("largest", self.largest),
                                ("region", bool(self.regions)),
                                ("detected", self.detected)) if on]

    def __repr__(self):
        return "<record %s t=%d %d base=%.3f %s>" % (
            self.kind, self.t, self.size, self.baseline, self.why())


def regions_of(out):
    """[(label or None, first sample index, last + 1)] of the run's regions
    (docs/output-format.md: from a start or a region-start to the next
    stop, named by the latest mark when it stops)."""
    spans, label, start = [], None, None
    times = [s.t for s in out.samples]
    lines = sorted([(e.lineno, e) for e in out.events], key=lambda x: x[0])
    sample_lines = [s.lineno for s in out.samples]

    def index_after(lineno):
        return sum(1 for ln in sample_lines if ln < lineno)
    for _, e in lines:
        if e.kind == "mark":
            label = " ".join(e.args)
        elif e.kind in ("start", "region-start"):
            start = index_after(e.lineno)
        elif e.kind == "stop" and start is not None:
            spans.append((label, start, index_after(e.lineno)))
            start = None
    if start is not None:
        spans.append((label, start, len(times)))
    return spans


def peaks(out, window=30, thresh=5, npeaks=10):
    """The peaks the output file `out` (wslib's reading) must list, in file
    order: [Record].  window, thresh, npeaks: --ws-peak-window,
    --ws-peak-thresh (its value at the start; `set peak-thresh` events
    change it from their time on), --ws-peaks.  Also returns the number of
    peaks the detector found: (records, found)."""
    changes = sorted((e.lineno, int(e.args[1])) for e in out.events
                     if e.kind == "set" and e.args[0] == "peak-thresh")
    reported_all = []
    found = 0
    spans = regions_of(out)
    for kind in ("insn", "data"):
        d = Detector(window, out.pagesize)
        listed = []            # the detected peaks' current records
        run_rec = None
        largest = None
        region_best = {}       # span index -> Record
        g = thresh
        for i, s in enumerate(out.samples):
            g = thresh
            for lineno, value in changes:
                if lineno < s.lineno:
                    g = value
            x = getattr(s, kind)
            flagged = d.stands_out(float(x), g)
            rec = Record(kind, i, s.t, x, d.mean)
            if flagged and not d.in_peak:
                found += 1
                d.run_size = x
                run_rec = rec
                listed.append(rec)
            elif flagged and x >= d.run_size + (d.run_size + MOVE_DIV - 1) \
                    // MOVE_DIV:
                d.run_size = x
                if run_rec in listed:
                    listed.remove(run_rec)
                run_rec = rec
                listed.append(rec)
            if largest is None or x > largest.size:
                largest = rec
            for j, (label, a, b) in enumerate(spans):
                if a <= i < b and (j not in region_best
                                   or x > region_best[j].size):
                    region_best[j] = rec
            d.in_peak = flagged
            d.learn(d.mean + DAMPING * (float(x) - d.mean) if flagged
                    else float(x))
        # the named regions' largest: per label, the largest over its
        # regions (the first region's on a tie)
        by_label = {}
        for j, (label, a, b) in enumerate(spans):
            r = region_best.get(j)
            if label is None or r is None:
                continue
            if label not in by_label or r.size > by_label[label].size:
                by_label[label] = r
        out_recs = []

        def add(r):
            if all(q is not r for q in out_recs):
                out_recs.append(r)
        if largest is not None:
            largest.largest = True
            add(largest)
        for label, r in by_label.items():
            r.regions.append(label)
            add(r)
        listed.sort(key=Record.key)
        for r in listed[:npeaks]:
            r.detected = True
        for r in listed:
            if len(out_recs) >= npeaks:
                break
            add(r)
        out_recs.sort(key=Record.key)
        reported_all += out_recs
    return reported_all, found
