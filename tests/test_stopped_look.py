"""A stopped run whose look after the stop hangs (relay/call/observe_run.py, ``RunLook.after_stop``).

The party: the worker, which can leave git something to wait on (a FIFO where git reads, a process holding a lock) so
the relay's look after a cancel does not end. ``anyio.move_on_after(30)`` around a thread cannot interrupt the thread:
the cancel's answer, and the run's record, waited for the look however long it took. Now the answer goes out after
the bound saying the change was not observed, and the look, when it ends, writes nothing (no patch, no policy
revert, no record); it runs in a daemon thread, so a relay that leaves (a client gone, a child relay done) does not
wait for it.

The look itself is held by a stand-in that blocks (the relay's own observation, called for real once released): the
ways a worker has to make git wait are each bounded elsewhere (tests/test_repo_config_guards.py); this test is about
what the relay does while any look hangs.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import anyio
import pytest

from conftest import payload, relay_env
from fake_agy_harness import failure_scenario, install_fake_agy

pytestmark = pytest.mark.anyio

_HELD = 20.0  # how long the stand-in holds the look at most (what main's answer waited)


async def test_a_stopped_runs_look_that_hangs_holds_neither_its_answer_nor_writes_after_it(tmp_path, repo, monkeypatch):
    # Broke: the cancel's answer came after the held look ended (20 s here; with git held, its two-minute timeout).
    from mcp import Client

    import relay.call.observe_run as observe_run
    from relay.core.settings import load_settings
    from relay.doors.mcp_server import create_server
    from relay.runs.store import RunStore

    release, judged = threading.Event(), threading.Event()
    real_observe, real_judge = observe_run.observe_changes, observe_run.judge_change

    def held_look(*args, **kwargs):
        release.wait(_HELD)
        return real_observe(*args, **kwargs)

    def watched_judge(*args, **kwargs):
        try:
            return real_judge(*args, **kwargs)
        finally:
            judged.set()

    monkeypatch.setattr(observe_run, "observe_changes", held_look)
    monkeypatch.setattr(observe_run, "judge_change", watched_judge)
    monkeypatch.setattr(observe_run, "STOPPED_LOOK_SECONDS", 1.0)
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=[
        {"op": "write", "path": ".github/workflows/ci.yml", "content": "on: push\n"},
        {"op": "write", "path": "src/ok.py", "content": "ok = 1\n"}]))
    profiles = {"app": {"workspace": str(repo), "protected": [".github/**"], "on_violation": "revert"}}
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))
    try:
        async with Client(create_server(load_settings(env))) as client:
            running = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app", "wait_seconds": 0.2}))
            assert running["status"] == "RUNNING", running
            with anyio.fail_after(30):
                while not (repo / "src/ok.py").exists():  # the worker's edits are done; it now hangs
                    await anyio.sleep(0.05)
            started = time.monotonic()
            packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))
            answered_in = time.monotonic() - started
            store = RunStore(tmp_path / "data" / "runs")
            record_bytes = store.record_path(running["run_id"]).read_bytes()
            # The look still hangs, in a thread a relay that leaves does not wait for (the interpreter joins the others).
            (look,) = [t for t in threading.enumerate() if t.is_alive() and running["run_id"] in t.name]
            assert look.daemon, look
    finally:
        release.set()
    assert answered_in < _HELD / 2, f"the cancel's answer waited {answered_in:.1f} s for the look"
    assert packet["status"] == "CANCELLED", packet
    assert "the change was not observed" in packet["error"]["message"], packet
    assert any("not observed" in flag for flag in packet["flags"]), packet["flags"]
    record = store.read(running["run_id"])
    assert record.state == "finished" and record.outcome.status.value == "CANCELLED"
    # The look, released, ends in its thread and writes nothing: no patch, no revert, the record as it was answered.
    await anyio.to_thread.run_sync(lambda: judged.wait(_HELD * 2))
    assert judged.is_set()
    assert store.record_path(running["run_id"]).read_bytes() == record_bytes
    assert not Path(store.patch_path(running["run_id"])).exists()
    assert (repo / ".github/workflows/ci.yml").exists()  # what the record says: not checked, left in place
