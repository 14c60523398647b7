"""The worktree pool's git reads the repository's config, never the system's or the user's (relay.isolate.pool_git).

On git 2.54+ a ``[hook]`` in any config file git reads runs; the pool's git read the user's ``~/.gitconfig``, so a
user's own global hook refused every worktree run, and a worker (it runs as the user, with the user's HOME) could
write that file too. Now the pool's git runs with ``own_config_only`` and the few settings of the user's its steps
need passed with ``-c``. "git runs config hooks" is imposed by replacing the relay's version reader (this machine's
git is 2.39); the hooks and programs are scripts that write a marker.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, set_scenario, success_scenario
from test_git_guards import _evil, _plant, _ran

from relay.isolate import config_hooks

pytestmark = pytest.mark.anyio

_ISO = {"iso": {"isolation": "worktree"}}
_HOME_FROM_WORKTREE = "../../../../home"  # a pool worktree (<tmp>/data/worktrees/<repository>/w0) to <tmp>/home


@pytest.fixture
def new_git(monkeypatch):
    """The relay's git taken for 2.54.0 (config hooks), whatever this machine has."""
    monkeypatch.setattr(config_hooks, "git_version", lambda: (2, 54, 0))


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """The user's HOME (the relay's and the worker's): a folder of the test's, its config empty to start with."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return folder


def _hook(prog: Path) -> str:
    return f'\n[hook "evil"]\n\tevent = reference-transaction\n\tevent = post-checkout\n\tcommand = {prog}\n'


async def _run(client, repo: Path) -> dict:
    return payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso", "workspace": str(repo)}))


async def test_a_worker_writing_the_users_gitconfig_runs_nothing_in_any_pool_step(tmp_path, new_git, home):
    # Broke (on git 2.54+): the worker appended a [hook] to ~/.gitconfig (its HOME is the user's); recording its
    # change refused (CONFLICTING_OPTIONS naming that file) and every later worktree run refused too. The party: the
    # worker, writing into the user's global config a hook, a filter (and attributes that use it), core.fsmonitor and
    # core.hooksPath with real hook scripts: none runs in the record, the next lease (checkout, clean), or apply.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "b.txt": "b\n"})
    edits = [*_plant(prog, f"{_HOME_FROM_WORKTREE}/.gitconfig", ".gitattributes"),
             {"op": "append", "path": f"{_HOME_FROM_WORKTREE}/.gitconfig", "content": _hook(prog)},
             {"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "write", "path": "new.txt", "content": "new\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(_ISO))) as client:
        first = await _run(client, repo)
        assert first["status"] == "SUCCESS", first
        assert "hook \"evil\"" in (home / ".gitconfig").read_text(encoding="utf-8")  # the plant is in place
        set_scenario(agy, success_scenario([{"op": "write", "path": "b.txt", "content": "b changed\n"}]))
        second = await _run(client, repo)  # leases the same worktree: checkout -f and clean -ffdx there
        assert second["status"] == "SUCCESS" and second["worktree"] == first["worktree"], second
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "apply": True}))
    assert applied["status"] == "SUCCESS", applied
    assert git(repo, "show", f"{first['branch']}:a.txt") == "a changed\n"
    assert git(repo, "show", f"{second['branch']}:b.txt") == "b changed\n"
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a changed\n" and (repo / "new.txt").is_file()
    assert _ran(marker) == ""


def test_the_users_global_autocrlf_still_shapes_the_worktree_and_the_record(tmp_path, home):
    # Kept as it was (issue 37, W11): the pool's git no longer reads ~/.gitconfig, yet its checkout writes the user's
    # CRLF and its record stores git's LF, as the user's own git would; the setting is read before the run, so a
    # worker that turns it off in ~/.gitconfig changes neither. The party: the worker, rewriting the user's config.
    from relay.isolate.pool import lease_worktree, record_change

    (home / ".gitconfig").write_text("[core]\n\tautocrlf = true\n", encoding="utf-8")
    repo = make_repo(tmp_path / "project", {"a.txt": "one\ntwo\n"})
    lease = lease_worktree(tmp_path / "data", repo, "r1")
    try:
        assert (lease.slot / "a.txt").read_bytes() == b"one\r\ntwo\r\n"  # what the user's git checks out
        (home / ".gitconfig").write_text("[core]\n\tautocrlf = false\n", encoding="utf-8")  # the worker's move
        (lease.slot / "new.txt").write_bytes(b"n1\r\nn2\r\n")
        tip = record_change(lease, "m")
    finally:
        lease.release()
    assert git(repo, "cat-file", "-p", f"{tip}:new.txt") == "n1\nn2\n"
    assert git(repo, "cat-file", "-p", f"{tip}:a.txt") == "one\ntwo\n"


def test_a_repositorys_own_line_ending_setting_still_wins_over_the_users(tmp_path, home):
    # The user's settings are passed on the command line, which outranks every file: one the repository's own config
    # sets is left to it (the pool's git reads that file), as the user's git would. The party: none (correctness).
    from relay.isolate.pool import lease_worktree

    (home / ".gitconfig").write_text("[core]\n\tautocrlf = true\n", encoding="utf-8")
    repo = make_repo(tmp_path / "project", {"a.txt": "one\ntwo\n"})
    git(repo, "config", "core.autocrlf", "false")
    lease = lease_worktree(tmp_path / "data", repo, "r1")
    lease.release()
    assert (lease.slot / "a.txt").read_bytes() == b"one\ntwo\n"


def test_the_users_global_ignore_file_still_keeps_files_out_of_the_record(tmp_path, home):
    # The pool's git has the relay's empty home, not the user's: their ignore file (the one core.excludesFile names
    # with ~, and git's default one) is passed by its full path, so the record holds what the user's git would add.
    from relay.isolate.pool import lease_worktree, record_change

    (home / ".gitignore_global").write_text("*.log\n", encoding="utf-8")
    (home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/.gitignore_global\n", encoding="utf-8")
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    lease = lease_worktree(tmp_path / "data", repo, "r1")
    try:
        (lease.slot / "debug.log").write_text("x\n", encoding="utf-8")
        (lease.slot / "kept.txt").write_text("k\n", encoding="utf-8")
        tip = record_change(lease, "m")
    finally:
        lease.release()
    assert git(repo, "ls-tree", "--name-only", tip).split() == ["a.txt", "kept.txt"]
    (home / ".gitconfig").unlink()
    (home / ".config/git").mkdir(parents=True)
    (home / ".config/git/ignore").write_text("*.tmp\n", encoding="utf-8")
    lease = lease_worktree(tmp_path / "data", repo, "r2")
    try:
        (lease.slot / "x.tmp").write_text("x\n", encoding="utf-8")
        tip = record_change(lease, "m")
    finally:
        lease.release()
    assert "x.tmp" not in git(repo, "ls-tree", "--name-only", tip).split()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="gives the repository to another user (chown): needs root")
async def test_a_repository_of_another_user_runs_with_the_users_safe_directory_and_its_hooks_still_refuse(
        tmp_path, new_git, home):
    # git refuses a repository another account owns unless safe.directory (the user's global config) names it; the
    # pool's git no longer reads that file, so it gets the user's safe.directory on the command line (git 2.39
    # honours it there, never from the repository's own config). The guard's read of the hook keys must read the
    # repository's config as the command will: else git skips it silently and a [hook] there goes unseen. The
    # party: the repository under work (its .git/config names a hook; its own safe.directory counts for nothing).
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    (home / ".gitconfig").write_text(f"[safe]\n\tdirectory = {repo}\n", encoding="utf-8")
    git(repo, "config", "safe.directory", "*")  # the repository's own word: git ignores it, so must the relay
    for folder, dirs, files in os.walk(repo):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            os.lchown(name, 54321, 54321)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(_ISO))) as client:
        ran = await _run(client, repo)
        assert ran["status"] == "SUCCESS", ran
        prog, marker = _evil(tmp_path)
        with (repo / ".git" / "config").open("a", encoding="utf-8") as fh:
            fh.write(_hook(prog))
        refused = await _run(client, repo)
        (home / ".gitconfig").write_text("", encoding="utf-8")  # no safe.directory: git refuses the repository
        unsafe = await _run(client, repo)
    assert refused["status"] == "CONFLICTING_OPTIONS" and "hook.evil.command" in refused["error"]["message"], refused
    assert unsafe["status"] != "SUCCESS" and "dubious ownership" in json.dumps(unsafe), unsafe["error"]
    assert _ran(marker) == ""


def test_the_relays_empty_git_home_written_to_is_made_again_before_git_reads_it(tmp_path, monkeypatch):
    # The party: a worker that finds the relay's empty home (a folder of the same user's, in their cache folder) and
    # writes a config into it: the next git of the relay's finds it empty again. One per user: a relay that is killed
    # leaves nothing behind in the temp dir.
    from relay.observe.git import own_config_only

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    env = own_config_only({})
    home = Path(env["HOME"])
    assert home == tmp_path / "cache" / "gravity-relay" / "git-home" and env["XDG_CONFIG_HOME"] == str(home)
    assert env["GIT_CONFIG_GLOBAL"] == str(home / ".gitconfig") and (home / ".gitconfig").read_bytes() == b""
    (home / ".gitconfig").write_text('[hook "x"]\n\tevent = post-checkout\n\tcommand = /bin/true\n', encoding="utf-8")
    again = own_config_only({})
    assert Path(again["GIT_CONFIG_GLOBAL"]).read_bytes() == b""
    (home / ".config" / "git").mkdir(parents=True)  # an XDG config folder an older git would read
    (home / ".config" / "git" / "config").write_text("[core]\n\tfsmonitor = /bin/true\n", encoding="utf-8")
    assert own_config_only({})["HOME"] == str(home) and os.listdir(home) == [".gitconfig"]
