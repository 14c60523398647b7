"""Whoever writes the data dir plants a symbolic link where the relay opens one of its lock files.

The party: whoever can write the relay's data dir (docs/security.md, its last table). The relay's locks are files in
it: the worker slot's ``locks/worker.lock``, a queue ticket's ``locks/tickets/<ticket>``, a conversation's
``locks/conversation-<digest>.lock``, the idempotency keys' ``keys/.lock`` and a worktree pool's ``w0.lock``. filelock
before 3.20.1 opened a lock file with O_CREAT and O_TRUNC through a link: a link planted there had the relay create,
or empty, a file of the user's anywhere they can write (a hard link to a file of the user's: emptied up to filelock 4.0); from 3.20.1 on the open refuses the link (ELOOP), which failed
the call instead. Each lock path is the relay's own: a link there is removed (the link alone) and the lock taken on a
file of the relay's, its target never opened. Real parts: the relay behind the SDK's client in memory, the fake agy as
a real subprocess, real git repositories in temp dirs.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, success_scenario

pytestmark = pytest.mark.anyio

EXECUTE = "antigravity_execute"
PRECIOUS = "the user's own file: not the relay's to open\n"


def _victims(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A file of the user's (a link to it must not empty it) and a name that does not exist (nor be created)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    kept = home / name
    kept.write_text(PRECIOUS, encoding="utf-8")
    return kept, home / f"{name}.new"


def _plant(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(target)


def _untouched(kept: Path, absent: Path) -> None:
    assert kept.read_text(encoding="utf-8") == PRECIOUS, f"{kept} was emptied through a lock link"
    assert not absent.exists(), f"{absent} was created through a lock link"


@pytest.mark.skipif(os.name == "nt", reason="POSIX symlinks without privileges")
async def test_links_planted_as_the_relays_lock_files_are_never_opened_and_the_calls_run(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    data = tmp_path / "data"
    env = relay_env(data, agy, GRAVITY_RELAY_PROFILES=json.dumps({"iso": {"isolation": "worktree"}}))
    worker, key, ticket = _victims(tmp_path, ".bashrc"), _victims(tmp_path, ".profile"), _victims(tmp_path, "notes")
    _plant(data / "locks" / "worker.lock", worker[0])
    _plant(data / "keys" / ".lock", key[1])
    # A ticket another relay seems to hold: the relay opens the ticket's lock to see whether a live relay holds it.
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    try:
        planted = data / "queue" / f"{1:020d}-{stranger.pid}-r20261202T100000-00000001"
        planted.parent.mkdir(parents=True)
        planted.write_text("", encoding="utf-8")
        _plant(data / "locks" / "tickets" / planted.name, ticket[0])
        async with memory_relay(env) as client:
            first = payload(await client.call_tool(EXECUTE, {"task": "add src/new.py", "workspace": str(repo),
                                                             "idempotency_key": "lock-links-1"}))
            assert first["status"] == "SUCCESS", first
            _untouched(*worker)
            _untouched(*key)
            _untouched(*ticket)
            assert stranger.poll() is None

            # The conversation's lock (a continue) and a worktree pool's slot lock (the second worktree run).
            conversation = first["conversation_id"]
            digest = hashlib.sha256(conversation.encode()).hexdigest()[:24]
            talk = _victims(tmp_path, "talk")  # a second name of the user's file: filelock up to 4.0 empties it
            os.link(talk[0], data / "locks" / f"conversation-{digest}.lock")
            more = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"],
                                                                           "feedback": "more"}))
            assert more["status"] == "SUCCESS", more
            _untouched(*talk)

            iso = {"task": "add src/new.py", "profile": "iso", "workspace": str(repo)}
            assert payload(await client.call_tool(EXECUTE, iso))["status"] == "SUCCESS"
            (pool,) = (data / "worktrees").iterdir()
            slot = _victims(tmp_path, "slot")
            _plant(pool / "w0.lock", slot[0])
            again = payload(await client.call_tool(EXECUTE, iso))
            assert again["status"] == "SUCCESS", again
            _untouched(*slot)
    finally:
        stranger.kill()
        stranger.wait()
    for lock in (data / "locks" / "worker.lock", data / "keys" / ".lock", pool / "w0.lock"):
        assert not lock.is_symlink(), f"{lock} is still the planted link"


@pytest.mark.skipif(not hasattr(os, "link"), reason="hard links")
async def test_a_second_name_given_to_a_held_lock_never_lets_a_second_worker_run(tmp_path, repo):
    # Another relay's worker holds the slot (locks/worker.lock, flock on its inode). A process that can write the data
    # dir gives that lock file a second name (a hard link anywhere on the same file system). Before: the next relay to
    # want the slot took the held lock for a planted link (nlink 2), removed its name, took a new lock on a new file and
    # started its agy beside the running one: the one-worker-per-machine rule broken without a file removed by hand.
    # The relay's lock files are empty; only a file with content behind a second name is another's (and removed).
    from fake_agy_harness import launches

    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    locks = tmp_path / "data" / "locks"
    locks.mkdir(parents=True)
    code = ("import sys, time\nfrom filelock import FileLock\nlock = FileLock(sys.argv[1], thread_local=False)\n"
            "lock.acquire()\nprint('held', flush=True)\ntime.sleep(300)\n")
    other = subprocess.Popen([sys.executable, "-c", code, str(locks / "worker.lock")], stdout=subprocess.PIPE,
                             text=True, encoding="utf-8", start_new_session=True)  # another relay's worker runs
    try:
        assert other.stdout.readline().strip() == "held"
        (tmp_path / "home").mkdir()
        os.link(locks / "worker.lock", tmp_path / "home" / "second-name")
        env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_QUEUE_WAIT_MINUTES="0.02")  # 1.2 s, then BUSY
        async with memory_relay(env) as client:
            packet = payload(await client.call_tool(EXECUTE, {"task": "t", "workspace": str(repo)}))
        assert packet["status"] == "BUSY", packet
        assert launches(agy) == [], "a second agy ran beside the one holding the worker slot"
        assert os.path.samefile(locks / "worker.lock", tmp_path / "home" / "second-name")  # the held lock stands
    finally:
        other.kill()
        other.wait()
