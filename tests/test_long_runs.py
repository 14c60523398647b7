"""Runs that outlive the client's tool timeout (issue 9): answer RUNNING, keep working, wait, cancel.

In process through the SDK client (the server's lifetime owns detached runs), against the fake
agy as a real subprocess in a real git repo; one test adds a second relay over stdio.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from conftest import assert_grouping, payload, relay_env, stdio_relay
from fake_agy_harness import (failure_scenario, install_fake_agy, launches, pid_alive, scenario, wait_for_launches,
                              wait_until)
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server
from relay.runs.results import encode, packet_object
from relay.runs.store import RunStore

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


def _slow_success(seconds: float, release: Path | None = None) -> dict:
    """A successful run that sleeps ``seconds`` before its result, or less: until ``release`` exists.

    The release file is the test's event for "the run may end now", so a run outlasts a wait for
    sure (it cannot end before the test says so) without the suite sleeping out a guessed length.
    """
    launch = {"behaviour": "success", "edits": EDIT, "sleep": seconds, "response": "done"}
    if release is not None:
        launch["release_file"] = str(release)
    return scenario(launch)


def _settings(tmp_path: Path, agy: Path, **env: str):
    return load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                          "GRAVITY_RELAY_PROGRESS_SECONDS": "0.5", **env})


def _text(result) -> str:
    return result.content[0].text


def _normalised(text: str) -> str:
    """Two runs of one scenario differ only in their run id, agy's conversation id and how long they took."""
    text = re.sub(r"r\d{8}T\d{6}-[0-9a-f]{8}", "RUN", text)
    text = re.sub(r'"seconds":[0-9.]+', '"seconds":S', text)
    return re.sub(r'"conversation_id":"[^"]*"', '"conversation_id":"C"', text)


def _wait_gone(*pids: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


async def test_execute_with_wait_answers_running_then_get_result_returns_the_waited_packet(tmp_path, repo):
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(120, release))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        release.touch()  # the waited run ends at once
        waited = await client.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        assert payload(waited)["status"] == "SUCCESS"
        (repo / "src" / "new.py").unlink()  # the same starting point for the second run

        release.unlink()  # the second run cannot end before its 0.5 s wait has answered
        early = await client.call_tool("antigravity_execute",
                                       {"task": "add new.py", "workspace": str(repo), "wait_seconds": 0.5})
        running = payload(early)
        assert not early.is_error
        assert running["status"] == "RUNNING" and running["elapsed_seconds"] >= 0
        assert running["where"] and "antigravity_get_result" in running["next"]
        assert len(_text(early)) <= 350

        release.touch()
        final = await client.call_tool("antigravity_get_result", {"run_id": running["run_id"], "wait_seconds": 30})
    assert payload(final)["status"] == "SUCCESS" and payload(final)["run_id"] == running["run_id"]
    assert final.is_error == waited.is_error
    # Byte for byte what a waited execute answers for the same scenario (ids aside) ...
    assert _normalised(_text(final)) == _normalised(_text(waited))
    # ... and exactly the run's own packet as recorded.
    record = RunStore(tmp_path / "data" / "runs").read(running["run_id"])
    assert _text(final) == encode(packet_object(record.outcome.packet)).decode()


async def test_get_result_wait_on_a_run_of_the_same_relay_answers_when_it_ends_not_at_the_next_poll(tmp_path, repo,
                                                                                                   monkeypatch):
    # Before: every get_result wait polled the record every 0.5 s, a run of the same relay too; the answer came
    # up to a poll late. The poll is made an hour long here: only the run's own end event can answer in time.
    import relay.runs.waiting as waiting

    monkeypatch.setattr(waiting, "POLL_SECONDS", 3600.0)
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(120, release))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0}))
        assert running["status"] == "RUNNING"
        release.touch()
        with anyio.fail_after(30):  # a bound for a wait that ignores the event (it would last the 600 s asked)
            final = payload(await client.call_tool("antigravity_get_result",
                                                   {"run_id": running["run_id"], "wait_seconds": 600}))
    assert final["status"] == "SUCCESS" and final["run_id"] == running["run_id"]


async def test_short_client_read_timeout_completes_a_longer_run_through_waits(tmp_path, repo):
    # The run ends only when the test releases it, once it has run for longer than the client's read
    # timeout; each call's wait stays 1.5 s under that timeout. get_result waits 1 s: past the
    # record's 0.5 s poll, so progress ticks (every 0.1 s here) are sent while it waits.
    read_timeout = 2.5
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(120, release))
    seen: list[str] = []

    async def on_progress(progress, total, message) -> None:
        seen.append(message or "")

    answers = []
    settings = _settings(tmp_path, agy, GRAVITY_RELAY_PROGRESS_SECONDS="0.1")  # several per 0.5 s wait
    async with Client(create_server(settings), read_timeout_seconds=read_timeout) as client:
        result = await client.call_tool("antigravity_execute",
                                        {"task": "add new.py", "workspace": str(repo), "wait_seconds": 0.5})
        answers.append(payload(result))
        running_since = time.monotonic()  # the run answered RUNNING: it has started
        run_id = answers[0]["run_id"]
        while answers[-1]["status"] == "RUNNING":
            if time.monotonic() - running_since > read_timeout:
                release.touch()
            result = await client.call_tool("antigravity_get_result", {"run_id": run_id, "wait_seconds": 1},
                                            progress_callback=on_progress)
            answers.append(payload(result))
    assert release.exists(), "the run ended before the test released it"
    statuses = [a["status"] for a in answers]
    assert statuses[-1] == "SUCCESS" and "CANCELLED" not in statuses, statuses
    assert set(statuses[:-1]) == {"RUNNING"} and len(answers) >= 3
    assert any(m.startswith("running") for m in seen), seen  # get_result kept sending progress while it waited
    assert RunStore(tmp_path / "data" / "runs").read(run_id).outcome.status.value == "SUCCESS"


async def test_cancel_stops_a_detached_run_with_no_process_left_and_lists_its_changes(tmp_path, repo, process_path):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0.2}))
        assert running["status"] == "RUNNING"
        (run,) = await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
        await anyio.to_thread.run_sync(lambda: _wait_for_grandchild(agy))
        # The fake starts its grandchild before it edits: under load a cancel could come first (no file to list).
        await anyio.to_thread.run_sync(lambda: _wait_for(lambda: (repo / "src/new.py").exists()))
        busy = payload(await client.call_tool("antigravity_continue",
                                              {"run_id": running["run_id"], "feedback": "more"}))
        assert busy["status"] == "BUSY"  # a continue on a run still going is refused, as before
        packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))
    assert packet["status"] == "CANCELLED" and packet["changes"]["files"] == ["src/new.py"]
    assert "antigravity_cancel" in packet["error"]["message"]
    (run,) = launches(agy)
    assert_grouping(run, process_path)
    assert _wait_gone(run["pid"], run["grandchild_pid"]), "worker or grandchild survived the cancel"
    record = RunStore(tmp_path / "data" / "runs").read(running["run_id"])
    assert record.outcome.status.value == "CANCELLED" and [c.path for c in record.observation.changes] == ["src/new.py"]


def _wait_for(condition, seconds: float = 20.0) -> None:
    wait_until(condition, "the condition", timeout=seconds)


def _wait_for_grandchild(agy: Path) -> None:
    deadline = time.monotonic() + 10
    while not launches(agy)[0]["grandchild_pid"]:
        if time.monotonic() > deadline:
            raise TimeoutError("no grandchild")
        time.sleep(0.05)


async def test_client_cancel_before_the_wait_ends_still_cancels_the_run(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        with anyio.move_on_after(20):
            async with anyio.create_task_group() as tg:
                async def call() -> None:
                    await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                   "wait_seconds": 600})

                tg.start_soon(call)
                await anyio.to_thread.run_sync(lambda: _wait_for_grandchild_after_launch(agy))
                tg.cancel_scope.cancel()
        (run,) = launches(agy)
        assert _wait_gone(run["pid"], run["grandchild_pid"]), "worker or grandchild survived the cancel"
        listed = payload(await client.call_tool("antigravity_get_result", {}))
    store = RunStore(tmp_path / "data" / "runs")
    for _ in range(50):
        record = store.read(listed["recent_runs"][0]["run_id"])
        if record.state == "finished":
            break
        await anyio.sleep(0.1)
    assert record.outcome.status.value == "CANCELLED" and "the call was cancelled" in record.outcome.error.message


def _wait_for_grandchild_after_launch(agy: Path) -> None:
    wait_for_launches(agy, 1)
    _wait_for_grandchild(agy)


async def test_server_end_stops_detached_runs_and_records_them(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0}))
        await anyio.to_thread.run_sync(lambda: _wait_for_grandchild_after_launch(agy))
    (run,) = launches(agy)
    assert _wait_gone(run["pid"], run["grandchild_pid"]), "a detached worker outlived its server"
    record = RunStore(tmp_path / "data" / "runs").read(running["run_id"])
    assert record.outcome.status.value == "CANCELLED" and "the relay stopped" in record.outcome.error.message


async def test_server_default_wait_from_env_and_profile_detaches_calls_that_name_none(tmp_path, repo):
    # Each run sleeps 1.5 s (longer than the env's 1 s wait) unless the release file ends it sooner.
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(1.5, release))
    settings = _settings(tmp_path, agy, GRAVITY_RELAY_WAIT_SECONDS="1",
                         GRAVITY_RELAY_PROFILES=json.dumps({"now": {"workspace": str(repo), "wait_seconds": 0},
                                                            "long": {"workspace": str(repo), "wait_seconds": 60}}))
    async with Client(create_server(settings)) as client:
        by_env = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert by_env["status"] == "RUNNING"
        release.touch()
        done = payload(await client.call_tool("antigravity_get_result", {"run_id": by_env["run_id"], "wait_seconds": 30}))
        assert done["status"] == "SUCCESS"
        (repo / "src" / "new.py").unlink()
        release.unlink()  # this run takes its whole 1.5 s, past the env's 1 s wait
        by_profile = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "long"}))
        assert by_profile["status"] == "SUCCESS"  # the profile's 60 s wins over the env's 1 s
        (repo / "src" / "new.py").unlink()
        by_call = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "long",
                                                                        "wait_seconds": 0}))
        assert by_call["status"] == "RUNNING"  # the call's own wait wins over both
        release.touch()
        await client.call_tool("antigravity_get_result", {"run_id": by_call["run_id"], "wait_seconds": 30})


def test_wait_seconds_env_is_bounded_and_published_in_the_schemas():
    assert load_settings({"GRAVITY_RELAY_WAIT_SECONDS": "45"}).wait_seconds == 45
    assert load_settings({}).wait_seconds is None and load_settings({"GRAVITY_RELAY_WAIT_SECONDS": "0"}).wait_seconds is None
    bad = load_settings({"GRAVITY_RELAY_WAIT_SECONDS": "-3"})
    assert bad.problems and "GRAVITY_RELAY_WAIT_SECONDS" in bad.problems[0] and "1 to 86400" in bad.problems[0]
    from relay.doors.mcp_server import tool_definitions

    schemas = {t.name: t.input_schema["properties"] for t in tool_definitions()}
    for name in ("antigravity_execute", "antigravity_continue", "antigravity_get_result"):
        assert schemas[name]["wait_seconds"]["minimum"] == 0, name
    assert list(schemas["antigravity_cancel"]) == ["run_id"]


async def test_wait_seconds_of_the_wrong_type_is_refused_with_the_accepted_arguments(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", _slow_success(0))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        bad = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                    "wait_seconds": -1}))
        assert bad["status"] == "INVALID_INPUT" and "wait_seconds" in bad["error"]["message"]
        unknown = payload(await client.call_tool("antigravity_cancel", {"run_id": "nope"}))
        assert unknown["status"] == "INVALID_INPUT" and "run id" in unknown["error"]["message"]


async def test_a_run_started_by_one_relay_is_waited_on_and_cancelled_from_another(tmp_path, repo):
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(120, release))
    async with stdio_relay(relay_env(tmp_path / "data", agy)) as owner, \
            Client(create_server(_settings(tmp_path, agy))) as other:
        first = payload(await owner.call_tool("antigravity_execute",
                                              {"task": "t", "workspace": str(repo), "wait_seconds": 0.3}))
        assert first["status"] == "RUNNING"
        release.touch()
        finished = await other.call_tool("antigravity_get_result", {"run_id": first["run_id"], "wait_seconds": 30})
        assert payload(finished)["status"] == "SUCCESS"
        record = RunStore(tmp_path / "data" / "runs").read(first["run_id"])
        assert _text(finished) == encode(packet_object(record.outcome.packet)).decode()

        # The second run hangs; the other relay stops it through the owner.
        from fake_agy_harness import set_scenario

        set_scenario(agy, failure_scenario("hang", grandchild=True, edits=[
            {"op": "write", "path": "src/other.py", "content": "y = 2\n"}]))
        second = payload(await owner.call_tool("antigravity_execute",
                                               {"task": "t2", "workspace": str(repo), "wait_seconds": 0.3}))
        assert second["status"] == "RUNNING"
        await anyio.to_thread.run_sync(lambda: _wait_until(lambda: len(launches(agy)) == 2
                                                           and launches(agy)[1]["grandchild_pid"]))
        still = payload(await other.call_tool("antigravity_get_result", {"run_id": second["run_id"], "wait_seconds": 0}))
        assert still["status"] == "RUNNING" and still["run_id"] == second["run_id"]
        started = time.monotonic()
        cancelled = payload(await other.call_tool("antigravity_cancel", {"run_id": second["run_id"]}))
        took = time.monotonic() - started
        run = launches(agy)[1]
        assert cancelled["status"] == "CANCELLED", cancelled
        assert "src/other.py" in cancelled["changes"]["files"]
        assert "from relay pid" in cancelled["error"]["message"]
        assert _wait_gone(run["pid"], run["grandchild_pid"]), "worker or grandchild survived the cancel"
        assert took < 30  # bounded; the figure is printed by bench/bench_long_runs.py
        assert not (tmp_path / "data" / "runs" / f"{second['run_id']}.cancel").exists()


async def test_cancel_from_another_relay_stops_a_run_started_without_a_wait(tmp_path, repo, process_path):
    # Regression: a run started with no wait (the call waits to its end) did not poll the cancel
    # request file, so antigravity_cancel from another relay answered BUSY (after ~33 s across
    # processes) and the run went on. Two servers over one data dir stand for two relays.
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    answers: list = []
    async with Client(create_server(_settings(tmp_path, agy))) as owner, \
            Client(create_server(_settings(tmp_path, agy))) as other:
        async def start() -> None:
            answers.append(await owner.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(start)
                await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
                await anyio.to_thread.run_sync(lambda: _wait_for_grandchild(agy))
                (run_id,) = [p.stem for p in (tmp_path / "data" / "runs").glob("*.json")]
                cancelled = payload(await other.call_tool("antigravity_cancel", {"run_id": run_id}))
    assert cancelled["status"] == "CANCELLED", cancelled
    assert cancelled["changes"]["files"] == ["src/new.py"] and "antigravity_cancel" in cancelled["error"]["message"]
    assert payload(answers[0])["status"] == "CANCELLED"  # the waiting call gets the same ending
    (run,) = launches(agy)
    assert_grouping(run, process_path)
    assert _wait_gone(run["pid"], run["grandchild_pid"]), "worker or grandchild survived the cancel"
    assert not (tmp_path / "data" / "runs" / f"{run_id}.cancel").exists()


def _wait_until(condition, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(0.05)



def test_shell_execute_wait_answers_running_and_runs_wait_prints_the_packet(tmp_path, repo):
    import os
    import subprocess
    import sys

    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(120, release))
    env = {**os.environ, **relay_env(tmp_path / "data", agy)}

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "relay", *args], env=env, capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL, encoding="utf-8")

    early = cli("execute", "add new.py", "--workspace", str(repo), "--wait", "0.5")
    assert early.returncode == 0, early.stderr
    running = json.loads(early.stdout)
    assert running["status"] == "RUNNING" and set(running) == {"run_id", "status", "where", "elapsed_seconds", "next"}
    # The packet's `next` names the tools; the person at the shell is told the shell's commands (before: nothing,
    # and no shell command could stop the run).
    assert (f"`gravity-relay runs wait {running['run_id']}` gets its packet, `gravity-relay runs cancel "
            f"{running['run_id']}` stops it") in early.stderr
    release.touch()  # the run could not end before the command answered
    # The command has exited; the child relay it left behind finishes the run.
    done = cli("runs", "wait", running["run_id"])
    assert done.returncode == 0, done.stderr
    record = RunStore(tmp_path / "data" / "runs").read(running["run_id"])
    assert record.outcome.status.value == "SUCCESS" and (repo / "src" / "new.py").exists()
    # The shell's door prints the MCP tool's bytes: execute's packet, as a waited execute returns it.
    assert done.stdout == encode(packet_object(record.outcome.packet)).decode() + "\n"


async def test_get_result_wait_on_a_run_whose_relay_died_answers_interrupted_at_once(tmp_path):
    import subprocess
    import sys

    from relay.core.contracts import RecordIsolation, RecordOutcome, RecordPlan, RecordProcess, RecordRequest, RunRecord
    from relay.runs.store import new_run_id, now_iso

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that no longer runs (and, reaped, is nobody's)
    store = RunStore(tmp_path / "data" / "runs")
    store.runs_dir.mkdir(parents=True)
    run_id = new_run_id()
    store.write(RunRecord(run_id=run_id, created_at=now_iso(), process=RecordProcess(relay_pid=gone.pid),
                          request=RecordRequest(task="t")))
    agy = install_fake_agy(tmp_path / "bin", _slow_success(0))
    async with Client(create_server(_settings(tmp_path, agy))) as client:
        started = time.monotonic()
        answer = payload(await client.call_tool("antigravity_get_result", {"run_id": run_id, "wait_seconds": 60}))
    assert answer["status"] == "INTERRUPTED" and time.monotonic() - started < 30  # not the whole 60 s wait
