"""--ws-count-rep: a rep-prefixed string instruction counts once (the
default, as the processor retires it) or once per iteration (as lackey and
cachegrind count it).

tests/progs/reps runs six rep instructions per round whose iteration counts
follow from its argument N (its comment derives them): with `each`, a round
counts 3N + N/8 + N/2 instructions more than with `once`.  Start-up (the
dynamic linker's and libc's own rep instructions) is the same for any
number of rounds, so the difference between 3 rounds and 1 round is exact.
test_oracle.py compares both modes with lackey's trace sample by sample
("reps", "reps-each", "xz-each"); this file checks the counts from the
source.
"""


import wslib

N = 4096


def _clock_at_exit(tmp_path, mode, rounds):
    run = wslib.run_ws([wslib.prog("reps"), str(N), str(rounds)],
                       ["--ws-count-rep=" + mode],
                       out_path=str(tmp_path / ("ws.%s.%d" % (mode, rounds))))
    exits = [e.t for e in run.output.events
             if e.kind == "thread-exit" and e.args == ["1"]]
    assert len(exits) == 1, run.output.events
    return exits[0]


def test_each_counts_every_iteration_once_counts_one(tmp_path):
    clock = {(m, r): _clock_at_exit(tmp_path, m, r)
             for m in ("once", "each") for r in (1, 3)}
    per_round = 3 * N + N // 8 + N // 2
    extra = {r: clock[("each", r)] - clock[("once", r)] for r in (1, 3)}
    assert extra[3] - extra[1] == 2 * per_round, (clock, per_round)
    # once: two more rounds are a few hundred instructions of C code
    # (-O0) around the six rep instructions, whatever N is
    assert 0 < clock[("once", 3)] - clock[("once", 1)] < 2 * 400, clock


def test_default_is_once(tmp_path):
    default = wslib.run_ws([wslib.prog("reps"), str(N), "2"],
                           out_path=str(tmp_path / "ws.default")).output
    once = wslib.run_ws([wslib.prog("reps"), str(N), "2"],
                        ["--ws-count-rep=once"],
                        out_path=str(tmp_path / "ws.once")).output
    assert ([e.t for e in default.events if e.kind == "thread-exit"]
            == [e.t for e in once.events if e.kind == "thread-exit"])
