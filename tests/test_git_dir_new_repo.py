"""Git dir plants the first version of that guard (relay.observe.git_dir) did not see: a ``.git`` the worker made
where there was none, and a plant under limits that name no path.

The party: the worker. In a workspace that is not a git repository the relay watched no git dir (there was none
before the run), and the file-tree look skips ``.git``: a worker that ran ``git init`` and wrote a hook or a
``core.fsmonitor`` key left a quiet SUCCESS, and the person's next ``git commit`` or ``git status`` there ran it.
The fake agy is a real subprocess writing what ``git init`` writes; the relay is reached through the SDK client.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio

_HOOK = '#!/bin/sh\necho "ran $0" >> "{marker}"\n'


def _git_init(marker: Path) -> list[dict]:
    """What ``git init`` writes (git takes this folder for a repository), then a hook and a program key."""
    return [{"op": "write", "path": ".git/HEAD", "content": "ref: refs/heads/main\n"},
            {"op": "mkdir", "path": ".git/objects"}, {"op": "mkdir", "path": ".git/refs/heads"},
            {"op": "write", "path": ".git/config", "content": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
             f"\tfsmonitor = {marker.parent / 'prog'}\n"},
            {"op": "write", "path": ".git/hooks/pre-commit", "content": _HOOK.format(marker=marker), "mode": "755"}]


def _env(tmp_path: Path, agy: Path, profiles: dict | None = None) -> dict[str, str]:
    extra = {"GRAVITY_RELAY_PROFILES": json.dumps(profiles)} if profiles else {}
    return relay_env(tmp_path / "data", agy, **extra)


def _targets(packet: dict) -> dict[str, dict]:
    return {t["file"]: t for t in packet["changes"].get("review", [])}


async def test_a_git_dir_made_in_a_workspace_outside_git_is_named_high_and_breaks_path_limits(tmp_path):
    # Broke: the packet read SUCCESS, risk low, files ["notes.txt"]: no git dir was watched (there was none before
    # the run) and the walk skips .git.
    marker = tmp_path / "MARKER"
    ws = tmp_path / "plain"
    ws.mkdir()
    (ws / "notes.txt").write_text("a\n", encoding="utf-8")
    edits = [*_git_init(marker), {"op": "write", "path": "notes.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    profiles = {"lim": {"protected": ["secrets/"], "on_violation": "revert"}}
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(ws)}))
        assert (ws / ".git/hooks/pre-commit").exists()  # the plant is there: the test is not vacuous
        assert packet["status"] == "SUCCESS" and packet["changes"]["risk"] == "high", packet
        targets = _targets(packet)
        assert "adds a pre-commit hook: runs when you next commit" in targets[".git/hooks/pre-commit"]["reason"], targets
        assert targets[".git/hooks/pre-commit"]["risk"] == "high"
        assert "core.fsmonitor" in targets[".git/config"]["reason"], targets
        shutil.rmtree(ws / ".git")  # the workspace outside git again, for the run under limits
        (ws / "notes.txt").write_text("a\n", encoding="utf-8")
        limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(ws),
                                                                          "profile": "lim"}))
    assert limited["status"] == "POLICY_VIOLATION" and "git_dir" in limited["error"]["message"], limited
    assert ".git/hooks/pre-commit" in limited["error"]["message"], limited
    assert not (ws / ".git/hooks/pre-commit").exists() and not (ws / ".git/config").exists()  # reverted: removed
    assert (ws / "notes.txt").read_text(encoding="utf-8") == "a changed\n"  # within its limits: kept
    assert not marker.exists()  # nothing planted ran inside the relay


@pytest.mark.parametrize("limit", [{"max_files": 10}, {"max_lines": 500}])
async def test_a_plant_breaks_a_count_limit_too_and_revert_removes_it(tmp_path, limit):
    # Broke: under max_files or max_lines alone the run read SUCCESS and the hook stayed (the git_dir rule held under
    # paths and protected only). Decided: no limit the person sets allows a program planted for their next git
    # command; a profile with any limit asked for a bounded change, and the plant is the one change no count bounds.
    from conftest import make_repo

    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [{"op": "write", "path": ".git/hooks/pre-commit", "content": _HOOK.format(marker=marker), "mode": "755"},
             {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy, {"lim": {**limit, "on_violation": "revert"}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
    assert packet["status"] == "POLICY_VIOLATION" and "git_dir" in packet["error"]["message"], packet
    assert not (repo / ".git/hooks/pre-commit").exists()
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a changed\n"  # within the count: kept
    assert not marker.exists()
