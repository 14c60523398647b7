"""Worktree apply writes exactly the observed, checked change (issue 23): the diff of the run's before and
after trees, as policy left it, onto the user's tree, all or nothing.

Real git repositories in tmp dirs, the fake agy as a real subprocess, the relay in memory (MCP client).
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario
from test_worktree import _tree

pytestmark = pytest.mark.anyio


def _env(tmp_path: Path, agy: Path, profiles: dict) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))


async def _run(client, repo: Path, profile: str) -> dict:
    return payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": profile,
                                                                   "workspace": str(repo)}))


async def _apply(client, run_id: str) -> tuple[bool, dict]:
    answer = await client.call_tool("antigravity_continue", {"run_id": run_id, "apply": True})
    return answer.is_error, payload(answer)


def _ignore(repo: Path, rules: str) -> None:
    (repo / ".gitignore").write_text(rules, encoding="utf-8")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore rules")


async def test_apply_of_a_run_whose_violation_policy_reverted_writes_only_the_kept_change(tmp_path, repo):
    # Broke: a worktree run whose protected edit was put back by policy (on_violation "revert") could not be
    # applied at all (INVALID_INPUT), though in place the same run leaves exactly the kept change in the tree.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "append", "path": "README.md", "content": "the worker's protected line\n"}]))
    profiles = {"guarded": {"isolation": "worktree", "protected": ["README.md"], "on_violation": "revert"}}
    before = _tree(repo)
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = await _run(client, repo, "guarded")
        assert packet["status"] == "POLICY_VIOLATION" and "README.md" in packet["error"]["message"], packet
        assert _tree(repo) == before
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused and applied["status"] == "SUCCESS", applied
    assert applied["changes"]["files"] == ["src/new.py"]
    assert (repo / "src" / "new.py").read_text(encoding="utf-8") == "x = 1\n"
    assert (repo / "README.md").read_text(encoding="utf-8") == "# project\n"  # the reverted edit never reaches the user's tree
    assert "not applied, put back by the run's policy: README.md" in applied["summary"]


async def test_apply_of_a_run_whose_violation_was_kept_is_still_refused(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "append", "path": "README.md", "content": "the worker's protected line\n"}]))
    profiles = {"guarded": {"isolation": "worktree", "protected": ["README.md"]}}
    before = _tree(repo)
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = await _run(client, repo, "guarded")
        assert packet["status"] == "POLICY_VIOLATION", packet
        refused, answer = await _apply(client, packet["run_id"])
    assert refused and answer["status"] == "INVALID_INPUT" and "POLICY_VIOLATION" in answer["error"]["message"]
    assert _tree(repo) == before


async def test_apply_brings_the_new_ignored_secret_the_packet_listed_and_revert_undoes_all_of_it(tmp_path, repo):
    # Broke: observation lists a new git-ignored secret (.env) and keeps it in the run's patch, but apply wrote
    # the worktree's commit, which never holds an ignored file: the applied change was not the reviewed one, and
    # `runs revert` after apply refused (.env was in the patch, not in the tree).
    from relay.runs.patches import revert_run
    from relay.runs.store import RunStore

    _ignore(repo, ".env\n*.log\n")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "write", "path": ".env", "content": "API_URL=http://localhost\n"},
        {"op": "write", "path": "build.log", "content": "build output, never listed\n"}],
        report={"summary": "ok", "files_changed": ["src/new.py", ".env"]}))
    before = _tree(repo)
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        assert packet["status"] == "SUCCESS" and sorted(packet["changes"]["files"]) == [".env", "src/new.py"], packet
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused and applied["changes"]["files"] == [".env", "src/new.py"], applied
    assert (repo / ".env").read_text(encoding="utf-8") == "API_URL=http://localhost\n"
    assert not (repo / "build.log").exists()  # not observed, not checked: not applied
    assert "not applied" not in applied["summary"]
    assert revert_run(RunStore(tmp_path / "data" / "runs"), packet["run_id"]).reverted
    assert _tree(repo) == before


async def test_apply_refuses_when_the_user_made_the_file_the_run_adds_naming_it_and_writing_nothing(tmp_path, repo):
    # The user's files moved under the change: their own .env appeared since the run. Broke: apply answered
    # SUCCESS without the run's .env (the commit never held it), so the conflict was never seen.
    _ignore(repo, ".env\n")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "write", "path": ".env", "content": "API_URL=http://worker\n"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        (repo / ".env").write_text("API_URL=http://users-own\n", encoding="utf-8")
        before = _tree(repo)
        refused, answer = await _apply(client, packet["run_id"])
    assert refused and answer["status"] == "APPLY_CONFLICT", answer
    assert ".env (exists in your tree with other content; the run adds it)" in answer["error"]["message"]
    assert _tree(repo) == before and not (repo / "src" / "new.py").exists()


async def test_apply_refuses_an_edit_the_user_made_to_a_line_the_run_changed_and_writes_nothing(tmp_path, repo):
    # Passed before too (the three-way rule is kept): a user's edit the run's change cannot merge with.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        (repo / "src" / "app.py").write_text("def main():\n    return 3\n", encoding="utf-8")
        before = _tree(repo)
        refused, answer = await _apply(client, packet["run_id"])
    assert refused and answer["status"] == "APPLY_CONFLICT"
    assert "src/app.py (your edits and the run's overlap)" in answer["error"]["message"]
    assert _tree(repo) == before and not (repo / "src" / "new.py").exists()


async def test_apply_of_binary_rename_mode_and_symlink_changes_is_byte_for_byte(tmp_path, repo):
    # Passed before too (the commit held these exactly); kept through the trees.
    (repo / "bin").mkdir()
    (repo / "bin" / "tool.sh").write_text("#!/bin/sh\necho hi\n", encoding="utf-8")
    (repo / "docs").mkdir()
    (repo / "docs" / "old.md").write_text("".join(f"line {i}\n" for i in range(40)), encoding="utf-8")
    (repo / "logo.bin").write_bytes(bytes(range(256)) * 4)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more files")
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3 + b"\0\xff"
    agy = install_fake_agy(tmp_path / "bin-agy", success_scenario([
        {"op": "write", "path": "img/new.png", "content_b64": base64.b64encode(png).decode()},
        {"op": "write", "path": "logo.bin", "content_b64": base64.b64encode(bytes(reversed(range(256))) * 4).decode()},
        {"op": "rename", "path": "docs/old.md", "to": "docs/new.md"},
        {"op": "chmod", "path": "bin/tool.sh", "mode": "755"},
        {"op": "symlink", "path": "latest", "target": "docs/new.md"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        assert packet["status"] == "SUCCESS", packet
        worktree = Path(packet["worktree"])
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused, applied
    assert sorted(applied["changes"]["files"]) == ["bin/tool.sh", "docs/new.md", "docs/old.md", "img/new.png",
                                                    "latest", "logo.bin"]
    for rel in ("img/new.png", "logo.bin", "docs/new.md", "bin/tool.sh"):
        assert (repo / rel).read_bytes() == (worktree / rel).read_bytes(), rel
    assert not (repo / "docs" / "old.md").exists()
    assert os.stat(repo / "bin" / "tool.sh").st_mode & 0o111
    assert os.readlink(repo / "latest") == "docs/new.md"


async def test_apply_never_writes_what_a_verification_command_wrote_after_observation(tmp_path, repo):
    # Passed before too (the commit was taken at observation); the trees keep it so.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"}]))
    profiles = {"checked": {"isolation": "worktree",
                            "verify": [f"{sys.executable} -c \"open('verify-output.txt', 'w').write('x')\""]}}
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = await _run(client, repo, "checked")
        assert packet["status"] == "SUCCESS", packet
        assert (Path(packet["worktree"]) / "verify-output.txt").exists()
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused and applied["changes"]["files"] == ["src/new.py"], applied
    assert not (repo / "verify-output.txt").exists()


async def test_apply_of_a_run_in_a_sub_folder_writes_inside_it_only(tmp_path, repo):
    (repo / "sub").mkdir()
    (repo / "sub" / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "sub")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "a, by the worker\n"},
        {"op": "write", "path": "deeper/b.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo / "sub")}))
        assert packet["status"] == "SUCCESS", packet
        shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]],
                                               _env(tmp_path, agy, {"iso": {"isolation": "worktree"}}))
    assert shell.returncode == 0, shell.stdout + shell.stderr
    assert sorted(json.loads(shell.stdout)["changes"]["files"]) == ["a.txt", "deeper/b.txt"]
    assert (repo / "sub" / "a.txt").read_text(encoding="utf-8") == "a, by the worker\n"
    assert (repo / "sub" / "deeper" / "b.txt").read_text(encoding="utf-8") == "b\n"
    assert not (repo / "a.txt").exists() and not (repo / "deeper").exists()


async def test_apply_takes_a_file_the_trees_keep_out_by_size_from_the_runs_commit(tmp_path, repo, monkeypatch):
    # A new untracked file past the trees' size limit is compared by size only (no content in the trees): apply
    # still writes it, from the commit recorded at observation, never dropping part of the observed change.
    import relay.observe.snapshot as snapshot

    monkeypatch.setattr(snapshot, "TREE_FILE_MAX", 64)
    big = "".join(f"row {i}\n" for i in range(40))
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "write", "path": "data/big.csv", "content": big}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        assert sorted(packet["changes"]["files"]) == ["data/big.csv", "src/new.py"], packet
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused and applied["changes"]["files"] == ["data/big.csv", "src/new.py"], applied
    assert (repo / "data" / "big.csv").read_text(encoding="utf-8") == big



async def test_apply_says_which_listed_files_it_could_not_write_a_claimed_file_in_an_ignored_folder(tmp_path, repo):
    # A file inside an ignored folder, claimed by the worker, is listed by its timestamp only: the trees hold no
    # content of it, so apply does not write it, and says so instead of dropping it silently.
    _ignore(repo, "build/\n")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "write", "path": "build/out.txt", "content": "generated\n"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        packet = await _run(client, repo, "iso")
        assert sorted(packet["changes"]["files"]) == ["build/out.txt", "src/new.py"], packet
        refused, applied = await _apply(client, packet["run_id"])
    assert not refused and applied["changes"]["files"] == ["src/new.py"], applied
    assert "not applied, its content was not kept (seen by its timestamp only): build/out.txt" in applied["summary"]
    assert not (repo / "build").exists()


async def test_apply_of_a_chain_whose_last_run_undid_the_first_writes_nothing_and_blames_nothing(tmp_path, repo):
    from fake_agy_harness import set_scenario

    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "a\n"}, {"op": "write", "path": "b.txt", "content": "b\n"}]))
    async with memory_relay(_env(tmp_path, agy, {"iso": {"isolation": "worktree"}})) as client:
        first = await _run(client, repo, "iso")
        set_scenario(agy, success_scenario([{"op": "delete", "path": "a.txt"}]))
        follow = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "no a"}))
        assert follow["status"] == "SUCCESS" and follow["changes"]["files"] == ["a.txt"], follow
        refused, applied = await _apply(client, follow["run_id"])
    assert not refused and applied["changes"]["files"] == ["b.txt"], applied  # the chain: b added, a never there
    assert "not applied" not in applied["summary"]
    assert not (repo / "a.txt").exists() and (repo / "b.txt").read_text(encoding="utf-8") == "b\n"


def test_blob_states_reads_each_blob_once_and_says_none_for_one_git_does_not_have(tmp_path, repo):
    from functools import partial

    from relay.observe.git import run_git
    from relay.observe.restore import Before, blob_states

    app = git(repo, "rev-parse", "HEAD:src/app.py").strip()
    missing = "0123456789abcdef0123456789abcdef01234567"
    states = blob_states(partial(run_git, repo), [("100644", missing), ("100755", app), ("120000", app)])
    assert states == [None, Before("file", b"def main():\n    return 1\n", True),
                      Before("link", b"def main():\n    return 1\n", False)]
