"""Fault injection: what the relay keeps when things go wrong, as figures.

Each fault runs `gravity-relay serve` as a real subprocess over a real stdio pipe, against the fake
agy, with real signals and real files, and prints per fault: records finished (a verdict on disk),
runs lost (a run with no record, or left "running"), processes left (fake agy workers and their
helpers still alive at the end; an unrelated process the relay must NOT kill is reported apart),
peak relay memory (VmHWM of the serve process) and the wall time of the fault's answer.

    python bench/bench_faults.py            # every fault (the 400 MB one takes a while)
    python bench/bench_faults.py sigkill flood-100

Linux only (reads /proc); "disk full" needs root to mount a 1 MiB tmpfs and is skipped otherwise.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from conftest import make_repo, relay_command, relay_env  # noqa: E402
from fake_agy_harness import install_fake_agy, launches, pid_alive, scenario  # noqa: E402

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}


class Relay:
    """`gravity-relay serve` in a subprocess, spoken to in raw JSON-RPC; its peak RSS sampled from /proc."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(relay_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env={**os.environ, **env})
        self.lines: queue.Queue = queue.Queue()
        self.peak_kb = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._sample, daemon=True).start()
        self._id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _sample(self) -> None:
        while self.proc.poll() is None:
            try:
                text = Path(f"/proc/{self.proc.pid}/status").read_text(encoding="utf-8")
                hwm = int(next(line.split()[1] for line in text.splitlines() if line.startswith("VmHWM:")))
                self.peak_kb = max(self.peak_kb, hwm)
            except (OSError, StopIteration, ValueError):
                pass
            time.sleep(0.05)

    def send(self, obj: dict) -> None:
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method: str, params: dict, *, wait: bool = True, timeout: float = 600) -> dict | None:
        self._id += 1
        self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        return self.answer(self._id, timeout) if wait else None

    def answer(self, wanted: int, timeout: float = 600) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                return None
            msg = json.loads(line)
            if msg.get("id") == wanted:
                return msg
        return None

    def call(self, name: str, args: dict, *, wait: bool = True, timeout: float = 600) -> dict | None:
        msg = self.request("tools/call", {"name": name, "arguments": args}, wait=wait, timeout=timeout)
        if msg is None:
            return None
        return (msg.get("result") or {}).get("structuredContent") or msg

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def wait_for(predicate, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def tally(data: Path, agy: Path, expected_runs: int, unrelated: list[int] = ()) -> dict:
    records = []
    for path in sorted((data / "runs").glob("r*.json")):
        try:
            records.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            records.append({"state": "unreadable"})
    finished = sum(1 for r in records if r.get("state") in ("finished", "interrupted"))
    pids = [p for run in launches(agy) for p in (run.get("pid"), run.get("grandchild_pid")) if p]
    wait_for(lambda: not any(pid_alive(p) for p in pids), 5)
    return {
        "records finished": f"{finished}/{len(records)}",
        "runs lost": max(0, expected_runs - finished),
        "processes left": sum(1 for p in pids if pid_alive(p)),
        "unrelated killed": sum(1 for p in unrelated if not pid_alive(p)),
        "statuses": ",".join(sorted(str(r.get("status")) for r in records)),
    }


def setup(root: Path, scen: dict, **env: str) -> tuple[Path, Path, dict[str, str]]:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scen)
    return repo, agy, relay_env(root / "data", agy, **env)


def sleeper() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)


# --------------------------------------------------------------------------- faults


def fault_sigkill(root: Path) -> dict:
    repo, agy, env = setup(root, scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT}))
    relay = Relay(env)
    relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)}, wait=False)
    wait_for(lambda: len(launches(agy)) == 1 and (repo / "src" / "new.py").exists())
    peak = relay.peak_kb
    relay.proc.kill()
    relay.proc.wait()
    started = time.monotonic()
    after = Relay(env)  # the next relay's start-up recovery
    run_id = next(p.stem for p in (root / "data" / "runs").glob("r*.json"))
    got = after.call("antigravity_get_result", {"run_id": run_id})
    took = time.monotonic() - started
    after.close()
    return {**tally(root / "data", agy, 1), "peak MB": peak / 1024, "answer s": took,
            "note": f"{got.get('status')}, changes listed: {got.get('changes', {}).get('files')}"}


def fault_sigterm(root: Path) -> dict:
    repo, agy, env = setup(root, scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT}))
    relay = Relay(env)
    relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)}, wait=False)
    wait_for(lambda: len(launches(agy)) == 1 and (repo / "src" / "new.py").exists())
    started = time.monotonic()
    relay.proc.send_signal(signal.SIGTERM)
    try:
        code = relay.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        code = "still alive after 30 s"
        relay.proc.kill()
    took = time.monotonic() - started
    return {**tally(root / "data", agy, 1), "peak MB": relay.peak_kb / 1024, "answer s": took,
            "note": f"serve exit code {code} (mid-run); idle: {_sigterm_idle(root)}"}


def _sigterm_idle(root: Path) -> str:
    relay = Relay(relay_env(root / "idle-data", None))
    relay.request("tools/list", {})
    started = time.monotonic()
    relay.proc.send_signal(signal.SIGTERM)
    try:
        code = relay.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        relay.proc.kill()
        return "still alive after 30 s"
    return f"exit {code} in {time.monotonic() - started:.2f}s"


def fault_disk_full(root: Path) -> dict:
    mount = root / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        return {"note": "skipped: cannot mount a tmpfs (needs root)"}
    try:
        repo = make_repo(root / "project")
        agy = install_fake_agy(root / "bin", scenario({"behaviour": "success", "edits": EDIT, "report": REPORT,
                                                       "flood": {"bytes": 3 << 20, "line_bytes": 300}}))
        relay = Relay(relay_env(mount / "data", agy))
        started = time.monotonic()
        got = relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)})
        took = time.monotonic() - started
        relay.close()
        flags = [f for f in got.get("flags", []) if "transcript" in f or "record" in f]
        return {**tally(mount / "data", agy, 1), "peak MB": relay.peak_kb / 1024, "answer s": took,
                "note": f"{got.get('status')} run_id={bool(got.get('run_id'))} changes={got.get('changes', {}).get('files')}"
                        f" flags={flags}"}
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fault_unreadable_record(root: Path) -> dict:
    repo, agy, env = setup(root, scenario({"behaviour": "success", "edits": EDIT, "report": REPORT}))
    runs = root / "data" / "runs"
    (runs / "active").mkdir(parents=True)
    (runs / "r20261130T100000-000000aa.json").write_text("{not json", encoding="utf-8")
    (runs / "active" / "r20261130T100000-000000aa").touch()
    (runs / "r20261130T100000-000000bb.json").mkdir()  # a directory where a record should be
    (runs / "active" / "r20261130T100000-000000bb").touch()
    started = time.monotonic()
    relay = Relay(env)
    got = relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)})
    took = time.monotonic() - started
    relay.close()
    listed = subprocess.run(relay_command()[:-1] + ["runs", "list"], capture_output=True, text=True,
                            env={**os.environ, **env}, encoding="utf-8")
    return {**tally(root / "data", agy, 1), "peak MB": relay.peak_kb / 1024, "answer s": took,
            "note": f"new run {got.get('status')}; `runs list` exit {listed.returncode}"
                    f"{' (traceback)' if 'Traceback' in listed.stderr else ''}"}


def fault_pid_reuse(root: Path) -> dict:
    """A record and a queue ticket that name live, unrelated processes (their pid was "reused")."""
    from relay.core.platform import stamp_of

    repo, agy, env = setup(root, scenario({"behaviour": "success", "edits": EDIT, "report": REPORT}),
                           GRAVITY_RELAY_QUEUE_WAIT_MINUTES="1")
    relay_reused, group_reused = sleeper(), sleeper()
    try:
        runs = root / "data" / "runs"
        (runs / "active").mkdir(parents=True)
        old = {"pid": relay_reused.pid, "start": "psutil:1.000", "boot_id": stamp_of(relay_reused.pid).boot_id}
        (runs / "r20261130T100000-000000cc.json").write_text(json.dumps({
            "run_id": "r20261130T100000-000000cc", "created_at": "2026-11-30T10:00:00Z", "state": "running",
            "relay_pid": relay_reused.pid, "relay_stamp": old, "pgid": group_reused.pid,
            "worker_stamp": {**old, "pid": group_reused.pid}, "workspace": str(repo)}), encoding="utf-8")
        (runs / "active" / "r20261130T100000-000000cc").touch()
        queue_dir = root / "data" / "queue"
        queue_dir.mkdir()
        (queue_dir / f"{1:020d}-{relay_reused.pid}-r20261130T100000-000000dd").write_text(json.dumps(old), encoding="utf-8")
        started = time.monotonic()
        relay = Relay(env)
        got = relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)}, timeout=120)
        took = time.monotonic() - started
        relay.close()
        return {**tally(root / "data", agy, 2, [relay_reused.pid, group_reused.pid]), "peak MB": relay.peak_kb / 1024,
                "answer s": took, "note": f"new run {got.get('status') if got else 'NO ANSWER'}"}
    finally:
        relay_reused.kill()
        group_reused.kill()


def _flood(root: Path, spec: dict, note: str) -> dict:
    repo, agy, env = setup(root, scenario({"behaviour": "success", "edits": EDIT, "report": REPORT, "flood": spec}))
    relay = Relay(env)
    started = time.monotonic()
    got = relay.call("antigravity_execute", {"task": "t", "workspace": str(repo)})
    took = time.monotonic() - started
    relay.close()
    sizes = [p.stat().st_size for p in (root / "data" / "runs").glob("r*.ndjson")]
    return {**tally(root / "data", agy, 1), "peak MB": relay.peak_kb / 1024, "answer s": took,
            "note": f"{note}: {got.get('status')}, transcript {sum(sizes) / 2**20:.1f} MB"}


def fault_flood_400(root: Path) -> dict:
    return _flood(root, {"bytes": 400 << 20, "line_bytes": 400, "kind": "json"}, "400 MB of stream-json lines")


def fault_flood_100(root: Path) -> dict:
    return _flood(root, {"bytes": 100 << 20, "line_bytes": 300, "kind": "text"}, "100 MB of text lines")


def fault_stderr_100(root: Path) -> dict:
    return _flood(root, {"bytes": 100 << 20, "line_bytes": 300, "stream": "stderr"}, "100 MB on stderr")


def fault_line_300(root: Path) -> dict:
    return _flood(root, {"bytes": 300 << 20, "line_bytes": 0}, "one 300 MB line, no newline")


FAULTS = {
    "sigkill": ("SIGKILL mid-run", fault_sigkill),
    "sigterm": ("SIGTERM mid-run", fault_sigterm),
    "disk-full": ("disk full (1 MiB tmpfs)", fault_disk_full),
    "unreadable": ("unreadable records", fault_unreadable_record),
    "pid-reuse": ("pid reuse (record+ticket)", fault_pid_reuse),
    "flood-100": ("100 MB output", fault_flood_100),
    "flood-400": ("400 MB output", fault_flood_400),
    "stderr-100": ("100 MB on stderr", fault_stderr_100),
    "line-300": ("300 MB line", fault_line_300),
}


def main(argv: list[str]) -> int:
    names = argv or list(FAULTS)
    print(f"{'fault':<28} {'finished':>8} {'lost':>4} {'procs':>5} {'unrel.killed':>12} {'peak MB':>8} {'answer s':>8}  note")
    for name in names:
        title, fn = FAULTS[name]
        with tempfile.TemporaryDirectory(prefix=f"bench-faults-{name}-") as tmp:
            row = fn(Path(tmp))
        print(f"{title:<28} {row.get('records finished', '-'):>8} {row.get('runs lost', '-'):>4} "
              f"{row.get('processes left', '-'):>5} {row.get('unrelated killed', '-'):>12} "
              f"{row.get('peak MB', 0):>8.0f} {row.get('answer s', 0):>8.1f}  {row.get('note', '')}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
