"""A run's diff and transcript as resources the leader reads on demand (issue 27, item 5)."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from conftest import payload
from fake_agy_harness import install_fake_agy, success_scenario
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server

pytestmark = pytest.mark.anyio

KEY = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape: every view masks it


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_result_links_the_runs_diff_and_transcript_and_both_read_masked(tmp_path, repo, mode):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": f"TOKEN = '{KEY}'\n"}]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings), mode=mode) as client:
        templates = (await client.list_resource_templates()).resource_templates
        result = await client.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo)})
        packet = payload(result)
        text, *links = result.content
        assert text.type == "text" and [link.type for link in links] == ["resource_link", "resource_link"]
        uris = [str(link.uri) for link in links]
        assert uris == [f"relay://runs/{packet['run_id']}/diff", f"relay://runs/{packet['run_id']}/transcript"]
        assert all(link.size and link.size > 0 for link in links)
        diff = (await client.read_resource(uris[0])).contents[0]
        transcript = (await client.read_resource(uris[1])).contents[0]
        again = await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]})
        refused = await client.call_tool("antigravity_execute", {"task": "t", "workspace": "relative"})
        with pytest.raises(MCPError):
            await client.read_resource("relay://runs/r20260101T000000-00000000/diff")  # no such run
        with pytest.raises(MCPError):
            await client.read_resource("relay://runs/..%2F..%2Fetc/diff")  # not a run id: never a path
    assert {t.uri_template for t in templates} == {"relay://runs/{run_id}/diff", "relay://runs/{run_id}/transcript"}
    assert diff.mime_type == "text/x-diff" and "src/new.py" in diff.text and "+TOKEN = " in diff.text
    assert KEY not in diff.text and "[REDACTED" in diff.text
    assert transcript.mime_type == "application/x-ndjson" and '"event":"init"' in transcript.text.replace(" ", "")
    assert [str(c.uri) for c in again.content[1:]] == uris  # get_result links them too
    assert len(refused.content) == 1  # a refused call ran nothing: no diff, no transcript
