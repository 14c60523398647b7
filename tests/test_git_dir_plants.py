"""The worker plants in the repository's git dir what git runs the next time you use it (relay.observe.git_dir).

Observation reads the workspace as git trees, and ``.git/`` is in no tree: a hook written there, or a key of
``.git/config`` that names a program (``core.fsmonitor``, an ``alias`` with ``!``, a pager, a filter wired in
``.git/info/attributes``), left the packet SUCCESS and quiet, and ran as the user at their next ``git commit`` or
``git status``. The party: the worker (in place, and in a worktree run, whose worktree shares the user's repository's
common dir). The fake agy is a real subprocess writing where its edits say; the repositories are real.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, scenario, success_scenario

pytestmark = pytest.mark.anyio

_HOOK = '#!/bin/sh\necho "ran $0" >> "{marker}"\n'


def _env(tmp_path: Path, agy: Path, profiles: dict | None = None) -> dict[str, str]:
    extra = {"GRAVITY_RELAY_PROFILES": json.dumps(profiles)} if profiles else {}
    return relay_env(tmp_path / "data", agy, **extra)


def _targets(packet: dict) -> dict[str, dict]:
    return {t["file"]: t for t in packet["changes"].get("review", [])}


def _plants(git_dir: str, marker: Path) -> list[dict]:
    """A pre-commit hook, and keys of the config that run a program at the next status and at `git st`."""
    return [{"op": "write", "path": f"{git_dir}/hooks/pre-commit", "content": _HOOK.format(marker=marker), "mode": "755"},
            {"op": "append", "path": f"{git_dir}/config",
             "content": f"[core]\n\tfsmonitor = {marker.parent / 'prog'}\n[alias]\n\tst = !sh -c 'id > /tmp/x'\n"}]


async def test_a_hook_and_program_keys_planted_in_place_are_named_high_in_every_door(tmp_path):
    # Broke: the packet read SUCCESS, risk low, files ["a.txt"]: neither the hook nor the config keys were seen.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [*_plants(".git", marker), {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full", "max_chars": 1_000_000}))
    assert (repo / ".git/hooks/pre-commit").exists()  # the plant is there: the test is not vacuous
    assert packet["status"] == "SUCCESS" and packet["changes"]["risk"] == "high", packet
    targets = _targets(packet)
    assert targets[".git/hooks/pre-commit"]["risk"] == "high"
    assert "adds a pre-commit hook: runs when you next commit" in targets[".git/hooks/pre-commit"]["reason"]
    assert "core.fsmonitor" in targets[".git/config"]["reason"] and "alias.st" in targets[".git/config"]["reason"]
    assert list(targets)[:2] == [".git/config", ".git/hooks/pre-commit"] or list(targets)[:2] == [
        ".git/hooks/pre-commit", ".git/config"], targets  # they lead the review, before the worker's own edit
    assert "pre-commit hook" in json.dumps(full)
    shown = await anyio.to_thread.run_sync(cli_main, ["runs", "show", packet["run_id"]], env)
    assert "adds a pre-commit hook" in shown.stdout, shown.stdout
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", packet["run_id"]], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert not (repo / ".git/hooks/pre-commit").exists() and "fsmonitor" not in (repo / ".git/config").read_text(encoding="utf-8")
    assert (repo / "a.txt").read_text(encoding="utf-8") == "a\n"
    assert not marker.exists()  # nothing planted ran inside the relay


async def test_hooks_planted_in_a_submodules_git_dir_and_in_the_hooks_path_folder_are_named(tmp_path):
    # Broke (the first version of this guard watched .git/hooks only): a hook in a submodule's git dir runs when you
    # commit in the submodule, one in the folder core.hooksPath names (outside the work tree) at your next push, one
    # in a nested repository's .git (the parent's trees fold the whole repository) when you commit there.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    git(tmp_path, "init", "-q", "--bare", str(repo / ".git/modules/lib"))  # a submodule's git dir, as git keeps it
    (tmp_path / "myhooks").mkdir()
    git(repo, "config", "core.hooksPath", str(tmp_path / "myhooks"))
    make_repo(repo / "vendor/lib", {"lib.py": "x = 1\n"})  # a nested repository, untracked: the parent folds it
    edits = [{"op": "write", "path": "vendor/lib/.git/hooks/pre-commit", "content": _HOOK.format(marker=marker),
              "mode": "755"},{"op": "write", "path": ".git/modules/lib/hooks/post-checkout", "content": _HOOK.format(marker=marker),
              "mode": "755"},
             {"op": "write", "path": "../myhooks/pre-push", "content": _HOOK.format(marker=marker), "mode": "755"},
             {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert (tmp_path / "myhooks/pre-push").exists()
    targets = _targets(packet)
    assert "adds a post-checkout hook" in targets[".git/modules/lib/hooks/post-checkout"]["reason"], targets
    pushed = [t for f, t in targets.items() if f.endswith("myhooks/pre-push")]
    assert pushed and "adds a pre-push hook: runs when you next push" in pushed[0]["reason"], targets
    assert "adds a pre-commit hook" in targets["vendor/lib/.git/hooks/pre-commit"]["reason"], targets
    assert packet["changes"]["risk"] == "high"


async def test_a_program_planted_in_the_users_own_gitconfig_is_named_and_breaks_the_paths_but_is_never_put_back(
        tmp_path, monkeypatch):
    # Broke: the worker (its HOME is the user's) added core.pager to ~/.gitconfig: it runs at the user's next git log
    # in any repository; the packet read SUCCESS-quiet. It is named now; never put back (the user may have changed
    # their own file meanwhile): the violation says so.
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = me\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    repo = make_repo(tmp_path / "project", {"src/app.py": "x = 1\n"})
    edits = [{"op": "append", "path": "../home/.gitconfig", "content": "[core]\n\tpager = sh -c 'id > /tmp/x'\n"},
             {"op": "write", "path": "src/app.py", "content": "x = 2\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy, {"lim": {"paths": ["src/"], "on_violation": "revert"}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full", "max_chars": 1_000_000}))
    assert packet["status"] == "POLICY_VIOLATION" and "~/.gitconfig" in packet["error"]["message"], packet
    assert "core.pager" in _targets(packet)["~/.gitconfig"]["reason"]
    assert "pager" in (home / ".gitconfig").read_text(encoding="utf-8")  # left: the user's own file
    assert "not put back" in full["outcome"]["violation"]["not_restored"]["~/.gitconfig"]


async def test_a_dot_git_swapped_for_a_file_naming_another_git_dir_is_named(tmp_path):
    # Broke: the worker moved .git aside and wrote a .git file naming a git dir of its own (its hooks, its config):
    # the user's next git command there runs them. .git is in no tree: nothing was said of it.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    evil = tmp_path / "evil-git"
    git(tmp_path, "init", "-q", "--bare", str(evil))
    (evil / "hooks/pre-commit").write_text(_HOOK.format(marker=marker), encoding="utf-8")
    edits = [{"op": "write", "path": "a.txt", "content": "a changed\n"},
             {"op": "rename", "path": ".git", "to": ".git-moved"},
             {"op": "write", "path": ".git", "content": f"gitdir: {evil}\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy, {"lim": {"protected": ["secrets/"], "on_violation": "revert"}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full", "max_chars": 1_000_000}))
    assert (repo / ".git").is_file()  # the swap happened, and is left for the user to undo (said below)
    assert packet["status"] == "POLICY_VIOLATION" and packet["changes"]["risk"] == "high", packet
    reason = _targets(packet)[".git"]["reason"]
    assert "replaces .git (folder) with a file saying gitdir:" in reason, reason
    assert "not put back" in full["outcome"]["violation"]["not_restored"][".git"]


async def test_git_internal_writes_and_keys_that_run_nothing_raise_no_alarm(tmp_path):
    # Decided: what git writes for itself (refs, FETCH_HEAD, logs), a key that names no program (user.email, a
    # remote's URL) and a *.sample hook (git never runs one) are no finding.
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    head = git(repo, "rev-parse", "HEAD").strip()
    edits = [{"op": "append", "path": ".git/config", "content": "[user]\n\temail = w@example.com\n"
              "[remote \"origin\"]\n\turl = https://example.com/r.git\n"},
             {"op": "write", "path": ".git/FETCH_HEAD", "content": f"{head}\t\tbranch 'main'\n"},
             {"op": "write", "path": ".git/refs/heads/extra", "content": f"{head}\n"},
             {"op": "write", "path": ".git/hooks/pre-push.sample", "content": "#!/bin/sh\n", "mode": "755"},
             {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy, {"lim": {"paths": ["a.txt"]}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
    assert "w@example.com" in (repo / ".git/config").read_text(encoding="utf-8")
    assert packet["status"] == "SUCCESS" and packet["changes"]["files"] == ["a.txt"], packet
    assert packet["changes"]["risk"] != "high", packet


async def test_under_a_paths_limit_the_plants_are_a_violation_and_revert_gives_back_their_bytes(tmp_path):
    # Broke: SUCCESS under paths ["src/"], the user's own pre-commit hook rewritten, a post-checkout hook and a pager
    # key added; nothing put back.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"src/app.py": "x = 1\n"})
    own_hook = repo / ".git/hooks/pre-commit"
    own_hook.write_text("#!/bin/sh\nexec scan-secrets\n", encoding="utf-8")
    own_hook.chmod(0o750)
    config_before = (repo / ".git/config").read_bytes()
    edits = [*_plants(".git", marker),
             {"op": "write", "path": ".git/hooks/post-checkout", "content": _HOOK.format(marker=marker), "mode": "755"},
             {"op": "append", "path": ".git/info/attributes", "content": "* filter=x\n"},
             {"op": "write", "path": "src/app.py", "content": "x = 2\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    profiles = {"lim": {"paths": ["src/"], "on_violation": "revert"}}
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "lim"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full", "max_chars": 1_000_000}))
    assert packet["status"] == "POLICY_VIOLATION" and "git_dir" in packet["error"]["message"], packet
    assert (repo / ".git/config").read_bytes() == config_before
    assert own_hook.read_text(encoding="utf-8") == "#!/bin/sh\nexec scan-secrets\n"
    assert own_hook.stat().st_mode & 0o777 == 0o750
    assert not (repo / ".git/hooks/post-checkout").exists() and not (repo / ".git/info/attributes").exists()
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "x = 2\n"  # within its paths: kept
    violation = json.dumps(full)
    assert ".git/hooks/post-checkout" in violation and "git_dir" in violation
    assert not marker.exists()


async def test_a_worktree_runs_plants_in_the_shared_git_dir_are_named_and_break_its_paths(tmp_path):
    # Broke: a worktree run's worker wrote the user's repository's hooks and config (its common dir) from its slot;
    # SUCCESS, apply-able, nothing said.
    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"src/app.py": "x = 1\n"})
    shared = "../../../../project/.git"  # <tmp>/data/worktrees/<repository>/w0 -> <tmp>/project
    edits = [*_plants(shared, marker), {"op": "write", "path": "src/app.py", "content": "x = 2\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    profiles = {"iso": {"isolation": "worktree"}, "iso_lim": {"isolation": "worktree", "paths": ["src/"]}}
    async with memory_relay(_env(tmp_path, agy, profiles)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                         "profile": "iso"}))
        assert (repo / ".git/hooks/pre-commit").exists(), "the plant missed the shared git dir"
        assert packet["status"] == "SUCCESS" and packet["changes"]["risk"] == "high", packet
        assert "adds a pre-commit hook" in _targets(packet)[".git/hooks/pre-commit"]["reason"]
        (repo / ".git/hooks/pre-commit").unlink()
        limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "iso_lim"}))
    assert limited["status"] == "POLICY_VIOLATION" and "git_dir" in limited["error"]["message"], limited
    assert not marker.exists()


# A relay SIGKILLed mid-run, then a restart: the process tier (tests/conftest.py).
@pytest.mark.process
async def test_a_crashed_runs_plants_are_named_at_recovery(tmp_path):
    # Broke: recovery observed the dead relay's run from its saved snapshot; the hook it planted was not named.
    from relay.runs.store import RunStore
    from test_process_faults import _crash_mid_run

    marker = tmp_path / "MARKER"
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [*_plants(".git", marker), {"op": "write", "path": "a.txt", "content": "a changed\n"}]
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": edits}))
    await anyio.to_thread.run_sync(_crash_mid_run, tmp_path, repo, agy,
                                   lambda: "changed" in (repo / "a.txt").read_text(encoding="utf-8"))
    async with memory_relay(relay_env(tmp_path / "data", agy)):
        pass  # the restart recovers the dead relay's run first
    store = RunStore(tmp_path / "data" / "runs")
    (run_id,) = store.iter_ids()
    record = store.read(run_id)
    reasons = {c.path: "; ".join(c.reasons) for c in record.observation.changes}
    assert "adds a pre-commit hook" in reasons.get(".git/hooks/pre-commit", ""), reasons
    assert not marker.exists() and os.path.exists(repo / ".git/hooks/pre-commit")


def test_a_forged_git_dir_state_in_the_data_dir_never_has_a_revert_delete_a_file_outside_the_git_dir(tmp_path):
    # The party: whoever writes the data dir. The kept state (beside the snapshot, in the data dir) names the files a
    # revert puts back; a forged entry for a file of no git dir, with no bytes before, would have put_back unlink it.
    from relay.observe.git_dir import keep_git_dir, planted, put_back

    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    snap = tmp_path / "snap"
    snap.mkdir()
    keep_git_dir(str(repo), str(snap))
    victim = tmp_path / "home" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("keep me\n", encoding="utf-8")
    state_file = snap / "git-dir" / "state.json"
    state = json.loads(state_file.read_text(encoding="utf-8"))
    state["files"][str(victim)] = {"sha": None, "mode": 0}  # "absent before the run": a put back would remove it
    state_file.write_text(json.dumps(state), encoding="utf-8")
    named = [p.path for p in planted(str(snap)) if p.file == str(victim)]
    assert named, "the forged entry is read as a plant (the move reaches put_back)"
    restored, left = put_back(str(snap), named)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert restored == [] and "outside the repository's git dir" in left[named[0]], (restored, left)


@pytest.mark.parametrize("where", ["system", "xdg_set"])
async def test_a_program_planted_in_the_system_config_or_either_xdg_config_is_named(tmp_path, monkeypatch, where):
    # Broke: the system config (/etc/gitconfig, or the file GIT_CONFIG_SYSTEM names) was not watched: a worker able
    # to write it (a root container, a loose mode) planted core.fsmonitor that the person's next git status runs in
    # any repository, SUCCESS-quiet. With XDG_CONFIG_HOME set in the relay's environment only $XDG_CONFIG_HOME/git/config
    # was watched, while a git started without it (the person's shell, the worker's) reads ~/.config/git/config; and
    # the other way round.
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = me\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    system = tmp_path / "etc/gitconfig"
    system.parent.mkdir()
    system.write_text("[user]\n\tname = everyone\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(system))
    target = {"system": "../etc/gitconfig", "xdg_set": "../home/.config/git/config"}[where]
    (home / ".config/git").mkdir(parents=True)
    if where == "xdg_set":
        monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    repo = make_repo(tmp_path / "project", {"src/app.py": "x = 1\n"})
    edits = [{"op": "append", "path": target,
              "content": "[core]\n\tfsmonitor = sh -c 'id > /tmp/x'\n"},
             {"op": "write", "path": "src/app.py", "content": "x = 2\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(_env(tmp_path, agy, {"lim": {"paths": ["src/"]}})) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        system.write_text("[user]\n\tname = everyone\n", encoding="utf-8")  # as before, for the run under limits
        (home / ".config/git/config").write_text("", encoding="utf-8")
        limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "lim"}))
    assert packet["changes"]["risk"] == "high", packet
    reasons = " ".join(t["reason"] for t in packet["changes"]["review"])
    assert "core.fsmonitor" in reasons, packet
    assert limited["status"] == "POLICY_VIOLATION" and "git_dir" in limited["error"]["message"], limited
