"""Two relay processes, several concurrent calls each: agy never runs twice at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_concurrency import run_concurrency

pytestmark = pytest.mark.anyio


async def test_workers_never_overlap_across_relay_processes(tmp_path: Path):
    figures = await run_concurrency(tmp_path, processes=2, calls=3, sleep=0.3)
    assert figures["successes"] == 6
    assert figures["launches"] == 6
    assert figures["overlaps"] == 0
    assert sorted(figures["order"]) == sorted(f"p{p}c{c}" for p in range(2) for c in range(3))
