"""HTTP figures: N concurrent client sessions x M calls through one `serve --http` relay, next to stdio.

Over HTTP every session talks to the same relay process; over stdio each session is its own
relay process (bench/bench_concurrency.py). The fake agy logs every launch, so the script checks
that no two workers overlapped and prints the order of service. Per-call overhead is the wall
time minus the time agy was busy, divided by the calls. Last, SIGTERM mid-run: how long until the
worker's process group is gone, and the run's recorded status.

    python bench/bench_http.py                    # 8 sessions x 2 calls, the issue's figure
    python bench/bench_http.py --sessions 2 --calls 2 --sleep 0.2
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from concurrency_harness import run_concurrency  # noqa: E402
from conftest import make_repo, payload, relay_env  # noqa: E402
from fake_agy_harness import install_fake_agy, launches, pid_alive, scenario, wait_for_launches  # noqa: E402
from http_harness import http_client, http_relay  # noqa: E402


def _serial_figures(runs: list[dict]) -> tuple[int, list[str], float]:
    runs = sorted(runs, key=lambda r: r["start"])
    overlaps = sum(1 for a, b in zip(runs, runs[1:]) if a["end"] is None or b["start"] < a["end"])
    order = [r["prompt"].split("# Task\n", 1)[-1].split("\n", 1)[0].removeprefix("call ") for r in runs]
    return overlaps, order, sum(r["end"] - r["start"] for r in runs if r["end"])


async def run_http(root: Path, *, sessions: int, calls: int, sleep: float) -> dict:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scenario({"behaviour": "slow", "sleep": sleep,
                                                   "report": {"summary": "ok", "files_changed": []}}))
    with http_relay(relay_env(root / "data", agy)) as relay:
        statuses: list[str] = []
        started = time.monotonic()

        async def session(s: int) -> None:
            async with http_client(relay.url, relay.token) as client:
                async def call(c: int) -> None:
                    result = await client.call_tool("antigravity_execute", {"task": f"call s{s}c{c}",
                                                                            "workspace": str(repo)})
                    statuses.append(payload(result)["status"])

                async with anyio.create_task_group() as tg:
                    for c in range(calls):
                        tg.start_soon(call, c)

        async with anyio.create_task_group() as tg:
            for s in range(sessions):
                tg.start_soon(session, s)
        wall = time.monotonic() - started
    overlaps, order, busy = _serial_figures(launches(agy))
    records = [json.loads(p.read_text(encoding="utf-8")) for p in (root / "data" / "runs").glob("r*.json")]
    return {"calls": sessions * calls, "successes": statuses.count("SUCCESS"), "launches": len(order),
            "records": len(records), "overlaps": overlaps, "order": order, "wall_seconds": round(wall, 2),
            "busy_seconds": round(busy, 2)}


async def run_sigterm(root: Path) -> dict:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scenario({"behaviour": "hang", "grandchild": True}))
    with http_relay(relay_env(root / "data", agy)) as relay:
        async def call() -> None:
            try:
                async with http_client(relay.url, relay.token) as client:
                    await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)})
            except Exception:  # noqa: BLE001 - the relay goes away mid-call on purpose
                pass

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=60))
            while not launches(agy)[0].get("grandchild_pid"):
                await anyio.sleep(0.02)
            (run,) = launches(agy)
            relay.proc.send_signal(signal.SIGTERM)
            sent = time.monotonic()
            while (pid_alive(run["pid"]) or pid_alive(run["grandchild_pid"])) and time.monotonic() - sent < 30:
                await anyio.sleep(0.01)
            gone = time.monotonic() - sent
            code = await anyio.to_thread.run_sync(lambda: relay.proc.wait(timeout=30))
            exited = time.monotonic() - sent
            tg.cancel_scope.cancel()
    (record,) = [json.loads(p.read_text(encoding="utf-8")) for p in (root / "data" / "runs").glob("r*.json")]
    return {"gone": round(gone, 2), "exited": round(exited, 2), "code": code, "status": record["status"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2)
    parser.add_argument("--sleep", type=float, default=0.5, help="seconds each fake agy run takes")
    parser.add_argument("--no-stdio", action="store_true", help="skip the stdio comparison")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        http = anyio.run(lambda: run_http(Path(tmp) / "http", sessions=args.sessions, calls=args.calls,
                                          sleep=args.sleep))
        stdio = None if args.no_stdio else anyio.run(lambda: run_concurrency(
            Path(tmp) / "stdio", processes=args.sessions, calls=args.calls, sleep=args.sleep))
        stop = anyio.run(lambda: run_sigterm(Path(tmp) / "sigterm"))
    rows = [("http (one relay)", http)] + ([("stdio (relay per session)", stdio)] if stdio else [])
    print(f"sessions x calls        : {args.sessions} x {args.calls} = {http['calls']} (fake agy {args.sleep} s per run)")
    for name, f in rows:
        overhead = (f["wall_seconds"] - f["busy_seconds"]) / max(f["calls"], 1)
        print(f"{name:<26}: {f['successes']}/{f['calls']} SUCCESS, {f['launches']} agy launches, "
              f"{f['overlaps']} overlapping, wall {f['wall_seconds']} s (agy busy {f['busy_seconds']} s), "
              f"overhead {overhead:.3f} s/call")
    print(f"http records            : {http['records']}")
    print(f"http order of service   : {' '.join(http['order'])}")
    print(f"SIGTERM mid-run (http)  : worker group gone after {stop['gone']} s, relay exited {stop['code']} after "
          f"{stop['exited']} s, run recorded {stop['status']}")


if __name__ == "__main__":
    main()
