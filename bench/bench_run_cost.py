"""What one end-to-end run costs the machine: CPU and programs started per `antigravity_execute`.

    python bench/bench_run_cost.py [--runs 40]

Each run is what the suite's end-to-end tests do ~500 times: a fresh repository (the suite's template copy), a fake
agy installed for it (tests/fake_agy.py, a real subprocess making one edit), and one `antigravity_execute` through
the MCP door in memory, to its packet. Prints, per run, the median and mean of wall seconds and of user+sys CPU
seconds (this process, where the in-memory relay runs, plus the children it waited for: git, the fake agy, the
subreaper shim), and the programs the relay started per run (git by subcommand; counted at ``subprocess.Popen``).
The first run is left out of the figures (imports, the agy version probe). CPU figures move less with the machine's
load than wall ones; read both against the load printed.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from conftest import make_repo, payload  # noqa: E402
from fake_agy_harness import install_fake_agy, success_scenario  # noqa: E402
from mcp import Client  # noqa: E402

from relay.core.settings import load_settings  # noqa: E402
from relay.doors.mcp_server import create_server  # noqa: E402

STARTED: collections.Counter = collections.Counter()
_POPEN_INIT = subprocess.Popen.__init__


def _counting_init(self, args, *rest, **kwargs):  # noqa: ANN001 - subprocess.Popen's own signature
    argv = [os.fspath(a) for a in args] if not isinstance(args, (str, bytes)) else [str(args)]
    name = os.path.basename(argv[0])
    if name == "git":
        skip, sub = False, "?"
        for arg in argv[1:]:
            if skip:
                skip = False
            elif arg in ("-c", "-C"):
                skip = True
            elif not arg.startswith("-"):
                sub = arg
                break
        name = f"git {sub}"
    elif any("reaper_shim" in a for a in argv):
        name = "subreaper shim (and the fake agy under it)"
    STARTED[name] += 1
    _POPEN_INIT(self, args, *rest, **kwargs)


def _cpu() -> tuple[float, float]:
    """(this process's user+sys CPU, that of the children it waited for)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


async def _one_run(root: Path) -> tuple[float, float, float, str]:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", success_scenario([{"path": "src/new.py", "content": "x = 1\n"}]))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy)})
    cpu, wall = _cpu(), time.monotonic()
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    own, kids = _cpu()
    return time.monotonic() - wall, own - cpu[0], kids - cpu[1], packet["status"]


async def _runs(count: int, work: Path) -> list[tuple[float, float, float, str]]:
    return [await _one_run(work / f"run{i}") for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    subprocess.Popen.__init__ = _counting_init
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-run-cost-") as tmp:
        first = anyio.run(_runs, 1, Path(tmp) / "first")
        STARTED.clear()
        results = anyio.run(_runs, args.runs, Path(tmp))
    statuses = collections.Counter(row[-1] for row in first + results)
    walls, cpus = [r[0] for r in results], [r[1] + r[2] for r in results]
    print(f"runs: {args.runs} (+1 left out); statuses {dict(statuses)}; load (1 min) {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print(f"wall per run: median {statistics.median(walls) * 1000:.0f} ms, mean {statistics.mean(walls) * 1000:.0f} ms")
    print(f"CPU per run (user+sys, this process and its children): median {statistics.median(cpus) * 1000:.0f} ms, "
          f"mean {statistics.mean(cpus) * 1000:.0f} ms = this process {statistics.mean(r[1] for r in results) * 1000:.0f} ms"
          f" + children {statistics.mean(r[2] for r in results) * 1000:.0f} ms")
    print(f"programs started per run: {sum(STARTED.values()) / args.runs:.1f}")
    for name, count in STARTED.most_common():
        print(f"  {count / args.runs:5.2f}  {name}")


if __name__ == "__main__":
    main()
