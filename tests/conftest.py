"""pytest setup for the ws tests: lets the tests import wslib and oracle,
and gives them fixtures:

- ws: runs ws with a unique output file in the test's own folder;
- server: tests/progs/ctl_server under ws with vgdb on (ctl_util.Server),
  blocked reading the pipe the test writes to, killed after the test;
- server_factory: server_factory(**kw) makes more, or other ones
  (options, another program: ctl_util.Server's arguments), each in a
  folder of its own and killed after the test.

make check runs the tests in two processes (pytest-xdist, --dist
loadgroup): the tests that use a module-scoped fixture run in the process
that runs the rest of their file (so the fixture runs once); every other
test goes to whichever process is free, as each has its own folder, vgdb
prefix and processes."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wslib  # noqa: E402


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d and d[-1].scope == "module" for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


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


@pytest.fixture
def server_factory(tmp_path):
    import ctl_util
    made = []

    def make(**kw):
        d = tmp_path / ("server%d" % len(made))
        d.mkdir()
        s = ctl_util.Server(d, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.kill()


@pytest.fixture
def server(server_factory):
    return server_factory()
