"""What one end-to-end run costs the machine: CPU and programs started per `antigravity_execute`.

    python bench/bench_run_cost.py [--runs 40]
    python bench/bench_run_cost.py --list      # one run, every program it started: argv, CPU, wall
    python bench/bench_run_cost.py --list --worktree   # the same for a run isolated in a pooled worktree

Each run is what the suite's end-to-end tests do ~500 times: a fresh repository (the suite's template copy), a fake
agy installed for it (tests/fake_agy.py, a real subprocess making one edit), and one `antigravity_execute` through
the MCP door in memory, to its packet. Prints, per run, the median and mean of wall seconds and of user+sys CPU
seconds (this process, where the in-memory relay runs, plus the children it waited for: git, the fake agy, the
subreaper shim), and the programs the relay started per run (git by subcommand; counted at ``subprocess.Popen``).
The first run is left out of the figures (imports, the agy version probe). CPU figures move less with the machine's
load than wall ones; read both against the load printed.

``--list``: after one run left out, ONE delegation end to end (prepare, agy, observe, review, record), each program
the relay started in the order it started: its CPU (user+sys, from ``wait4`` at the reap: a process reaped by a
non-blocking poll is read there too), its wall (start to reap) and its argv (git's with the pinned ``-c`` pairs of
``relay.observe.git.SAFE_CONFIG`` left out, long values cut), then the totals, git's apart.

``--worktree``: each run's profile isolates it (``"isolation": "worktree"``): a worktree leased from the pool, the
change recorded on its branch, the worktree given back.
"""

from __future__ import annotations

import argparse
import collections
import json
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
from git_repos import git_subcommand  # noqa: E402
from mcp import Client  # noqa: E402

from relay.core.settings import load_settings  # noqa: E402
from relay.doors.mcp_server import create_server  # noqa: E402

STARTED: collections.Counter = collections.Counter()
_POPEN_INIT = subprocess.Popen.__init__
# --list: each program started, in order: [argv, started (monotonic), reaped (monotonic) or None, CPU s or None]
LISTED: list[list] = []
_BY_PID: dict[int, list] = {}
_WAITPID = os.waitpid


def _reaping_waitpid(pid: int, options: int) -> tuple[int, int]:
    """os.waitpid as ``wait4``: the same answer, and the reaped child's CPU kept for --list."""
    got, status, usage = os.wait4(pid, options)
    if got and got in _BY_PID:
        row = _BY_PID.pop(got)
        row[2], row[3] = time.monotonic(), usage.ru_utime + usage.ru_stime
    return got, status


def _listing_init(self, args, *rest, **kwargs):  # noqa: ANN001 - subprocess.Popen's own signature
    started = time.monotonic()
    _counting_init(self, args, *rest, **kwargs)
    row = [[os.fspath(a) for a in args] if not isinstance(args, (str, bytes)) else [str(args)], started, None, None]
    LISTED.append(row)
    _BY_PID[self.pid] = row


def _counting_init(self, args, *rest, **kwargs):  # noqa: ANN001 - subprocess.Popen's own signature
    argv = [os.fspath(a) for a in args] if not isinstance(args, (str, bytes)) else [str(args)]
    name, sub = os.path.basename(argv[0]), git_subcommand(argv)
    if sub:
        name = f"git {sub}"
    elif any("reaper_shim" in a for a in argv):
        name = "subreaper shim (and the fake agy under it)"
    STARTED[name] += 1
    _POPEN_INIT(self, args, *rest, **kwargs)


def _shown(argv: list[str]) -> str:
    """A program's argv as read in the listing: git's pinned -c pairs and the reaper shim's code left out."""
    from relay.observe.git import SAFE_CONFIG

    pinned = {f"{key}={value}" for key, value in SAFE_CONFIG}
    if os.path.basename(argv[0]) == "git":
        kept, i = ["git"], 1
        while i < len(argv):
            if argv[i] == "-c" and i + 1 < len(argv) and argv[i + 1] in pinned:
                i += 2
                continue
            kept.append(argv[i] if len(argv[i]) <= 60 else argv[i][:28] + "…" + argv[i][-28:])
            i += 1
        return " ".join(kept)
    if any("reaper_shim" in a for a in argv):
        return "[subreaper shim] " + " ".join(a if len(a) <= 60 else "…" + a[-40:] for a in argv[argv.index("-c") + 2:])
    return " ".join(argv)


def _list_one(work: Path) -> None:
    """One delegation, every program it started listed (argv, CPU, wall), then the totals."""
    anyio.run(_runs, 1, work / "first")  # imports, the version probe: left out
    subprocess.Popen.__init__ = _listing_init
    os.waitpid = _reaping_waitpid  # subprocess's blocking wait and asyncio's child watcher look it up here
    poll = subprocess.Popen._internal_poll
    poll.__defaults__ = (poll.__defaults__[0], _reaping_waitpid, *poll.__defaults__[2:])  # its non-blocking reap
    STARTED.clear()
    LISTED.clear()
    try:
        wall, own, kids, status = anyio.run(_runs, 1, work / "listed")[0]
    finally:
        os.waitpid = _WAITPID
        poll.__defaults__ = (poll.__defaults__[0], _WAITPID, *poll.__defaults__[2:])
        subprocess.Popen.__init__ = _POPEN_INIT
    print(f"one delegation (antigravity_execute, fake agy, to its packet): {status}; wall {wall * 1000:.0f} ms, CPU "
          f"{(own + kids) * 1000:.0f} ms = relay in this process {own * 1000:.0f} ms + children {kids * 1000:.0f} ms; "
          f"load (1 min) {os.getloadavg()[0]:.2f}")
    print("   CPU ms   wall ms  program (in the order started)")
    for argv, started, reaped, cpu in LISTED:
        cpu_s = f"{cpu * 1000:8.1f}" if cpu is not None else "       ?"
        wall_s = f"{(reaped - started) * 1000:8.1f}" if reaped is not None else "       ?"
        print(f"  {cpu_s}  {wall_s}  {_shown(argv)}")
    for label, rows in (("git", [r for r in LISTED if os.path.basename(r[0][0]) == "git"]), ("all", LISTED)):
        print(f"{label}: {len(rows)} processes, CPU {sum(r[3] or 0 for r in rows) * 1000:.1f} ms, wall "
              f"{sum((r[2] or r[1]) - r[1] for r in rows) * 1000:.1f} ms summed"
              f"{' (' + str(sum(r[3] is None for r in rows)) + ' not measured)' if any(r[3] is None for r in rows) else ''}")


def _cpu() -> tuple[float, float]:
    """(this process's user+sys CPU, that of the children it waited for)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


WORKTREE = {"on": False}  # --worktree: each run isolated in a pooled worktree


async def _one_run(root: Path) -> tuple[float, float, float, str]:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", success_scenario([{"path": "src/new.py", "content": "x = 1\n"}]))
    env = {"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy)}
    call = {"task": "t", "workspace": str(repo)}
    if WORKTREE["on"]:
        env["GRAVITY_RELAY_PROFILES"] = json.dumps({"iso": {"isolation": "worktree", "workspace": str(repo)}})
        call = {"task": "t", "profile": "iso"}
    settings = load_settings(env)
    cpu, wall = _cpu(), time.monotonic()
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", call))
    own, kids = _cpu()
    return time.monotonic() - wall, own - cpu[0], kids - cpu[1], packet["status"]


async def _runs(count: int, work: Path) -> list[tuple[float, float, float, str]]:
    return [await _one_run(work / f"run{i}") for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--list", action="store_true", help="one run: every program it started, argv, CPU, wall")
    parser.add_argument("--worktree", action="store_true", help="each run isolated in a pooled worktree")
    args = parser.parse_args()
    WORKTREE["on"] = args.worktree
    if args.list:
        with tempfile.TemporaryDirectory(prefix="bench-run-cost-") as tmp:
            _list_one(Path(tmp))
        return
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
