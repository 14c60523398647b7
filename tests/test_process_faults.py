"""Process and record faults (issue 13: 1, 3, 7, 8, 9, 11, 12): real processes, real signals, real files.

Each test names the defect it keeps fixed; every one of them failed on main before the fix.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from conftest import assert_grouping, git, payload, relay_command, relay_env
from fake_agy_harness import (fakes_alive, install_fake_agy, kill_fakes, launches, pid_alive, scenario, success_scenario,
                              wait_for_launches)
from relay.observe.patch import split_patch

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}


def sleeper(*, marker: str | None = None) -> subprocess.Popen:
    """An unrelated long-lived process in its own group (optionally carrying a worker marker)."""
    env = dict(os.environ)
    env.pop("GRAVITY_RELAY_WORKER_RUN", None)
    if marker:
        env["GRAVITY_RELAY_WORKER_RUN"] = marker
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True, env=env)


def ticket_holder(where: Path) -> subprocess.Popen:
    """A live relay-like process that holds queue tickets' locks as a waiting relay does (relay.runs.coordinator): it
    reads lock paths from stdin, one a line, and answers "held" for each. Its command line is the relay's console
    script's (a script named ``gravity-relay`` run by Python): a ticket counts only for a relay process."""
    script = where / "gravity-relay"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("import sys, time\nfrom filelock import FileLock\nheld = []\nfor line in sys.stdin:\n"
                      "    held.append(FileLock(line.strip(), thread_local=False)); held[-1].acquire()\n"
                      "    print('held', flush=True)\ntime.sleep(300)\n", encoding="utf-8")
    return subprocess.Popen([sys.executable, str(script), "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, encoding="utf-8", start_new_session=True)


def hold_ticket(holder: subprocess.Popen, ticket: Path) -> None:
    locks = ticket.parent.parent / "locks" / "tickets"
    locks.mkdir(parents=True, exist_ok=True)
    holder.stdin.write(f"{locks / ticket.name}\n")
    holder.stdin.flush()
    assert holder.stdout.readline().strip() == "held"


def write_running_record(runs: Path, run_id: str, **fields) -> Path:
    """A record as a relay writes it mid-run (raw JSON, so the test does not depend on the new fields' types)."""
    runs.mkdir(parents=True, exist_ok=True)
    record = {"run_id": run_id, "created_at": "2026-11-30T10:00:00.000Z", "state": "running", **fields}
    path = runs / f"{run_id}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    (runs / "active").mkdir(exist_ok=True)
    (runs / "active" / run_id).touch()
    return path


def stamp(pid: int, *, start: str | None = None) -> dict:
    from relay.core.platform import stamp_of

    real = stamp_of(pid)
    assert real is not None
    return {"pid": pid, "start": start or real.start, "boot_id": real.boot_id}


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _wait_gone(*pids: int, seconds: float = 30.0) -> bool:  # returns as soon as they are gone
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def settings_for(tmp_path: Path, agy: Path | None = None, **env: str):
    from relay.core.settings import load_settings

    return load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "GRAVITY_RELAY_PROGRESS_SECONDS": "0.5",
                          **({"AGY_BIN": str(agy)} if agy else {}), **env})


# --------------------------------------------------------------------------- 1. identity before kill or trust


def test_recovery_kills_a_leftover_group_only_when_identity_proves_it_is_the_runs_worker(tmp_path, repo, process_path):
    # Broke: start-up recovery SIGKILLed whatever process group had the recorded pgid.
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    runs = tmp_path / "data" / "runs"
    # Each variant its own run ids: recovery finds a run's worker by its marker anywhere on the machine, and
    # the two variants run side by side under xdist.
    ours_id, other_id = (f"r20261130T100000-{process_path == 'windows':d}000000{c}" for c in "ab")
    ours = sleeper(marker=ours_id)
    stranger = sleeper()
    try:
        write_running_record(runs, ours_id, relay_pid=dead_pid(), pgid=ours.pid,
                             workspace=str(repo), worker_stamp=stamp(ours.pid))
        # The stranger has the recorded pgid, but neither its start time nor its environment match.
        write_running_record(runs, other_id, relay_pid=dead_pid(), pgid=stranger.pid,
                             workspace=str(repo), worker_stamp=stamp(stranger.pid, start="psutil:1.000"))
        (repo / "src" / "app.py").write_text("changed by the worker\n", encoding="utf-8")
        recovered = recover_interrupted(RunStore(runs))
        assert sorted(recovered) == [ours_id, other_id]
        assert ours.wait(timeout=5) == -signal.SIGKILL
        assert stranger.poll() is None, "an unrelated process group was killed"
        left = json.loads((runs / f"{other_id}.json").read_text(encoding="utf-8"))
        assert left["outcome"]["status"] == "INTERRUPTED" and "left alone" in left["outcome"]["error"]["message"]
        # Minor: the interrupted run lists what git shows changed, with the caveat said.
        killed = json.loads((runs / f"{ours_id}.json").read_text(encoding="utf-8"))
        assert killed["outcome"]["packet"]["changes"]["files"] == ["src/app.py"]
        assert "before the run may be included" in killed["outcome"]["packet"]["flags"][0]
    finally:
        for proc in (ours, stranger):
            if proc.poll() is None:
                proc.kill()


def test_recovery_flags_a_policy_violation_of_an_interrupted_run_and_restores_nothing(tmp_path, repo):
    # Broke: a run whose relay died was finished INTERRUPTED without its policy checked, so a protected
    # file its worker wrote stayed unflagged (and a worktree run of it could be applied).
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    runs = tmp_path / "data" / "runs"
    run_id = "r20261130T100000-0000000c"
    (repo / "src" / "app.py").write_text("the user's edit, before the run\n", encoding="utf-8")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, encoding="utf-8").stdout.strip()
    write_running_record(runs, run_id, relay_pid=dead_pid(), workspace=str(repo), before_head=head,
                         before_dirty=["src/app.py"], protected=[".github/**", "src/app.py"], on_violation="revert")
    (repo / ".github").mkdir()
    (repo / ".github" / "ci.yml").write_text("on: push\n", encoding="utf-8")  # the worker's, before its relay died
    assert recover_interrupted(RunStore(runs)) == [run_id]
    record = RunStore(runs).read(run_id)
    assert record.outcome.status.value == "INTERRUPTED"  # why it ended stays the status
    # Only what changed since the run started counts: the user's earlier edit of a protected file does not.
    assert record.outcome.violation is not None and record.outcome.violation.files == [".github/ci.yml"]
    assert record.outcome.violation.restored == [] and ".github/ci.yml" in record.outcome.violation.not_restored
    assert "broke the run's policy: protected" in record.outcome.error.message
    assert record.outcome.packet.flags[0].startswith("policy violation before the run ended: protected")
    assert (repo / ".github" / "ci.yml").read_text(encoding="utf-8") == "on: push\n"  # never restored at recovery


def test_the_flag_of_a_policy_broken_before_the_run_ended_shows_the_workers_names_escaped(tmp_path, repo):
    # Broke: finish added this flag after fit_packet had made the packet's text safe to show, so a protected file
    # the worker named with ESC [2J (clear the screen) or a right-to-left override reached the packet raw.
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    runs = tmp_path / "data" / "runs"
    run_id = "r20261130T100000-0000000e"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, encoding="utf-8").stdout.strip()
    write_running_record(runs, run_id, relay_pid=dead_pid(), workspace=str(repo), before_head=head,
                         protected=[".github/**"], on_violation="keep")
    (repo / ".github").mkdir()
    (repo / ".github" / "ci\x1b[2J\u202eyml.sh").write_text("on: push\n", encoding="utf-8")  # before its relay died
    assert recover_interrupted(RunStore(runs)) == [run_id]
    flag = RunStore(runs).read(run_id).outcome.packet.flags[0]
    assert flag.startswith("policy violation before the run ended: protected"), flag
    assert "\x1b" not in flag and "\u202e" not in flag and "ci\\x1b[2J\\u202eyml.sh" in flag, flag


def test_recovery_refuses_a_fifo_or_a_symlink_named_like_a_record_and_says_so(tmp_path, repo, caplog):
    # Broke: recovery followed a symbolic link named like a record (it finished and rewrote the
    # record it pointed to), and refused a FIFO without a word; neither may hang start-up.
    import threading

    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    runs = tmp_path / "data" / "runs"
    elsewhere = write_running_record(tmp_path / "elsewhere", "r20261130T100000-0000000e", relay_pid=dead_pid(),
                                     workspace=str(repo))
    runs.mkdir(parents=True)
    (runs / "active").mkdir()
    (runs / "r20261130T100000-0000000e.json").symlink_to(elsewhere)
    os.mkfifo(runs / "r20261130T100000-0000000f.json")
    for run_id in ("r20261130T100000-0000000e", "r20261130T100000-0000000f"):
        (runs / "active" / run_id).touch()
    recovered: list = []
    with caplog.at_level("WARNING", logger="relay.call.recovery"):
        worker = threading.Thread(target=lambda: recovered.append(recover_interrupted(RunStore(runs))), daemon=True)
        worker.start()
        worker.join(timeout=20)
    assert not worker.is_alive(), "recovery hung on a record that is not a regular file"
    assert recovered == [[]]
    assert json.loads(elsewhere.read_text(encoding="utf-8"))["state"] == "running"  # the file the link names was not touched
    lines = [r.getMessage() for r in caplog.records]
    assert any("0000000e" in line and "symbolic link" in line for line in lines), lines
    assert any("0000000f" in line and "FIFO" in line for line in lines), lines


def test_record_whose_relay_pid_was_reused_is_interrupted_not_running_forever(tmp_path, repo):
    # Broke: a live unrelated process with the relay's old pid kept the run "running" (continue said BUSY forever).
    from relay.core.contracts import ContinueInput
    from relay.call.orchestrate import Relay
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    reused = sleeper()
    try:
        runs = tmp_path / "data" / "runs"
        write_running_record(runs, "r20261130T100000-0000000c", relay_pid=reused.pid, workspace=str(repo),
                             relay_stamp=stamp(reused.pid, start="psutil:1.000"), conversation_id="c-1")
        relay = Relay(settings_for(tmp_path))
        # continue: not BUSY; the run is finished as INTERRUPTED on the spot, then continued (agy is absent here).
        packet = anyio.run(relay.continue_, ContinueInput(run_id="r20261130T100000-0000000c", feedback="go on"))
        assert packet.status.value != "BUSY", packet
        record = RunStore(runs).read("r20261130T100000-0000000c")
        assert record.state == "interrupted" and record.outcome.status.value == "INTERRUPTED"
        assert recover_interrupted(RunStore(runs)) == []  # nothing left running
        assert reused.poll() is None
    finally:
        reused.kill()


# --------------------------------------------------------------------------- 11. a running run reads as running


def test_a_running_run_reads_as_running_in_every_view_from_another_process(tmp_path, capsys):
    # Broke: summary said INTERRUPTED ok:false while errors said RUNNING and continue said BUSY.
    from relay.doors.cli_runs import runs_list, runs_show
    from relay.core.contracts import Detail, GetResultInput
    from relay.call.orchestrate import Relay

    other_relay = sleeper()  # the live relay process that owns the run (identity recorded truly)
    dead_relay = dead_pid()
    try:
        runs = tmp_path / "data" / "runs"
        live_id, gone_id = "r20261130T100000-0000000d", "r20261130T100000-0000000e"
        write_running_record(runs, live_id, relay_pid=other_relay.pid, relay_stamp=stamp(other_relay.pid))
        write_running_record(runs, gone_id, relay_pid=dead_relay)
        settings = settings_for(tmp_path)
        relay = Relay(settings)
        for run_id, want in ((live_id, "RUNNING"), (gone_id, "INTERRUPTED")):
            for detail in Detail:
                obj, _ = relay.get_result(GetResultInput(run_id=run_id, detail=detail))
                assert obj["status"] == want, (run_id, detail, obj)
            assert runs_show(settings, run_id) == 0
            assert json.loads(capsys.readouterr().out)["status"] == want
        summary, _ = relay.get_result(GetResultInput(run_id=live_id))
        assert summary["ok"] is False and "still running" in summary["error"]["message"]
        assert runs_list(settings) == 0
        listed = capsys.readouterr().out
        assert f"{live_id}" in listed and "RUNNING" in listed.split(live_id)[1].splitlines()[0]
        assert "INTERRUPTED" in listed.split(gone_id)[1].splitlines()[0]
    finally:
        other_relay.kill()


# --------------------------------------------------------------------------- 8. stale ticket, bounded queue wait


async def test_queue_ticket_whose_pid_was_reused_does_not_block_and_a_long_wait_answers_busy(tmp_path, repo):
    # Broke: a ticket naming a live unrelated pid blocked every call forever.
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT, report=REPORT))
    queue = tmp_path / "data" / "queue"
    queue.mkdir(parents=True)
    stranger = ticket_holder(tmp_path / "relay-bin")
    now = time.time_ns()  # a ticket's time: after its relay started
    try:
        stale = queue / f"{now + 1:020d}-{stranger.pid}-r20261130T100000-0000000f"
        hold_ticket(stranger, stale)  # held, yet its stamp names another process: not counted
        stale.write_text(json.dumps(stamp(stranger.pid, start="psutil:1.000")), encoding="utf-8")
        # The shortest queue bound (0.6 s; it was 3 s): the stale ticket is dropped at the first look, before any bound.
        settings = settings_for(tmp_path, agy, GRAVITY_RELAY_QUEUE_WAIT_MINUTES="0.01")
        async with Client(create_server(settings)) as client:
            with anyio.fail_after(60):
                packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
            assert packet["status"] == "SUCCESS", packet
            assert not stale.exists()
            # A ticket of a live relay that really is ahead (true identity) is waited for, but not forever.
            ahead = queue / f"{now + 2:020d}-{stranger.pid}-r20261130T100000-00000010"
            hold_ticket(stranger, ahead)  # a relay waiting holds its ticket's lock
            ahead.write_text(json.dumps(stamp(stranger.pid)), encoding="utf-8")
            (tmp_path / "data" / "locks" / "holder.json").write_text(
                json.dumps({"run_id": "r20261130T100000-00000010", "pid": stranger.pid, "since": "2026-11-30T10:00:00Z"}), encoding="utf-8")
            with anyio.fail_after(60):
                busy = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert busy["status"] == "BUSY", busy
        assert "position 1" in busy["error"]["message"] and "r20261130T100000-00000010" in busy["error"]["message"]
        assert busy["run_id"]
        assert len(launches(agy)) == 1
    finally:
        stranger.kill()


async def test_queue_unstamped_ticket_stops_counting_when_its_pid_started_after_it_was_written(tmp_path):
    # Broke: a legacy ticket with no identity stamp whose pid was reused by a live unrelated process
    # counted forever, so every call queued behind it until the bound answered BUSY.
    from relay.core.errors import Busy
    from relay.runs.coordinator import Coordinator

    queue = tmp_path / "data" / "queue"
    queue.mkdir(parents=True)
    stranger = ticket_holder(tmp_path / "relay-bin")  # holds both tickets' locks: only their identity tells them apart
    now = time.time_ns()
    try:
        reused = queue / f"{now + 1:020d}-{stranger.pid}-r20261130T100000-00000011"
        hold_ticket(stranger, reused)
        reused.write_bytes(b"")  # an older relay's ticket: a pid and nothing to check it against
        hour_ago = time.time() - 3600
        os.utime(reused, (hour_ago, hour_ago))  # written an hour before the stranger started
        plausible = queue / f"{now + 2:020d}-{stranger.pid}-r20261130T100000-00000012"
        hold_ticket(stranger, plausible)
        plausible.write_bytes(b"")  # written after the stranger started: may be its own, so it counts
        coordinator = Coordinator(tmp_path / "data", max_wait=0.3)
        with anyio.fail_after(30), pytest.raises(Busy) as busy:
            async with coordinator.slot("r20261130T100000-00000013"):
                pass  # not reached: the plausible ticket is ahead and its pid lives
        assert "position 1" in busy.value.message, busy.value.message  # only the plausible ticket counts
        assert not reused.exists() and plausible.exists()
        assert stranger.poll() is None, "a process named by a ticket was killed"
    finally:
        stranger.kill()


# --------------------------------------------------------------------------- 7. no second agy beside an orphan


def _raw_relay(env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(relay_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, **env})
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
    proc.stdout.readline()
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return proc


def _kill_relay_then_its_fakes(proc: subprocess.Popen, agy: Path) -> None:
    """A test's teardown when its relay did not stop as it should (a failed wait, a timeout under load): SIGKILL
    the relay, which then cannot stop its worker, and kill that worker by its install's marker (the state dir in
    its environment), so a failed run leaves no fake agy (and grandchild) sleeping for an hour."""
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=10)
        kill_fakes(agy)


def _kill_with_its_watchers(relay: subprocess.Popen) -> None:
    """SIGKILL the relay and, first, what watches its death (Linux: the subreaper of each spawn, reaper_shim; POSIX: the
    run's undertaker), as a relay dies where none watches (macOS has no subreaper; all killed at once): its agy
    outlives it and its record stays "running", both left to the next relay. A relay SIGKILLed alone has its worker
    stopped and its record finished by those (tests/test_relay_killed.py)."""
    import psutil

    relay.send_signal(signal.SIGSTOP)  # it must not see a watcher end and stop the worker itself
    for child in psutil.Process(relay.pid).children():
        try:
            if any("reaper_shim" in part or "undertaker" in part for part in child.cmdline()):
                child.kill()  # a zombie of the stopped relay until the relay's death hands it to init
        except psutil.Error:
            continue  # a child ending meanwhile (a probe's): it watches nothing any more
    relay.kill()
    relay.wait(timeout=10)


def send(proc: subprocess.Popen, obj: dict) -> None:
    proc.stdin.write((json.dumps(obj) + "\n").encode())
    proc.stdin.flush()


def call_execute(proc: subprocess.Popen, repo: Path, task: str = "t") -> None:
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "antigravity_execute", "arguments": {"task": task, "workspace": str(repo)}}})


async def test_live_relay_reaps_a_crashed_relays_orphan_agy_before_starting_its_own(tmp_path, repo, process_path):
    # Broke: relay A SIGKILLed mid-run left agy running; live relay B started a second agy beside it.
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT},
                                                      {"behaviour": "success", "edits": [], "report": REPORT}))
    env = relay_env(tmp_path / "data", agy)
    settings = settings_for(tmp_path, agy)
    (repo / "README.md").write_text("edited before the run\n", encoding="utf-8")  # the user's own edit, already there
    async with Client(create_server(settings)) as b:  # relay B is up before A crashes: no start-up recovery helps
        a = _raw_relay(env)
        try:
            call_execute(a, repo)
            (orphan,) = await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
            def _printed_init() -> bool:
                # A reads agy's output on its own schedule: kill it only once the head reached the disk
                # (flaked under a loaded full suite when A died before it had read the first line).
                return any("init" in t.read_text(encoding="utf-8") for t in (tmp_path / "data" / "runs").glob("*.ndjson"))

            with anyio.fail_after(60):  # a bound for a broken run only
                while not ((repo / "src" / "new.py").exists() and launches(agy)[0].get("grandchild_pid")
                           and _printed_init()):
                    await anyio.sleep(0.05)
            assert_grouping(launches(agy)[0], process_path)
            _kill_with_its_watchers(a)
            assert pid_alive(orphan["pid"])  # A's agy outlived A
            with anyio.fail_after(60):
                packet = payload(await b.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        finally:
            if a.poll() is None:
                a.kill()
    assert packet["status"] == "SUCCESS", packet
    first, second = launches(agy)
    # Killed by B (unkilled, they hang for an hour). Their parent A is dead, so init reaps them, and until it
    # does they answer signal 0 as zombies: checked at once, this failed under heavy load (-n 8, load 10).
    assert _wait_gone(first["pid"], first["grandchild_pid"])
    runs = tmp_path / "data" / "runs"
    crashed = next(json.loads(p.read_text(encoding="utf-8")) for p in runs.glob("r*.json")
                   if json.loads(p.read_text(encoding="utf-8"))["run_id"] != packet["run_id"])
    assert crashed["outcome"]["status"] == "INTERRUPTED" and "killed" in crashed["outcome"]["error"]["message"]
    # What agy had printed before A died is on disk for the diagnosis (broke: it sat in A's write buffer).
    printed = (runs / f"{crashed['run_id']}.ndjson").read_text(encoding="utf-8")
    assert '"event": "init"' in printed or '"event":"init"' in printed, printed[:300]
    # What the orphan had changed, exactly: the user's earlier edit of README.md is in the run's before tree, saved
    # in the data dir at the start, so it is not the run's (issue 23; broke: listed as "already changed before").
    assert crashed["outcome"]["packet"]["changes"]["files"] == ["src/new.py"]
    assert "before trees" in crashed["observation"]["changes"][0]["reasons"][0]
    assert (runs / f"{crashed['run_id']}.patch").read_text(encoding="utf-8").count("diff --git") == 1
    # The orphan was gone before the second agy started: its end was recorded before B's launch.
    finished = crashed["outcome"]["finished_at"]
    import datetime as dt

    finished_ts = dt.datetime.fromisoformat(finished.replace("Z", "+00:00")).timestamp()
    assert finished_ts <= second["start"] + 0.01


# --------------------------------------------------------------------------- 9. SIGTERM / SIGINT exit


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_signal_makes_an_idle_serve_exit(tmp_path, signum, process_path):
    if process_path == "windows" and signum == signal.SIGTERM:
        pytest.skip("Windows delivers no SIGTERM (a kill there is TerminateProcess); SIGINT stands for Ctrl-C/Ctrl-Break")
    # Broke: `serve` logged "signal 15: stopping" and stayed blocked on stdin.
    proc = _raw_relay(relay_env(tmp_path / "data", None))
    try:
        send(proc, {"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        proc.stdout.readline()  # serving, and idle: the stdin reader is blocked waiting for the next line
        await anyio.sleep(0.3)
        proc.send_signal(signum)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_sigterm_mid_run_stops_the_worker_records_cancelled_and_exits(tmp_path, repo, process_path):
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT}))
    proc = _raw_relay(relay_env(tmp_path / "data", agy))
    try:
        call_execute(proc, repo)
        await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
        with anyio.fail_after(60):  # the edit is made and the grandchild is logged (bound for a broken run only)
            while not ((repo / "src" / "new.py").exists() and launches(agy)[0].get("grandchild_pid")):
                await anyio.sleep(0.05)
        (run,) = launches(agy)
        assert_grouping(run, process_path)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        _kill_relay_then_its_fakes(proc, agy)
    assert _wait_gone(run["pid"], run["grandchild_pid"])
    (record,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "data" / "runs").glob("r*.json")]
    assert record["state"] == "finished" and record["outcome"]["status"] == "CANCELLED"
    assert [c["path"] for c in record["observation"]["changes"]] == ["src/new.py"]


async def test_sigint_then_sigterm_mid_run_still_records_cancelled(tmp_path, repo, process_path):
    # Claude Code 2.1.332, leaving with a run in flight ("Exit and stop tasks"), sends SIGINT, then SIGTERM.
    # Broke: the first signal closed the relay's signal receiver, so the second one killed it mid-cleanup: the
    # worker was stopped but the record stayed "running" (found by tests/realclients, the interactive exit).
    if process_path == "windows":
        pytest.skip("Windows delivers no SIGTERM (a kill there is TerminateProcess)")
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT}))
    proc = _raw_relay(relay_env(tmp_path / "data", agy))
    try:
        call_execute(proc, repo)
        await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
        with anyio.fail_after(60):
            while not launches(agy)[0].get("grandchild_pid"):
                await anyio.sleep(0.05)
        (run,) = launches(agy)
        proc.send_signal(signal.SIGINT)
        await anyio.sleep(0.05)  # the relay is stopping when the second signal comes
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        _kill_relay_then_its_fakes(proc, agy)
    assert _wait_gone(run["pid"], run["grandchild_pid"])
    (record,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "data" / "runs").glob("r*.json")]
    assert record["state"] == "finished" and record["outcome"]["status"] == "CANCELLED"


async def test_a_client_leaving_does_not_wait_out_the_kill_grace_of_a_worker_that_ignores_sigterm(tmp_path, repo,
                                                                                                   process_path):
    # Claude Code 2.1.332 closing a stdio server: SIGINT, 100 ms later SIGTERM, 400 ms later SIGKILL. The relay must be
    # gone by then with its worker gone and its record finished. Broke: the stop waited out GRAVITY_RELAY_KILL_GRACE_SECONDS
    # (3 s by default; 60 here) for a worker that ignores SIGTERM (agy waiting for a pasted sign-in code does), so
    # the client's SIGKILL came first: the worker ran on and the record stayed "running". Party: a worker deaf to
    # SIGTERM, as the relay leaves. Only the order is asserted (bench/bench_shutdown.py has the times).
    if process_path == "windows":
        pytest.skip("Windows delivers no SIGTERM (a kill there is TerminateProcess)")
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT,
                                                        "ignore_sigterm": True}))
    proc = _raw_relay(relay_env(tmp_path / "data", agy, GRAVITY_RELAY_KILL_GRACE_SECONDS="60"))
    try:
        call_execute(proc, repo)
        await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1))
        with anyio.fail_after(60):
            while not ((repo / "src" / "new.py").exists() and launches(agy)[0].get("grandchild_pid")):
                await anyio.sleep(0.05)
        (run,) = launches(agy)
        proc.send_signal(signal.SIGINT)
        await anyio.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        code = await anyio.to_thread.run_sync(lambda: proc.wait(timeout=30))  # < the 60 s grace it must not wait out
        # At the relay's exit, in this order before it: the worker and its grandchild gone, the record finished.
        left = [pid for pid in (run["pid"], run["grandchild_pid"]) if pid_alive(pid)]
        (record,) = [json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "data" / "runs").glob("r*.json")]
    finally:
        _kill_relay_then_its_fakes(proc, agy)
    assert code == 0 and left == []
    assert record["state"] == "finished" and record["outcome"]["status"] == "CANCELLED", record["outcome"]
    assert [c["path"] for c in record["observation"]["changes"]] == ["src/new.py"]


# --------------------------------------------------------------------------- 12. every path finishes its record


@pytest.mark.parametrize("field", ["task", "model", "constraints"])
async def test_nul_byte_in_an_argument_is_refused_naming_the_field_and_recorded(tmp_path, repo, field):
    # Broke: an opaque "ExceptionGroup ... TaskGroup" error, no run_id, and a record stuck "running".
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT, report=REPORT))
    args = {"task": "t", "workspace": str(repo)}
    args[field] = ["a\0b"] if field == "constraints" else "a\0b"
    async with Client(create_server(settings_for(tmp_path, agy))) as client:
        packet = payload(await client.call_tool("antigravity_execute", args))
    assert packet["status"] == "INVALID_INPUT" and field in packet["error"]["message"], packet
    record = json.loads((tmp_path / "data" / "runs" / f"{packet['run_id']}.json").read_text(encoding="utf-8"))
    assert record["state"] == "finished" and record["outcome"]["status"] == "INVALID_INPUT"
    assert launches(agy) == []


@pytest.fixture
def tiny_disk(tmp_path: Path):
    """A 1 MiB tmpfs: a real full disk (needs root and mount; skipped elsewhere)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


async def test_full_disk_while_the_transcript_is_written_answers_with_run_id_and_the_workers_edits(tmp_path, repo, tiny_disk):
    # Broke: ExceptionGroup with no run_id; the record stayed "running"; the worker's edits were reported nowhere.
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "report": REPORT,
                                                       "flood": {"bytes": 3 << 20, "line_bytes": 300}}))
    from relay.core.settings import load_settings

    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tiny_disk / "data"), "AGY_BIN": str(agy)})
    # The repository was made just now: on the full disk git's look may fail, and the files it then lists by their
    # change time would include the fixture's own within the look's clock slack (a CI run listed src/app.py, README.md).
    from relay.observe.snapshot import CLOCK_SLACK_NS
    time.sleep(2 * CLOCK_SLACK_NS / 1e9)
    async with Client(create_server(settings)) as client:
        with anyio.fail_after(60):
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["run_id"] and packet["changes"]["files"] == ["src/new.py"], packet
    assert any("transcript" in f and "No space left" in f for f in packet["flags"]), packet["flags"]
    record = json.loads((tiny_disk / "data" / "runs" / f"{packet['run_id']}.json").read_text(encoding="utf-8"))
    assert record["state"] == "finished" and record["outcome"]["status"] == packet["status"]


# --------------------------------------------------------------------------- 3. bounded output


async def test_flooding_worker_gets_a_bounded_transcript_with_head_tail_and_the_cut_said(tmp_path, repo):
    # Broke: 400 MB of chatter gave a 400 MB transcript and ~1 GB of relay memory.
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "report": REPORT,
                                                       "flood": {"bytes": 8 << 20, "line_bytes": 500, "kind": "json"}}))
    settings = settings_for(tmp_path, agy, GRAVITY_RELAY_TRANSCRIPT_MAX_MB="1")
    async with Client(create_server(settings)) as client:
        with anyio.fail_after(120):
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    transcript = tmp_path / "data" / "runs" / f"{packet['run_id']}.ndjson"
    data = transcript.read_bytes()
    assert len(data) <= (1 << 20) + 4096
    assert data.startswith(b'{"event":"init"')  # the head is kept
    assert b'"event":"result"' in data[-200_000:]  # and the tail, where the result is
    assert b'"gravity_relay": "transcript cut"' in data
    assert any("cut" in f for f in packet["flags"]), packet["flags"]


async def test_a_huge_line_without_newline_is_skipped_not_buffered_and_the_answer_still_comes(tmp_path, repo):
    # Broke: a 60-300 MB line without a newline cost minutes of CPU (re-joined with every chunk).
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "report": REPORT,
                                                       "flood": {"bytes": 60 << 20, "line_bytes": 0}}))
    async with Client(create_server(settings_for(tmp_path, agy))) as client:
        with anyio.fail_after(120):
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    assert any("skipped" in f for f in packet["flags"]), packet["flags"]
    assert (tmp_path / "data" / "runs" / f"{packet['run_id']}.ndjson").stat().st_size <= 20 * (1 << 20) + 4096


async def test_an_unreadable_active_record_does_not_fail_the_next_run(tmp_path, repo):
    # Broke (while fixing 7): the orphan check before each worker read every active record and let a
    # directory where a record should be fail the new run with MCP_ERROR.
    from relay.doors.mcp_server import create_server

    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT, report=REPORT))
    runs = tmp_path / "data" / "runs"
    (runs / "active").mkdir(parents=True)
    (runs / "r20261130T100000-000000bb.json").mkdir()
    (runs / "active" / "r20261130T100000-000000bb").touch()
    async with Client(create_server(settings_for(tmp_path, agy))) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet


def test_cleanup_removes_an_old_run_whose_relay_pid_was_reused(tmp_path):
    # Broke: the record stayed "running" (its pid was alive) and cleanup never removed it.
    reused = sleeper()
    try:
        runs = tmp_path / "data" / "runs"
        path = write_running_record(runs, "r20200101T000000-00000011", relay_pid=reused.pid,
                                    relay_stamp=stamp(reused.pid, start="psutil:1.000"))
        done = subprocess.run(relay_command()[:-1] + ["cleanup", "--max-age-days", "30"], capture_output=True, text=True,
                              env={**os.environ, **relay_env(tmp_path / "data", None)}, timeout=60, encoding="utf-8")
        assert done.returncode == 0, done.stderr
        assert not path.exists(), done.stdout + done.stderr
        assert reused.poll() is None
    finally:
        reused.kill()


def test_recovery_lists_a_staged_rename_and_a_commit_since_the_run_started_from_real_git(repo):
    # Both of recovery's git answers go through observe.git.z_records: porcelain v1 (a rename's old path in the
    # record after it) and --name-status (each code followed by its path).
    from relay.runs.crashed import git_visible_changes

    start = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "mv", "README.md", "GUIDE.md")
    (repo / "src" / "app.py").write_text("def main():\n    return 2\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "worker's commit")
    git(repo, "mv", "src/app.py", "src/main.py")
    (repo / "new file.txt").write_text("x\n", encoding="utf-8")
    changes, problem = git_visible_changes(str(repo), before_head=start)
    assert problem is None
    kinds = {c.path: (c.kind, c.old_path) for c in changes}
    assert kinds["src/main.py"] == ("renamed", "src/app.py")  # staged: from git status
    assert kinds["new file.txt"] == ("added", None)
    assert kinds["GUIDE.md"] == ("added", None) and kinds["README.md"] == ("deleted", None)  # committed: from git diff


async def test_a_relay_killed_mid_run_leaves_a_run_that_diffs_and_reverts_exactly_after_a_restart(tmp_path, repo):
    # Issue 23. Broke: the pre-run snapshot lived only in the relay's memory, so a relay SIGKILLed mid-run left a
    # run whose `runs diff` said "no patch" and whose change list counted a file the user had edited before.
    from relay.runs.patches import revert_run
    from relay.call.recovery import recover_interrupted
    from relay.runs.store import RunStore

    edits = [{"op": "append", "path": "README.md", "content": "worker line\n"},
             {"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": edits}))
    readme = (repo / "README.md").read_text(encoding="utf-8") + "the user's line, before the run\n"
    (repo / "README.md").write_text(readme, encoding="utf-8")
    (repo / "notes.txt").write_text("the user's untracked notes\n", encoding="utf-8")
    tracked = {p: (repo / p).read_bytes() for p in ("README.md", "notes.txt", "src/app.py")}
    a = _raw_relay(relay_env(tmp_path / "data", agy))
    try:
        call_execute(a, repo)
        wait_for_launches(agy, 1)
        with anyio.fail_after(60):  # a bound for a broken run only
            while not ((repo / "src" / "new.py").exists() and "worker line" in (repo / "README.md").read_text(encoding="utf-8")):
                await anyio.sleep(0.05)
        _kill_with_its_watchers(a)
    finally:
        if a.poll() is None:
            a.kill()
    store = RunStore(tmp_path / "data" / "runs")
    (run_id,) = recover_interrupted(store)  # what a restarted relay does first (the orphan agy is killed)
    record = store.read(run_id)
    assert [c.path for c in record.observation.changes] == ["README.md", "src/new.py"]
    patch = store.read_patch(run_id)
    assert patch is not None
    _, sections = split_patch(patch)
    assert [s.path for s in sections] == ["README.md", "src/new.py"]
    readme_lines = [line for h in sections[0].hunks for line in h.split(b"\n") if line[:1] in (b"+", b"-")]
    assert readme_lines == [b"+worker line"]  # only the worker's line: the user's is in the before tree
    assert b"notes.txt" not in patch
    result = revert_run(store, run_id)
    assert result.reverted
    assert {p: (repo / p).read_bytes() for p in tracked} == tracked  # byte for byte, the user's edits kept
    assert not (repo / "src" / "new.py").exists()


def _crash_mid_run(tmp_path: Path, repo: Path, agy: Path, done, *, profiles: str | None = None,
                   profile: str | None = None) -> None:
    """A relay started over stdio, its run begun, then SIGKILLed once ``done()`` says the worker's edits are on disk."""
    a = _raw_relay(relay_env(tmp_path / "data", agy, **({"GRAVITY_RELAY_PROFILES": profiles} if profiles else {})))
    try:
        send(a, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "antigravity_execute", "arguments": {"task": "t", "workspace": str(repo),
                                                         **({"profile": profile} if profile else {})}}})
        wait_for_launches(agy, 1)
        deadline = time.monotonic() + 60  # a bound for a broken run only
        while not done() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert done(), "the worker's edits never appeared"
        _kill_with_its_watchers(a)
    except BaseException:
        # The crash did not happen as planned, so no restarted relay will recover (and reap) the worker: do it here.
        _kill_relay_then_its_fakes(a, agy)
        kill_fakes(agy)
        raise
    finally:
        if a.poll() is None:
            a.kill()


SECRET_FILES = {"README.md": "# project\n", "src/app.py": "def main():\n    return 1\n",
                ".gitignore": ".env\n*.pem\n*.log\n", "certs/README": "certificates live here\n"}
SECRET_EDITS = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"},
                {"op": "write", "path": ".env", "content": "TOKEN=not-a-real-one\n"},
                {"op": "write", "path": "certs/server.pem", "content": "-----BEGIN PRIVATE KEY-----\n"},
                {"op": "write", "path": "build.log", "content": "build output\n"}]


async def test_a_crashed_runs_new_ignored_secrets_are_listed_after_recovery_as_a_live_run_lists_them(tmp_path):
    # Issue 23. Broke: recovery observed a crashed run without the rule that lists a new git-ignored secret, so the
    # record and packet of a worker that wrote .env and a .pem key (both ignored) named neither; a live run does.
    from conftest import make_repo, memory_relay
    from relay.runs.store import RunStore

    live_repo = make_repo(tmp_path / "live", SECRET_FILES)
    live_agy = install_fake_agy(tmp_path / "bin-live", success_scenario(SECRET_EDITS, report=REPORT))
    async with memory_relay(relay_env(tmp_path / "live-data", live_agy)) as client:
        live = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(live_repo)}))
    assert sorted(live["changes"]["files"]) == [".env", "certs/server.pem", "src/new.py"], live

    repo = make_repo(tmp_path / "project", SECRET_FILES)
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": SECRET_EDITS}))
    await anyio.to_thread.run_sync(_crash_mid_run, tmp_path, repo, agy, (repo / "build.log").exists)
    store = RunStore(tmp_path / "data" / "runs")
    async with memory_relay(relay_env(tmp_path / "data", agy)):
        pass  # a restarted relay recovers the dead one's run first (mcp_server.build_relay)
    assert not fakes_alive(agy), "the restart's recovery left the crashed run's worker running"
    (run_id,) = store.iter_ids()
    record = store.read(run_id)
    assert record.outcome.status.value == "INTERRUPTED"
    assert sorted(c.path for c in record.observation.changes) == sorted(live["changes"]["files"])
    assert sorted(record.outcome.packet.changes.files) == sorted(live["changes"]["files"])
    secrets = {c.path: c.reasons for c in record.observation.changes if c.path != "src/new.py"}
    assert all(any("secret" in r for r in reasons) for reasons in secrets.values()), secrets
    patch = store.read_patch(run_id)
    assert patch is not None and b"TOKEN=not-a-real-one" in patch and b"build output" not in patch


async def test_a_relay_killed_mid_worktree_run_leaves_a_run_that_diffs_applies_and_reverts_exactly(tmp_path, repo):
    # Issue 23, for isolation: after a restart, the crashed worktree run's diff is exactly the worker's change, apply
    # writes exactly that (from the trees kept at recovery), and revert after apply gives back the user's tree byte
    # for byte, their own edit and untracked file kept.
    from conftest import cli_main, memory_relay
    from relay.runs.store import RunStore
    from test_worktree import _tree

    (repo / "README.md").write_text("# project\nthe user's line, before the run\n", encoding="utf-8")
    (repo / "notes.txt").write_text("the user's untracked notes\n", encoding="utf-8")
    before = _tree(repo)
    edits = [{"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "content": "    return 2\n"},
             {"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": edits}))
    profiles = json.dumps({"iso": {"isolation": "worktree"}})
    pool = tmp_path / "data" / "worktrees"
    await anyio.to_thread.run_sync(lambda: _crash_mid_run(
        tmp_path, repo, agy, lambda: any(pool.glob("*/w*/src/new.py")), profiles=profiles, profile="iso"))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=profiles)
    async with memory_relay(env) as client:  # the restart: the dead relay's run is recovered first
        assert not fakes_alive(agy), "the restart's recovery left the crashed run's worker running"
        (run_id,) = RunStore(tmp_path / "data" / "runs").iter_ids()
        diff = await anyio.to_thread.run_sync(cli_main, ["runs", "diff", run_id], env)
        shown = [line.strip()[3:].split(" lines")[0] for line in diff.stdout.splitlines() if line.strip().startswith("## ")]
        assert shown == ["src/app.py", "src/new.py"] and "that is the whole change" in diff.stdout, diff.stdout
        assert "the user's line" not in diff.stdout and "notes" not in diff.stdout
        _, sections = split_patch(RunStore(tmp_path / "data" / "runs").read_patch(run_id) or b"")
        assert [s.path for s in sections] == ["src/app.py", "src/new.py"]
        assert _tree(repo) == before  # isolated: nothing reached the user's tree
        answer = await client.call_tool("antigravity_continue", {"run_id": run_id, "apply": True})
        applied = payload(answer)
    assert not answer.is_error and applied["changes"]["files"] == ["src/app.py", "src/new.py"], applied
    assert (repo / "src" / "app.py").read_text(encoding="utf-8") == "def main():\n    return 2\n"
    assert (repo / "README.md").read_text(encoding="utf-8") == "# project\nthe user's line, before the run\n"
    reverted = await anyio.to_thread.run_sync(cli_main, ["runs", "revert", run_id], env)
    assert reverted.returncode == 0, reverted.stdout + reverted.stderr
    assert _tree(repo) == before


async def test_a_crashed_worktree_run_whose_git_file_was_repointed_is_not_observed_at_recovery(tmp_path, repo):
    # Issue 22's guard, at recovery too: a worker that pointed its worktree's .git file at the user's git dir must
    # not have the relay's git run in that worktree (the live path refuses to observe it). Broke: recovery ran its
    # git commands there and listed what it saw as the run's change.
    from conftest import memory_relay
    from relay.runs.store import RunStore

    (repo / "notes.txt").write_text("the user's untracked notes\n", encoding="utf-8")
    index = (repo / ".git" / "index").read_bytes()
    edits = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"},
             {"op": "write", "path": ".git", "content": f"gitdir: {repo / '.git'}\n"}]
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "hang", "edits": edits}))
    profiles = json.dumps({"iso": {"isolation": "worktree"}})
    pool = tmp_path / "data" / "worktrees"

    def repointed() -> bool:
        # Its own .git file names <repo>/.git/worktrees/w0: only the worker's names the user's git dir itself.
        return any(p.read_text(encoding="utf-8").strip() == f"gitdir: {repo / '.git'}" for p in pool.glob("*/w*/.git") if p.is_file())

    await anyio.to_thread.run_sync(lambda: _crash_mid_run(tmp_path, repo, agy, repointed, profiles=profiles,
                                                          profile="iso"))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=profiles)
    store = RunStore(tmp_path / "data" / "runs")
    async with memory_relay(env) as client:  # the restart recovers the crashed run and reaps its worker
        assert not fakes_alive(agy), "the restart's recovery left the crashed run's worker running"
        (run_id,) = store.iter_ids()
        answer = await client.call_tool("antigravity_continue", {"run_id": run_id, "apply": True})
    record = store.read(run_id)
    assert record.outcome.status.value == "INTERRUPTED"
    assert record.observation.changes == [] and store.read_patch(run_id) is None, record.observation.changes
    assert "repointed its .git file" in record.outcome.error.message
    assert answer.is_error and not (repo / "src" / "new.py").exists()
    assert (repo / ".git" / "index").read_bytes() == index
