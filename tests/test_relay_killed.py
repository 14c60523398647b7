"""A relay SIGKILLed mid-run leaves no process of its run (process tier: real relays over stdio, real signals).

Claude Code SIGKILLs a stdio server 0.5 s after its SIGINT; an OOM killer or a person's ``kill -9`` gives no
warning at all. A SIGKILLed relay stops nothing: before the lifeline (relay/core/reaper.py), its worker — agy
and what agy started — ran on, deaf to SIGTERM or not, editing the workspace until the next relay start killed it.
Party guarded against: whoever kills the relay outright. Only the order is asserted (gone within a bound, polled);
bench/bench_shutdown.py --how sigkill has the times.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import psutil
import pytest

from conftest import relay_env
from fake_agy_harness import install_fake_agy, kill_fakes, launches, scenario, wait_for_launches
from test_process_faults import _raw_relay as _relay, call_execute as _execute  # a relay over stdio, a call to it

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the relay's death is watched by its per-spawn subreaper, Linux only (the Windows "
                                       "job's KILL_ON_JOB_CLOSE is winjob.py's; macOS has neither)")

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}
BOUND = 30.0  # seconds: a bound for a broken run only, polled


def _answer(proc: subprocess.Popen, request_id: int) -> dict:
    """The answer to ``request_id`` (progress notifications come before it)."""
    while line := proc.stdout.readline():
        message = json.loads(line)
        if message.get("id") == request_id:
            return message
    raise AssertionError("the relay closed its output before it answered")


def _until(done, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _descendants(pid: int) -> list[psutil.Process]:
    return psutil.Process(pid).children(recursive=True)


def _alive(procs: list[psutil.Process]) -> list[str]:
    left = []
    for proc in procs:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:  # is_running: the same process, not its pid
                left.append(f"{proc.pid} {' '.join(proc.cmdline())[:120]}")
        except psutil.NoSuchProcess:
            continue
    return left


def _gone_within(procs: list[psutil.Process], seconds: float = BOUND) -> list[str]:
    deadline = time.monotonic() + seconds
    while (left := _alive(procs)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.parametrize("deaf", [True, False], ids=["worker-deaf-to-sigterm", "worker-stops-on-sigterm"])
def test_a_relay_sigkilled_mid_run_leaves_no_process_of_its_run_and_its_record_finished_interrupted(
        tmp_path, repo, deaf):
    # Broke: the SIGKILLed relay's agy and its grandchild (deaf to SIGTERM or not) ran on for their whole life (an
    # hour here), the subreaper between them and the relay with them, and the record stayed "running", until the
    # next relay start killed them and finished it.
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT,
                                                        "ignore_sigterm": deaf}))
    relay = _relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_KILL_GRACE_SECONDS="60"))
    try:
        _execute(relay, repo)
        wait_for_launches(agy, 1)
        _until(lambda: (repo / "src" / "new.py").exists() and launches(agy)[0].get("grandchild_pid"),
               "the worker's edit and grandchild never appeared")
        (run,) = launches(agy)
        of_the_run = _descendants(relay.pid)  # the subreaper, agy, its grandchild (and any git the run had going)
        assert {run["pid"], run["grandchild_pid"]} <= {p.pid for p in of_the_run}
        relay.kill()
        relay.wait(timeout=10)
        left = _gone_within(of_the_run)
    finally:
        if relay.poll() is None:
            relay.kill()
        kill_fakes(agy)  # a failed run's teardown only: nothing is left on the fixed code
    assert left == [], f"processes of the SIGKILLed relay's run still alive: {left}"
    # The record: finished by the run's undertaker once the relay was gone (relay.call.undertaker), as a relay's start
    # would (observed, judged, its change listed); it says its relay ended. (Its process is among those waited for
    # above: it was gone once the record was written.) A recovery that came within the subreaper's grace found the
    # worker alive, verified it and killed it too ("was still running and was killed"); never a doubt ("left alone").
    from relay.runs.store import RunStore

    store = RunStore(tmp_path / "data" / "runs")
    (run_id,) = [p.stem for p in store.runs_dir.glob("r*.json")]
    record = store.read(run_id)
    assert record.state == "interrupted" and record.outcome.status.value == "INTERRUPTED", record.state
    message = record.outcome.error.message
    assert f"the relay process {relay.pid} that ran this call ended before it finished" in message, message
    assert "left alone" not in message and "could not be killed" not in message, message
    assert [c.path for c in record.observation.changes] == ["src/new.py"]
    assert store.active_ids() == []


def test_a_relay_that_lives_keeps_its_worker_and_a_finished_run_leaves_no_subreaper(tmp_path, repo):
    # The normal path: the lifeline ends only with the relay. A run (whose spawns come from the event loop and from
    # worker threads that end meanwhile: the version probe, git) ends with its packet and nothing of it left running.
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "slow", "sleep": 1.0, "edits": EDIT,
                                                        "report": REPORT}))
    relay = _relay(relay_env(tmp_path / "data", agy))
    try:
        _execute(relay, repo)
        answer = _answer(relay, 2)
        (run,) = launches(agy)
        left = _gone_within(_descendants(relay.pid), seconds=10)
        assert relay.poll() is None
    finally:
        relay.kill()
        relay.wait(timeout=10)
        kill_fakes(agy)
    packet = json.loads(answer["result"]["content"][0]["text"])
    assert packet["status"] == "SUCCESS", packet
    assert run["exit_code"] == 0 and run["signals_ignored"] == [], run  # agy ended on its own, not stopped
    assert left == [], f"a finished run left processes behind: {left}"
