"""Sampling at the extremes: a sample at every superblock boundary
(--ws-every=1: 26,000 samples for a program that only starts and exits,
each line parsed, times strictly increasing, as many samples as
boundaries (--stats=yes), totals the same as with the default T)."""

import os
import re

import pytest

import oracle
import wslib


P = wslib.prog


def stats_boundaries(stderr):
    m = re.search(r"ws: slow-path calls: [0-9,]+ data, [0-9,]+ code, "
                  r"([0-9,]+) boundaries", stderr)
    assert m, stderr[-2000:]
    return int(m.group(1).replace(",", ""))


# ----------------------------------------------------------------------
# --ws-every=1

@pytest.mark.parametrize("argv,opts", [
    (["marker", os.devnull], []),
    (["rel_churn", "50", "0"], ["--ws-per-thread=yes"])],
    ids=["marker", "churn-per-thread"])
def test_every_1(ws, argv, opts):
    """T = 1: the sample of k*T is due at every superblock boundary, so
    every boundary but the first (at t = 0) takes one.  With tau = 1 the
    window (t-1, t] holds the last instruction only when the superblock
    before was one instruction long; ws starts windows at superblock
    boundaries, so otherwise it is empty."""
    argv = [P(argv[0])] + argv[1:]
    run = ws(argv, "--ws-every=1", "--stats=yes", *opts)
    wslib.check_trailer(run)         # the parser checks each line and
    out = run.output                 # that times strictly increase
    n = len(out.samples)
    assert n > 20000, n
    assert n == out.nsamples == run.summary["samples"]
    assert n == stats_boundaries(run.stderr)
    gaps = [b.t - a.t for a, b in zip(out.samples, out.samples[1:])]
    assert 1 <= min(gaps) and max(gaps) <= oracle.SB_MAX, (min(gaps),
                                                          max(gaps))
    for s, gap in zip(out.samples[1:], gaps):
        if gap > 1:
            assert (s.insn, s.data) == (0, 0), s
        else:
            assert 1 <= s.insn <= 2 and s.data <= 2, s
    assert out.samples[0].t <= oracle.SB_MAX
    # totals are distinct pages ever touched: T does not change them
    other = ws(argv, *opts).check_ok().output
    assert other.summary["insn"][2] == out.summary["insn"][2]
    assert other.summary["data"][2] == out.summary["data"][2]
    if out.per_thread:
        assert all(set(s.threads) <= {1, 2} for s in out.samples)
