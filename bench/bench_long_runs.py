"""Leader cost of long runs (issue 9): bytes and calls per task (a script, not a test).

    python bench/bench_long_runs.py [--scale 0.1] [--wait 50] [--long] [--json] [--short-client]

For a worker of 10 s and 60 s (and 300 s with ``--long``) the fake agy sleeps that long
in a real git repo, behind the real relay in process (the SDK client, in-memory). Two
ways for a leader whose client cuts tool calls at ~60 s:

* wait: ``antigravity_execute(wait_seconds=W)`` then ``antigravity_get_result(run_id,
  wait_seconds=W)`` until the packet (this relay);
* 5-s poll: a "delegate then poll" design — execute answers at once, then a status call
  every 5 s until the packet (measured here with the same relay, ``wait_seconds`` 0, so
  each poll costs one RUNNING answer; peers' status answers are larger).

Leader bytes = every result text the leader receives for the task. Time is scaled by
``--scale`` (worker sleep, W and the 5-s poll period all multiplied) so the script ends in
reasonable time; call counts do not depend on it, and bytes barely (``elapsed_seconds``
has fewer digits). ``--scale 1 --long`` is the real thing (about 12 minutes).

``--short-client`` adds the issue's check at real time (about 45 s): through the SDK client
with a 5 s read timeout, a 40 s worker via ``execute(wait_seconds=3)`` + ``get_result`` waits
of 3 s: the statuses seen (no CANCELLED), the bytes, and whether the final answer is the
run's recorded packet byte for byte.

Also printed: how long ``antigravity_cancel`` takes to stop a detached run (worker and
grandchild gone, CANCELLED recorded), and a run started with no wait in one relay process
(stdio) stopped by ``antigravity_cancel`` from another.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from fake_agy_harness import failure_scenario, install_fake_agy, launches, pid_alive, scenario  # noqa: E402

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


def _repo(path: Path) -> Path:
    path.mkdir(parents=True)
    for args in (["init", "-q", "-b", "main"], ["config", "user.email", "d@e.com"], ["config", "user.name", "D"]):
        subprocess.run(["git", *args], cwd=path, check=True)
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("def main():\n    return 1\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=path, check=True)
    subprocess.run(["git", "-c", "commit.gpgsign=false", "commit", "-qm", "i"], cwd=path, check=True)
    return path


async def _task(client, repo: Path, style: str, wait: float, poll: float) -> tuple[int, int, int, str]:
    """(calls, leader bytes, final packet bytes, final status) for one task."""
    texts: list[str] = []
    first = await client.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo),
                                                           "wait_seconds": wait if style == "wait" else 0})
    texts.append(first.content[0].text)
    answer = json.loads(texts[-1])
    while answer["status"] == "RUNNING":
        if style == "poll":
            await anyio.sleep(poll)
        got = await client.call_tool("antigravity_get_result", {"run_id": answer["run_id"],
                                                                "wait_seconds": wait if style == "wait" else 0})
        texts.append(got.content[0].text)
        answer = json.loads(texts[-1])
    (repo / "src" / "new.py").unlink(missing_ok=True)
    return len(texts), sum(len(t.encode()) for t in texts), len(texts[-1].encode()), answer["status"]


async def _measure(workers: list[float], scale: float, wait: float) -> dict:
    from mcp import Client

    from relay.core.settings import load_settings
    from relay.doors.mcp_server import create_server

    out: dict = {"scale": scale, "wait_seconds": wait, "rows": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        repo = _repo(tmp_path / "project")
        agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "sleep": 1}))
        settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                                  "GRAVITY_RELAY_PROGRESS_SECONDS": str(max(0.2, 3 * scale))})
        async with Client(create_server(settings)) as client:
            for seconds in workers:
                from fake_agy_harness import set_scenario

                set_scenario(agy, scenario({"behaviour": "success", "edits": EDIT, "sleep": seconds * scale}))
                row = {"worker_seconds": seconds}
                for style in ("wait", "poll"):
                    calls, total, packet, status = await _task(client, repo, style, wait * scale, 5 * scale)
                    row[style] = {"calls": calls, "leader_bytes": total, "packet_bytes": packet, "status": status,
                                  "per_running_answer": round((total - packet) / max(1, calls - 1))}
                out["rows"].append(row)

            # Cancel: a hanging worker with a grandchild, detached, then stopped.
            set_scenario(agy, failure_scenario("hang", grandchild=True, edits=EDIT))
            first = json.loads((await client.call_tool("antigravity_execute", {
                "task": "t", "workspace": str(repo), "wait_seconds": 0})).content[0].text)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not (launches(agy) and launches(agy)[-1]["grandchild_pid"]):
                await anyio.sleep(0.05)
            run = launches(agy)[-1]
            started = time.monotonic()
            answer = json.loads((await client.call_tool("antigravity_cancel", {"run_id": first["run_id"]})).content[0].text)
            answered = time.monotonic() - started
            while pid_alive(run["pid"]) or pid_alive(run["grandchild_pid"]):
                await anyio.sleep(0.02)
            out["cancel"] = {"answer_seconds": round(answered, 2), "group_gone_seconds": round(time.monotonic() - started, 2),
                             "status": answer["status"], "files": answer.get("changes", {}).get("files", [])}
    return out


async def _cross_process_inline_cancel() -> dict:
    """A run started with no wait in a stdio relay, cancelled from an in-process one over the same data dir."""
    from mcp import Client

    from conftest import relay_env, stdio_relay
    from relay.core.settings import load_settings
    from relay.doors.mcp_server import create_server

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        repo = _repo(tmp_path / "project")
        agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", grandchild=True, edits=EDIT))
        settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
        out: dict = {}
        async with stdio_relay(relay_env(tmp_path / "data", agy)) as owner, Client(create_server(settings)) as other:
            async def start() -> None:
                got = await owner.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)})
                out["owner_status"] = json.loads(got.content[0].text)["status"]

            async with anyio.create_task_group() as tg:
                tg.start_soon(start)
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline and not (launches(agy) and launches(agy)[-1]["grandchild_pid"]):
                    await anyio.sleep(0.05)
                run = launches(agy)[-1]
                (record,) = (tmp_path / "data" / "runs").glob("r*.json")
                started = time.monotonic()
                answer = json.loads((await other.call_tool("antigravity_cancel", {"run_id": record.stem})).content[0].text)
                out["answer_seconds"] = round(time.monotonic() - started, 2)
                out["status"] = answer["status"]
                gone_by = time.monotonic() + 30
                while (alive := pid_alive(run["pid"]) or pid_alive(run["grandchild_pid"])) and time.monotonic() < gone_by:
                    await anyio.sleep(0.02)
                out["group_gone_seconds"] = "not gone after 30 s" if alive else round(time.monotonic() - started, 2)
                if alive:  # not stopped: end it here, so the bench ends
                    await owner.call_tool("antigravity_cancel", {"run_id": record.stem})
                    tg.cancel_scope.cancel()
        return out


async def _short_client() -> dict:
    from mcp import Client

    from relay.core.settings import load_settings
    from relay.doors.mcp_server import create_server
    from relay.runs.results import encode, packet_object
    from relay.runs.store import RunStore

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        repo = _repo(tmp_path / "project")
        agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "sleep": 40}))
        settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
        texts: list[str] = []
        started = time.monotonic()
        async with Client(create_server(settings), read_timeout_seconds=5) as client:
            got = await client.call_tool("antigravity_execute", {"task": "add new.py", "workspace": str(repo),
                                                                 "wait_seconds": 3})
            texts.append(got.content[0].text)
            run_id = json.loads(texts[0])["run_id"]
            while json.loads(texts[-1])["status"] == "RUNNING":
                got = await client.call_tool("antigravity_get_result", {"run_id": run_id, "wait_seconds": 3})
                texts.append(got.content[0].text)
        record = RunStore(tmp_path / "data" / "runs").read(run_id)
        return {"seconds": round(time.monotonic() - started, 1), "calls": len(texts),
                "statuses": sorted({json.loads(t)["status"] for t in texts}),
                "leader_bytes": sum(len(t.encode()) for t in texts), "packet_bytes": len(texts[-1].encode()),
                "final_is_recorded_packet": texts[-1] == encode(packet_object(record.packet)).decode()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.1, help="time factor (default 0.1: a 60 s worker sleeps 6 s)")
    parser.add_argument("--wait", type=float, default=50.0, help="the leader's wait_seconds, unscaled (default 50)")
    parser.add_argument("--long", action="store_true", help="also the 300 s worker")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--short-client", action="store_true", help="also the 5 s read timeout / 40 s worker check")
    args = parser.parse_args()
    workers = [10.0, 60.0] + ([300.0] if args.long else [])
    figures = anyio.run(_measure, workers, args.scale, args.wait)
    figures["cross_cancel"] = anyio.run(_cross_process_inline_cancel)
    if args.short_client:
        figures["short_client"] = anyio.run(_short_client)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"time scale {args.scale:g}; leader wait_seconds {args.wait:g} (a client that cuts calls at ~60 s); "
          f"poll period 5 s")
    print(f"{'worker':>8}  {'wait: calls':>11} {'bytes':>6} {'packet':>6} {'per RUNNING':>11}   "
          f"{'5-s poll: calls':>15} {'bytes':>6}")
    for row in figures["rows"]:
        w, p = row["wait"], row["poll"]
        print(f"{row['worker_seconds']:>7g}s  {w['calls']:>11} {w['leader_bytes']:>6} {w['packet_bytes']:>6} "
              f"{w['per_running_answer'] if w['calls'] > 1 else '-':>11}   {p['calls']:>15} {p['leader_bytes']:>6}"
              f"   ({w['status']}/{p['status']})")
    c = figures["cancel"]
    print(f"cancel of a detached run: answered in {c['answer_seconds']} s, worker + grandchild gone in "
          f"{c['group_gone_seconds']} s; {c['status']}, changes listed: {c['files']}")
    x = figures["cross_cancel"]
    print(f"cancel from another relay process of a run started with no wait: answered {x['status']} in "
          f"{x['answer_seconds']} s, worker + grandchild gone: {x['group_gone_seconds']}"
          f"{' s' if isinstance(x['group_gone_seconds'], float) else ''}; the waiting call "
          f"answered {x.get('owner_status')}")
    if "short_client" in figures:
        s = figures["short_client"]
        running = s["calls"] - 1
        print(f"5 s read timeout, 40 s worker, waits of 3 s: {s['calls']} calls in {s['seconds']} s, statuses "
              f"{s['statuses']}, {s['leader_bytes']} bytes = packet {s['packet_bytes']} + {running} RUNNING x "
              f"{(s['leader_bytes'] - s['packet_bytes']) / max(1, running):.0f}; final = recorded packet: "
              f"{s['final_is_recorded_packet']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
