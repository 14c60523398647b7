"""A ``.git`` deeper inside an ignored folder than its top (relay.observe.made_git_dirs).

Party: the worker. git folds an ignored folder (``node_modules/``, ``vendor/``) into one entry, so the look after the
run stat-ed the folder's top for a ``.git`` and no deeper; before the run the repositories inside it were looked for
3 deep and 2,000 folders in all. A ``git init`` in ``node_modules/x/y`` (or a hook planted in a clone five folders
down) then runs at the person's next ``git`` command there, and the packet read SUCCESS. The fake agy is a real
subprocess writing what ``git init`` writes; the repositories are real; the relay is reached through the SDK client.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conftest import make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario
from relay.observe import made_git_dirs
from test_made_git_dirs import _HOOK, _git_init  # what git init writes, a hook and a program key

pytestmark = pytest.mark.anyio

def _targets(packet: dict) -> dict[str, dict]:
    return {t["file"]: t for t in packet["changes"].get("review", [])}


def _project(tmp_path: Path, in_git: bool = True) -> Path:
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", ".gitignore": "node_modules/\nvendor/\n"})
    for folder in ("node_modules/x/y", "vendor/a/b/c/d/e"):
        (repo / folder).mkdir(parents=True)
        (repo / folder / "index.js").write_text("module.exports = 1\n", encoding="utf-8")
    if not in_git:
        import shutil
        shutil.rmtree(repo / ".git")
    return repo


@pytest.mark.parametrize(("sub", "in_git"), [("node_modules/x/y", True), ("vendor/a/b/c/d/e", True),
                                             ("node_modules/x/y", False)],
                         ids=["two_below_an_ignored_top", "five_below", "in_a_skipped_folder_outside_git"])
async def test_a_git_init_deep_in_an_ignored_folder_is_named_and_breaks_a_count_limit(tmp_path, sub, in_git):
    marker = tmp_path / "MARKER"
    repo = _project(tmp_path, in_git)
    edits = [*_git_init(sub, marker), {"op": "write", "path": "a.txt", "content": "b\n"}]
    report = make_report(summary="Edited a.", files_changed=["a.txt"], tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    profiles = {"count": {"max_files": 10, "on_violation": "revert"}}
    hook, config = f"{sub}/.git/hooks/post-checkout", f"{sub}/.git/config"
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        targets = _targets(packet)
        assert packet["changes"]["risk"] == "high" and hook in targets, packet
        assert "adds a post-checkout hook" in targets[hook]["reason"], targets
        assert config in targets and "core.fsmonitor" in targets[config]["reason"], targets
        (repo / hook).unlink()
        (repo / config).unlink()
        limited = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "count"}))
    assert limited["status"] == "POLICY_VIOLATION" and hook in limited["error"]["message"], limited
    assert not (repo / hook).exists() and not marker.exists()  # removed by the revert; nothing ran in the relay


async def test_a_hook_planted_in_a_clone_deeper_than_the_look_before_the_run_went_is_named(tmp_path):
    # The clone was there before the run, five folders below the ignored top (the look before went 3 deep).
    marker = tmp_path / "MARKER"
    repo = _project(tmp_path)
    make_repo(repo / "vendor/a/b/c/lib", {"l.txt": "l\n"})
    hook = "vendor/a/b/c/lib/.git/hooks/pre-commit"
    edits = [{"op": "write", "path": hook, "content": _HOOK.format(marker=marker), "mode": "755"},
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    targets = _targets(packet)
    assert packet["changes"]["risk"] == "high" and hook in targets, packet
    assert "adds a pre-commit hook" in targets[hook]["reason"], targets


async def test_an_ignored_folder_past_the_walks_bound_fails_the_look_loudly(tmp_path, monkeypatch):
    # Past the bound the look is not a quiet success: NOT OBSERVED, naming the folder and the bound. The bound counts
    # the folders read after the run: those the run made (an install of 30 packages) are read whole.
    monkeypatch.setattr(made_git_dirs, "IGNORED_WALK_MAX", 20)
    repo = _project(tmp_path)
    edits = [*({"op": "mkdir", "path": f"node_modules/p{i}"} for i in range(30)),
             {"op": "write", "path": "a.txt", "content": "b\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["flags"][0].startswith("NOT OBSERVED") and "20 folders" in packet["flags"][0], packet
    assert packet["changes"]["risk"] == "high", packet


async def test_an_ignored_folder_too_large_to_read_after_every_run_is_observed_and_a_git_init_with_its_times_set_back_is_found(
        tmp_path, monkeypatch):
    # A node_modules larger than the bound on what the look reads after the run (20 here, 200,000 by default) was
    # NOT OBSERVED on every run, however little the run did there. Listed beside the run, only the folders the run
    # changed are read after it; the worker sets the times of the folders it wrote back to last year (mtime can be
    # set back, ctime cannot), and the .git it made three folders down is still found.
    monkeypatch.setattr(made_git_dirs, "IGNORED_WALK_MAX", 20)
    marker = tmp_path / "MARKER"
    repo = _project(tmp_path)
    for i in range(60):
        (repo / f"node_modules/p{i}/lib").mkdir(parents=True)
    time.sleep(0.2)  # past the clock's slack: all of it older than the run
    old = time.time() - 365 * 86400
    sub = "node_modules/p7/lib/q"
    edits = [*_git_init(sub, marker), {"op": "write", "path": "a.txt", "content": "b\n"},
             *({"op": "utime", "path": p, "mtime": old} for p in (f"{sub}/.git/hooks", f"{sub}/.git", sub,
                                                                    "node_modules/p7/lib", "node_modules/p7"))]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert not packet.get("flags", [""])[0].startswith("NOT OBSERVED"), packet
    assert (repo / sub / ".git").stat().st_mtime < old + 1  # the times were set back: the test is not vacuous
    targets = _targets(packet)
    hook = f"{sub}/.git/hooks/post-checkout"
    assert hook in targets and "adds a post-checkout hook" in targets[hook]["reason"], packet
    assert not marker.exists()


@pytest.mark.parametrize("dest", ["node_modules/x/evil", "src/evil"], ids=["into_an_ignored_folder", "into_the_tree"])
async def test_a_repository_prepared_outside_and_renamed_into_place_is_named(tmp_path, dest):
    # A repository with a hook, made outside the workspace before this run (by an earlier run's worker: nothing
    # watches /tmp), renamed into the workspace during the run: a rename keeps the ctime of everything inside the
    # moved folder, so the `.git`, its hooks and config read as older than the run and were passed over as there
    # before it. The moved folder's own change time is the run's.
    marker = tmp_path / "MARKER"
    repo = _project(tmp_path)
    (repo / "src").mkdir()
    (repo / "src/app.py").write_text("x = 1\n", encoding="utf-8")
    prepared = make_repo(tmp_path / "stash/evil", {"e.txt": "e\n"})
    (prepared / ".git/hooks/post-checkout").write_text(_HOOK.format(marker=marker), encoding="utf-8")
    (prepared / ".git/hooks/post-checkout").chmod(0o755)
    import time
    time.sleep(0.2)  # past the clock's slack: everything prepared is older than the run
    edits = [{"op": "rename", "path": "../stash/evil", "to": dest}, {"op": "write", "path": "a.txt", "content": "b\n"}]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert (repo / dest / ".git/hooks/post-checkout").exists()  # the move happened: the test is not vacuous
    hook = f"{dest}/.git/hooks/post-checkout"
    targets = _targets(packet)
    assert hook in targets and "adds a post-checkout hook" in targets[hook]["reason"], packet
