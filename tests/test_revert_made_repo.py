"""`runs revert` of a run whose worker made a repository of its own in a new folder (relay.runs.made_repos).

Party: the worker. A `git init` in a new folder `tool/` (with files and a hook in it) is folded by git into one nested
repository entry, which no patch holds; `runs revert` refused every patch that did not hold the whole run, so the
worker's `git init` stopped the person from putting the workspace back at all. Real repositories in temp dirs, the
fake agy as a real subprocess, the relay through the SDK client in memory, `runs revert` through the CLI's door.
"""

from __future__ import annotations

import time

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio


def _git_init(sub: str) -> list[dict]:
    return [{"op": "write", "path": f"{sub}/.git/HEAD", "content": "ref: refs/heads/main\n"},
            {"op": "mkdir", "path": f"{sub}/.git/objects"}, {"op": "mkdir", "path": f"{sub}/.git/refs/heads"},
            {"op": "write", "path": f"{sub}/.git/config", "content": "[core]\n\trepositoryformatversion = 0\n"},
            {"op": "write", "path": f"{sub}/.git/hooks/post-checkout", "content": "#!/bin/sh\necho hi\n", "mode": "755"},
            {"op": "write", "path": f"{sub}/tool.py", "content": "print('tool')\n"}]


async def _run(tmp_path):
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([*_git_init("tool"),
                                                               {"op": "write", "path": "a.txt", "content": "b\n"}]))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert (repo / "tool/.git/hooks/post-checkout").exists() and "tool" in packet["changes"]["files"], packet
    return repo, env, packet["run_id"]


async def test_runs_revert_removes_a_repository_the_run_made_in_a_new_folder(tmp_path):
    repo, env, run_id = await _run(tmp_path)
    dry = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", run_id, "--dry-run"], env)
    assert dry.returncode == 0 and "remove tool/" in dry.stdout, dry.stdout + dry.stderr
    assert (repo / "tool").exists()  # a dry run changes nothing
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", run_id], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert not (repo / "tool").exists(), reverted.stdout
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"


async def test_runs_revert_refuses_when_the_made_repository_changed_since_the_run(tmp_path):
    # The other side: the person wrote into the folder after the run; removing it would lose their file.
    repo, env, run_id = await _run(tmp_path)
    time.sleep(1.2)  # past the second of slack the check gives the run's own files
    (repo / "tool/mine.txt").write_text("the person's\n", encoding="utf-8")
    refused = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", run_id], env)
    assert refused.returncode != 0 and "tool/mine.txt changed since the run" in refused.stdout + refused.stderr, \
        refused.stdout + refused.stderr
    assert (repo / "tool/mine.txt").exists() and (repo / "a.txt").read_text(encoding="utf-8") == "b\n"
