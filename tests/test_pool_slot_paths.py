"""Whoever writes the data dir forges a worktree run's record so that its worktree lies outside the pool.

The party: whoever can write the relay's data dir (docs/security.md, its last table). A worktree run's record names
its worktree (``isolation.worktree``); retention (``cleanup``, every relay's start-up) removes that worktree with the
run, recovery records and resets it. The record is input: a ``..`` in it (``worktrees/../worktrees``) or a link in
place of a pool (``worktrees/<name> -> a folder of yours``) walked the slot out of the pool, and the folder it named
was removed whole (the whole pool with every kept change; a ``w*`` folder of yours). Real parts: a worktree run behind
the SDK's client in memory with the fake agy as a real subprocess, a real git repository, ``gravity-relay cleanup``.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from conftest import cli_main, memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio


def _forge(data: Path, run_id: str, worktree: str) -> None:
    """A finished worktree run's record, old enough for retention, naming ``worktree``; its ``.run`` mark beside it."""
    from relay.core.contracts import RecordIsolation, RecordOutcome, RecordPlan, RunRecord, Status
    from relay.isolate.repo import run_branch
    from relay.runs.store import RunStore

    RunStore(data / "runs").write(RunRecord(
        run_id=run_id, created_at="2025-01-01T00:00:00Z", state="finished", outcome=RecordOutcome(status=Status.SUCCESS),
        plan=RecordPlan(workspace=str(data)), isolation=RecordIsolation(worktree=worktree, branch=run_branch(run_id))))
    mark = Path(worktree)
    mark.with_name(mark.name + ".run").write_text(run_id, encoding="utf-8")


async def test_a_record_whose_worktree_walks_out_of_the_pool_never_has_cleanup_remove_what_it_names(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    data = tmp_path / "data"
    env = relay_env(data, agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    async with memory_relay(env) as client:
        run = payload(await client.call_tool("antigravity_execute", {"task": "add src/new.py", "profile": "iso",
                                                                      "workspace": str(repo)}))
    assert run["status"] == "SUCCESS", run
    pools = data / "worktrees"
    (pool,) = pools.iterdir()
    assert (pool / "w0" / "src" / "new.py").is_file()
    yours = tmp_path / "yours"
    (yours / "wip").mkdir(parents=True)
    (yours / "wip" / "thesis.tex").write_text("chapter one\n", encoding="utf-8")
    (pools / "elsewhere").symlink_to(yours, target_is_directory=True)

    _forge(data, "r20250101T000000-0000000a", str(pools / ".." / "worktrees"))  # the whole pool folder
    _forge(data, "r20250101T000000-0000000b", str(pools / "elsewhere" / "wip"))  # a w* folder of yours
    cleaned = cli_main(["cleanup", "--max-age-days", "30"], relay_env(data, None))

    assert (yours / "wip" / "thesis.tex").read_text(encoding="utf-8") == "chapter one\n", cleaned.stdout
    assert (pool / "w0" / "src" / "new.py").is_file(), cleaned.stdout + cleaned.stderr
    assert run["run_id"] not in cleaned.stdout  # the real run is young: kept, its worktree too
    removed = {line.split()[1] for line in cleaned.stdout.splitlines() if line.startswith("removed r")}
    assert removed == {"r20250101T000000-0000000a", "r20250101T000000-0000000b"}, cleaned.stdout  # records still go
