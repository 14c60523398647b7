"""MCP Tasks for clients that declare ``io.modelcontextprotocol/tasks`` (issue 27, item 2).

In process through the SDK client, which declares the extension on every 2026-07-28 request when it is
given as a client extension; the fake agy runs as a real subprocess in a real git repo.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Literal

import anyio
import pytest
from mcp import Client, types
from mcp.client.extension import ClientExtension, ResultClaim
from pydantic import Field
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict

from conftest import payload
from fake_agy_harness import (failure_scenario, install_fake_agy, launches, pid_alive, scenario, wait_for_launches,
                              wait_until)
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server
from relay.runs.store import RunStore

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
TASKS = "io.modelcontextprotocol/tasks"


class _TaskParams(types.RequestParams):
    task_id: str = Field(alias="taskId")


class _UpdateParams(_TaskParams):
    input_responses: dict[str, Any] = Field(default_factory=dict, alias="inputResponses")


class _TaskRequest(types.Request[_TaskParams, str]):
    method: str
    params: _TaskParams


class _Answer(types.Result):
    model_config = ConfigDict(extra="allow")


class _TaskAnswer(types.Result):
    """What a tools/call answers when it is answered with a task."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = Field(alias="resultType")


async def _not_resolved(answer: _TaskAnswer, ctx) -> types.CallToolResult:
    raise AssertionError("the tests read the task shape themselves (allow_claimed)")


class _Tasks(ClientExtension):
    """A client that declares the Tasks extension through the SDK's own seam."""

    identifier = TASKS

    def claims(self):
        return (ResultClaim(result_type="task", model=_TaskAnswer, resolve=_not_resolved),)


def advertise(identifier: str) -> ClientExtension:
    assert identifier == TASKS
    return _Tasks()


def _settings(tmp_path: Path, agy: Path):
    return load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                          "GRAVITY_RELAY_PROGRESS_SECONDS": "0.5"})


async def _call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The call's answer as the wire carries it (a claimed task shape is returned, not resolved)."""
    result = await client.session.call_tool(name, arguments, allow_input_required=False, allow_claimed=True)
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def _task(client: Client, method: str, task_id: str) -> dict[str, Any]:
    request = _TaskRequest(method=method, params=_TaskParams(taskId=task_id))
    answer = await client.session.send_request(request, _Answer)
    return answer.model_dump(mode="json", by_alias=True, exclude_none=True)


def _slow_success(release: Path) -> dict:
    return scenario({"behaviour": "success", "edits": EDIT, "sleep": 120, "response": "done",
                     "release_file": str(release)})


def _wait_gone(*pids: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _normalised(text: str) -> str:
    text = re.sub(r"r\d{8}T\d{6}-[0-9a-f]{8}", "RUN", text)
    text = re.sub(r'"seconds":[0-9.]+', '"seconds":S', text)
    text = re.sub(r'"duration_ms":[0-9]+', '"duration_ms":D', text)
    return re.sub(r'"conversation_id":"[^"]*"', '"conversation_id":"C"', text)


async def test_server_advertises_the_tasks_extension(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT}))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        assert TASKS in (client.server_capabilities.extensions or {})


async def test_execute_answers_a_task_at_once_and_tasks_get_reaches_the_waited_packet(tmp_path, repo):
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(release))
    async with Client(create_server(_settings(tmp_path, agy))) as plain:
        release.touch()
        waited = await plain.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
    (repo / "src" / "new.py").unlink()
    release.unlink()
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        task = await _call(client, "antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        assert task["resultType"] == "task" and task["status"] == "working"
        run_id = task["taskId"]
        assert RunStore(tmp_path / "data" / "runs").read(run_id).run_id == run_id  # the task id is the run id
        polled = await _task(client, "tasks/get", run_id)
        assert polled["taskId"] == run_id and polled["status"] == "working" and "result" not in polled
        release.touch()
        for _ in range(200):
            polled = await _task(client, "tasks/get", run_id)
            if polled["status"] != "working":
                break
            await anyio.sleep(0.1)
    assert polled["status"] == "completed"
    text = polled["result"]["content"][0]["text"]
    assert json.loads(text)["status"] == "SUCCESS"
    # The same packet a waited call answers (run id, conversation and timings aside).
    assert _normalised(text) == _normalised(waited.content[0].text)
    assert polled["result"]["structuredContent"] == json.loads(text)


async def test_tasks_cancel_stops_the_worker_group(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        task = await _call(client, "antigravity_execute", {"task": "t", "workspace": str(repo)})
        assert task["resultType"] == "task"
        (run,) = await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
        await anyio.to_thread.run_sync(lambda: _wait_for_grandchild(agy))
        # The fake starts its grandchild before it edits: cancel once the edit is on disk (under load the
        # cancel could otherwise stop it first, and the packet rightly lists no file).
        await anyio.to_thread.run_sync(lambda: _wait_for_file(repo / "src" / "new.py"))
        cancelled = await _task(client, "tasks/cancel", task["taskId"])
        again = await _task(client, "tasks/get", task["taskId"])
    # The extension's acknowledgement is empty; the stopped run's packet stays readable through tasks/get.
    assert set(cancelled) <= {"resultType", "_meta"} and again["status"] == "cancelled"
    packet = json.loads(again["result"]["content"][0]["text"])
    assert packet["status"] == "CANCELLED" and packet["changes"]["files"] == ["src/new.py"]
    (run,) = launches(agy)
    assert _wait_gone(run["pid"], run["grandchild_pid"]), "worker or grandchild survived tasks/cancel"


def _wait_for_file(path: Path) -> None:
    wait_until(path.exists, f"{path} written", timeout=10)


def _wait_for_grandchild(agy: Path) -> None:
    wait_until(lambda: launches(agy)[0]["grandchild_pid"], "the fake's grandchild started", timeout=10)


async def test_tasks_get_of_an_unknown_task_says_so(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT}))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        with pytest.raises(MCPError) as caught:
            await _task(client, "tasks/get", "r20260101T000000-deadbeef")
    assert "r20260101T000000-deadbeef" in str(caught.value)


async def test_a_refusal_still_answers_as_a_result_not_a_task(tmp_path):
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT}))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        answer = await _call(client, "antigravity_execute", {"task": "t", "workspace": str(tmp_path / "nowhere")})
    assert answer.get("resultType") != "task" and answer["isError"] is True


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_client_without_the_extension_keeps_wait_seconds_and_running(tmp_path, repo, mode):
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(release))
    async with Client(create_server(_settings(tmp_path, agy)), mode=mode) as client:
        early = await client.call_tool("antigravity_execute",
                                       {"task": "add new.py", "workspace": str(repo), "wait_seconds": 0.3})
        running = payload(early)
        assert running["status"] == "RUNNING" and set(running) == {"run_id", "status", "where", "elapsed_seconds", "next"}
        release.touch()
        waited = payload(await client.call_tool("antigravity_get_result",
                                                {"run_id": running["run_id"], "wait_seconds": 30}))
    assert waited["status"] == "SUCCESS"


TASK_FIELDS = {"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}


def _stamp(text: str) -> float:
    import datetime as dt
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


async def test_every_task_object_carries_the_fields_the_extension_requires(tmp_path, repo):
    # The 2026-07-28 Task: createdAt, lastUpdatedAt, ttlMs (null = unlimited) required; pollIntervalMs a hint.
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", _slow_success(release))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_PROGRESS_SECONDS": "1.5", "GRAVITY_RELAY_MAX_AGE_DAYS": "2"})
    async with Client(create_server(settings), extensions=[advertise(TASKS)]) as client:
        task = await _call(client, "antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        working = await _task(client, "tasks/get", task["taskId"])
        release.touch()
        for _ in range(200):
            done = await _task(client, "tasks/get", task["taskId"])
            if done["status"] != "working":
                break
            await anyio.sleep(0.1)
    record = RunStore(tmp_path / "data" / "runs").read(task["taskId"])
    for seen in (task, working, done):
        assert TASK_FIELDS <= set(seen), seen
        assert seen["createdAt"] == record.created_at
        assert seen["ttlMs"] == 2 * 86_400_000 and seen["pollIntervalMs"] == 1500
        assert _stamp(seen["lastUpdatedAt"]) >= _stamp(seen["createdAt"])
    assert done["status"] == "completed" and done["lastUpdatedAt"] == record.outcome.finished_at


async def test_ttl_is_null_when_runs_are_kept_without_an_age_limit(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", _slow_success(tmp_path / "release"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_MAX_AGE_DAYS": "0"})
    async with Client(create_server(settings), extensions=[advertise(TASKS)]) as client:
        answer = await client.session.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo)},
                                                allow_input_required=False, allow_claimed=True)
        task = answer.model_dump(mode="json", by_alias=True)  # None kept: null is the value said
        await _task(client, "tasks/cancel", task["taskId"])
    assert "ttlMs" in task and task["ttlMs"] is None


async def test_tasks_update_acknowledges_and_refuses_an_unknown_task(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", _slow_success(tmp_path / "release"))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        task = await _call(client, "antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        update = _TaskRequest(method="tasks/update", params=_UpdateParams(taskId=task["taskId"], inputResponses={}))
        acked = (await client.session.send_request(update, _Answer)).model_dump(by_alias=True, exclude_none=True)
        with pytest.raises(MCPError) as caught:
            await client.session.send_request(
                _TaskRequest(method="tasks/update", params=_UpdateParams(taskId="r20260101T000000-deadbeef")), _Answer)
        still = await _task(client, "tasks/get", task["taskId"])
        await _task(client, "tasks/cancel", task["taskId"])
    assert set(acked) <= {"resultType", "_meta"} and still["status"] == "working"
    assert caught.value.code == types.INVALID_PARAMS and "r20260101T000000-deadbeef" in str(caught.value)


async def test_tasks_get_from_a_client_without_the_extension_is_refused_with_32021(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", _slow_success(tmp_path / "release"))
    async with Client(create_server(_settings(tmp_path, agy)), extensions=[advertise(TASKS)]) as client:
        task = await _call(client, "antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        async with Client(create_server(_settings(tmp_path, agy))) as plain:
            with pytest.raises(MCPError) as caught:
                await _task(plain, "tasks/get", task["taskId"])
        await _task(client, "tasks/cancel", task["taskId"])
    assert caught.value.code == -32021 and TASKS in str(caught.value)
    assert caught.value.error.data == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
