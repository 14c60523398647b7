"""The leader's model makes bad calls by the thousand (docs/security.md, its first table).

Each call refused before agy started was a run record like a real run's: the data dir grew without bound, the runs
that changed something fell out of the recent runs `antigravity_get_result` lists (the way a model finds a run it
lost), and at the next start-up retention's `max_runs` removed their records and patches. Through the real parts: the
relay behind the SDK's client in memory, the fake agy as a real subprocess for the one real run, a real repository.
"""

from __future__ import annotations

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio


async def test_thousands_of_refused_calls_keep_a_bounded_number_of_records_and_never_hide_the_real_runs(tmp_path,
                                                                                                     repo):
    from relay.runs.ended_early import KEPT

    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    runs = tmp_path / "data" / "runs"
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        real = payload(await client.call_tool("antigravity_execute", {"task": "add src/new.py", "workspace": str(repo)}))
        assert real["status"] == "SUCCESS", real
        # Whoever writes the data dir marks the real run as a refused call: the mark alone removes nothing.
        (runs / "ended-early").mkdir()
        (runs / "ended-early" / real["run_id"]).touch()
        refused = [payload(await client.call_tool("antigravity_execute", {"task": f"bad call {n}"}))
                   for n in range(KEPT + 20)]  # no workspace: refused before agy starts
        assert {r["status"] for r in refused} == {"INVALID_WORKSPACE"}
        listed = payload(await client.call_tool("antigravity_get_result", {}))["recent_runs"]
        newest = payload(await client.call_tool("antigravity_get_result", {"run_id": refused[-1]["run_id"],
                                                                            "detail": "errors"}))
    records = sorted(p.stem for p in runs.glob("r*.json"))
    assert len(records) == KEPT + 1, len(records)  # the newest refusals and the real run; before: every call's
    assert real["run_id"] in records and refused[-1]["run_id"] in records and refused[0]["run_id"] not in records
    assert real["run_id"] in [row["run_id"] for row in listed], listed  # before: ten refusals, no real run
    assert listed[0]["run_id"] == refused[-1]["run_id"]  # the newest call still first
    assert newest["status"] == "INVALID_WORKSPACE" and "workspace" in newest["error"]["message"]  # diagnosable whole
