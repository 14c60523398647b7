"""The relay's git where it must read the repository's own config (issue 34 D2, the routes left after it).

Observation reads no config of the repository's (``relay.observe.private_repo``). A worktree's checkout and
commit, ``runs revert``'s ``git apply`` and recovery without a snapshot run in the repository itself: every key
that names a program is pinned on the command line (``SAFE_CONFIG``), and the filter drivers, whose names are
the repository's, are read right before the command and switched off. Each test is one way around that read:
config the read does not see because it belongs to another git dir than the one read (a linked worktree's
``includeIf "gitdir:"`` and ``config.worktree``, a submodule's own config that git consults from a child git),
or a key the pins may have missed (a merge driver named by ``.gitattributes`` while apply merges). The adversary
plants a script that writes a marker; after the command, no marker.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, set_scenario, success_scenario
from test_git_guards import _ATTRIBUTES, _EVIL, _HOOKS, _config, _evil, _ran

pytestmark = pytest.mark.anyio

_ISO = {"iso": {"isolation": "worktree"}}
# From a pool worktree (<tmp>/data/worktrees/<repository>/w0) to the user's repository (<tmp>/project).
_UP = "../../../../project"


def _env(tmp_path: Path, agy: Path) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(_ISO))


async def _run(client, repo: Path) -> dict:
    return payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso", "workspace": str(repo)}))


async def test_a_filter_only_the_pools_worktrees_include_never_runs_at_their_checkout(tmp_path):
    # Broke: `includeIf "gitdir:**/worktrees/**"` (written by an earlier worker into the user's .git/config, the
    # file it names tracked) defines a filter in linked worktrees only; the filters were read at the repository's
    # top level, where the condition is false, and `git worktree add` smudged every file through the filter.
    prog, marker = _evil(tmp_path)
    hooks = tmp_path / "hooks"  # every hook a checkout, a commit or a ref update would run, each writing the marker
    hooks.mkdir()
    for name in _HOOKS:
        (hooks / name).write_text(_EVIL.format(marker=marker), encoding="utf-8")
        (hooks / name).chmod(0o755)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitattributes": _ATTRIBUTES,
                                            "tools/gitconfig": _config(prog, str(hooks))})
    git(repo, "config", "includeIf.gitdir:**/worktrees/**.path", "../tools/gitconfig")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = await _run(client, repo)
        assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet
        assert git(Path(packet["worktree"]), "config", "filter.x.smudge").startswith(str(prog))  # the plant is live there
        assert _ran(marker) == ""
        again = await _run(client, repo)  # the same worktree again: checkout -f and clean
        assert again["status"] == "SUCCESS", again
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": again["run_id"], "apply": True}))
    assert applied.get("ok", True) is not False, applied
    assert (repo / "a.txt").read_text(encoding="utf-8") == "b\n"
    assert _ran(marker) == ""


async def test_a_filter_a_worker_puts_in_its_worktrees_own_config_never_runs_when_the_next_run_takes_it(tmp_path):
    # Broke: the worker turned on extensions.worktreeConfig in the shared config and wrote a filter into its
    # worktree's config.worktree; the next run's lease read the filters at the top level (which has no such file)
    # and `git checkout -f` in that worktree put the worker's edit back through the filter's smudge.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    hooks = [{"op": "write", "path": f"{_UP}/.git/evil-hooks/{name}", "content": _EVIL.format(marker=marker),
              "mode": "755"} for name in _HOOKS]
    edits = [{"op": "append", "path": f"{_UP}/.git/config", "content": "[extensions]\n\tworktreeConfig = true\n"},
             {"op": "write", "path": f"{_UP}/.git/worktrees/w0/config.worktree",
              "content": _config(prog, str(repo / ".git/evil-hooks"))}, *hooks,
             {"op": "write", "path": f"{_UP}/.git/info/attributes", "content": _ATTRIBUTES},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy)) as client:
        first = await _run(client, repo)
        assert first["status"] == "SUCCESS" and "a.txt" in first["changes"]["files"], first
        worktree = Path(first["worktree"])
        assert git(worktree, "config", "filter.x.smudge").startswith(str(prog))  # the plant is live in w0
        assert _ran(marker) == ""
        set_scenario(agy, success_scenario([{"op": "write", "path": "c.txt", "content": "c\n"}]))
        second = await _run(client, repo)
    assert second["status"] == "SUCCESS" and second["worktree"] == str(worktree), second
    assert (worktree / "a.txt").read_text(encoding="utf-8") == "a\n"  # checked out again, as committed
    assert _ran(marker) == ""


def _with_submodule(tmp_path: Path) -> Path:
    lib = make_repo(tmp_path / "lib", {"lib.txt": "l\n"})
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "sub")
    git(repo, "commit", "-qm", "sub")
    return repo


def _plant_in_submodule(repo: Path, prog: Path, hooks: Path) -> None:
    """A filter in the submodule's own config, and every file of the submodule marked with it."""
    with (repo / ".git/modules/sub/config").open("a", encoding="utf-8") as fh:
        fh.write(_config(prog, str(hooks)))
    (repo / ".git/modules/sub/info").mkdir(exist_ok=True)
    (repo / ".git/modules/sub/info/attributes").write_text(_ATTRIBUTES, encoding="utf-8")


def test_recovery_without_a_snapshot_runs_no_filter_a_submodule_defines(tmp_path):
    # Broke: `git status` in the repository asks a child git in each submodule whether its files changed; that git
    # reads the submodule's own config, whose filters nobody had switched off, and hashed the edited file through them.
    from relay.runs.crashed import git_visible_changes

    prog, marker = _evil(tmp_path)
    repo = _with_submodule(tmp_path)
    _plant_in_submodule(repo, prog, tmp_path / "hooks")
    (repo / "sub/lib.txt").write_text("m\n", encoding="utf-8")  # the same size: only hashing tells
    (repo / "new.txt").write_text("new\n", encoding="utf-8")
    changes, why_not = git_visible_changes(str(repo), before_head=git(repo, "rev-parse", "HEAD").strip())
    assert why_not is None and {c.path for c in changes} >= {"new.txt", "sub"}, (changes, why_not)
    assert _ran(marker) == ""


async def test_recording_a_worktree_runs_change_runs_no_filter_a_submodule_defines(tmp_path):
    # Broke: the worker points its worktree's empty submodule folder at the user's submodule git dir, plants a
    # filter in that submodule's config and edits one of its files; `git add -A` (recording the run's commit)
    # asked a child git whether the submodule was dirty, and that child ran the filter.
    prog, marker = _evil(tmp_path)
    repo = _with_submodule(tmp_path)
    modules = (repo / ".git/modules/sub").resolve()
    edits = [{"op": "write", "path": "sub/.git", "content": f"gitdir: {modules}\n"},
             {"op": "append", "path": f"{_UP}/.git/modules/sub/config", "content": _config(prog, str(tmp_path / "h"))},
             {"op": "write", "path": f"{_UP}/.git/modules/sub/info/attributes", "content": _ATTRIBUTES},
             {"op": "write", "path": f"{_UP}/sub/lib.txt", "content": "m\n"},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = await _run(client, repo)
    assert (repo / "sub/lib.txt").read_text(encoding="utf-8") == "m\n"  # the plant reached the user's submodule
    assert packet["status"] == "SUCCESS" and "a.txt" in packet["changes"]["files"], packet
    assert "a.txt" in git(repo, "diff", "--name-only", "main", packet["branch"])
    assert _ran(marker) == ""


async def test_a_merge_driver_the_worker_names_never_runs_when_apply_merges_both_sides(tmp_path):
    # A route that held already: apply merges a file both sides edited with `git merge-file`, which reads no
    # attributes, so the merge driver the worker defined and named for every file is never asked.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "1\n2\n3\n4\n5\n"})
    edits = [{"op": "append", "path": f"{_UP}/.git/config", "content": _config(prog, str(tmp_path / "hooks"))},
             {"op": "write", "path": ".gitattributes", "content": _ATTRIBUTES},
             {"op": "write", "path": f"{_UP}/.git/info/attributes", "content": _ATTRIBUTES},
             {"op": "write", "path": "a.txt", "content": "1\n2\n3\n4\nfive\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = await _run(client, repo)
        (repo / "a.txt").write_text("one\n2\n3\n4\n5\n", encoding="utf-8")  # the user's own edit meanwhile
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied.get("ok", True) is not False, applied
    assert (repo / "a.txt").read_text(encoding="utf-8") == "one\n2\n3\n4\nfive\n"
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert (repo / "a.txt").read_text(encoding="utf-8") == "one\n2\n3\n4\n5\n"
    assert _ran(marker) == ""


# --------------------------------------------------------------------------- a worker writing while the relay writes


def _racing_git(tmp_path: Path, repo: Path, prog: Path, commands: tuple[str, ...]) -> dict[str, str]:
    """A ``git`` first on PATH that, as one of ``commands`` starts, defines filter "late" in the repository's config:
    a worker of another run, still running, writing it between any read of the relay's and its command."""
    import shlex
    import shutil

    plant = f'[filter "late"]\\n\\tclean = {prog} clean\\n\\tsmudge = {prog} smudge\\n'  # printf's escapes
    wrapper = tmp_path / "racing" / "git"
    wrapper.parent.mkdir()
    cases = "|".join(commands)
    wrapper.write_text(f'#!/bin/sh\nfor a in "$@"; do case "$a" in {cases}) printf {shlex.quote(plant)} '
                       f'>> {shlex.quote(str(repo / ".git/config"))}; break;; esac; done\n'
                       f'exec {shlex.quote(shutil.which("git") or "git")} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return {"PATH": os.pathsep.join([str(wrapper.parent), os.defpath])}


async def test_runs_revert_runs_no_filter_a_worker_defines_while_the_revert_runs(tmp_path):
    # Broke: `runs revert` read the repository's filters, then ran `git apply` with them switched off; a filter
    # defined in between (a worker of another run writes .git/config: nothing stops it) ran inside the relay's git.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    (repo / ".git/info/attributes").write_text("* filter=late\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "b\n"}]))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    racing = {**env, **_racing_git(tmp_path, repo, prog, ("apply",))}
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], racing)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert '[filter "late"]' in (repo / ".git/config").read_text(encoding="utf-8")  # the race was run
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"
    assert _ran(marker) == ""


async def test_apply_writes_an_added_file_in_your_endings_running_no_filter_a_worker_defines_meanwhile(tmp_path):
    # Broke: under core.autocrlf, apply writes a file the run adds as your git checks it out (`git cat-file
    # --filters`), the filters read right before and switched off; one defined in between ran in the relay's git.
    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    git(repo, "config", "core.autocrlf", "true")
    (repo / ".git/info/attributes").write_text("* filter=late\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "new.txt", "content": "n\n"}]))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = await _run(client, repo)
    assert packet["status"] == "SUCCESS", packet
    racing = {**env, **_racing_git(tmp_path, repo, prog, ("--filters",))}
    applied = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], racing)
    assert json.loads(applied.stdout)["status"] == "SUCCESS", applied.stdout + applied.stderr
    assert '[filter "late"]' in (repo / ".git/config").read_text(encoding="utf-8")  # the race was run
    assert (repo / "new.txt").read_bytes() == b"n\r\n"  # your line endings, as your git checks it out
    assert _ran(marker) == ""


def test_recovery_without_a_snapshot_runs_no_filter_a_worker_defines_while_it_looks(tmp_path, monkeypatch):
    # Broke: recovery without a snapshot read the repository's filters, then ran `git status` with them switched
    # off; a filter defined in between (a worker of another relay process, still running) hashed the edited file.
    from relay.runs.crashed import git_visible_changes

    prog, marker = _evil(tmp_path)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    (repo / ".git/info/attributes").write_text("* filter=late\n", encoding="utf-8")
    (repo / "a.txt").write_text("b\n", encoding="utf-8")  # the same size: git must hash it
    (repo / "new.txt").write_text("new\n", encoding="utf-8")
    racing = _racing_git(tmp_path, repo, prog, ("status",))
    monkeypatch.setenv("PATH", racing["PATH"])  # the relay's git finds its git on this process's PATH
    changes, why_not = git_visible_changes(str(repo), before_head=git(repo, "rev-parse", "HEAD").strip())
    assert '[filter "late"]' in (repo / ".git/config").read_text(encoding="utf-8")  # the race was run
    assert why_not is None and {c.path for c in changes} == {"a.txt", "new.txt"}, (changes, why_not)
    assert _ran(marker) == ""
