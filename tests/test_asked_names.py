"""What a call names for agy's own flags (model, effort, agent) and hands over as lists (constraints, acceptance
criteria) is bounded before anything reads it. The party guarded against is the leader's model: the relay puts
these values into agy's argv and the prompt as asked, so an id of a megabyte, a line break, or 100,000 bullets
must be refused as the caller's mistake (INVALID_INPUT, nothing launched), never answered as the machine's
(a 1 MB model id used to fail the spawn with E2BIG and come back SPAWN_ERROR)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, launches, success_scenario
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
MEGABYTE = "m" * 1_000_000


def _server(tmp_path: Path, agy: Path):
    return create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)}))


_VALUES = [MEGABYTE, "gemini-3.8-flash\n--dangerously-skip-permissions", "--sandbox=false", "flash high", ""]


def _rows() -> list:
    """(value, field) for each refused value and each field; the empty value, which is not refused, is two whole runs
    (an execute and a continue that go ahead, ~0.27 s of CPU a row against ~0.015 s for a refusal) down the same path
    for each field: the fast tier runs it for `model`, the process tier (conftest.py), which .ci/run runs next, for the
    other two."""
    return [pytest.param(value, field, marks=pytest.mark.process) if value == "" and field != "model"
            else (value, field) for value in _VALUES for field in ("model", "effort", "agent")]


@pytest.mark.anyio
@pytest.mark.parametrize(("value", "field"), _rows())
async def test_a_name_that_cannot_be_a_flag_value_is_refused_before_any_launch(tmp_path, repo, field, value):
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    async with Client(_server(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), field: value}))
        # The legacy continue (conversation id + workspace) takes the same three and is read the same way.
        again = payload(await client.call_tool("antigravity_continue", {
            "conversation_id": "0b8f6f1e-1111-4222-8333-444455556666", "workspace": str(repo), "feedback": "f",
            field: value}))
    for answer in (packet, again):
        if value == "":
            # Empty is "not given" (the profile's or agy's default), as before: the run goes ahead.
            assert answer["status"] != "INVALID_INPUT", answer
            continue
        assert answer["status"] == "INVALID_INPUT", answer
        assert answer["error"]["message"].startswith(f"{field} ") and "is not accepted" in answer["error"]["message"]
        assert f"`{field}`" in answer["error"]["hint"]
        assert len(json.dumps(answer)) < 1_000  # the value is not echoed back whole
    if value:
        assert launches(agy) == []


@pytest.mark.anyio
@pytest.mark.parametrize("asked", [{"model": "gemini-3.6-flash-high", "agent": "reviewer_2.lite"},
                                   {"effort": "high", "agent": "team/reviewer@2"}])
async def test_names_agy_takes_pass_as_one_flag_value_each(tmp_path, repo, asked):
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    async with Client(_server(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), **asked}))
    assert packet["status"] == "SUCCESS", packet
    argv = launches(agy)[0]["argv"]
    for field, value in asked.items():
        assert argv[argv.index(f"--{field}") + 1] == value


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["constraints", "acceptance_criteria"])
async def test_lists_of_more_than_200_lines_are_refused_and_200_pass(tmp_path, repo, field):
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    async with Client(_server(tmp_path, agy)) as client:
        refused = payload(await client.call_tool("antigravity_execute", {
            "task": "t", "workspace": str(repo), field: ["keep it small"] * 201}))
        assert launches(agy) == []
        taken = payload(await client.call_tool("antigravity_execute", {
            "task": "t", "workspace": str(repo), field: [f"rule {i}" for i in range(200)]}))
    assert refused["status"] == "INVALID_INPUT" and f"$.{field}" in refused["error"]["message"], refused
    assert "200" in refused["error"]["message"]
    assert taken["status"] == "SUCCESS", taken
