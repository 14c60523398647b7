"""The platform layer (relay/core/platform.py): the one module with POSIX-only calls; identity through psutil;
a worker found and stopped whole, with or without process groups; stop signals on the Windows path.

Real processes throughout. "The Windows path" is this machine with the POSIX group calls deleted from ``os``
(conftest.process_path), which is how the relay sees a Windows host.
"""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import anyio
import psutil
import pytest

from fake_agy_harness import pid_alive
from relay_sources import relay_files, walked
from relay.core import platform
from relay.core.contracts import ProcessStamp

RELAY = Path(__file__).resolve().parent.parent / "relay"

# What exists only on POSIX (or means "POSIX" in a call): not to be used outside the platform layer.
POSIX_ONLY_ATTRS = {
    "os": {"killpg", "getpgid", "getpgrp", "setsid", "setpgid", "setpgrp", "getsid", "geteuid", "getuid", "getegid",
           "getgid", "fork", "kill", "getppid", "chown", "fchown", "lchown", "getpwuid"},
    "signal": {"SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGINT",
               "SIGBREAK", "CTRL_BREAK_EVENT", "signal", "open_signal_receiver"},
    "anyio": {"open_signal_receiver"},
}
POSIX_ONLY_KEYWORDS = {"start_new_session", "process_group", "preexec_fn"}
POSIX_ONLY_MODULES = {"fcntl", "termios", "resource", "grp", "pwd", "pty"}


def _posix_only_uses(path: Path) -> list[str]:
    found = []
    for node in walked(path):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.attr in POSIX_ONLY_ATTRS.get(node.value.id, ()):
            found.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.keyword) and node.arg in POSIX_ONLY_KEYWORDS:
            found.append(f"{node.arg}= (line {node.value.lineno})")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"import {n} (line {node.lineno})" for n in names if n.split(".")[0] in POSIX_ONLY_MODULES]
            if isinstance(node, ast.ImportFrom) and node.module in ("os", "signal"):
                found += [f"from {node.module} import {a.name} (line {node.lineno})" for a in node.names
                          if a.name in POSIX_ONLY_ATTRS[node.module]]
    return found


# The platform layer: platform.py, and the Linux subreaper's own program (run only where it can work).
PLATFORM_LAYER = {RELAY / "core" / "platform.py", RELAY / "core" / "reaper_shim.py"}


def test_posix_only_calls_live_in_the_platform_layer_alone():
    # Broke: os.killpg / os.getpgrp in core/process.py, os.killpg + signal.SIGKILL in runs/recovery.py,
    # os.geteuid in call/confirm.py, start_new_session in four places, SIGHUP in three doors.
    wrong = {str(p.relative_to(RELAY)): uses for p in relay_files()
             if p not in PLATFORM_LAYER and (uses := _posix_only_uses(p))}
    assert wrong == {}, wrong
    for path in PLATFORM_LAYER:
        assert _posix_only_uses(path)  # the check itself sees them where they are


# --------------------------------------------------------------------------- identity


def test_identity_of_a_live_process_a_dead_one_and_a_reused_pid():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        stamp = platform.stamp_of(proc.pid)
        assert stamp is not None and stamp.start.startswith("psutil:") and stamp.boot_id.startswith("boot:")
        assert platform.check(stamp) is platform.Identity.SAME
        created = float(stamp.start.split(":", 1)[1])
        # The same pid started a minute earlier: another process that had it before.
        reused = ProcessStamp(pid=proc.pid, start=f"psutil:{created - 60:.3f}", boot_id=stamp.boot_id)
        assert platform.check(reused) is platform.Identity.OTHER
        assert platform.owner_alive(proc.pid, reused) is False
        # An older relay's stamp (/proc ticks): not comparable, so never "other" — and never killed.
        old = ProcessStamp(pid=proc.pid, start="linux:12345", boot_id="8c1f")
        assert platform.check(old) is platform.Identity.UNKNOWN
        assert platform.owner_alive(proc.pid, old) is True
        assert platform.check(None, proc.pid) is platform.Identity.UNKNOWN
    finally:
        proc.kill()
        proc.wait()
    assert platform.check(stamp) is platform.Identity.GONE
    assert platform.owner_alive(proc.pid, stamp) is False


def test_a_wall_clock_step_reads_as_unknown_not_as_another_process(monkeypatch):
    # Linux derives create times from the boot time: after a clock step both move by the same amount.
    # That is not proof of another process (nor of the same one): on doubt, nothing is killed or finished.
    stamp = platform.own_stamp()
    real_boot = psutil.boot_time()
    real_create = psutil.Process().create_time()
    monkeypatch.setattr(psutil, "boot_time", lambda: real_boot + 3600)
    monkeypatch.setattr(psutil.Process, "create_time", lambda self: real_create + 3600)
    assert platform.check(stamp) is platform.Identity.UNKNOWN
    assert platform.owner_alive(stamp.pid, stamp) is True


def _until_env_readable(proc: subprocess.Popen, key: str = "GRAVITY_RELAY_WORKER_RUN") -> None:
    """Right after exec a process's environment reads as empty for a moment (on Linux): wait it out."""
    deadline = time.monotonic() + 10
    while key not in psutil.Process(proc.pid).environ() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_worker_marker_that_differs_makes_it_another_process():
    env = {**os.environ, "GRAVITY_RELAY_WORKER_RUN": "r-other"}
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)
    try:
        _until_env_readable(proc)
        assert platform.check(platform.stamp_of(proc.pid, marker="r-other")) is platform.Identity.SAME
        assert platform.check(platform.stamp_of(proc.pid, marker="r-mine")) is platform.Identity.OTHER
    finally:
        proc.kill()
        proc.wait()


def test_started_after_tells_a_process_younger_than_a_file():
    assert platform.started_after(os.getpid(), time.time() - 3600) is True
    assert platform.started_after(os.getpid(), time.time() + 60) is False
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    assert platform.started_after(dead.pid, 0) is None


def test_owned_by_someone_else_has_no_uid_to_compare_on_windows(tmp_path, monkeypatch):
    st = os.stat(tmp_path)
    assert platform.owned_by_someone_else(st) is False
    fake = os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid + 1, st.st_gid, 0, 0, 0, 0))
    assert platform.owned_by_someone_else(fake) is True
    monkeypatch.delattr(os, "geteuid")  # Windows: no uid; the profile's ACL protects the data dir
    assert platform.owned_by_someone_else(fake) is False


# --------------------------------------------------------------------------- a worker, stopped whole

# A worker that starts a grandchild in a session of its own (out of the worker's group), prints both pids,
# then (with "exit") leaves it orphaned. Only the tree (while the worker lives) or the token finds it then.
_WORKER = """
import subprocess, sys, time
g = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
print(g.pid, flush=True)
if sys.argv[1] == "exit":
    sys.exit(0)
time.sleep(120)
"""


async def _start(mode: str) -> tuple:
    from relay.core.process import spawned

    cm = spawned([sys.executable, "-c", _WORKER, mode])
    proc = await cm.__aenter__()
    line = b""
    while not line.endswith(b"\n"):
        line += await proc.stdout.receive(64)
    return cm, proc, int(line)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["stay", "exit"])
async def test_spawned_stops_the_worker_and_a_grandchild_outside_its_group(mode, process_path):
    # Broke on the Windows path: "AttributeError: module 'os' has no attribute 'getpgrp'" at the first spawn;
    # and a grandchild outside the group (a daemon agy starts) survived on POSIX too.
    from relay.core.process import worker_of

    cm, proc, grandchild = await _start(mode)
    if mode == "exit":
        # The worker is gone; its grandchild lives on, re-parented (on Linux to the spawn's subreaper, which
        # stops it once the worker has ended: tests/test_leftovers.py; elsewhere to init, found by its token).
        leader = worker_of(proc).leader
        while pid_alive(leader):
            await anyio.sleep(0.02)
    else:
        assert pid_alive(grandchild)
    await cm.__aexit__(None, None, None)
    deadline = time.monotonic() + 10
    while pid_alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(grandchild), "the grandchild outlived the stop"


def _marked(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter():
        try:
            if marker in " ".join(proc.cmdline()) and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            continue
    return found


@pytest.mark.anyio
@pytest.mark.process  # seconds of waiting: the process tier
async def test_a_spawn_cancelled_while_it_starts_leaves_no_process(process_path):
    # Broke (flaked under load, test_process_faults' SIGINT then SIGTERM mid-run): a relay's first signal came while
    # asyncio was still waiting for a new worker's pipes; asyncio then killed the child it had started (the
    # subreaper) and the program, in a session of its own, ran on with its grandchild, stopped by nobody. A scope
    # cancelled before the spawn cancels it at that very wait. Party: the cancellation, racing the spawn.
    from relay.core.process import spawned

    marker = f"spawn-cancelled-{uuid.uuid4().hex}"
    code = f"import time; time.sleep(120)  # {marker}"

    async def cancel_mid_spawn(scope: anyio.CancelScope) -> None:
        # The spawn's own checkpoint; then asyncio starts the child and waits for its pipes, here in a loop held up
        # for a second as on a loaded machine (the subreaper starts the program meanwhile): the cancel lands there.
        await anyio.lowlevel.checkpoint()
        time.sleep(1.0)
        scope.cancel()

    async with anyio.create_task_group() as tg:
        with anyio.CancelScope() as scope:
            tg.start_soon(cancel_mid_spawn, scope)
            async with spawned([sys.executable, "-c", code]):
                await anyio.sleep(30)  # never reached uncancelled
    left: list[psutil.Process] = []
    deadline = time.monotonic() + 3  # the program may still be starting: looked for a while, not once
    while time.monotonic() < deadline:
        left = _marked(marker)
        time.sleep(0.2)
    for proc in left:
        proc.kill()
    assert left == [], f"the cancelled spawn's program survived: {[p.pid for p in left]}"


def _orphan_with_marker(run_id: str) -> subprocess.Popen:
    env = {**os.environ, "GRAVITY_RELAY_WORKER_RUN": run_id}
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], env=env, start_new_session=True)
    _until_env_readable(proc)
    return proc


def test_verify_worker_finds_a_runs_orphan_by_its_marker_and_kills_only_it(process_path):
    # The leader is long gone (its pid names nothing, or someone else); what carries the run's marker is its.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    # Markers of this test run alone: a marker is looked for machine-wide, and the two variants run side by side.
    mine, theirs = f"r-ours-{uuid.uuid4().hex}", f"r-other-{uuid.uuid4().hex}"
    ours, other = _orphan_with_marker(mine), _orphan_with_marker(theirs)
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        verdict, worker = platform.verify_worker(dead.pid, None, mine)
        assert verdict is platform.Identity.SAME and worker is not None
        assert platform.kill_worker_now(worker, wait=5)
        assert ours.wait(timeout=5) == -signal.SIGKILL
        assert other.poll() is None and stranger.poll() is None
        # A live stranger with the recorded pid and no stamp: cannot be told, so it is left alone.
        assert platform.verify_worker(stranger.pid, None, "r-gone") == (platform.Identity.UNKNOWN, None)
        assert platform.verify_worker(dead.pid, None, "r-gone") == (platform.Identity.GONE, None)
        wrong = ProcessStamp(pid=stranger.pid, start="psutil:1.000", boot_id=platform.own_stamp().boot_id)
        assert platform.verify_worker(stranger.pid, wrong, "r-gone")[0] is platform.Identity.OTHER
        assert stranger.poll() is None
    finally:
        for proc in (ours, other, stranger):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_spawn_options_follow_the_platform(monkeypatch):
    assert platform.spawn_options() == {"start_new_session": True}
    monkeypatch.delattr(os, "setsid")
    assert platform.spawn_options() == {}
    monkeypatch.setattr(sys, "platform", "win32")
    assert platform.spawn_options() == {"creationflags": 0x200}  # CREATE_NEW_PROCESS_GROUP: Ctrl-Break reaches it


# --------------------------------------------------------------------------- stop signals


def test_stop_signals_on_the_windows_path_come_through_signal_handlers(process_path):
    got = []

    async def main() -> None:
        with platform.stop_signals() as received:
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C is; on Windows SIGBREAK (Ctrl-Break) too
            with anyio.fail_after(5):
                async for num in received:
                    got.append(num)
                    break

    # Ignored before, as in a job a shell starts in the background (`&`, nohup) and in some xdist workers: on the
    # POSIX path asyncio put SIGINT back to Python's default handler instead, so this failed by worker.
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        anyio.run(main)
        assert got == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # put back as it was
    finally:
        signal.signal(signal.SIGINT, before)


def test_stop_signal_numbers_include_ctrl_break_where_it_exists(monkeypatch):
    monkeypatch.delattr(signal, "SIGHUP")
    monkeypatch.setattr(signal, "SIGBREAK", 21, raising=False)
    assert platform.stop_signal_numbers() == [signal.SIGTERM, signal.SIGINT, 21]


def test_the_ci_workflow_runs_the_readmes_test_command_on_linux_macos_and_windows():
    root = RELAY.parent
    workflow = (root / ".github" / "workflows" / "test.yml").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = readme.split("## Run the tests", 1)[1].split("```bash", 1)[1].split("```", 1)[0].strip()
    assert command == "python -m pytest"
    assert "os: [ubuntu-latest, macos-latest, windows-latest]" in workflow
    assert f"run: {command} -rs" in workflow  # -rs: each skipped test's reason in the log
    assert f"run: {command} -rs --tier process" in workflow  # and the process tier (tests/conftest.PROCESS_TIER)
