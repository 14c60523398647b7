"""What real clients send and read: extra argument names, error results, progress, finding lost runs.

In process, through the SDK client: the fake agy still runs as a real subprocess.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, scenario, success_scenario
from relay.doors.cli_runs import RECENT_RUNS, runs_show
from relay.doors.mcp_server import create_server, tool_definitions
from relay.core.settings import load_settings
from relay.runs.store import RunStore

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


def relay_settings(tmp_path, agy=None, **extra):
    env = {"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy or tmp_path / "no-agy"), **extra}
    return load_settings(env)


# --------------------------------------------------------------------------- unknown argument names


async def test_tools_ignore_gemini_wait_for_previous_and_record_it(tmp_path, repo):
    # Gemini CLI adds wait_for_previous to every call; it was refused as an unknown field on all three tools.
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    settings = relay_settings(tmp_path, agy)
    async with Client(create_server(settings), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {
            "task": "add new.py", "workspace": str(repo), "wait_for_previous": True, "_client_hint": {"x": 1}}))
        assert packet["status"] == "SUCCESS", packet
        again = payload(await client.call_tool("antigravity_continue", {
            "run_id": packet["run_id"], "feedback": "also nothing", "wait_for_previous": False}))
        assert again["status"] == "SUCCESS", again
        got = payload(await client.call_tool("antigravity_get_result", {
            "run_id": packet["run_id"], "wait_for_previous": True}))
        assert got == packet
    store = RunStore(settings.runs_dir)
    assert store.read(packet["run_id"]).request.ignored_arguments == ["_client_hint", "wait_for_previous"]
    assert store.read(again["run_id"]).request.ignored_arguments == ["wait_for_previous"]


async def test_tools_still_refuse_a_wrong_type_naming_the_field_and_its_values(tmp_path, repo):
    settings = relay_settings(tmp_path)
    async with Client(create_server(settings), mode="legacy") as client:
        bad_mode = await client.call_tool("antigravity_execute", {
            "task": "t", "workspace": str(repo), "execution_mode": "yolo", "wait_for_previous": True})
        bad_detail = await client.call_tool("antigravity_get_result", {"run_id": "r1", "detail": "everything"})
        bad_minutes = await client.call_tool("antigravity_continue", {"run_id": "r1", "feedback": "f",
                                                                      "timeout_minutes": "soon"})
    mode = payload(bad_mode)
    assert bad_mode.is_error and mode["status"] == "INVALID_INPUT"
    assert "execution_mode" in mode["error"]["message"] and "'safe', 'trusted'" in mode["error"]["message"]
    assert "Accepted arguments: task, profile, workspace, execution_mode" in mode["error"]["hint"]
    detail = payload(bad_detail)
    assert "detail" in detail["error"]["message"] and "'summary', 'errors', 'full'" in detail["error"]["message"]
    assert "timeout_minutes" in payload(bad_minutes)["error"]["message"]
    record = RunStore(settings.runs_dir).read(mode["run_id"])
    assert record.outcome.status.value == "INVALID_INPUT" and record.request.ignored_arguments == ["wait_for_previous"]


def test_published_schemas_leave_additional_properties_open():
    for tool in tool_definitions():
        text = json.dumps(tool.input_schema)
        assert "additionalProperties" not in text, tool.name
    get_result = next(t for t in tool_definitions() if t.name == "antigravity_get_result")
    assert "run_id" not in get_result.input_schema.get("required", [])


# --------------------------------------------------------------------------- error results


def test_continue_schema_publishes_apply_and_lets_a_validating_client_send_it_without_feedback():
    # Regression: apply was unpublished and feedback required, so Gemini CLI (which checks every call against the
    # published inputSchema) refused {run_id, apply: true} with "params must have required property 'feedback'".
    import jsonschema

    schema = next(t for t in tool_definitions() if t.name == "antigravity_continue").input_schema
    assert schema["properties"]["apply"]["type"] == "boolean"
    jsonschema.validate({"run_id": "r1", "apply": True}, schema)
    jsonschema.validate({"run_id": "r1", "feedback": "fix the test"}, schema)


async def test_continue_with_neither_feedback_nor_apply_is_refused_naming_both(tmp_path):
    async with Client(create_server(relay_settings(tmp_path)), mode="legacy") as client:
        left_out = payload(await client.call_tool("antigravity_continue", {"run_id": "r1"}))
        blank = payload(await client.call_tool("antigravity_continue", {"run_id": "r1", "feedback": "  "}))
    assert left_out["status"] == "INVALID_INPUT" and "feedback was left out" in left_out["error"]["message"]
    assert "needs feedback or apply=true" in blank["error"]["message"] and "blank" in blank["error"]["message"]
    assert "apply=true" in left_out["error"]["hint"] and "`feedback`" in left_out["error"]["hint"]


async def test_error_results_carry_the_packet_once_in_the_text_block(tmp_path):
    settings = relay_settings(tmp_path)
    async with Client(create_server(settings), mode="legacy") as client:
        failed = await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(tmp_path / "missing")})
        listed = await client.call_tool("antigravity_get_result", {})
    # Gemini CLI stringifies the whole result of an error: the packet must not be in it twice.
    assert failed.is_error and failed.structured_content is None
    (block,) = failed.content
    assert json.loads(block.text)["status"] == "INVALID_WORKSPACE"
    assert not listed.is_error and listed.structured_content == json.loads(listed.content[0].text)


# --------------------------------------------------------------------------- progress


async def test_progress_values_strictly_increase_from_the_first_notification(tmp_path, repo):
    # The queued and "agy started" notifications both carried 0.1: a spec violation.
    # A 0.4 s run (the fake's default slow run is 1 s) at 0.05 s ticks: still several notifications to compare.
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "slow", "sleep": 0.4, "edits": EDIT,
                                                        "report": {"summary": "s", "files_changed": ["src/new.py"]}}))
    settings = relay_settings(tmp_path, agy, GRAVITY_RELAY_PROGRESS_SECONDS="0.05")
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    async with Client(create_server(settings), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)},
                                                progress_callback=on_progress))
    assert packet["status"] == "SUCCESS", packet
    assert len(seen) >= 3, seen
    assert all(a < b for a, b in zip(seen, seen[1:])), seen


# --------------------------------------------------------------------------- finding a lost run


async def test_get_result_without_run_id_lists_recent_runs_like_runs_show(tmp_path, repo):
    settings = relay_settings(tmp_path)
    tasks = [f"task number {n}: " + "describe the change in detail " * 5 for n in range(RECENT_RUNS + 2)]
    async with Client(create_server(settings), mode="legacy") as client:
        empty = payload(await client.call_tool("antigravity_get_result", {}))
        ids = []
        for task in tasks:  # each refused at once (no workspace), each recorded
            ids.append(payload(await client.call_tool("antigravity_execute", {"task": task}))["run_id"])
        result = await client.call_tool("antigravity_get_result", {"wait_for_previous": True})
    assert empty == {"recent_runs": []}
    rows = payload(result)["recent_runs"]
    assert [r["run_id"] for r in rows] == ids[::-1][:RECENT_RUNS]  # newest first, even within one second
    newest = rows[0]
    assert newest["tool"] == "execute" and newest["status"] == "INVALID_WORKSPACE"
    assert newest["task"].startswith("task number 11: ") and len(newest["task"]) <= 60
    assert set(newest) == {"run_id", "tool", "status", "created_at", "task"}
    assert len(result.content[0].text.encode()) < 2000
    out = io.StringIO()
    with redirect_stdout(out):
        assert runs_show(settings, None) == 0
    assert out.getvalue() == result.content[0].text + "\n"  # both doors, same bytes


# --------------------------------------------------------------------------- failure packets per client


async def test_failure_packet_is_an_error_result_without_empty_sections_for_most_clients(tmp_path):
    # A refusal has no changes and no tests: the packet carried "changes":{},"tests":{} (24 B for nothing).
    settings = relay_settings(tmp_path)
    async with Client(create_server(settings), mode="legacy") as client:
        result = await client.call_tool("antigravity_execute", {"task": "t", "workspace": "relative/path"})
    assert result.is_error and result.structured_content is None
    packet = json.loads(result.content[0].text)
    assert packet["status"] == "INVALID_WORKSPACE" and "changes" not in packet and "tests" not in packet


async def test_failure_packet_reaches_gemini_cli_as_an_ordinary_result_with_ok_false(tmp_path):
    # Gemini CLI 0.61 hands its model an isError result with the call's arguments echoed and the packet twice
    # (441 B -> 1,329 B, tests/realclients); told apart by its clientInfo, it gets the failure as a plain result.
    from mcp.types import Implementation

    settings = relay_settings(tmp_path)
    gemini = Implementation(name="gemini-cli-mcp-client", version="0.61.0")
    async with Client(create_server(settings), mode="legacy", client_info=gemini) as client:
        result = await client.call_tool("antigravity_execute", {"task": "t", "workspace": "relative/path"})
    assert not result.is_error
    packet = json.loads(result.content[0].text)
    assert packet["ok"] is False and packet["status"] == "INVALID_WORKSPACE"
    assert result.structured_content == packet
