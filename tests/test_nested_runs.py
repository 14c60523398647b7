"""A pytest run started from inside a test sweeps only its own fake agy processes (tests/conftest.py's run token).

Broke: tests/test_unreadable_folders.py runs this suite's file again under capsh, inheriting the outer run's token; at
its end it found a fake agy that test_process_faults had running in another xdist worker, killed it and failed
(the fresh-clone CI failed twice so, 2026-12-03)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import RUN_TOKEN_ENV
from fake_agy_harness import RUN_ENV, WORKER_ENV, TEST_ENV


def test_a_run_started_from_a_test_leaves_the_outer_runs_processes_alone():
    # A stand-in for a fake agy of this run, in another worker: it carries this run's token as the fakes do.
    outer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             env={**os.environ, RUN_ENV: os.environ[RUN_TOKEN_ENV], WORKER_ENV: "gw9", TEST_ENV: "outer"})
    try:
        # Collecting one file is enough: the run's end sweeps for its token's processes whatever it ran.
        done = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_tiers.py"],
                              cwd=Path(__file__).parent.parent, capture_output=True, text=True, encoding="utf-8", timeout=120)
        assert outer.poll() is None, f"the inner run killed the outer run's process\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    finally:
        outer.kill()
        outer.wait()
