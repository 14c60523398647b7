"""Isolation (issue 10): the worker in a pooled git worktree, its change applied on request.

Real git repositories in tmp dirs, the fake agy as a real subprocess, the relay in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, git, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, set_scenario, success_scenario

pytestmark = pytest.mark.anyio

PROFILES = json.dumps({"iso": {"isolation": "worktree"}, "carry": {"isolation": "worktree", "carry_uncommitted": True}})


def _tree(repo: Path) -> dict[str, str]:
    """Every file under the repo (its .git index and refs of the user's branch included), by content hash."""
    found = {}
    for root, dirs, files in os.walk(repo):
        dirs[:] = [d for d in dirs if d not in ("objects", "logs", "worktrees")]
        for name in files:
            path = Path(root) / name
            rel = str(path.relative_to(repo))
            if rel.startswith(".git/refs/heads/gravity-relay") or rel == ".git/packed-refs":
                continue  # the run's branch lives in the shared repository by design
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest() + oct(path.stat().st_mode)
    return found


def _env(tmp_path: Path, agy: Path) -> dict[str, str]:
    return relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=PROFILES)


async def test_worktree_run_leaves_the_users_tree_byte_identical_and_says_where_the_change_lives(tmp_path, repo):
    (repo / "notes.txt").write_text("user's untracked notes\n", encoding="utf-8")
    (repo / "README.md").write_text("# project, edited by the user\n", encoding="utf-8")
    before = _tree(repo)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    assert sorted(packet["changes"]["files"]) == ["src/app.py", "src/new.py"]
    assert packet["branch"] == f"gravity-relay/{packet['run_id']}"
    worktree = Path(packet["worktree"])
    assert worktree.is_relative_to(tmp_path / "data" / "worktrees")
    assert (worktree / "src" / "new.py").read_text(encoding="utf-8") == "x = 1\n"
    assert _tree(repo) == before
    # The branch holds exactly the worker's change on top of the user's HEAD.
    shown = git(repo, "diff", "--stat", "main", packet["branch"])
    assert "src/app.py" in shown and "src/new.py" in shown and "README" not in shown


async def test_apply_brings_the_change_into_the_users_tree_merging_with_unstaged_edits(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"},
        {"op": "delete", "path": "README.md"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo)}))
        # The user edits another line of the same file meanwhile (unstaged): a three-way merge keeps both.
        (repo / "src" / "app.py").write_text("# user's comment\ndef main():\n    return 1\n", encoding="utf-8")
        index_before = (repo / ".git" / "index").read_bytes()
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied["ok"] and applied["status"] == "SUCCESS", applied
    assert applied["changes"]["files"] == ["README.md", "src/app.py", "src/new.py"]
    assert (repo / "src" / "app.py").read_text(encoding="utf-8") == "# user's comment\ndef main():\n    return 2\n"
    assert (repo / "src" / "new.py").read_text(encoding="utf-8") == "x = 1\n"
    assert not (repo / "README.md").exists()
    assert (repo / ".git" / "index").read_bytes() == index_before  # unstaged, like a run in place
    # Applying again finds the change already there and changes nothing.
    again = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], _env(tmp_path, agy))
    assert again.returncode == 0 and "nothing to apply" in json.loads(again.stdout)["summary"]


async def test_apply_refuses_a_conflict_naming_the_files_and_changes_nothing(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"},
        {"op": "write", "path": "src/other.py", "content": "y = 1\n"}]))
    env = _env(tmp_path, agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo)}))
        (repo / "src" / "app.py").write_text("def main():\n    return 3\n", encoding="utf-8")
        before = _tree(repo)
        refused = await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "feedback": "x",
                                                                  "apply": True})
    answer = payload(refused)
    assert refused.is_error and answer["status"] == "APPLY_CONFLICT"
    assert "src/app.py (your edits and the run's overlap)" in answer["error"]["message"]
    assert "src/other.py" not in answer["error"]["message"]
    assert _tree(repo) == before and not (repo / "src" / "other.py").exists()
    # The shell answers with the same bytes (same function), and exit 1.
    shell = await anyio.to_thread.run_sync(cli_main, ["runs", "apply", packet["run_id"]], env)
    assert shell.returncode == 1 and shell.stdout.rstrip("\n") == refused.content[0].text
    assert _tree(repo) == before


async def test_continue_works_in_the_same_worktree_and_pool_reuse_adds_no_worktree(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "a.txt", "content": "one\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                        "workspace": str(repo)}))
        set_scenario(agy, success_scenario([{"op": "append", "path": "a.txt", "content": "two\n"}]))
        follow = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "more"}))
        assert follow["status"] == "SUCCESS" and follow["worktree"] == first["worktree"], follow
        assert (Path(follow["worktree"]) / "a.txt").read_text(encoding="utf-8") == "one\ntwo\n"
        set_scenario(agy, success_scenario([{"op": "write", "path": "b.txt", "content": "b\n"}]))
        other = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                        "workspace": str(repo)}))
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": follow["run_id"], "apply": True}))
    # The third run reused the pool's worktree (reset to HEAD: the earlier runs' file is gone there).
    assert other["worktree"] == first["worktree"] and not (Path(other["worktree"]) / "a.txt").exists()
    assert len(git(repo, "worktree", "list", "--porcelain").strip().split("\n\n")) == 2  # the user's tree + one
    # Applying the continue brings the whole chain.
    assert applied["status"] == "SUCCESS" and (repo / "a.txt").read_text(encoding="utf-8") == "one\ntwo\n"
    assert not (repo / "b.txt").exists()


async def test_carry_uncommitted_starts_the_worker_from_the_users_edits_and_applies_only_its_own(tmp_path, repo):
    (repo / "README.md").write_text("# edited, not committed\n", encoding="utf-8")
    (repo / "draft.py").write_text("draft = True\n", encoding="utf-8")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "append", "path": "draft.py",
                                                                "content": "more = 1\n"}]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "carry",
                                                                         "workspace": str(repo)}))
        assert packet["changes"]["files"] == ["draft.py"], packet  # the carried edits are not the worker's
        assert (Path(packet["worktree"]) / "README.md").read_text(encoding="utf-8") == "# edited, not committed\n"
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied["changes"]["files"] == ["draft.py"]
    assert (repo / "draft.py").read_text(encoding="utf-8") == "draft = True\nmore = 1\n"


async def test_worktree_isolation_is_refused_for_a_workspace_outside_git(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    async with memory_relay(_env(tmp_path, agy)) as client:
        result = await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso", "workspace": str(plain)})
        unborn = tmp_path / "unborn"
        unborn.mkdir()
        git(unborn, "init", "-q")
        empty = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                        "workspace": str(unborn)}))
    answer = payload(result)
    assert answer["status"] == "CONFLICTING_OPTIONS"
    assert "is not inside a git repository" in answer["error"]["message"] and "in_place" in answer["error"]["hint"]
    assert empty["status"] == "CONFLICTING_OPTIONS" and "no commit yet" in empty["error"]["message"]


def test_recovery_records_a_crashed_runs_worktree_on_its_branch_and_returns_it_to_the_pool(tmp_path, repo):
    from relay.core.contracts import RecordIsolation, RecordOutcome, RecordPlan, RecordProcess, RecordRequest, RunRecord
    from relay.isolate.pool import lease_worktree
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore, new_run_id, now_iso

    data = tmp_path / "data"
    run_id = new_run_id()
    lease = lease_worktree(data, repo, run_id)
    (lease.workdir / "half.txt").write_text("written before the crash\n", encoding="utf-8")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    store = RunStore(data / "runs")
    store.write(RunRecord(run_id=run_id, created_at=now_iso(), process=RecordProcess(relay_pid=dead.pid),
                          plan=RecordPlan(workspace=str(repo)),
                          isolation=RecordIsolation(worktree=str(lease.workdir), branch=lease.branch, base_commit=lease.base)))
    store.mark_active(run_id)
    lease.release()  # what the crash did: the flock died with the process
    assert recover_interrupted(store) == [run_id]
    record = store.read(run_id)
    assert record.outcome.status.value == "INTERRUPTED" and [c.path for c in record.observation.changes] == ["half.txt"]
    assert git(repo, "show", f"{lease.branch}:half.txt") == "written before the crash\n"
    assert record.isolation.tip_commit == git(repo, "rev-parse", lease.branch).strip()
    # Back in the pool: the next lease reuses the same worktree, reset.
    again = lease_worktree(data, repo, new_run_id())
    try:
        assert again.slot == lease.slot and not again.created and not (again.workdir / "half.txt").exists()
    finally:
        again.release()


def test_retention_removes_old_runs_branches_and_worktrees_and_doctor_reports_leftovers(tmp_path, repo):
    from relay.core.contracts import RecordIsolation, RecordOutcome, RecordPlan, RecordProcess, RunRecord, Status
    from relay.core.errors import RelayError
    from relay.core.settings import load_settings
    from relay.doors.doctor import check_worktrees
    from relay.isolate.pool import lease_worktree
    from relay.runs.retention import apply_retention
    from relay.runs.store import RunStore

    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data")})
    store = RunStore(settings.runs_dir)
    ids = ["r20250101T000000-0000000a", "r20250101T000001-0000000b", "r20250101T000002-0000000c"]
    slots = []
    for i, run_id in enumerate(ids):
        # Three runs, each in its own worktree (the first two leases are held while the next one is taken).
        lease = lease_worktree(settings.data_dir, repo, run_id)
        slots.append(lease)
        store.write(RunRecord(run_id=run_id, created_at="2025-01-01T00:00:0%dZ" % i, state="finished",
                              outcome=RecordOutcome(status=Status.SUCCESS), plan=RecordPlan(workspace=str(repo)),
                              isolation=RecordIsolation(worktree=str(lease.workdir), branch=lease.branch,
                                                        base_commit=lease.base)))
    # Held worktrees are never shared: three runs, three worktrees; a fourth run meanwhile is BUSY.
    assert len({lease.slot for lease in slots}) == 3
    with pytest.raises(RelayError) as busy:
        lease_worktree(settings.data_dir, repo, "r20250101T000003-0000000d")
    assert busy.value.status is Status.BUSY and "all 3 worktrees" in busy.value.message
    for lease in slots:
        lease.release()
    assert check_worktrees(settings).level == "ok"
    store.record_path(ids[2]).unlink()  # a record removed by hand: its branch is a leftover
    warned = check_worktrees(settings)
    assert warned.level == "warning" and f"gravity-relay/{ids[2]} of a run whose record is gone" in warned.message

    summary = apply_retention(settings, max_runs=1, max_age_days=0)  # keeps only the newest record (ids[1])
    assert [r.run_id for r in summary.removed] == [ids[0]] and summary.errors == []
    branches = git(repo, "branch", "--list", "gravity-relay/*").split()
    assert branches == [f"gravity-relay/{ids[1]}"]
    assert not slots[0].slot.exists() and slots[1].slot.exists()  # the removed run's worktree went with it
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 3  # user's + ids[1]'s + ids[2]'s pooled one
    assert check_worktrees(settings).level == "ok"


async def test_worktree_run_that_breaks_its_policy_leaves_the_users_tree_byte_identical_and_apply_refuses_it(
        tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": ".github/workflows/ci.yml", "content": "x\n"},
        *({"op": "write", "path": f"gen/f{i}.txt", "content": f"{i}\n"} for i in range(60))]))
    profiles = json.dumps({"guarded": {"isolation": "worktree", "protected": [".github/**"], "max_files": 50}})
    before = _tree(repo)
    async with memory_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=profiles)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "guarded",
                                                                         "workspace": str(repo)}))
        assert packet["status"] == "POLICY_VIOLATION", packet
        assert "protected" in packet["error"]["message"] and "max_files 50" in packet["error"]["message"]
        assert _tree(repo) == before
        answer = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert answer["status"] == "INVALID_INPUT" and "POLICY_VIOLATION" in answer["error"]["message"]
    assert _tree(repo) == before and not (repo / ".github").exists()


def test_a_worktree_whose_git_file_was_pointed_at_the_main_repository_is_replaced_not_reset(tmp_path, repo):
    # A worker can rewrite its worktree's .git file; the next lease must not then check out (and clean) with the
    # user's own git dir, which would move the user's HEAD and index.
    from relay.isolate.pool import lease_worktree
    from relay.runs.store import new_run_id

    (repo / "dirty.txt").write_text("the user's untracked file\n", encoding="utf-8")
    head = git(repo, "rev-parse", "HEAD")
    first = lease_worktree(tmp_path / "data", repo, new_run_id())
    (first.slot / ".git").write_text(f"gitdir: {repo / '.git'}\n", encoding="utf-8")
    first.release()
    git(repo, "commit", "-q", "--allow-empty", "-m", "moved on")
    second = lease_worktree(tmp_path / "data", repo, new_run_id())
    second.release()
    assert second.created and second.slot == first.slot
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main" and git(repo, "rev-parse", "HEAD") != head
    assert (repo / "dirty.txt").exists() and git(repo, "status", "--porcelain") == "?? dirty.txt\n"


def test_record_change_sees_a_same_size_edit_made_in_the_index_files_own_timestamp(tmp_path, repo):
    # A same-size edit whose mtime equals the checkout's: git sees it only through ctime or its racy-clean rule
    # (re-hash entries not older than the index file). Seen once under load: the branch lacked such an edit
    # while the index was copied with a fresh mtime (copyfile); pool.py now copies with copy2. This test sets
    # the timestamps it can; ctime it cannot, so it does not reproduce the race itself, only the edit's shape.
    from relay.isolate.pool import lease_worktree, record_change

    lease = lease_worktree(tmp_path / "data", repo, "r20261130T120000-0000abcd")
    try:
        target = lease.workdir / "src" / "app.py"
        checked_out = os.stat(target)
        target.write_text("def main():\n    return 2\n", encoding="utf-8")  # same size as "return 1"
        os.utime(target, ns=(checked_out.st_atime_ns, checked_out.st_mtime_ns))
        index = Path(git(lease.slot, "rev-parse", "--path-format=absolute", "--git-path", "index").strip())
        os.utime(index, ns=(checked_out.st_atime_ns, checked_out.st_mtime_ns))
        tip = record_change(lease, "run")
    finally:
        lease.release()
    assert git(repo, "show", f"{tip}:src/app.py") == "def main():\n    return 2\n"


async def test_runs_revert_of_a_worktree_run_refuses_before_apply_and_undoes_it_after(tmp_path, repo):
    from relay.core.errors import RelayError
    from relay.runs.patches import revert_run
    from relay.runs.store import RunStore

    agy = install_fake_agy(tmp_path / "bin", success_scenario([
        {"op": "write", "path": "src/new.py", "content": "x = 1\n"},
        {"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"}]))
    before = _tree(repo)
    store = RunStore(tmp_path / "data" / "runs")
    async with memory_relay(_env(tmp_path, agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "profile": "iso",
                                                                         "workspace": str(repo)}))
        with pytest.raises(RelayError, match="never applied"):
            revert_run(store, packet["run_id"])
        applied = payload(await client.call_tool("antigravity_continue", {"run_id": packet["run_id"], "apply": True}))
    assert applied["status"] == "SUCCESS" and (repo / "src" / "new.py").exists()
    assert revert_run(store, packet["run_id"]).reverted
    assert _tree(repo) == before
