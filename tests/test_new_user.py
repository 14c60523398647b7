"""What a new user met trying the relay from its README (session 14): each item with a test that failed on main.

Through the doors a person and a model use: the MCP tools (in memory, the fake agy as a real subprocess, real git
repositories in temp dirs) and the `gravity-relay` commands (cli.main in this process).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, success_scenario

pytestmark = pytest.mark.anyio


# --------------------------------------------------------------------------- a workspace that holds the data dir


@pytest.mark.parametrize("where", ["inside", "ignored"])
async def test_a_workspace_that_holds_the_relays_data_dir_is_refused_before_agy_starts(tmp_path, repo, where):
    # Party: the worker (and the user's own slip: workspace = their home, where ~/.local/share/gravity-relay is).
    # Before: the call ran. The relay's own run files (the snapshot it takes of the git dir, the record) were
    # written inside the workspace and came back as the worker's changes (39 files "changed but not in the
    # worker's report", the real edit cut from the packet), and the worker could read and write the relay's
    # records and confirm key, which its workspace then held.
    data = repo / "relaydata"
    if where == "ignored":
        (repo / ".gitignore").write_text("relaydata/\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "fake", success_scenario([{"path": "a.py", "content": "x = 1\n"}]))
    async with memory_relay(relay_env(data, agy)) as client:
        answer = payload(await client.call_tool("antigravity_execute", {"task": "add a", "workspace": str(repo)}))
    assert answer["status"] == "INVALID_WORKSPACE", answer
    error = answer["error"]
    assert str(data) in error["message"] and "data dir" in error["message"]
    assert "GRAVITY_RELAY_DATA_DIR" in error["hint"]
    assert launches(agy) == []  # nothing ran
    assert not (repo / "a.py").exists()

