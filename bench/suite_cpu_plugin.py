"""A pytest plugin for bench_suite.py --per-test: the CPU each test costs (not a test; loaded with -p).

Per test (setup + call + teardown), in whichever process runs it (an xdist worker or the one pytest): user+sys
CPU of that process (RUSAGE_SELF: the in-memory relay, the test's own code, the SDK) and of the children it
waited for meanwhile (RUSAGE_CHILDREN: git, the fake agy, relay processes, and whatever they waited for), and the
wall seconds. One JSON line per test into ``$SUITE_CPU_OUT/<worker>.jsonl``; the process's whole-session figures
(collection and start-up included) as a last line with ``"nodeid": null`` (for xdist's controller only its own
CPU: its children are the workers).
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

_OUT = os.environ.get("SUITE_CPU_OUT")


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _file():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return (Path(_OUT) / f"{worker}.jsonl").open("a", encoding="utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not _OUT:
        yield
        return
    own, kids, wall = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.monotonic()
    yield
    line = {"nodeid": item.nodeid, "self": _cpu(resource.RUSAGE_SELF) - own,
            "children": _cpu(resource.RUSAGE_CHILDREN) - kids, "wall": time.monotonic() - wall}
    with _file() as out:
        out.write(json.dumps(line) + "\n")


def pytest_sessionfinish(session, exitstatus):
    if not _OUT:
        return
    # xdist's controller has reaped its workers by now: their CPU is counted in their own lines, not again here.
    controller = session.config.pluginmanager.has_plugin("dsession")
    with _file() as out:
        out.write(json.dumps({"nodeid": None, "self": _cpu(resource.RUSAGE_SELF),
                              "children": 0.0 if controller else _cpu(resource.RUSAGE_CHILDREN)}) + "\n")
