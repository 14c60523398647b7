"""The same server in process, through the SDK client in both connection modes."""

from __future__ import annotations

import pytest
from mcp import Client

from conftest import payload
from fake_agy_harness import install_fake_agy, success_scenario
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_inprocess_execute_and_get_result_in_both_modes(tmp_path, repo, mode):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings), mode=mode) as client:
        tools = (await client.list_tools()).tools
        assert len(tools) == 4
        packet = payload(await client.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo)}))
        assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["src/new.py"]
        again = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]}))
        assert again == packet
        resources = (await client.list_resources()).resources
        assert {str(r.uri) for r in resources} == {"relay://guide", "relay://statuses", "relay://profile-schema"}
        statuses = await client.read_resource("relay://statuses")
        assert "MUTATION_ABORTED" in statuses.contents[0].text
        prompts = (await client.list_prompts()).prompts
        assert {p.name for p in prompts} == {"implement-with-tests", "mechanical-refactor", "review-packet"}
        prompt = await client.get_prompt("review-packet", {"run_id": packet["run_id"]})
        assert packet["run_id"] in prompt.messages[0].content.text


async def test_inprocess_numbers_and_booleans_sent_as_strings_are_accepted(tmp_path, repo):
    from fake_agy_harness import launches

    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_PROFILES": '{"t": {"skip_permissions": true}}'})
    async with Client(create_server(settings), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {
            "task": "t", "profile": "t", "workspace": str(repo), "timeout_minutes": "5", "skip_permissions": "true"}))
        assert packet["status"] in ("SUCCESS", "INVALID_REPORT"), packet
        cut = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "max_chars": "300"}))
    argv = launches(agy)[-1]["argv"]
    assert argv[argv.index("--print-timeout") + 1] == "300s" and "--dangerously-skip-permissions" in argv
    assert len(str(cut)) < 2000


async def test_inprocess_a_security_task_ranks_its_quiet_fix_and_a_follow_up_keeps_it(tmp_path, repo):
    # Held-out sets showed ~1 real fix in 6 with nothing in its lines that says "security"; the
    # leader's own task does say it, and before this the packet called such a run overall low.
    from fake_agy_harness import set_scenario

    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/decode.py", "content": "def decode(buf):\n    return buf[1:]\n"},
        {"op": "write", "path": "src/helpers.py", "content": "".join(f"V{i} = {i}\n" for i in range(30))}]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings), mode="legacy") as client:
        fix = payload(await client.call_tool("antigravity_execute", {
            "task": "Fix the out-of-bounds read in decode.py (CVE-2025-0001) when the buffer is empty",
            "workspace": str(repo)}))
        assert fix["changes"]["risk"] == "high", fix
        first, second = fix["changes"]["review"][:2]
        assert first["file"] == "src/decode.py" and "CVE-2025-0001" in first["reason"], fix["changes"]
        assert second["risk"] == "medium" and "the task names" in second["reason"], fix["changes"]

        set_scenario(agy, success_scenario([{"op": "write", "path": "src/errors.py", "content": "MSG = 'empty'\n"}]))
        follow = payload(await client.call_tool("antigravity_continue", {
            "run_id": fix["run_id"], "feedback": "Also give the error a clearer message"}))
        assert follow["changes"]["risk"] == "medium", follow
        assert "CVE-2025-0001" in follow["changes"]["review"][0]["reason"], follow["changes"]

        set_scenario(agy, success_scenario([{"op": "write", "path": "src/more.py", "content": "y = 2\n"}]))
        plain = payload(await client.call_tool("antigravity_execute", {"task": "Add more.py", "workspace": str(repo)}))
        assert plain["changes"]["risk"] == "low", plain
