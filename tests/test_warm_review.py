"""relay.call.warm: the server starts without the review; a run starts its import in the background, once."""

from __future__ import annotations

import subprocess
import sys

import pytest

# One fresh interpreter answers both tests (each started its own before: ~1.5 s of CPU apiece, the relay and its
# review imported from cold); conftest.SHARED_RUN_FILES keeps this file on one xdist worker, so it starts once.
# What it prints, line by line: the review absent at the server's start, the warm-up started once a process, the
# review imported by it, and how many patterns the first review compiled after the warm-up.
_PROBE = """
import re._compiler as compiler
import sys
import relay.doors.mcp_server  # the server's modules, as `gravity-relay serve` loads them
print("relay.review.packet" not in sys.modules)
from relay.call.warm import warm_review
first = warm_review()
print(warm_review() is first)  # once a process
first.join(60)
print("relay.review.packet" in sys.modules and "relay.review.diff_view" in sys.modules)
from relay.core.records import FileChange
from relay.observe.changes import ChangeSet
from relay.review.packet import build_review

compiled = []
real = compiler.compile
compiler.compile = lambda pattern, flags=0: (compiled.append(pattern), real(pattern, flags))[1]
build_review(ChangeSet(source="report", files=[FileChange(path="lib/other.py", kind="added", additions=2,
                                                           added_lines=["import os", "y = os.getenv('A')"])]), report=None)
print(len(compiled))
"""


@pytest.fixture(scope="module")
def probe() -> tuple[list[str], str]:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, (done.stdout, done.stderr[-2000:])
    return done.stdout.split(), done.stderr[-2000:]


def test_a_run_imports_the_review_in_the_background_once_and_the_start_does_not(probe):
    said, stderr = probe
    assert said[:3] == ["True", "True", "True"], (said, stderr)


def test_the_warm_up_makes_the_first_review_so_a_run_stopped_as_the_client_leaves_compiles_no_pattern(probe):
    # Claude Code SIGKILLs a stdio server 0.5 s after its SIGINT: a stopped run's review then must not be the one
    # that compiles the rules' path patterns (49 of them, ~20 ms of CPU, ~10x that on a loaded machine). Broke: the
    # warm-up only imported the review, and the first review of the process compiled them.
    said, stderr = probe
    assert said[3:] == ["0"], (said, stderr)
