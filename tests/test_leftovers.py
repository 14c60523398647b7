"""What a worker leaves behind (issue 34 §2): nothing it started outlives its run.

The party guarded against is the worker (or the repository's code it runs): a daemon started with a double
fork, ``setsid`` and an empty environment (``env -i``) has no group, no parent and no token of the relay's,
and would go on writing into the workspace after the relay's look. On Linux every spawn runs under a
per-spawn subreaper (relay/core/reaper.py), so such an orphan is re-parented to it and stopped at the run's
end, on cancel and on timeout — and only that spawn's: another spawn's daemon, the host process's own
children and git are left alone. macOS has no subreaper (see reaper.py); Windows holds them in a Job Object
(tests/test_job_object.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import failure_scenario, install_fake_agy, launches, pid_alive, scenario, wait_for_launches
from relay.core import reaper

pytestmark = pytest.mark.anyio
needs_subreaper = pytest.mark.skipif(not reaper.available(), reason="needs a Linux subreaper (PR_SET_CHILD_SUBREAPER)")

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
DAEMON = {"path": "leak.log", "every": 0.05, "life": 60}


def _daemon_pids(log: Path) -> set[int]:
    try:
        return {int(line.split()[0]) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()}
    except FileNotFoundError:
        return set()


async def _until(condition, seconds: float = 20.0) -> None:
    with anyio.fail_after(seconds):
        while not condition():
            await anyio.sleep(0.05)


def _gone(pids: set[int], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while any(pid_alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _assert_nothing_left(log: Path) -> None:
    pids = _daemon_pids(log)
    assert pids, "the daemon never wrote: the scenario did not run"
    try:
        assert _gone(pids), f"the worker's daemon {pids} outlived the run"
        size = log.stat().st_size
        time.sleep(0.3)  # six of its periods: a live daemon would have written
        assert log.stat().st_size == size, "something still writes into the workspace after the run"
    finally:
        for pid in pids:
            if pid_alive(pid):
                os.kill(pid, 9)


@needs_subreaper
async def test_a_daemon_the_worker_started_is_stopped_when_the_run_ends_normally(tmp_path, repo):
    # Broke (main): the run answered SUCCESS and the daemon went on appending to leak.log for its whole life.
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "daemon": DAEMON}))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] in ("SUCCESS", "INVALID_REPORT"), packet
    _assert_nothing_left(repo / "leak.log")


@needs_subreaper
async def test_a_daemon_the_worker_started_is_stopped_by_a_cancel(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=EDIT, daemon=DAEMON))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0.2}))
        assert running["status"] == "RUNNING", running
        await _until(lambda: _daemon_pids(repo / "leak.log"))
        packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))
    assert packet["status"] == "CANCELLED", packet
    _assert_nothing_left(repo / "leak.log")


@needs_subreaper
async def test_a_daemon_the_worker_started_is_stopped_at_the_timeout(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=EDIT, daemon=DAEMON))
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS="1", GRAVITY_RELAY_KILL_GRACE_SECONDS="0.5")
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute",
                                                {"task": "t", "workspace": str(repo), "timeout_minutes": 0.02}))
    assert packet["status"] == "EXECUTION_TIMEOUT", packet
    _assert_nothing_left(repo / "leak.log")


# A program that starts the same daemon (double fork, setsid, empty environment) writing into ``sys.argv[1]``,
# then lives on for ``sys.argv[2]`` seconds itself.
_DAEMONIZE = r"""
import os, sys, time
log, stay = sys.argv[1], float(sys.argv[2])
code = ("import os, time\n"
        "for _ in range(1200):\n"
        f"    open({log!r}, 'a').write(f'{{os.getpid()}} {{time.time()}}\\n')\n"
        "    time.sleep(0.05)\n")
middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve(sys.executable, [sys.executable, "-I", "-S", "-c", code], {})
    os._exit(0)
os.waitpid(middle, 0)
deadline = time.monotonic() + 30
while not os.path.exists(log) and time.monotonic() < deadline:  # the daemon is running for sure
    time.sleep(0.01)
time.sleep(stay)
"""


@needs_subreaper
async def test_only_the_ending_spawns_daemon_is_stopped_not_another_runs_nor_the_hosts_children(tmp_path):
    # Two spawns live at once in one relay process (the HTTP relay serving two sessions: one runs agy, the other
    # a verify command); the host process (here pytest) has a child of its own. When the first spawn ends, its
    # daemon is stopped; the second spawn's daemon and the host's child are not, until the second one ends.
    from relay.core.process import spawned

    host_child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    try:
        async with spawned([sys.executable, "-c", _DAEMONIZE, str(second_log), "60"]) as second:
            async with spawned([sys.executable, "-c", _DAEMONIZE, str(first_log), "0"]) as first:
                await _until(lambda: _daemon_pids(first_log) and _daemon_pids(second_log))
                await first.wait()
            first_daemon, second_daemon = _daemon_pids(first_log), _daemon_pids(second_log)
            assert _gone(first_daemon), "the first spawn's daemon outlived it"
            assert all(pid_alive(p) for p in second_daemon), "the other spawn's daemon was stopped with the first"
            assert host_child.poll() is None, "the host's own child was stopped"
            second.terminate()
        assert _gone(second_daemon), "the second spawn's daemon outlived it"
        assert host_child.poll() is None
    finally:
        host_child.kill()
        host_child.wait()
        for pid in _daemon_pids(first_log) | _daemon_pids(second_log):
            if pid_alive(pid):
                os.kill(pid, 9)


@needs_subreaper
async def test_the_worker_still_leads_its_group_and_its_exit_status_comes_through(tmp_path, repo):
    # The subreaper sits between the relay and agy: agy still leads its own group (the record's pgid is agy's pid),
    # and agy's exit code, or the signal that killed it, reaches the relay as if agy were its child.
    from relay.core.process import spawned, worker_of

    agy = install_fake_agy(tmp_path / "bin", failure_scenario("crash"))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)})
    (run,) = launches(agy)
    assert run["pgid"] == run["pid"] and run["sid"] == run["pid"], run
    assert run["ppid"] != os.getpid()  # its parent is the subreaper, not the relay
    for code, expect in (("raise SystemExit(7)", 7), ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", -9)):
        async with spawned([sys.executable, "-c", code]) as proc:
            assert worker_of(proc).leader != proc.pid
            assert await proc.wait() == expect
    with pytest.raises(OSError):
        async with spawned([str(tmp_path / "no-such-program")]):
            pass
    wait_for_launches(agy, 1)


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell alias")
def test_a_git_timeout_stops_what_git_started_too(tmp_path, repo):
    # Broke: the timer killed git alone; the shell git had started (and its sleep) held git's stdout, so the
    # call waited the sleep out (30 s, not the 1 s timeout) and the sleep outlived it.
    from relay.observe.git import GitError, run_git

    pid_file = tmp_path / "pid"
    alias = f"!echo $$ > {pid_file}; sleep 30; :"
    started = time.monotonic()
    with pytest.raises(GitError, match="took longer than 1s"):
        run_git(repo, "hang", config=[("alias.hang", alias)], timeout=1.0)
    assert time.monotonic() - started < 10
    shell = int(pid_file.read_text(encoding="utf-8"))
    assert _gone({shell}, 5), "the shell git started outlived the timeout"


# --------------------------------------------------------------------------- issue 37 M1: no environ() to read


@pytest.fixture
def like_macos(monkeypatch):
    """What a relay sees on recent macOS: no other process's environment (psutil raises AccessDenied; the
    token finds nothing), and no subreaper. The process group is what is left to find a worker's helpers."""
    import psutil

    def denied(self):
        raise psutil.AccessDenied(self.pid)

    monkeypatch.setattr(psutil.Process, "environ", denied)
    monkeypatch.setattr(reaper, "available", lambda: False)


@pytest.mark.skipif(sys.platform == "win32", reason="process groups")
async def test_with_every_environ_read_denied_a_cancel_stops_the_worker_and_its_grandchild(tmp_path, repo, like_macos):
    agy = install_fake_agy(tmp_path / "bin", failure_scenario("hang", edits=EDIT, grandchild=True))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        running = payload(await client.call_tool("antigravity_execute",
                                                 {"task": "t", "workspace": str(repo), "wait_seconds": 0.2}))
        await _until(lambda: launches(agy) and launches(agy)[0]["grandchild_pid"])
        (run,) = launches(agy)
        assert run["ppid"] == os.getpid()  # no subreaper in between, as on macOS
        packet = payload(await client.call_tool("antigravity_cancel", {"run_id": running["run_id"]}))
    assert packet["status"] == "CANCELLED", packet
    assert _gone({run["pid"], run["grandchild_pid"]}), "worker or grandchild survived the cancel"


@pytest.mark.skipif(sys.platform == "win32", reason="process groups")
async def test_with_every_environ_read_denied_a_grandchild_left_by_an_ended_agy_is_stopped(tmp_path, repo, like_macos):
    # agy has exited (and been reaped: its pid proves nothing any more) and left its grandchild in its group.
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "grandchild": True}))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)})
    (run,) = launches(agy)
    assert run["grandchild_pid"] and _gone({run["pid"], run["grandchild_pid"]}), "the grandchild outlived the run"


@needs_subreaper
def test_a_daemon_agy_version_leaves_is_stopped_when_the_probe_ends(tmp_path):
    # Broke: `agy --version` was spawned with a bare Popen (own group and token, no subreaper): a helper it left
    # with a double fork, setsid and `env -i` outlived the probe (serve's start-up, every run, doctor).
    from relay.agy.command import read_version

    log = tmp_path / "version-leak.log"
    agy = install_fake_agy(tmp_path / "bin", scenario({}, version_daemon={"path": str(log), "every": 0.05, "life": 60}))
    answer = read_version(str(agy), timeout=20.0)
    assert answer.version == (1, 2, 17), answer
    _assert_nothing_left(log)


@needs_subreaper
def test_the_subreaper_starts_from_its_cached_bytecode_without_importing_ctypes():
    # Paid on every spawn (~1,000 a suite run, each agy launch and probe of a user's): a shim run as a script was
    # compiled on each start, and `import ctypes` built ctypes' Python half for one prctl call. Both were half of
    # what the shim added to the interpreter's start-up. The shim must still hold orphans: prctl answered 0.
    held = reaper.wrap(["/bin/true"])
    argv = [*held.argv[:3], "-X", "importtime", *held.argv[3:]]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, **held.options)
    try:
        held.started()
        answer = reaper._read_all(held.read_fd).decode()  # "ok <pid> <1: prctl made it the subreaper>"
    finally:
        held.abandon()
        _, err = proc.communicate(timeout=30)
    assert answer.startswith("ok ") and answer.endswith(" 1") and proc.returncode == 0, (answer, err)
    imported = {line.rsplit("|", 1)[-1].strip() for line in err.decode().splitlines() if line.startswith("import time:")}
    assert "reaper_shim" in imported and "ctypes" not in imported, sorted(imported)


@needs_subreaper
@pytest.mark.parametrize("kernel_list", [True, False], ids=["proc-children", "proc-scan"])
def test_the_subreapers_sweep_finds_its_live_children_and_only_them(monkeypatch, kernel_list):
    # The sweep's list of what is left: from the kernel's list of this process's children where it keeps one,
    # else a scan of every process; each candidate checked to be ours and not a zombie either way.
    import relay.core.reaper_shim as shim

    if not kernel_list:
        real_listdir = os.listdir

        def no_task_list(path):
            if str(path).startswith("/proc/self/task"):
                raise FileNotFoundError(path)
            return real_listdir(path)

        monkeypatch.setattr(shim.os, "listdir", no_task_list)
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead = subprocess.Popen(["/bin/true"])
    try:
        _until_sync(lambda: _state(dead.pid) == "Z")
        found = shim._children()
        assert live.pid in found and dead.pid not in found, found
        assert os.getpid() not in found and os.getppid() not in found
    finally:
        live.kill()
        live.wait()
        dead.wait()


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return ""
    return stat[stat.rindex(b")") + 2:].split()[0].decode()


def _until_sync(condition, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.01)


@needs_subreaper
def test_a_spawned_program_holds_neither_end_of_the_relays_lifeline_and_a_forked_copy_makes_its_own():
    # The lifeline ends only when no process holds its write end: a program holding it (inherited through the shim)
    # would keep its own relay's death unseen, and a forked copy of the relay that kept its parent's would keep the
    # parent's death unseen while it lives. Party: the worker, and a fork of the relay (a library's, a test runner's).
    life = reaper.lifeline()
    ends = {f"pipe:[{os.fstat(life).st_ino}]"}
    held = reaper.wrap([sys.executable, "-S", "-c",
                        "import os; print('\\n'.join(os.readlink(f'/proc/self/fd/{fd}') for fd in os.listdir('/proc/self/fd')"
                        " if os.path.exists(f'/proc/self/fd/{fd}')))"])
    proc = subprocess.Popen(held.argv, stdout=subprocess.PIPE, **held.options)
    try:
        held.leader_now()
    finally:
        held.abandon()
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and out, out
    assert not ends & set(out.decode().split()), out.decode()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the copy: its lifeline is a new pipe, and the parent's ends are closed in it
        try:
            copy = reaper.lifeline()
            inherited = [fd for fd in os.listdir("/proc/self/fd") if os.path.exists(f"/proc/self/fd/{fd}")
                         and os.readlink(f"/proc/self/fd/{fd}") in ends]
            os.write(write, f"{int(copy != life or not inherited)} {len(inherited)}".encode())
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(child, 0)
    assert answer == "1 0", answer  # its own lifeline, none of the parent's ends left open in it
