"""The project's targets for ws's speed and memory (bench/README.md,
Targets) as a table, and a run's results checked against them: the rows
of the report's Targets section, each (status, text) with status PASS,
FAIL, n/a (not measured in this run) or info (a figure with no target).
"""

from common import median, ratio
from programs import SCALE_LARGE, SCALE_SMALL

# key, limit, what is compared
TARGETS = [
    ("ws_median", 2.0, "ws wall / none, median over the real programs "
     "(and ws CPU / none in paired runs)"),
    ("ws_each", 2.5, "ws wall / none, every real program (and ws CPU / none "
     "in paired runs)"),
    ("ws64_median", 3.0, "--ws-pagesize=64 wall / none, median over the "
     "real programs"),
    ("scale", 1.2, "ws t(N=262144) / t(N=1024)"),
    ("longrun_rss", 1.05, "ws peak RSS, 10x longer run / 1x"),
    ("ws_rss", 1.5, "ws peak RSS / none, every real program"),
    # the next step (issue 20), in paired CPU time; FAIL until reached
    ("goal_median", 1.6, "goal: ws CPU / none in paired runs, median"),
    ("goal_each", 1.8, "goal: ws CPU / none in paired runs, every real "
     "program"),
    ("goal64_median", 2.2, "goal: --ws-pagesize=64 wall / none, median"),
]
LIMIT = {key: limit for key, limit, _ in TARGETS}


class _Check:
    """The results of one run and what was selected: the helpers every
    section of summarise() uses."""

    def __init__(self, res, tool_names, failed_tools):
        self.res = res
        self.tool_names = tool_names
        self.failed_tools = failed_tools
        self.real = [p.name for p in res.progs
                     if p.real and res.cell(p.name, "none").wall()]
        self.names = {p.name for p in res.progs}

    def tool_state(self, t):
        if t not in self.tool_names:
            return "n/a", "%s not selected" % t
        if t in self.failed_tools:
            return "FAIL", "%s did not start" % t
        return None, None

    def per_real(self, t, fn):
        vals, missing = {}, []
        for p in self.real:
            v = fn(p, t)
            if v is None:
                missing.append(p)
            else:
                vals[p] = v
        return vals, missing

    def detail(self, vals):
        return ", ".join("%s %.2f" % (p, vals[p]) for p in self.real if p in vals)


def _measured(c, t, fn, what):
    """fn(p, t) of the real programs, the programs that have none, and
    the FAIL row that says so (if any)."""
    vals, missing = c.per_real(t, fn)
    return vals, missing, ([("FAIL", "%s: no %s data for %s (runs failed)"
                             % (what, t, ", ".join(missing)))] if missing else [])


def _pass(ok):
    return "PASS" if ok else "FAIL"


def _cpu_info(c):
    """The same ratios in CPU time, best of the runs (information: the
    targets are on wall time)."""
    rows = []
    for t in ("ws", "memcheck", "ws64"):
        if t in c.tool_names and t not in c.failed_tools:
            vals, _ = c.per_real(t, c.res.cpu_ratio)
            if vals:
                rows.append(("info", "%s CPU / none (user+sys, best of the runs), median over "
                             "real programs: %.2f (%s)" % (t, median(list(vals.values())),
                                                          c.detail(vals))))
    return rows


def _paired(c):
    """ws and none run at the same time on one core (--paired)."""
    vals, missing = c.per_real("ws", c.res.paired_ratio)
    if not vals or "ws" in c.failed_tools:
        return []
    n_pairs = max(len(c.res.cell(p, "ws").paired) for p in vals)
    m = median(list(vals.values()))
    worst = max(vals, key=vals.get)
    return [(_pass(m <= LIMIT["ws_median"] and not missing),
             "ws CPU / none in paired runs (ws with none beside it on one core, median of "
             "%d pairs), median over real programs <= %.1f: %.2f (%s)"
             % (n_pairs, LIMIT["ws_median"], m, c.detail(vals))),
            (_pass(vals[worst] <= LIMIT["ws_each"] and not missing),
             "ws CPU / none in paired runs, each real program <= %.1f: worst "
             "%.2f (%s)" % (LIMIT["ws_each"], vals[worst], worst)),
            (_pass(m <= LIMIT["goal_median"] and not missing),
             "goal: ws CPU / none in paired runs, median <= %.1f: %.2f"
             % (LIMIT["goal_median"], m)),
            (_pass(vals[worst] <= LIMIT["goal_each"] and not missing),
             "goal: ws CPU / none in paired runs, each real program <= %.1f: "
             "worst %.2f (%s)" % (LIMIT["goal_each"], vals[worst], worst))]


def _classic_tools(c):
    """Reference: medians of the classic tools."""
    rows = []
    for t in ("memcheck", "cachegrind"):
        if t in c.tool_names:
            vals, _ = c.per_real(t, c.res.time_ratio)
            if vals:
                rows.append(("info", "%s wall / none, median over real programs: %.2f "
                             "(range %.2f-%.2f)" % (t, median(list(vals.values())),
                                                    min(vals.values()), max(vals.values()))))
    return rows


def _ws_wall(c):
    """ws's wall time: median and each, and below memcheck."""
    st, why = c.tool_state("ws")
    median_label = "ws wall / none, median over real programs <= %.1f" % LIMIT["ws_median"]
    each_label = "ws wall / none, each real program <= %.1f" % LIMIT["ws_each"]
    if not c.real:
        return [("n/a", "ws wall / none: no real program was run")]
    if st:
        return [(st, "%s: %s" % (median_label, why)), (st, "%s: %s" % (each_label, why)),
                (st if "memcheck" in c.tool_names else "n/a",
                 "ws wall below memcheck, each real program: %s" % why)]
    vals, missing, rows = _measured(c, "ws", c.res.time_ratio, "ws wall / none")
    if vals:
        m = median(list(vals.values()))
        rows.append((_pass(m <= LIMIT["ws_median"] and not missing),
                     "%s: %.2f" % (median_label, m)))
        worst = max(vals, key=vals.get)
        rows.append((_pass(vals[worst] <= LIMIT["ws_each"] and not missing),
                     "%s: worst %.2f (%s)" % (each_label, vals[worst], worst)))
    if "memcheck" in c.tool_names and vals:
        mc, _ = c.per_real("memcheck", c.res.time_ratio)
        slower = [p for p in vals if p in mc and vals[p] >= mc[p]]
        unknown = [p for p in vals if p not in mc]
        detail = ", ".join("%s %.2f vs %.2f" % (p, vals[p], mc[p]) for p in vals if p in mc)
        if slower or missing or unknown:
            rows.append(("FAIL", "ws wall below memcheck, each real program: %s%s%s"
                         % (detail, "; not below on " + ", ".join(slower) if slower else "",
                            "; no memcheck data for " + ", ".join(unknown) if unknown else "")))
        else:
            rows.append(("PASS", "ws wall below memcheck, each real program: " + detail))
    elif "memcheck" not in c.tool_names:
        rows.append(("n/a", "ws wall below memcheck, each real program: memcheck not selected"))
    return rows


def _ws64_wall(c):
    st, why = c.tool_state("ws64")
    if not c.real:
        return []
    if st:
        return [(st, "ws --ws-pagesize=64 wall / none, median <= %.1f: %s"
                 % (LIMIT["ws64_median"], why))]
    vals, missing, rows = _measured(c, "ws64", c.res.time_ratio,
                                    "ws --ws-pagesize=64 wall / none")
    if vals:
        m = median(list(vals.values()))
        rows.append((_pass(m <= LIMIT["ws64_median"] and not missing),
                     "ws --ws-pagesize=64 wall / none, median over real programs <= %.1f: "
                     "%.2f (range %.2f-%.2f)" % (LIMIT["ws64_median"], m, min(vals.values()),
                                                 max(vals.values()))))
        rows.append((_pass(m <= LIMIT["goal64_median"] and not missing),
                     "goal: ws --ws-pagesize=64 wall / none, median <= %.1f: %.2f"
                     % (LIMIT["goal64_median"], m)))
    return rows


def _between(c, measure, big, small, tools, fmt):
    """measure(big) / measure(small) for each of |tools| that was
    selected and has both, as 'tool ratio' texts."""
    out = []
    for t in tools:
        if t in c.tool_names:
            r = ratio(measure(c.res.cell(big, t)), measure(c.res.cell(small, t)))
            if r is not None:
                out.append(("%s " + fmt) % (t, r))
    return out


def _ws_growth(c, label, measure, big, small, fmt, limit, extra):
    """The target on ws's measure(big) / measure(small)."""
    st, why = c.tool_state("ws")
    if st:
        return [(st, "%s: %s%s" % (label, why, extra))]
    r = ratio(measure(c.res.cell(big, "ws")), measure(c.res.cell(small, "ws")))
    if r is None:
        return [("FAIL", "%s: no data (ws runs failed)%s" % (label, extra))]
    return [(_pass(r <= limit), ("%s: " + fmt + "%s") % (label, r, extra))]


def _scale(c):
    if not {"scale-1k", "scale-256k"} <= c.names:
        return [("n/a", "scale: scale-1k and scale-256k not both run")]
    base = _between(c, lambda x: x.wall(), "scale-256k", "scale-1k", ("none", "ws64"), "%.2f")
    loop = _between(c, lambda x: x.loop(), "scale-256k", "scale-1k",
                    ("none", "ws", "ws64"), "%.2f")
    extra = []
    if base:
        extra.append("for comparison " + ", ".join(base))
    if loop:
        extra.append("loop phase alone (timed by the program): " + ", ".join(loop))
    extra = (" (" + "; ".join(extra) + ")") if extra else ""
    label = "scale: ws t(N=%d) / t(N=%d) <= %.1f" % (SCALE_LARGE, SCALE_SMALL, LIMIT["scale"])
    return _ws_growth(c, label, lambda x: x.wall(), "scale-256k", "scale-1k", "%.2f",
                      LIMIT["scale"], extra)


def _longrun(c):
    if not {"longrun-x1", "longrun-x10"} <= c.names:
        return [("n/a", "long run: longrun-x1 and longrun-x10 not both run")]
    label = "long run: ws peak RSS x10 / x1 <= %.2f" % LIMIT["longrun_rss"]
    extra = _between(c, lambda x: x.rss(), "longrun-x10", "longrun-x1", ("none", "ws64"),
                     "%.3f")
    extra = (" (for comparison " + ", ".join(extra) + ")") if extra else ""
    return _ws_growth(c, label, lambda x: x.rss(), "longrun-x10", "longrun-x1", "%.3f",
                      LIMIT["longrun_rss"], extra)


def _memory(c):
    """ws's peak RSS against none's, on the real programs."""
    st, why = c.tool_state("ws")
    label = "ws peak RSS / none (4 KiB pages), each real program <= %.1f" % LIMIT["ws_rss"]
    if not c.real:
        return []
    if st:
        return [(st, "%s: %s" % (label, why))]
    vals, missing, rows = _measured(c, "ws", c.res.rss_ratio, "ws peak RSS / none")
    if vals:
        worst = max(vals, key=vals.get)
        rows.append((_pass(vals[worst] <= LIMIT["ws_rss"] and not missing),
                     "%s: worst %.2f (%s), median %.2f" % (label, vals[worst], worst,
                                                           median(list(vals.values())))))
    vals64, _ = (c.per_real("ws64", c.res.rss_ratio) if "ws64" in c.tool_names
                 else ({}, []))
    if vals64:
        rows.append(("info", "ws --ws-pagesize=64 peak RSS / none: median %.2f, worst %.2f (%s)"
                     % (median(list(vals64.values())), max(vals64.values()),
                        max(vals64, key=vals64.get))))
    return rows


def _sparse(c):
    if "sparse" not in c.names:
        return [("n/a", "sparse: not run")]
    rows = []
    for t in ("ws", "ws64"):
        st, why = c.tool_state(t)
        label = "sparse 4 GiB address space works under %s" % t
        if st:
            rows.append((st, "%s: %s" % (label, why)))
            continue
        cell = c.res.cell("sparse", t)
        if cell.failure:
            rows.append(("FAIL", "%s: %s" % (label, cell.failure.problem)))
        elif cell.runs:
            rows.append(("PASS", "%s: %.2f s, %.0f MB peak RSS" % (label, cell.wall(),
                                                                   cell.rss() / 1024)))
        else:
            rows.append(("FAIL", "%s: not run" % label))
    return rows


def _region(c):
    if "region" not in c.names:
        return []
    st, why = c.tool_state("ws-atstart-no")
    label = "region (--ws-instr-atstart=no, tiny measured region): ws wall / none"
    if st:
        return [("n/a" if st == "n/a" else st, "%s: %s" % (label, why))]
    r = c.res.time_ratio("region", "ws-atstart-no")
    full = c.res.time_ratio("region", "ws")
    if r is None:
        return [("FAIL", "%s: no data (runs failed)" % label)]
    return [("info", "%s: %.2f%s" % (label, r, "" if full is None else
                                     " (measuring everything: %.2f)" % full))]


SECTIONS = [_cpu_info, _paired, _classic_tools, _ws_wall, _ws64_wall, _scale,
            _longrun, _memory, _sparse, _region]


def summarise(res, tool_names, failed_tools):
    """Return list of (status, text) rows; status PASS, FAIL, n/a or info."""
    c = _Check(res, tool_names, failed_tools)
    rows = []
    for section in SECTIONS:
        rows += section(c)
    return rows
