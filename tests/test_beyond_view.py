"""What git's status does not show, through the real parts (in-memory MCP client, the fake agy
as a real subprocess making real edits, real git repos): edits in an untracked nested
repository or an ignored folder, writes through a symlink leading out of the workspace, and a
worker that deletes the whole workspace."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from mcp import Client

from conftest import git, make_repo, payload
from fake_agy_harness import install_fake_agy, make_report, success_scenario
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

pytestmark = pytest.mark.anyio


async def run(tmp_path: Path, repo: Path, edits: list[dict], claimed: list[str]) -> tuple[dict, dict]:
    report = make_report(summary="done", files_changed=claimed, tests_passed=0, tests_run=False)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(edits, report=report))
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)}))
    async with Client(server) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    return packet, full


def flags_text(packet: dict) -> str:
    return "\n".join(packet.get("flags", []))


async def test_execute_edits_inside_an_untracked_nested_repository_are_observed(tmp_path, repo):
    # Regression (issue 13, item 13): git folds an untracked nested repository into one "? dir/"
    # entry, so these edits were invisible and the worker's true claim was called "claimed but
    # unchanged".
    make_repo(repo / "vendor" / "lib", {"lib.py": "A = 1\n"})
    edits = [{"op": "write", "path": "vendor/lib/lib.py", "content": "A = 2\n"},
             {"op": "write", "path": "vendor/lib/extra.py", "content": "B = 1\n"}]
    packet, full = await run(tmp_path, repo, edits, ["vendor/lib/lib.py", "vendor/lib/extra.py"])
    assert packet["status"] == "SUCCESS", packet
    assert set(packet["changes"]["files"]) == {"vendor/lib/lib.py", "vendor/lib/extra.py"}
    assert "claimed but unchanged" not in flags_text(packet)
    lib = next(c for c in full["observation"]["changes"] if c["path"] == "vendor/lib/lib.py")
    assert lib["additions"] == 1 and lib["deletions"] == 1  # diffed, not guessed


async def test_execute_edits_inside_an_ignored_folder_are_listed_by_timestamp_never_called_unchanged(tmp_path):
    repo = make_repo(tmp_path / "project", {".gitignore": "build/\n*.log\n", "src/app.py": "x = 1\n"})
    (repo / "build").mkdir()
    (repo / "build" / "out.txt").write_text("old\n", encoding="utf-8")
    (repo / "build" / "stale.txt").write_text("untouched\n", encoding="utf-8")
    old = 1_000_000_000  # 2001: this file was there long before the run
    os.utime(repo / "build" / "stale.txt", (old, old))
    time.sleep(0.3)  # its ctime (set by utime) is now well before the snapshot, whatever the load
    edits = [{"op": "write", "path": "build/out.txt", "content": "new\n"},
             {"op": "write", "path": "run.log", "content": "log\n"}]
    packet, full = await run(tmp_path, repo, edits, ["build/out.txt", "run.log", "build/stale.txt"])
    assert packet["status"] == "SUCCESS", packet
    assert {"build/out.txt", "run.log"} <= set(packet["changes"]["files"])
    out = next(c for c in full["observation"]["changes"] if c["path"] == "build/out.txt")
    assert "ignored folder build/" in out["reasons"][0] and "timestamp" in out["reasons"][0]
    text = flags_text(packet)
    assert "claimed but unchanged" not in text
    assert "claimed, outside git's view, not confirmed (1) build/stale.txt" in text


async def test_execute_write_through_a_symlink_out_of_the_workspace_is_flagged_with_link_and_target(tmp_path, repo):
    # Regression: the write landed outside the workspace and the run said the file was unchanged.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("before\n", encoding="utf-8")
    os.symlink(outside, repo / "ext")  # untracked symlink to a folder outside
    os.symlink(outside / "notes.txt", repo / "notes.txt")  # untracked symlink to a file outside
    (outside / "notes.txt").write_text("n\n", encoding="utf-8")
    old = 1_000_000_000
    os.utime(outside / "notes.txt", (old, old))
    time.sleep(0.3)
    edits = [{"op": "write", "path": "ext/secret.txt", "content": "after\n"},
             {"op": "append", "path": "notes.txt", "content": "more\n"}]
    packet, full = await run(tmp_path, repo, edits, ["ext/secret.txt"])  # notes.txt is not claimed
    assert (outside / "secret.txt").read_text(encoding="utf-8") == "after\n"
    assert packet["status"] == "SUCCESS", packet
    assert {"ext/secret.txt", "notes.txt"} <= set(packet["changes"]["files"])
    assert packet["changes"]["risk"] == "high"
    text = flags_text(packet)
    assert "written outside the workspace through a symlink (2)" in text
    assert f"ext/secret.txt via ext → {outside}" in text
    assert "claimed but unchanged" not in text
    secret = next(c for c in full["observation"]["changes"] if c["path"] == "ext/secret.txt")
    assert secret["risk"] == "high" and f"symlink ext → {outside}" in secret["reasons"][0]


async def test_execute_worker_deleting_the_whole_workspace_is_success_with_a_loud_high_risk_flag(tmp_path):
    # Regression: ok:true and nothing else. Decision: the status stays SUCCESS (agy finished the
    # turn it was given; the relay cannot know whether deleting was the task), but the first flag
    # says WORKSPACE DELETED and the one change, the workspace itself, is high risk.
    repo = make_repo(tmp_path / "project")
    git(repo, "status")
    packet, _ = await run(tmp_path, repo, [{"op": "delete", "path": ""}], [])
    assert not repo.exists()
    assert packet["status"] == "SUCCESS" and packet["ok"] is True
    assert packet["flags"][0].startswith("WORKSPACE DELETED")
    assert packet["changes"]["files"] == ["."] and packet["changes"]["risk"] == "high"
    assert packet["changes"]["review"][0]["risk"] == "high"
