"""A person confirms a trusted run through an MCP elicitation form (issue 27, item 1).

Through the SDK's client in both eras: the 2025 handshake (the form is an elicitation/create request
while the call waits) and the 2026-07-28 protocol (the call answers input_required; the client retries
with the person's answer and the token as requestState). The fake agy runs as a real subprocess.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client, types

from conftest import payload
from fake_agy_harness import install_fake_agy, launches, success_scenario
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server

pytestmark = pytest.mark.anyio

EXECUTE = "antigravity_execute"


def _server(tmp_path: Path, confirm_trusted) -> tuple[Path, object]:
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]))
    profiles = {"gated": {"execution_mode": "trusted", "confirm_trusted": confirm_trusted}}
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_PROFILES": json.dumps(profiles)})
    return agy, create_server(settings)


def _person(action: str, decision: str | None = None):
    asked: list[types.ElicitRequestFormParams] = []

    async def answer(context, params):
        asked.append(params)
        return types.ElicitResult(action=action, content={"decision": decision} if decision else None)

    return answer, asked


def _call(repo: Path) -> dict:
    return {"task": "add src/new.py", "profile": "gated", "workspace": str(repo), "execution_mode": "trusted"}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_human_profile_asks_the_person_once_and_run_launches_agy_once(tmp_path, repo, mode):
    agy, server = _server(tmp_path, "human")
    answer, asked = _person("accept", "run")
    async with Client(server, mode=mode, elicitation_callback=answer) as client:
        result = await client.call_tool(EXECUTE, _call(repo))
    packet = payload(result)
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["src/new.py"], packet
    (form,) = asked  # asked once
    schema = form.requested_schema
    assert schema["required"] == ["decision"] and schema["properties"]["decision"]["enum"] == ["run", "cancel"]
    assert str(repo) in form.message and "--dangerously-skip-permissions" in form.message
    assert "Time limit: 30" in form.message
    (launch,) = launches(agy)  # one launch, trusted
    assert "--dangerously-skip-permissions" in launch["argv"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("action,decision,said", [("decline", None, "declined"),
                                                  ("cancel", None, "dismissed the confirmation"),
                                                  ("accept", "cancel", "chose not to run it")])
async def test_a_person_who_declines_or_cancels_runs_nothing_and_the_model_gets_no_token(tmp_path, repo, mode, action,
                                                                                          decision, said):
    agy, server = _server(tmp_path, True)
    answer, asked = _person(action, decision)
    async with Client(server, mode=mode, elicitation_callback=answer) as client:
        result = await client.call_tool(EXECUTE, _call(repo))
    packet = payload(result)
    assert len(asked) == 1
    assert packet["status"] == "CONFIRMATION_REQUIRED" and packet["ok"] is False
    assert said in packet["error"]["message"] and "nothing ran" in packet["error"]["message"]
    assert "preview" not in packet and "c1." not in result.content[0].text  # no token for the model to repeat
    assert launches(agy) == [] and not (repo / "src/new.py").exists()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_client_without_form_elicitation_gets_a_refusal_under_human_and_the_token_under_true(tmp_path, repo,
                                                                                                     mode):
    agy, server = _server(tmp_path, "human")
    async with Client(server, mode=mode) as client:  # declares no elicitation (as Gemini CLI)
        refused = payload(await client.call_tool(EXECUTE, _call(repo)))
    assert refused["status"] == "CONFIRMATION_REQUIRED" and "needs a person" in refused["error"]["message"]
    assert "preview" not in refused and "c1." not in json.dumps(refused)
    assert launches(agy) == []

    agy, server = _server(tmp_path / "t", True)
    async with Client(server, mode=mode) as client:
        first = payload(await client.call_tool(EXECUTE, _call(repo)))
        assert first["preview"]["confirm"].startswith("c1.")  # the token flow, as before
        ran = payload(await client.call_tool(EXECUTE, {**_call(repo), "confirm": first["preview"]["confirm"]}))
    assert ran["status"] == "SUCCESS" and len(launches(agy)) == 1


async def test_a_token_profile_keeps_the_token_flow_even_where_a_person_could_be_asked(tmp_path, repo):
    agy, server = _server(tmp_path, "token")
    answer, asked = _person("accept", "run")
    async with Client(server, mode="legacy", elicitation_callback=answer) as client:
        first = payload(await client.call_tool(EXECUTE, _call(repo)))
    assert asked == [] and first["preview"]["confirm"].startswith("c1.") and launches(agy) == []


async def test_a_forged_request_state_runs_nothing(tmp_path, repo):
    # The 2026 retry carries the token back as requestState: anything else is refused by the gate itself.
    agy, server = _server(tmp_path, "human")
    async with Client(server, mode="legacy") as client:
        result = await client.session.send_request(
            types.CallToolRequest(params=types.CallToolRequestParams(
                name=EXECUTE, arguments=_call(repo), request_state="c1.9999999999.00.forged",
                input_responses={"confirm_trusted": types.ElicitResult(action="accept", content={"decision": "run"})})),
            types.CallToolResult)
    assert result.is_error and launches(agy) == []
