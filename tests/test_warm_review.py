"""relay.call.warm: the server starts without the review; a run starts its import in the background, once."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
import relay.doors.mcp_server  # the server's modules, as `gravity-relay serve` loads them
assert "relay.review.packet" not in sys.modules, "the review is imported at start"
from relay.call.warm import warm_review
first = warm_review()
assert warm_review() is first  # once a process
first.join(60)
assert "relay.review.packet" in sys.modules and "relay.review.diff_view" in sys.modules
print("ok")
"""


def test_a_run_imports_the_review_in_the_background_once_and_the_start_does_not():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


_FIRST_REVIEW = """
import re._compiler as compiler
import relay.doors.mcp_server
from relay.call.warm import warm_review
from relay.core.records import FileChange
from relay.observe.changes import ChangeSet
from relay.review.packet import build_review

warm_review().join(60)
compiled = []
real = compiler.compile
compiler.compile = lambda pattern, flags=0: (compiled.append(pattern), real(pattern, flags))[1]
build_review(ChangeSet(source="report", files=[FileChange(path="lib/other.py", kind="added", additions=2,
                                                           added_lines=["import os", "y = os.getenv('A')"])]), report=None)
print(len(compiled))
"""


def test_the_warm_up_makes_the_first_review_so_a_run_stopped_as_the_client_leaves_compiles_no_pattern():
    # Claude Code SIGKILLs a stdio server 0.5 s after its SIGINT: a stopped run's review then must not be the one
    # that compiles the rules' path patterns (49 of them, ~20 ms of CPU, ~10x that on a loaded machine). Broke: the
    # warm-up only imported the review, and the first review of the process compiled them.
    done = subprocess.run([sys.executable, "-c", _FIRST_REVIEW], capture_output=True, text=True, encoding="utf-8",
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "0", (done.stdout, done.stderr[-2000:])
