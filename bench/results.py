"""What the measurement gathers and the report reads: for each program
and tool a Cell of runs, and the ratios to --tool=none."""

from common import median, ratio


class Cell:
    """All runs of one program under one tool."""

    def __init__(self):
        self.runs = []          # successful RunResults
        self.failure = None     # first failing RunResult
        self.not_run = None     # reason the tool was not run at all
        self.paired = []        # CPU time / none's in runs at the same time

    def wall(self):
        return None if self.failure or not self.runs else median([r.wall for r in self.runs])

    def rss(self):
        return None if self.failure or not self.runs else median([r.maxrss_kb for r in self.runs])

    def cpu_best(self):
        """The least user + system time of the runs: what Valgrind's own
        perf/vg_perf reports.  On a shared machine the wall time of one
        command varies by tens of per cent from run to run (other
        tenants, frequency); the best CPU time varies much less."""
        xs = [r.cpu for r in self.runs if r.cpu is not None]
        return None if self.failure or not xs else min(xs)

    def loop(self):
        xs = [r.loop_seconds for r in self.runs if r.loop_seconds is not None]
        return None if self.failure or not xs else median(xs)


class Results:
    def __init__(self, progs, tools):
        self.progs = progs
        self.tools = tools
        self.cells = {(p.name, t.name): Cell() for p in progs for t in tools}

    def cell(self, prog, tool):
        return self.cells.get((prog, tool))

    def time_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.wall(), n.wall()) if c and n else None

    def rss_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.rss(), n.rss()) if c and n else None

    def cpu_ratio(self, prog, tool):
        c, n = self.cell(prog, tool), self.cell(prog, "none")
        return ratio(c.cpu_best(), n.cpu_best()) if c and n else None

    def paired_ratio(self, prog, tool):
        c = self.cell(prog, tool)
        return median(c.paired) if c and c.paired else None
