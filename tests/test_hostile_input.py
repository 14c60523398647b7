"""Hostile and unlucky input at the edge: an unwritable data dir, a lone surrogate on the wire."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from mcp import Client

from conftest import TESTS, payload, relay_command
from fake_agy_harness import install_fake_agy, launches, success_scenario
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


@pytest.fixture(params=["read-only mount", "file in its place"])
def unwritable_data_dir(request, tmp_path: Path):
    """A data dir the relay cannot write: a real read-only file system when this machine lets the
    tests mount one (root, as in CI containers), and always a file where the folder should be."""
    if request.param == "file in its place":
        data = tmp_path / "data"
        data.write_text("not a folder", encoding="utf-8")
        yield data
        return
    mount = tmp_path / "ro"
    mount.mkdir()
    got = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mount)], capture_output=True)
    if got.returncode != 0:
        pytest.skip("cannot mount a read-only file system here")
    try:
        yield mount / "data"
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.anyio
async def test_execute_with_an_unwritable_data_dir_names_the_dir_and_the_fix(tmp_path, repo, unwritable_data_dir):
    # Regression: a data dir the relay cannot write was answered as MCP_ERROR, "a relay bug".
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    data = unwritable_data_dir
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(data), "AGY_BIN": str(agy)}))
    async with Client(server) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "STORAGE_ERROR", packet
    assert str(data / "runs") in packet["error"]["message"]
    assert "GRAVITY_RELAY_DATA_DIR" in packet["error"]["hint"] and "relay bug" not in json.dumps(packet)
    assert launches(agy) == []


def _rpc(proc: subprocess.Popen, message: str) -> None:
    proc.stdin.write(message.encode() + b"\n")
    proc.stdin.flush()


def _close(proc: subprocess.Popen) -> None:
    """End a stdio relay the way a client does (stdin closed); kill it only if it does not go in 20 s."""
    proc.stdin.close()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _answer(proc: subprocess.Popen, request_id: int, timeout: float = 120.0) -> dict:
    """Read stdout lines until the response to ``request_id``; fail (never hang) after ``timeout``. A hang guard, not
    a timing goal: the relay's exit ends the wait at once (end of file). It was 30 s, and the first answer waits for
    the relay's start-up (the SDK's and the relay's imports, ~1.5 s of CPU): at load 23-30 on two cores that first
    answer came after 22, 26 and 30 s (2026-12-02), and the test failed with the relay still starting."""
    import selectors
    import time

    deadline = time.monotonic() + timeout
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    while time.monotonic() < deadline:
        if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
            break
        line = proc.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message.get("id") == request_id:
            return message
    raise AssertionError(f"no answer to request {request_id} within {timeout}s")


# A relay process's raw stdio pipe, written by hand: the process tier (tests/conftest.py).
@pytest.mark.process
def test_stdio_lone_surrogate_or_400_deep_arguments_get_invalid_input_and_the_server_keeps_answering(tmp_path, repo):
    # Regression (issue 13, item 10): the SDK's JSON parser (pydantic-core) refuses a lone
    # "\ud800" escape; the line became an exception the dispatcher dropped at DEBUG level, and
    # the leader never got an answer. The raw pipe is written by hand: an SDK client would
    # refuse to send such a string at all.
    # Regression (issue 22): arguments nested 400 deep stopped the SDK's JSON parser at its recursion limit and
    # the request was dropped: no answer. Both on one relay process (its start-up is the cost).
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env.update({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                "PYTHONPATH": str(TESTS.parent)})
    proc = subprocess.Popen(relay_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env)
    try:
        _rpc(proc, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}))
        assert "result" in _answer(proc, 1)
        _rpc(proc, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
        task = '"fix it \\ud800 now"'  # the JSON escape, as a buggy client sends it
        _rpc(proc, '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"antigravity_execute",'
                   f'"arguments":{{"task":{task},"workspace":{json.dumps(str(repo))}}}}}}}')
        got = _answer(proc, 2)
        assert got["result"]["isError"] is True
        packet = json.loads(got["result"]["content"][0]["text"])  # an error carries its packet in the text
        assert packet["status"] == "INVALID_INPUT" and "task" in packet["error"]["message"]
        assert "surrogate" in packet["error"]["message"] and packet["run_id"]
        _rpc(proc, '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"antigravity_get_result",'
                   f'"arguments":{{"run_id":"{packet["run_id"]}"}}}}}}')
        again = json.loads(_answer(proc, 3)["result"]["content"][0]["text"])
        assert again["status"] == "INVALID_INPUT"  # the refusal was recorded like any other
        _rpc(proc, '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"relay://\\udc00"}}')
        assert _answer(proc, 4)["error"]["code"] == -32602
        deep = "[" * 400 + "]" * 400
        _rpc(proc, '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"antigravity_execute",'
                   f'"arguments":{{"task":"t","workspace":{json.dumps(str(repo))},"constraints":{deep}}}}}}}')
        got = _answer(proc, 5)
        assert got["result"]["isError"] is True
        packet = json.loads(got["result"]["content"][0]["text"])
        assert packet["status"] == "INVALID_INPUT" and "levels deep" in packet["error"]["message"], packet
        _rpc(proc, '{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"relay://x","x":' + deep + "}}")
        assert _answer(proc, 6)["error"]["code"] == -32602
        _rpc(proc, '{"jsonrpc":"2.0","id":7,"method":"tools/list"}')
        assert "tools" in _answer(proc, 7)["result"]  # still answering
    finally:
        _close(proc)
    assert launches(agy) == []


@pytest.mark.anyio
async def test_inprocess_lone_surrogate_in_arguments_is_invalid_input(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)}))
    async with Client(server) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                        "model": "m\ud800"}))
        continued = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"],
                                                                           "feedback": "\udfff"}))
    assert packet["status"] == "INVALID_INPUT" and "model" in packet["error"]["message"]
    assert continued["status"] == "INVALID_INPUT" and "feedback" in continued["error"]["message"]
    assert launches(agy) == []
