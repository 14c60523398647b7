"""Whoever writes the data dir removes the worker slot's lock file while a relay holds it.

The party: whoever can write the relay's data dir (docs/security.md, its last table). A lock is held on a file, not
on a name: with ``locks/worker.lock`` removed (a cleanup script, ``rm -rf locks``) or renamed, the next relay made a
new file of that name, locked it, and ran its agy beside the one already running: two workers in one repository, the
one-worker-per-machine rule broken with no lock ever broken. Real parts: the relay behind the SDK's client in memory,
the fake agy as a real subprocess, a real git repository, and a second holder in another process taking the relay's
own lock (relay.core.locks.own_lock) on the name, as the next relay would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, scenario, wait_for_launches

pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(os.name == "nt", reason="Windows keeps an open lock file from being removed")]

EXECUTE = "antigravity_execute"
REPORT = {"summary": "ok", "files_changed": ["src/new.py"], "tests_passed": 0, "tests_run": False}
EDIT = {"op": "write", "path": "src/new.py", "content": "x = 1\n"}
# The next relay, in another process: the relay's own lock on the same name, held until its stdin closes.
_NEXT_RELAY = ("import sys\nfrom filelock import Timeout\nfrom relay.core.locks import own_lock\n"
               "lock = own_lock(sys.argv[1])\ntry:\n    lock.acquire(timeout=0)\nexcept Timeout:\n"
               "    print('waits', flush=True)\nelse:\n    print('holds', flush=True)\nsys.stdin.read()\n")


def _next_relay(lock: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", _NEXT_RELAY, str(lock)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")
    return proc, proc.stdout.readline().strip()


def _done(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    proc.wait(timeout=30)


async def _run_while(client, call: dict, agy: Path, release: Path, move) -> dict:
    """The call, with ``move`` played (in a thread) once agy's first launch runs; then agy is let go."""
    answers: list[dict] = []

    async def run() -> None:
        answers.append(payload(await client.call_tool(EXECUTE, call)))

    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=60))
        try:
            await anyio.to_thread.run_sync(move)
        finally:
            release.touch()
    return answers[0]


async def test_a_slot_lock_file_removed_before_a_retry_never_lets_the_retry_start_beside_another_worker(tmp_path, repo):
    # Attempt 1 fails in a way the relay retries (503, nothing changed). While it runs, the lock file is removed and
    # the next relay locks a new one of that name: it holds the slot as far as any name tells. Before: attempt 2 started
    # all the same, beside that relay's worker.
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", scenario(
        {"behaviour": "upstream", "sleep": 60, "release_file": str(release)},
        {"behaviour": "success", "edits": [EDIT], "report": REPORT}))
    lock = tmp_path / "data" / "locks" / "worker.lock"
    seen: dict[str, str] = {}
    holders: list[subprocess.Popen] = []

    def remove_and_take() -> None:
        lock.unlink()
        proc, seen["next relay"] = _next_relay(lock)
        holders.append(proc)

    try:
        async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
            packet = await _run_while(client, {"task": "add src/new.py", "workspace": str(repo)}, agy, release,
                                      remove_and_take)
    finally:
        for proc in holders:
            _done(proc)
    assert seen == {"next relay": "holds"}  # not prevented: the name was free (said below)
    assert len(launches(agy)) == 1, "a retry started while another process held the slot's lock file"
    assert packet["status"] == "BUSY", packet
    assert "locks/worker.lock" in packet["error"]["message"] and "removed or renamed" in packet["error"]["message"], packet
    assert not (repo / "src" / "new.py").exists()


async def test_a_slot_lock_file_removed_while_agy_runs_is_said_and_one_removed_before_a_retry_is_taken_again(
        tmp_path, repo):
    # The file removed while agy runs, nobody else wanting the slot: the run's record and packet say the slot's lock
    # was moved under it (another relay could then have run beside it: not preventable by a lock on a file). And with
    # the name free when the retry starts, the relay locks the new file first: the next relay then waits.
    release, release_retry = tmp_path / "release", tmp_path / "release-retry"
    agy = install_fake_agy(tmp_path / "bin", scenario(
        {"behaviour": "upstream", "sleep": 60, "release_file": str(release)},
        {"behaviour": "slow", "sleep": 60, "release_file": str(release_retry), "edits": [EDIT], "report": REPORT}))
    data = tmp_path / "data"
    lock = data / "locks" / "worker.lock"
    seen: dict[str, str] = {}

    def remove() -> None:
        lock.rename(tmp_path / "moved-away.lock")

    async with memory_relay(relay_env(data, agy)) as client:
        answers: list[dict] = []

        async def run() -> None:
            answers.append(payload(await client.call_tool(EXECUTE, {"task": "add src/new.py",
                                                                    "workspace": str(repo)})))

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=60))
            await anyio.to_thread.run_sync(remove)
            release.touch()  # attempt 1 ends (503); the retry starts
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 2, timeout=60))
            try:
                proc, seen["next relay"] = await anyio.to_thread.run_sync(_next_relay, lock)
                _done(proc)
            finally:
                release_retry.touch()
    packet = answers[0]
    assert seen == {"next relay": "waits"}, "the retry ran on a slot whose lock nobody held under its name"
    assert packet["status"] == "SUCCESS", packet
    said = [flag for flag in packet["flags"] if "locks/worker.lock" in flag]
    assert said and "removed or renamed" in said[0], packet["flags"]
    record = (data / "runs" / f"{packet['run_id']}.json").read_text(encoding="utf-8")
    assert "locks/worker.lock" in record


async def test_a_slot_lock_file_renamed_while_the_only_attempt_runs_is_said_in_the_packet_and_record(tmp_path, repo):
    # Nothing after agy can stop a relay that took the name meanwhile; the record then says what happened to the slot.
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", scenario(
        {"behaviour": "slow", "sleep": 60, "release_file": str(release), "edits": [EDIT], "report": REPORT}))
    data = tmp_path / "data"
    async with memory_relay(relay_env(data, agy)) as client:
        packet = await _run_while(client, {"task": "add src/new.py", "workspace": str(repo)}, agy, release,
                                  lambda: (data / "locks" / "worker.lock").rename(tmp_path / "moved-away.lock"))
    assert packet["status"] == "SUCCESS", packet
    said = [flag for flag in packet["flags"] if "locks/worker.lock" in flag]
    assert said and "while this run held the slot" in said[0], packet["flags"]
    assert "while this run held the slot" in (data / "runs" / f"{packet['run_id']}.json").read_text(encoding="utf-8")
