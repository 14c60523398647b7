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
