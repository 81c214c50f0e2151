"""pytest setup for the ws tests: lets the tests import wslib and oracle,
and gives them a `ws` fixture that runs ws with a unique output file."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wslib  # noqa: E402


@pytest.fixture
def ws(tmp_path):
    """ws(argv, *options, **kw) runs argv under ws with the output file in
    this test's own temporary folder; returns a wslib.WsRun."""
    count = [0]

    def run(argv, *options, **kw):
        count[0] += 1
        kw.setdefault("out_path", str(tmp_path / ("ws.out.%d" % count[0])))
        return wslib.run_ws(argv, options, **kw)

    return run
