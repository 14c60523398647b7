"""Whoever writes the data dir plants queue tickets (docs/security.md, its last table; another local process too).

The queue folder (data/queue) holds one ticket per waiting call, in every relay process of the data dir; the oldest
live ticket runs next. A ticket is input: a file planted there naming a live process that is no relay (with that
process's true start stamp, which anyone may read), or naming this relay's own pid, must not hold the queue until
every call answers BUSY. The relay through the SDK's client in memory, the fake agy as a real subprocess, a real
stranger process named by the ticket (never killed).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, success_scenario

pytestmark = pytest.mark.anyio


def _stamp(pid: int, *, start: str | None = None) -> dict:
    from relay.core.identity import stamp_of

    real = stamp_of(pid)
    assert real is not None
    return {"pid": pid, "start": start or real.start, "boot_id": real.boot_id}


async def _execute_past_planted(tmp_path, agy, repo, caplog) -> dict:
    """One call with a short queue wait (1.2 s, then BUSY), the coordinator's warnings caught for the test to read."""
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_QUEUE_WAIT_MINUTES="0.02")
    caplog.set_level(logging.WARNING, logger="relay.runs.coordinator")
    async with memory_relay(env) as client:
        with anyio.fail_after(60):
            return payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))


async def test_planted_tickets_naming_a_live_stranger_or_this_relay_never_hold_the_queue(tmp_path, repo, caplog):
    # Before: a ticket with the true stamp of a live process that is no relay counted as a relay waiting ahead, and one
    # naming this relay's own pid (whatever its stamp) counted as this relay's own: each held every call until BUSY.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    queue = tmp_path / "data" / "queue"
    queue.mkdir(parents=True)
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    try:
        planted = [queue / f"{1:020d}-{stranger.pid}-r20261202T100000-00000001",
                   queue / f"{2:020d}-{os.getpid()}-r20261202T100000-00000002"]
        planted[0].write_text(json.dumps(_stamp(stranger.pid)), encoding="utf-8")  # its true stamp
        planted[1].write_text(json.dumps(_stamp(os.getpid(), start="psutil:1.000")), encoding="utf-8")
        packet = await _execute_past_planted(tmp_path, agy, repo, caplog)
        assert packet["status"] == "SUCCESS", packet
        assert len(launches(agy)) == 1
        assert stranger.poll() is None, "a process a ticket named was killed"
        said = caplog.text
        assert planted[0].name in said and planted[1].name in said, said  # each named, not silently dropped
    finally:
        stranger.kill()
        stranger.wait()


async def test_a_fifo_planted_as_the_slots_holder_file_never_freezes_a_call_that_waited_too_long(tmp_path, repo):
    # A call that waited past GRAVITY_RELAY_QUEUE_WAIT_MINUTES answers BUSY naming who holds the worker slot, read from
    # locks/holder.json. Before: a FIFO planted there was opened and read, waiting for a writer that never came, and
    # the relay froze (the read ran on its event loop): no BUSY, no other call answered.
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    agy = install_fake_agy(tmp_path / "bin", success_scenario([]))
    locks = tmp_path / "data" / "locks"
    locks.mkdir(parents=True)
    os.mkfifo(locks / "holder.json")
    code = ("import sys, time\nfrom filelock import FileLock\nlock = FileLock(sys.argv[1], thread_local=False)\nlock.acquire()\n"
            "print('held', flush=True)\ntime.sleep(300)\n")
    other = subprocess.Popen([sys.executable, "-c", code, str(locks / "worker.lock")], stdout=subprocess.PIPE,
                             text=True, encoding="utf-8", start_new_session=True)  # another relay's worker runs
    try:
        assert other.stdout.readline().strip() == "held"
        env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_QUEUE_WAIT_MINUTES="0.01")
        async with memory_relay(env) as client:
            with anyio.fail_after(60):
                packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert packet["status"] == "BUSY", packet
        assert "holds the worker slot" in packet["error"]["message"], packet
        assert launches(agy) == []
    finally:
        other.kill()
        other.wait()


@pytest.mark.skipif(os.name == "nt", reason="POSIX symlinks without privileges")
async def test_links_planted_as_the_queue_or_locks_folder_never_have_the_relay_delete_or_write_files_of_yours(
        tmp_path, repo):
    # The queue folder holds a ticket per waiting call, named <time>-<pid>-<run id>; a name whose second part is a
    # number and whose lock no relay holds is a dead relay's ticket, and removed. Before: with data/queue planted as a
    # link to a folder of yours, every file of yours named like `holiday-2024-06.jpg` (its second part a number) was
    # taken for a dead relay's ticket and deleted; with data/locks a link, the slot's lock and holder.json were
    # written in your folder.
    photos, docs = tmp_path / "home" / "photos", tmp_path / "home" / "docs"
    photos.mkdir(parents=True)
    docs.mkdir()
    for name in ("holiday-2024-06.jpg", "scan-17-page.png"):
        (photos / name).write_bytes(b"\xff\xd8 a picture")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "queue").symlink_to(photos, target_is_directory=True)
    (tmp_path / "data" / "locks").symlink_to(docs, target_is_directory=True)
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        with anyio.fail_after(60):
            packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS", packet
    assert sorted(p.name for p in photos.iterdir()) == ["holiday-2024-06.jpg", "scan-17-page.png"]
    assert list(docs.iterdir()) == []
    assert not (tmp_path / "data" / "queue").is_symlink() and not (tmp_path / "data" / "locks").is_symlink()


async def test_a_local_process_holding_a_tickets_lock_never_holds_the_queue_for_good(tmp_path, repo, caplog):
    # Another local process writes a ticket naming itself (its pid, its true start stamp: anyone can read both) and
    # takes that ticket's lock in locks/tickets/, as a relay waiting in the queue does, then never lets go. Before: a
    # held lock and a stamp that named a live process were all a ticket needed to count, so every call of every relay
    # queued behind it until it answered BUSY, for as long as that process lived. Now the held lock counts only when
    # the ticket's pid is a relay process (its command line the relay's) that started before the ticket was written.
    from relay.runs.coordinator import Coordinator

    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    queue, tickets = tmp_path / "data" / "queue", tmp_path / "data" / "locks" / "tickets"
    queue.mkdir(parents=True)
    tickets.mkdir(parents=True)
    code = ("import sys, time\nfrom filelock import FileLock\nlock = FileLock(sys.argv[1], thread_local=False)\n"
            "lock.acquire()\nprint('held', flush=True)\ntime.sleep(300)\n")
    import time

    name = f"{time.time_ns():020d}-{{pid}}-r20261202T100000-00000003"
    squatter = subprocess.Popen([sys.executable, "-c", code, str(tickets / "pending")], stdout=subprocess.PIPE,
                                text=True, encoding="utf-8", start_new_session=True)
    try:
        assert squatter.stdout.readline().strip() == "held"
        ticket = queue / name.format(pid=squatter.pid)
        (tickets / "pending").rename(tickets / ticket.name)  # the lock it holds, under the ticket's name
        ticket.write_text(json.dumps(_stamp(squatter.pid)), encoding="utf-8")
        assert Coordinator(tmp_path / "data")._lock_held(ticket.name)  # held as a waiting relay holds it
        packet = await _execute_past_planted(tmp_path, agy, repo, caplog)
        assert packet["status"] == "SUCCESS", packet
        assert len(launches(agy)) == 1
        assert squatter.poll() is None, "the process a ticket named was killed"
        assert ticket.name in caplog.text, caplog.text  # named in the log, not silently skipped
    finally:
        squatter.kill()
        squatter.wait()


# A local process that fakes the relay's command line (its script named `gravity-relay`), started before its ticket's
# time: it writes a ticket as a relay does, naming itself and a bound, and holds that ticket's lock for good.
_FAKE_RELAY = """import json, sys, time
from pathlib import Path
from relay.core.identity import stamp_of
from relay.core.locks import own_lock
data, bound = Path(sys.argv[1]), float(sys.argv[2])
time.sleep(0.1)  # started before the ticket's time, as a relay that queues is
name = f"{time.time_ns():020d}-{__import__('os').getpid()}-r20261202T100000-00000009"
lock = own_lock(data / "locks" / "tickets" / name)
lock.acquire(timeout=0)
stamp = stamp_of(__import__('os').getpid())
ticket = {"pid": stamp.pid, "start": stamp.start, "boot_id": stamp.boot_id, "until": time.time() + bound}
(data / "queue" / name).write_text(json.dumps(ticket), encoding="utf-8")
print(name, flush=True)
time.sleep(300)
"""


async def test_a_process_faking_the_relays_command_line_holds_the_queue_no_longer_than_its_tickets_bound(
        tmp_path, repo):
    # Before: a process whose command line is the relay's, started before its ticket, holding the ticket's lock, held
    # the queue for as long as it lived (9 days per ticket, then a new ticket): every call of every relay answered BUSY
    # after its queue wait. Now a ticket counts no longer than the longest its call could last (its relay's queue wait,
    # the run's deadline and verify commands, a slack: written in the ticket when it is made); past it the waiting run
    # goes ahead, says so in its record, and leaves the process running. A relay's own ticket names that bound.
    agy = install_fake_agy(tmp_path / "bin", success_scenario([{"op": "write", "path": "src/new.py",
                                                                "content": "x = 1\n"}]))
    data = tmp_path / "data"
    for folder in (data / "queue", data / "locks" / "tickets"):
        folder.mkdir(parents=True)
    script = tmp_path / "fake-bin" / "gravity-relay"
    script.parent.mkdir()
    script.write_text(_FAKE_RELAY, encoding="utf-8")
    faker = subprocess.Popen([sys.executable, str(script), str(data), "2"], stdout=subprocess.PIPE, text=True,
                             encoding="utf-8", start_new_session=True)
    own: list[dict] = []

    def own_ticket() -> None:  # the waiting relay's own ticket, read while it waits
        from fake_agy_harness import wait_until

        mine = lambda: [p for p in (data / "queue").iterdir() if p.name.split("-")[1] == str(os.getpid())]  # noqa: E731
        wait_until(lambda: mine(), "the relay's own ticket", timeout=30)
        own.append({"name": mine()[0].name, **json.loads(mine()[0].read_text(encoding="utf-8"))})

    try:
        name = faker.stdout.readline().strip()
        assert name, "the faking process wrote no ticket"
        env = relay_env(data, agy, GRAVITY_RELAY_QUEUE_WAIT_MINUTES="0.2")  # 12 s, then BUSY
        async with memory_relay(env) as client:
            answers: list[dict] = []

            async def call() -> None:
                answers.append(payload(await client.call_tool("antigravity_execute", {
                    "task": "t", "workspace": str(repo), "timeout_minutes": 10})))

            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(call)
                    await anyio.to_thread.run_sync(own_ticket)
        packet = answers[0]
        assert packet["status"] == "SUCCESS", packet
        assert len(launches(agy)) == 1
        said = [flag for flag in packet["flags"] if name in flag]
        assert said and "past the longest its call could last" in said[0], packet["flags"]
        assert faker.poll() is None, "the process the ticket named was killed"
        written = int(own[0]["name"].split("-")[0]) / 1e9
        # 12 s of queue wait, 10 minutes of run, the grace, the slack: the relay's own ticket names its bound
        assert 600 + 12 <= own[0]["until"] - written <= 600 + 12 + 3600, own[0]
    finally:
        faker.kill()
        faker.wait()
