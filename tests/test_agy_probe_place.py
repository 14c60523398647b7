"""Where the relay runs agy before a launch (agy-protocol.md §8.4; the agy audit's item: the probes' folder).

agy ≥ 1.3 loads a workspace's `.agents/` MCP servers and hooks with no trust gate, and which folder a subcommand
(`agy models`, `agy --version`) reads them from is not reported: its cwd is the likely one. An MCP client usually
starts the relay in the project it works on, so the party guarded against is the repository under work: its
`.agents/hooks.json` must not reach an agy the relay starts before its own pre-launch check has looked at it. Every
probe runs in an empty folder the relay made for it, never in the relay's cwd nor in a workspace. Through the MCP
door in process, the fake agy a real subprocess recording its cwd and what it would have loaded there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp import Client

from conftest import make_repo, payload
from fake_agy_harness import _OK, install_fake_agy, launches, scenario
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server

HOOKS = json.dumps({"hooks": {"PreToolUse": [{"command": "./tools/hook.sh"}]}})
SERVERS = json.dumps({"mcpServers": {"lint": {"command": "sh", "args": ["-c", "./tools/serve.sh"]}}})


def _inside(path: str, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


@pytest.mark.anyio
@pytest.mark.real_probes  # about the probes' own launches: the relay asks the fake (conftest.probe_memo)
async def test_probes_run_in_an_empty_folder_of_their_own_not_in_the_repository_the_relay_was_started_in(
        tmp_path, monkeypatch):
    # The relay started in the repository under work (its cwd), and the call names that repository: the run is
    # refused for its hooks, but agy's version and login probes come first.
    repo = make_repo(tmp_path / "project", {"README.md": "# p\n", ".agents/hooks.json": HOOKS,
                                            ".agents/mcp_config.json": SERVERS})
    monkeypatch.chdir(repo)
    agy = install_fake_agy(tmp_path / "bin", scenario(_OK, version="1.3.3"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "execution_mode": "safe"}))
    assert packet["status"] == "CONFLICTING_OPTIONS" and ".agents/hooks.json" in packet["error"]["message"], packet
    probes = launches(agy, print_mode_only=False)
    assert {p["mode"] for p in probes} == {"version", "models"}, probes  # both ran, and no worker
    for probe in probes:
        assert probe["cwd_agents"] == [], probe  # it found none of the repository's configuration to load
        assert not _inside(probe["cwd"], repo) and not _inside(probe["cwd"], tmp_path / "bin"), probe
        assert not os.path.exists(probe["cwd"]), probe  # a folder made for the probe, removed after it


@pytest.mark.real_probes
def test_doctors_probes_run_in_a_folder_of_their_own_too(tmp_path, monkeypatch):
    from relay.doors.doctor import check_agy

    repo = make_repo(tmp_path / "project", {"README.md": "# p\n", ".agents/hooks.json": HOOKS})
    monkeypatch.chdir(repo)
    agy = install_fake_agy(tmp_path / "bin", scenario(_OK, version="1.3.3"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    check_agy(settings, {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}, 10.0)
    probes = launches(agy, print_mode_only=False)
    assert {p["mode"] for p in probes} == {"version", "models"}, probes
    assert all(p["cwd_agents"] == [] and not _inside(p["cwd"], repo) for p in probes), probes


@pytest.mark.anyio
@pytest.mark.real_probes
async def test_probes_run_in_the_relays_data_dir_never_under_the_shared_temp_folder(tmp_path, monkeypatch):
    # Party: another local process (another user on the machine). The shared temp folder (Linux /tmp) is anyone's to
    # write: a `.agents/` planted there sits above every probe folder made in it, and whether agy looks for `.agents/`
    # above its cwd is not reported. Before: both probes ran in a new folder under the temp folder.
    import tempfile

    shared = tmp_path / "shared-tmp"
    (shared / ".agents").mkdir(parents=True)
    (shared / ".agents" / "hooks.json").write_text(HOOKS, encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    repo = make_repo(tmp_path / "project", {"README.md": "# p\n"})
    agy = install_fake_agy(tmp_path / "bin", scenario(_OK, version="1.3.3"))
    data = tmp_path / "data"
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(data), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "execution_mode": "safe"}))
    assert packet["status"] == "SUCCESS", packet
    probes = [p for p in launches(agy, print_mode_only=False) if p["mode"] in ("version", "models")]
    assert {p["mode"] for p in probes} == {"version", "models"}, probes
    for probe in probes:
        assert not _inside(probe["cwd"], shared) and _inside(probe["cwd"], data / "probes"), probe
        assert not os.path.exists(probe["cwd"]), probe  # made for the probe, removed after it
    if os.name != "nt":
        assert (data / "probes").stat().st_mode & 0o077 == 0
