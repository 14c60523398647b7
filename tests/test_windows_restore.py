"""Restore and apply give back the bytes the user had, whatever Windows does to them (issue 37, W11).

Two Windows traits imposed on Linux:

* line endings: git for Windows sets ``core.autocrlf=true`` in the system config, so the user's files are CRLF on
  disk while git's blobs are LF. The relay's own git reads no config but the settings it passes (issue 34 D2), yet
  it hashes a file the way the user's git would (CRLF -> LF): a revert that wrote the before tree's blob gave the
  user LF files. Here the setting sits where the relay never reads it directly (the user's global config through
  HOME, or the repository's own config) and the files on disk are CRLF, mixed, LF;
* symbolic links: without Developer Mode (or an administrator) Windows refuses ``os.symlink`` (WinError 1314).
  A link the worker deleted or replaced is named with its target and what to do, never lost, and the rest is
  restored.

A worktree run's apply meets both too: your CRLF files against the run's LF trees, and a link it cannot create.

The party guarded against: the worker (it rewrites or deletes protected files; the revert must undo it exactly).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio

# What the user has on disk before the run, by path: git's checkout under autocrlf (CRLF), a file the user
# edited with mixed endings, one still LF (checked out before autocrlf was set), an untracked CRLF file.
_COMMITTED = {"config/clean.txt": "alpha\nbeta\n", "config/gone.txt": "keep\nme\n", "config/mixed.txt": "m\n",
              "config/lf.txt": "plain\nlf\n", "config/bin.dat": "x\n", "src/app.py": "def main():\n    return 1\n"}


def _crlf_workspace(tmp_path: Path, monkeypatch, where: str) -> tuple[Path, dict[str, bytes]]:
    """A repository checked out under ``core.autocrlf=true`` (set in the user's global config, read through HOME,
    or in the repository's own), and the bytes each protected file holds before the run."""
    repo = make_repo(tmp_path / "project", dict(_COMMITTED))
    home = tmp_path / "home"
    home.mkdir()
    if where == "global":
        (home / ".gitconfig").write_text("[core]\n\tautocrlf = true\n", encoding="utf-8")
    else:
        with (repo / ".git" / "config").open("a", encoding="utf-8") as fh:
            fh.write("[core]\n\tautocrlf = true\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name in _COMMITTED:
        (repo / name).unlink()
    git(repo, "-c", "core.autocrlf=true", "checkout", "--", ".")  # what git for Windows writes: CRLF
    (repo / "config/mixed.txt").write_bytes(b"one\r\ntwo\nthree\r\n")  # the user's own edit, mixed endings
    (repo / "config/lf.txt").write_bytes(b"plain\nlf\n")
    git(repo, "-c", "core.autocrlf=true", "add", "config/lf.txt")  # stat-clean, LF on disk
    (repo / "config/bin.dat").write_bytes(b"\x00\r\nraw\r\n")  # binary: git never converts it
    git(repo, "-c", "core.autocrlf=true", "add", "config/bin.dat")
    (repo / "config/local.txt").write_bytes(b"untracked\r\nlines\r\n")
    before = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / "config").iterdir()}
    assert before["config/clean.txt"] == b"alpha\r\nbeta\r\n", before  # the trait is in place
    assert git(repo, "-c", "core.autocrlf=true", "status", "--porcelain") == \
        "M  config/bin.dat\n M config/mixed.txt\n?? config/local.txt\n"
    return repo, before


_REWRITE = [{"op": "write", "path": "config/clean.txt", "content": "worker\n"},
            {"op": "delete", "path": "config/gone.txt"},
            {"op": "write", "path": "config/mixed.txt", "content": "worker\n"},
            {"op": "write", "path": "config/lf.txt", "content": "worker\r\n"},
            {"op": "write", "path": "config/bin.dat", "content": "worker\n"},
            {"op": "write", "path": "config/local.txt", "content": "worker\n"},
            {"op": "write", "path": "src/app.py", "content": "def main():\n    return 2\n"},
            # git's checkout of the clean files must not follow attributes the worker wrote (it would write LF)
            {"op": "write", "path": ".gitattributes", "content": "* -text\n"}]


@pytest.mark.parametrize("where", ["global", "repository"])
async def test_a_policy_revert_under_autocrlf_gives_back_the_users_exact_bytes(tmp_path, monkeypatch, where):
    # Broke: the before tree holds git's form of each file (LF), and the revert wrote that: every CRLF file the
    # worker touched came back LF, the mixed one all LF, the deleted one LF.
    repo, before = _crlf_workspace(tmp_path, monkeypatch, where)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(_REWRITE))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(
        {"app": {"workspace": str(repo), "protected": ["config/"], "on_violation": "revert"}}))
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    violation = full["outcome"]["violation"]
    assert packet["status"] == "POLICY_VIOLATION", packet
    assert violation.get("not_restored", {}) == {}, violation
    assert sorted(violation["restored"]) == sorted(before), violation
    after = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / "config").iterdir()}
    assert after == before
    assert (repo / "src/app.py").read_bytes() == b"def main():\n    return 2\n"  # not protected: the worker's


async def test_runs_revert_under_autocrlf_gives_back_the_users_exact_bytes(tmp_path, monkeypatch):
    # `runs revert` reverses the run's patch (git's LF form) with the user's git settings: each file must come back
    # as it was on disk, the mixed one included.
    repo, before = _crlf_workspace(tmp_path, monkeypatch, "global")
    agy = install_fake_agy(tmp_path / "bin", success_scenario(_REWRITE))
    env = relay_env(tmp_path / "data", agy, HOME=os.environ["HOME"])
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    after = {p.relative_to(repo).as_posix(): p.read_bytes() for p in (repo / "config").iterdir()}
    assert after == before
    assert (repo / "src/app.py").read_bytes() == b"def main():\r\n    return 1\r\n"


def _no_developer_mode(monkeypatch) -> list[str]:
    """``os.symlink`` as Windows answers it without Developer Mode or an administrator (in the relay's process:
    the fake agy and git are processes of their own); the links it was asked for."""
    asked: list[str] = []

    def refuse(src, dst, *args, **kwargs):
        asked.append(str(src))
        exc = OSError(22, "A required privilege is not held by the client", str(dst))
        exc.winerror = 1314
        raise exc

    monkeypatch.setattr(os, "symlink", refuse)
    return asked


async def test_a_link_windows_will_not_create_is_named_with_its_target_and_the_rest_is_restored(tmp_path, monkeypatch):
    # Broke: the refusal came back as "could not write it (A required privilege is not held by the client)": the
    # link's target was nowhere the user looks, and nothing said Developer Mode or how to make the link by hand.
    repo = make_repo(tmp_path / "project", {"config/a.txt": "a\n", "releases/v1/app.cfg": "v1\n", "src/app.py": "x\n"})
    (repo / "config/current").symlink_to("../releases/v1")
    (repo / "config/notes").symlink_to("a.txt")
    git(repo, "add", "config")
    git(repo, "commit", "-q", "-m", "links")
    edits = [{"op": "delete", "path": "config/current"},
             {"op": "delete", "path": "config/notes"},
             {"op": "write", "path": "config/notes", "content": "not a link any more\n"},  # a link replaced by a file
             {"op": "write", "path": "config/a.txt", "content": "worker\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(
        {"app": {"workspace": str(repo), "protected": ["config/"], "on_violation": "revert"}}))
    asked = _no_developer_mode(monkeypatch)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "app"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    violation = full["outcome"]["violation"]
    assert packet["status"] == "POLICY_VIOLATION", packet
    assert sorted(asked) == ["../releases/v1", "a.txt"]
    assert violation["restored"] == ["config/a.txt"], violation
    assert (repo / "config/a.txt").read_text(encoding="utf-8") == "a\n"
    current, notes = violation["not_restored"]["config/current"], violation["not_restored"]["config/notes"]
    assert "'../releases/v1'" in current and "Developer Mode" in current, current
    root = os.path.realpath(repo)
    assert f'mklink /D "{root}/config/current" "..\\releases\\v1"' in current, current
    assert "'a.txt'" in notes and f'mklink "{root}/config/notes" "a.txt"' in notes, notes
    # The packet the leader reads names the first of them with its target; nothing was half-written.
    message = packet["error"]["message"]
    assert "config/current" in message and "../releases/v1" in message and "Developer Mode" in message, message
    assert not (repo / "config/current").exists() and (repo / "config/notes").read_text(encoding="utf-8") == \
        "not a link any more\n"
    assert sorted(p.name for p in (repo / "config").iterdir()) == ["a.txt", "notes"]


def test_a_clean_file_with_bytes_git_cannot_make_again_is_named_never_guessed(tmp_path, monkeypatch):
    # A file committed with mixed endings under autocrlf is clean to git, which stores it LF and would check it out
    # all CRLF: neither is what the user had. The revert says so and how to get git's checkout, writing nothing.
    from relay.observe.permissions import pre_run_files
    from relay.observe.restore import restore_paths
    from relay.observe.snapshot import take_snapshot

    repo = make_repo(tmp_path / "project", {"m.txt": "a\nb\n"})
    with (repo / ".git" / "config").open("a", encoding="utf-8") as fh:
        fh.write("[core]\n\tautocrlf = true\n")
    (repo / "m.txt").write_bytes(b"a\r\nb\n")
    git(repo, "add", "m.txt")
    assert git(repo, "status", "--porcelain") == ""
    snap = take_snapshot(repo, tmp_path / "trees")
    pre = pre_run_files(repo, snap)
    (repo / "m.txt").write_bytes(b"worker\n")
    restored, refused = restore_paths(snap, ["m.txt"], pre)
    assert restored == [] and "mixed" in refused["m.txt"] and "git checkout -- <the file>" in refused["m.txt"], refused
    assert (repo / "m.txt").read_bytes() == b"worker\n"


async def test_a_worktree_runs_apply_under_autocrlf_merges_into_crlf_files_and_writes_crlf(tmp_path, monkeypatch):
    # Broke: the run's trees hold git's LF form, your tree CRLF: byte for byte every file the run edited looked
    # edited by you too, and apply refused it (APPLY_CONFLICT: "your edits and the run's overlap"); a file the run
    # added came LF into a CRLF tree.
    repo = make_repo(tmp_path / "project", {"a.txt": "one\ntwo\nthree\nfour\n", "b.txt": "b\n"})
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\tautocrlf = true\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    for name in ("a.txt", "b.txt"):
        (repo / name).unlink()
    git(repo, "-c", "core.autocrlf=true", "checkout", "--", ".")
    (repo / "a.txt").write_bytes(b"one\r\ntwo\r\nthree\r\nFOUR (yours)\r\n")  # your own edit, not in the worktree
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "replace-lines", "path": "a.txt", "start": 2, "end": 2, "content": "TWO (the run's)\n"},
        {"op": "write", "path": "new.txt", "content": "n1\nn2\n"}]))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                        "workspace": str(repo)}))
        assert packet["status"] == "SUCCESS", packet
        answer = await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True})
    applied = payload(answer)
    assert not answer.is_error and applied["status"] == "SUCCESS", applied
    assert (repo / "a.txt").read_bytes() == b"one\r\nTWO (the run's)\r\nthree\r\nFOUR (yours)\r\n"
    assert (repo / "new.txt").read_bytes() == b"n1\r\nn2\r\n"
    assert (repo / "b.txt").read_bytes() == b"b\r\n"


async def test_a_worktree_run_adding_a_link_windows_will_not_create_is_refused_whole_naming_it(tmp_path):
    # Broke: apply wrote the run's files one by one and os.symlink raised at the link: the files before it were
    # in your tree, the rest not, and the answer was Windows' bare "A required privilege is not held".
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "a.txt", "content": "a changed\n"},
        {"op": "symlink", "path": "z-link", "target": "a.txt"}]))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                        "workspace": str(repo)}))
        assert packet["status"] == "SUCCESS", packet
        with pytest.MonkeyPatch.context() as patch:
            asked = _no_developer_mode(patch)
            answer = await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True})
    refused = payload(answer)
    assert answer.is_error and refused["status"] == "APPLY_CONFLICT", refused
    message = refused["error"]["message"]
    assert "z-link" in message and "'a.txt'" in message and "Developer Mode" in message, message
    assert asked and (repo / "a.txt").read_text(encoding="utf-8") == "a\n" and not os.path.lexists(repo / "z-link")
