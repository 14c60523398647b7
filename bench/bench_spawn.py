"""What a spawn costs under its subreaper (relay/core/reaper.py) against a direct spawn, as figures.

Every spawn of the relay (agy, its sign-in probe, verify commands) runs under a per-spawn subreaper on Linux so
that nothing it starts outlives it (issue 34 §2). This prints the wall time of one whole spawn of ``/bin/true``
through ``relay.core.process.spawned`` (start, wait, the worker's stop, reap) both ways, and of the sweep of a
double-forked daemon the program leaves behind.

    python bench/bench_spawn.py [rounds]

Linux only (the subreaper); the figures move with the machine's load: quote them with ``uptime``'s.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import anyio

from relay.core import reaper
from relay.core.process import spawned

_DAEMON = r"""
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", "import time; time.sleep(60)"], {})
    os._exit(0)
os.wait()
"""


async def _one(argv: list[str]) -> float:
    started = time.perf_counter()
    async with spawned(argv) as proc:
        await proc.wait()
    return (time.perf_counter() - started) * 1000


async def _series(label: str, argv: list[str], rounds: int) -> None:
    for _ in range(3):
        await _one(argv)  # warm caches
    times = [await _one(argv) for _ in range(rounds)]
    print(f"{label:<44} median {statistics.median(times):7.1f} ms   p90 {sorted(times)[int(rounds * 0.9) - 1]:7.1f} ms")


async def main(rounds: int) -> None:
    if not reaper.available():
        print("no subreaper here (not Linux, or no prctl): nothing to compare")
        return
    print(f"load average {os.getloadavg()[0]:.1f}; {rounds} rounds each")
    await _series("/bin/true under its subreaper", ["/bin/true"], rounds)
    await _series("a program leaving a daemon, swept", [sys.executable, "-c", _DAEMON], rounds)
    available = reaper.available
    reaper.available = lambda: False
    try:
        await _series("/bin/true spawned directly", ["/bin/true"], rounds)
    finally:
        reaper.available = available


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 20)
