"""How fast `gravity-relay serve` gets out of the way when its client leaves mid-run (a script, not a test).

    PYTHONPATH=. python bench/bench_shutdown.py [--runs 5] [--burners 4] [--how claude|sigterm|eof|sigkill]
                                                [--detached] [--no-kill] [--deaf]

A real relay over stdio runs a fake agy that hangs with a grandchild (tests/fake_agy.py); once both are up,
the client leaves the way a real one does:

* ``claude`` — Claude Code 2.1.332 closing a stdio server (its MCP client's cleanup, read from the bundled
  cli): SIGINT; 100 ms later, if the relay lives, SIGTERM; 400 ms after that, if it still lives, SIGKILL.
  So the relay has ~500 ms from the first signal to be gone; after that it is killed mid-cleanup.
* ``sigterm`` — one SIGTERM (Codex, Gemini CLI and the MCP SDK's own transport close: stdin first, then
  SIGTERM after 2 s; here the SIGTERM alone).
* ``eof`` — stdin closed, no signal (the SDK transports' first step).
* ``sigkill`` — SIGKILL at once (an OOM killer, ``kill -9``; Claude Code's last step): the relay stops nothing
  itself, its subreapers see its lifeline end (relay/core/reaper.py) and stop the worker, and the run's undertaker
  (relay/call/undertaker.py) finishes the record (state "interrupted").

Printed per case, from the first signal (or the stdin close), median and max over the runs: the worker
group gone (worker and grandchild both dead), the record finished on disk (state "finished", or "interrupted"
when the undertaker finished it), the relay process exited; and how many runs Claude Code's SIGKILL would have
hit (``--no-kill`` sends it never, to see the full path; ``--deaf``: the worker and its grandchild ignore
SIGTERM). With ``--burners N``, N busy-looping Python processes load the machine (killed after).
The relay's own log lines (stderr, INFO) are timed on arrival too, for the step breakdown (``--steps``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from conftest import make_repo, relay_command, relay_env  # noqa: E402
from fake_agy_harness import install_fake_agy, kill_fakes, launches, pid_alive, scenario  # noqa: E402

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
CLAUDE_SIGTERM_AFTER = 0.100  # Claude Code: SIGINT, wait 100 ms, SIGTERM
CLAUDE_SIGKILL_AFTER = 0.500  # then 400 ms more, SIGKILL


def _send(proc: subprocess.Popen, obj: dict) -> None:
    proc.stdin.write((json.dumps(obj) + "\n").encode())
    proc.stdin.flush()


def _burners(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(n)]


def one_run(work: Path, how: str, detached: bool, kill: bool, settle: float, deaf: bool = False) -> dict:
    repo = make_repo(work / "repo")
    agy = install_fake_agy(work / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT,
                                                   "ignore_sigterm": deaf}))
    data = work / "data"
    proc = subprocess.Popen(relay_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **relay_env(data, agy)})
    log: list[tuple[float, str]] = []
    threading.Thread(target=lambda: [log.append((time.monotonic(), ln.decode(errors="replace").rstrip()))
                                     for ln in proc.stderr], daemon=True).start()
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}})
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        arguments = {"task": "t", "workspace": str(repo), **({"wait_seconds": 0} if detached else {})}
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "antigravity_execute", "arguments": arguments}})
        deadline = time.monotonic() + 120
        while not (launches(agy) and launches(agy)[0].get("grandchild_pid") and (repo / "src/new.py").exists()):
            if time.monotonic() > deadline:
                raise RuntimeError("the fake agy and its grandchild did not start")
            time.sleep(0.02)
        run = launches(agy)[0]
        time.sleep(settle)  # the run goes on a while (a person types /exit): the review's import is warm by then
        records = list((data / "runs").glob("r*.json"))
        t0 = time.monotonic()
        if how == "eof":
            proc.stdin.close()
        elif how == "sigkill":
            proc.kill()
        else:
            proc.send_signal(signal.SIGINT if how == "claude" else signal.SIGTERM)
        got: dict[str, float] = {}
        killed = how == "sigkill"
        cpu0 = cpu = _cpu(proc.pid)
        while "exit" not in got or "group" not in got or "record" not in got:
            now = time.monotonic() - t0
            if how == "claude" and "exit" not in got:
                if "sigterm" not in got and now >= CLAUDE_SIGTERM_AFTER:
                    got["sigterm"] = now
                    proc.send_signal(signal.SIGTERM)
                if kill and not killed and now >= CLAUDE_SIGKILL_AFTER:
                    killed = True
                    proc.kill()
            if "group" not in got and not pid_alive(run["pid"]) and not pid_alive(run["grandchild_pid"]):
                got["group"] = now
            if "record" not in got and records and _finished(records[0]):
                got["record"] = now
            if "exit" not in got:
                cpu = _cpu(proc.pid) or cpu  # the last figure read before it exited
                if proc.poll() is not None:
                    got["exit"] = now
            if now > 60:
                break
            time.sleep(0.002)
        steps = [(round((t - t0) * 1000), line.split(": ", 1)[-1][:90]) for t, line in log if t >= t0]
        return {"group": got.get("group"), "record": got.get("record"), "exit": got.get("exit"),
                "cpu": (cpu - cpu0) if cpu is not None and cpu0 is not None else None,
                "killed": killed and proc.returncode == -signal.SIGKILL, "code": proc.returncode, "steps": steps}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_fakes(agy)


def _cpu(pid: int) -> float | None:
    """The CPU seconds the process has used (user + system, from /proc), None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _finished(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("state") in ("finished", "interrupted")
    except (OSError, ValueError):
        return False


def _ms(values: list[float | None]) -> str:
    got = [v * 1000 for v in values if v is not None]
    missing = len(values) - len(got)
    if not got:
        return "never"
    text = f"{statistics.median(got):6.0f} ms median, {max(got):6.0f} max"
    return text + (f" ({missing} never)" if missing else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--burners", type=int, nargs="*", default=[0, 4],
                        help="CPU burners for each case (default: 0 and 4)")
    parser.add_argument("--how", choices=("claude", "sigterm", "eof", "sigkill"), nargs="*", default=["claude"])
    parser.add_argument("--detached", action="store_true", help="the run detached (wait_seconds 0), as a task is")
    parser.add_argument("--no-kill", action="store_true", help="never send Claude Code's SIGKILL")
    parser.add_argument("--deaf", action="store_true", help="the worker and its grandchild ignore SIGTERM")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds the run runs before the client leaves")
    parser.add_argument("--steps", action="store_true", help="print the relay's log lines after the signal")
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()[0]:.2f}; relay {' '.join(relay_command())}")
    for how in args.how:
        for n in args.burners:
            burners = _burners(n)
            try:
                results = []
                for i in range(args.runs):
                    with tempfile.TemporaryDirectory(prefix="bench-shutdown-") as tmp:
                        results.append(one_run(Path(tmp), how, args.detached, not args.no_kill, args.settle,
                                               args.deaf))
                    if args.steps:
                        print(f"  run {i + 1}: exit {results[-1]['code']}")
                        for ms, line in results[-1]["steps"]:
                            print(f"    {ms:6d} ms  {line}")
            finally:
                for b in burners:
                    b.kill()
                    b.wait()
            killed = sum(r["killed"] for r in results)
            print(f"{how:7s} {'detached' if args.detached else 'inline':8s} burners {n}: "
                  f"group gone {_ms([r['group'] for r in results])} | "
                  f"record finished {_ms([r['record'] for r in results])} | "
                  f"exit {_ms([r['exit'] for r in results])} | SIGKILLed {killed}/{len(results)} | "
                  f"relay CPU signal→exit {_ms([r['cpu'] for r in results])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
