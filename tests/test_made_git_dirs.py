"""A ``.git`` the worker makes in a SUBFOLDER of the workspace during the run (relay.observe.made_git_dirs).

The party: the worker. ``git init`` in ``sub/`` makes that folder a repository of its own: a hook or a program key
planted in ``sub/.git`` runs at the person's next ``git checkout`` or ``git status`` in ``sub/``. The parent's look
never sees it (git lists no path named ``.git``; inside a tracked folder ``sub/.git`` is simply not there, an untracked
folder holding one is folded into one entry), and the git-dir guard watched only the git dirs that were there before
the run. The fake agy is a real subprocess writing what ``git init`` writes; the repositories are real; the relay is
reached through the SDK client.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario

pytestmark = pytest.mark.anyio

_HOOK = '#!/bin/sh\necho "ran $0" >> "{marker}"\n'


def _git_init(sub: str, marker: Path) -> list[dict]:
    """What ``git init`` writes in ``sub`` (git takes the folder for a repository), then a hook and a program key."""
    return [{"op": "write", "path": f"{sub}/.git/HEAD", "content": "ref: refs/heads/main\n"},
            {"op": "mkdir", "path": f"{sub}/.git/objects"}, {"op": "mkdir", "path": f"{sub}/.git/refs/heads"},
            {"op": "write", "path": f"{sub}/.git/config", "content": "[core]\n\trepositoryformatversion = 0\n"
             f"\tbare = false\n\tfsmonitor = {marker.parent / 'prog'}\n"},
            {"op": "write", "path": f"{sub}/.git/hooks/post-checkout", "content": _HOOK.format(marker=marker),
             "mode": "755"}]


def _toplevel(folder: Path) -> str:
    return subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True,
                          check=True).stdout.decode("utf-8").strip()


def _targets(packet: dict) -> dict[str, dict]:
    return {t["file"]: t for t in packet["changes"].get("review", [])}


@pytest.mark.parametrize(("sub", "in_git"), [("src", True), ("fresh/deep", True), ("src", False)],
                         ids=["a_tracked_folder", "a_new_folder", "a_folder_of_a_workspace_outside_git"])
async def test_a_git_init_in_a_subfolder_plants_are_named_high_a_violation_under_limits_and_reverted(tmp_path, sub,
                                                                                                      in_git):
    # Broke on main: the packet read SUCCESS, risk low, and named neither src/.git/hooks/post-checkout nor the
    # core.fsmonitor key (for the new folder: the files the worker did not report were folded into "fresh", medium);
    # under a `paths` limit that allows the folder the run read SUCCESS and the hook stayed.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "src/app.py": "x = 1\n"})
    if not in_git:
        shutil.rmtree(repo / ".git")
    edits = [*_git_init(sub, marker), {"op": "write", "path": "src/app.py", "content": "x = 2\n"}]
    report = make_report(summary="Edited app.py.", files_changed=["src/app.py"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    profiles = {"lim": {"paths": ["src/**", "fresh/**"], "on_violation": "revert"}, "count": {"max_files": 20}}
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))
    hook, config = f"{sub}/.git/hooks/post-checkout", f"{sub}/.git/config"
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert _toplevel(repo / sub) == str((repo / sub).resolve())  # git in sub/ now uses the planted git dir
        assert packet["status"] == "SUCCESS" and packet["changes"]["risk"] == "high", packet
        targets = _targets(packet)
        assert targets[hook]["risk"] == "high", targets
        assert "adds a post-checkout hook: runs when you next check out" in targets[hook]["reason"], targets
        assert targets[config]["risk"] == "high" and "core.fsmonitor" in targets[config]["reason"], targets
        if sub == "src":  # (a new nested repository's revert removes it whole: test_revert_made_repo.py)
            reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
            assert reverted.returncode == 0, reverted.stdout + reverted.stderr
            assert not (repo / hook).exists() and not (repo / config).exists(), reverted.stdout
        for profile in ("count", "lim"):  # a count bounds no plant; a path that allows the folder allows no plant
            shutil.rmtree(repo / sub / ".git")  # as before the run, for the next one
            (repo / "src/app.py").write_text("x = 1\n", encoding="utf-8")
            limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                              "profile": profile}))
            assert limited["status"] == "POLICY_VIOLATION" and "git_dir" in limited["error"]["message"], limited
            assert hook in limited["error"]["message"], limited
    assert not (repo / hook).exists() and not (repo / config).exists()  # the last run reverted: the plants removed
    assert (repo / sub / ".git/HEAD").exists()  # what git init writes itself is left
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "x = 2\n"  # within its paths: kept
    assert not marker.exists()  # nothing planted ran inside the relay


async def test_a_repository_in_a_subfolder_before_the_run_raises_nothing_when_the_worker_leaves_it_alone(tmp_path):
    # The other side: a nested repository that was there before the run, with a hook of its own, is no plant.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": "vendor/\n"})
    lib = make_repo(repo / "vendor/lib", {"l.txt": "l\n"})
    (lib / ".git/hooks/pre-commit").write_text(_HOOK.format(marker=marker), encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet


async def test_a_hook_planted_in_a_repository_inside_an_ignored_folder_is_named_and_breaks_a_count_limit(tmp_path):
    # Broke on main: SUCCESS, files ["a.txt"]: git folds the ignored vendor/ into one entry, no look scanned the clone
    # inside it, and its git dir was watched by no guard; the hook ran at the person's next commit in vendor/lib.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": "vendor/\n"})
    make_repo(repo / "vendor/lib", {"l.txt": "l\n"})
    hook = "vendor/lib/.git/hooks/pre-commit"
    edits = [{"op": "write", "path": hook, "content": _HOOK.format(marker=marker), "mode": "755"},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    profiles = {"count": {"max_files": 10, "on_violation": "revert"}}
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "count"}))
    assert packet["status"] == "POLICY_VIOLATION" and hook in packet["error"]["message"], packet
    assert "adds a pre-commit hook" in _targets(packet)[hook]["reason"], packet
    assert not (repo / hook).exists() and not marker.exists()  # put back (removed); nothing ran inside the relay
