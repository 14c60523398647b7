"""Two doors, one answer: the tools both doors call (relay/doors/tools.py) and the one error boundary
(relay/core/errors.py) — the same bytes for errors too, foreign errors mapped once, honest annotations."""

from __future__ import annotations

import errno
import json

import msgspec
import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, success_scenario
from relay.core.contracts import GetResultInput, Status
from relay.core.errors import (Busy, InternalError, InvalidInput, NotFound, RelayError, StorageError, as_relay_error,
                               error_object)
from relay.core.settings import load_settings
from relay.doors.cli_runs import runs_show
from relay.doors.mcp_server import create_server, tool_definitions
from relay.runs.store import RunStore


def test_as_relay_error_maps_foreign_errors_at_the_one_boundary():
    own = NotFound("no run record r1", "Check the run_id.")
    assert as_relay_error(own, "x") is own and isinstance(own, RelayError) and own.status is Status.NOT_FOUND
    disk = as_relay_error(OSError(errno.ENOSPC, "No space left on device", "/data/runs/r1.json"), "run r1")
    assert isinstance(disk, StorageError) and disk.status is Status.STORAGE_ERROR
    assert "/data/runs/r1.json" in disk.message and "No space left" in disk.message and "relay bug" not in disk.hint
    try:
        msgspec.convert({"detail": "everything"}, GetResultInput)
    except msgspec.ValidationError as exc:
        bad = as_relay_error(exc, "antigravity_get_result")
    assert isinstance(bad, InvalidInput) and "'summary'" in bad.message  # the accepted values are named
    bug = as_relay_error(KeyError("k"), "antigravity_execute")
    assert isinstance(bug, InternalError) and bug.status is Status.MCP_ERROR and "relay bug" in bug.hint


def test_error_classes_have_a_fixed_status_hint_and_retryable_and_the_old_call_still_works():
    assert Busy("slot taken", "Wait.").retryable is True and InvalidInput("x").retryable is False
    assert InvalidInput("x").hint  # a default next step, never empty
    legacy = RelayError(Status.INVALID_WORKSPACE, "missing", "Pass an absolute path.")
    assert error_object(legacy, "t") == {"ok": False, "status": "INVALID_WORKSPACE", "error": {
        "code": "INVALID_WORKSPACE", "message": "missing", "hint": "Pass an absolute path."}}  # retryable false: omitted


def test_tool_annotations_say_a_worker_may_delete_files_and_get_result_only_reads():
    # Broke: execute/continue said destructiveHint false, yet a worker can delete files.
    tools = {t.name: t.annotations for t in tool_definitions()}
    for name in ("antigravity_execute", "antigravity_continue"):
        # readOnlyHint left out means false (the spec's default; every session pays for the bytes)
        assert tools[name].destructive_hint is True and not tools[name].read_only_hint
    assert tools["antigravity_get_result"].read_only_hint is True


@pytest.mark.anyio
@pytest.mark.parametrize("arguments, code, exit_code", [
    ({"run_id": "r20260101T000000-00000000"}, "NOT_FOUND", 1),
    ({"run_id": "r20260101T000000-00000000", "max_chars": 5}, "INVALID_INPUT", 2),
])
async def test_runs_show_prints_the_tools_error_bytes(tmp_path, capsys, arguments, code, exit_code):
    # Broke: `runs show` answered errors its own way (a line on stderr), unlike the tool.
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": "/nonexistent"})
    async with Client(create_server(settings)) as client:
        result = await client.call_tool("antigravity_get_result", arguments)
    assert result.is_error and json.loads(result.content[0].text)["status"] == code
    got = runs_show(settings, arguments["run_id"], max_chars=arguments.get("max_chars", 12_000))
    out, err = capsys.readouterr()
    assert got == exit_code
    assert out == result.content[0].text + "\n"  # the same bytes from both doors
    assert err.startswith("gravity-relay: ")  # and in words for the person at the shell


@pytest.mark.anyio
async def test_a_store_failure_during_a_run_is_storage_error_not_a_relay_bug(tmp_path, repo, monkeypatch):
    # Broke: an OSError from store.write during a run reached the leader as MCP_ERROR, "a relay bug".
    # The disk "fills" once the worker's attempt is being recorded; everything else is real (fake agy, git).
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "a\n"}]))
    write = RunStore.write

    def failing_write(self, record):
        if record.process.attempts and record.outcome.status is None:
            raise OSError(errno.EIO, "Input/output error", str(self.record_path(record.run_id)))
        return write(self, record)

    monkeypatch.setattr(RunStore, "write", failing_write)
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "STORAGE_ERROR", packet
    assert "Input/output error" in packet["error"]["message"] and packet["run_id"] in packet["error"]["message"]
    assert "relay bug" not in json.dumps(packet) and "GRAVITY_RELAY_DATA_DIR" in packet["error"]["hint"]
