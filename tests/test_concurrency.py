"""Two relay processes, several concurrent calls each: agy never runs twice at once.

One relay runs in the test's own process (the in-memory door), the other is `gravity-relay serve` over
stdio: two processes sharing one data dir, for one Python start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from concurrency_harness import run_concurrency

pytestmark = pytest.mark.anyio


@pytest.mark.process
async def test_workers_never_overlap_across_relay_processes(tmp_path: Path):
    # 0.2 s runs (were 0.3): calls that overlapped would still start within a run of each other (checked
    # failing with the queue's slot not waited for).
    figures = await run_concurrency(tmp_path, processes=2, calls=3, sleep=0.2, in_process=1)
    assert figures["successes"] == 6
    assert figures["launches"] == 6
    assert figures["overlaps"] == 0
    assert sorted(figures["order"]) == sorted(f"p{p}c{c}" for p in range(2) for c in range(3))


@pytest.mark.process
async def test_queue_is_first_come_first_served_across_relay_processes(tmp_path: Path):
    import anyio

    from conftest import make_repo, memory_relay, payload, relay_env, stdio_relay
    from fake_agy_harness import install_fake_agy, launches, scenario, wait_for_launches

    repo = make_repo(tmp_path / "project")
    release = tmp_path / "release"
    # A1 runs until both others have queued (events: the launch log and the queue's tickets, not sleeps).
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "slow", "sleep": 120, "release_file": str(release),
                                                       "report": {"summary": "ok", "files_changed": []}},
                                                      {"behaviour": "slow", "sleep": 0,
                                                       "report": {"summary": "ok", "files_changed": []}}))
    env = relay_env(tmp_path / "data", agy)
    queue = tmp_path / "data" / "queue"

    async def tickets(count: int) -> None:
        with anyio.fail_after(60):  # a bound for a broken queue only
            while len(list(queue.iterdir())) < count:
                await anyio.sleep(0.02)

    async with memory_relay(env) as first, stdio_relay(env) as second:
        async def call(client, name: str) -> None:
            payload(await client.call_tool("antigravity_execute", {"task": name, "workspace": str(repo)}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call, first, "A1")
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
            tg.start_soon(call, second, "B1")  # arrives while A1 runs
            await tickets(2)  # A1's ticket (it holds the slot) and B1's: B1 has queued
            tg.start_soon(call, first, "A2")  # same process as the runner, but arrives after B1
            await tickets(3)
            release.touch()
    order = [r["prompt"].split("# Task\n", 1)[1].split("\n", 1)[0] for r in sorted(launches(agy), key=lambda r: r["start"])]
    assert order == ["A1", "B1", "A2"]
