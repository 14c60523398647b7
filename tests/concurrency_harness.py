"""N relay processes x M concurrent calls each against one fake agy: who ran when, and did two overlap.

Shared by tests/test_concurrency.py (asserts on the figures) and bench/bench_concurrency.py (prints them)."""

from __future__ import annotations

import time
from pathlib import Path

import anyio

from conftest import make_repo, memory_relay, payload, relay_env, stdio_relay
from fake_agy_harness import install_fake_agy, launches, scenario

__all__ = ["run_concurrency"]


async def run_concurrency(root: Path, *, processes: int, calls: int, sleep: float, in_process: int = 0) -> dict:
    """`in_process` of the relays run in this process (behind the SDK's in-memory client), the rest over stdio:
    a test keeps two relay processes (this one and a child) for one Python start-up."""
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scenario({"behaviour": "slow", "sleep": sleep,
                                                   "report": {"summary": "ok", "files_changed": []}}))
    env = relay_env(root / "data", agy)
    answers: list[tuple[str, str, float]] = []  # (caller, status, answered at)
    started = time.monotonic()

    async def one_process(p: int) -> None:
        async with (memory_relay if p < in_process else stdio_relay)(env) as client:
            async def one_call(c: int) -> None:
                result = await client.call_tool("antigravity_execute",
                                                {"task": f"call p{p}c{c}", "workspace": str(repo)})
                answers.append((f"p{p}c{c}", payload(result)["status"], time.monotonic() - started))

            async with anyio.create_task_group() as tg:
                for c in range(calls):
                    tg.start_soon(one_call, c)

    async with anyio.create_task_group() as tg:
        for p in range(processes):
            tg.start_soon(one_process, p)

    runs = sorted(launches(agy), key=lambda r: r["start"])
    overlaps = sum(1 for a, b in zip(runs, runs[1:]) if a["end"] is None or b["start"] < a["end"])
    order = [r["prompt"].split("# Task\n", 1)[-1].split("\n", 1)[0].removeprefix("call ") for r in runs]
    return {
        "calls": processes * calls,
        "successes": sum(1 for _, status, _ in answers if status == "SUCCESS"),
        "launches": len(runs),
        "overlaps": overlaps,
        "order": order,
        "wall_seconds": round(time.monotonic() - started, 2),
        "busy_seconds": round(sum(r["end"] - r["start"] for r in runs if r["end"]), 2),
    }
