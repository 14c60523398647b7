"""`gravity-relay serve --http` with several client sessions (issue 12): what each session is owed.

A real relay process on a loopback port (tests/http_harness.py), real SDK clients over streamable
HTTP, the fake agy as a real subprocess. One relay serves the session tests (a start-up is ~1.5 s of
CPU): each test puts its own fake agy behind the relay's AGY_BIN, a symlink, so the launches and the
scenario it reads are its own; the flood test has a relay of its own (a 1 request/s bound). Proves: progress goes only to the session whose call it is;
a session that goes away cancels its own call and nobody else's; calls from several sessions run in
arrival order; the door's request-rate bound answers a flood with 429 and leaves normal use alone.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import anyio
import pytest

from conftest import payload, relay_env
from fake_agy_harness import install_fake_agy, launches, pid_alive, scenario, success_scenario, wait_for_launches
from http_harness import http_client, http_relay, raw_request

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}
OK = {"behaviour": "slow", "sleep": 0.2, "edits": EDIT, "report": REPORT}
INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}).encode()


def _tickets(data_dir: Path) -> int:
    queue = data_dir / "queue"
    return len(list(queue.iterdir())) if queue.is_dir() else 0


async def _until(check, what: str, timeout: float = 60.0) -> None:
    with anyio.move_on_after(timeout) as scope:
        while not await anyio.to_thread.run_sync(check):
            await anyio.sleep(0.05)
    if scope.cancelled_caught:
        raise TimeoutError(f"waited {timeout} s for {what}")


def _record(data_dir: Path, run_id: str) -> dict:
    return json.loads((data_dir / "runs" / f"{run_id}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sessions_relay(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions")
    link = root / "bin" / "agy"
    link.parent.mkdir()
    link.symlink_to(install_fake_agy(root / "first", success_scenario([])))  # what start-up's version probe reads
    with http_relay(relay_env(root / "data", link, GRAVITY_RELAY_PROGRESS_SECONDS="0.1")) as relay:
        yield relay, link


def use_agy(sessions_relay, directory: Path, scen: dict):
    """(the shared relay, a fake agy of this test's own with this scenario, now behind the relay's AGY_BIN)."""
    relay, link = sessions_relay
    agy = install_fake_agy(directory, scen)
    swap = link.with_name("agy.next")
    swap.unlink(missing_ok=True)
    swap.symlink_to(agy)
    os.replace(swap, link)
    return relay, agy


# --------------------------------------------------------------------------- progress, per session


@pytest.mark.anyio
async def test_http_sessions_each_receive_only_their_own_progress_notifications(tmp_path, repo, sessions_relay):
    # Each run lasts 0.4 s, several of the relay's 0.1 s progress ticks (it was 1 s: more of the same ticks).
    relay, agy = use_agy(sessions_relay, tmp_path / "bin", scenario({**OK, "sleep": 0.4}))
    seen: dict[str, list] = {"a": [], "b": []}
    called: dict[str, int] = {"a": 0, "b": 0}
    statuses: dict[str, str] = {}

    async def session(name: str, warmups: int) -> None:
        async def on_message(message) -> None:
            note = getattr(message, "root", message)
            if getattr(note, "method", None) == "notifications/progress":
                seen[name].append(note.params.progress_token)

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            called[name] += 1

        async with http_client(relay.url, relay.token, message_handler=on_message) as client:
            # The SDK makes a call's request id its progress token, and both sessions count ids from
            # the same start: B's extra requests give its call another id, so a notification sent to
            # the wrong session would show as a foreign token instead of passing unseen.
            for _ in range(warmups):
                await client.list_tools()
            result = await client.call_tool("antigravity_execute", {"task": f"session {name}",
                                                                    "workspace": str(repo)},
                                            progress_callback=on_progress)
            statuses[name] = payload(result)["status"]

    with anyio.fail_after(120):
        async with anyio.create_task_group() as tg:
            tg.start_soon(session, "a", 0)
            tg.start_soon(session, "b", 3)
    assert statuses == {"a": "SUCCESS", "b": "SUCCESS"}
    assert seen["a"] and seen["b"], seen
    own_a, own_b = set(seen["a"]), set(seen["b"])
    assert len(own_a) == 1 and len(own_b) == 1 and own_a.isdisjoint(own_b), seen
    # Every notification a session received was matched to its own pending call by its client.
    await anyio.sleep(0.2)  # the SDK runs progress callbacks in their own tasks
    assert called == {"a": len(seen["a"]), "b": len(seen["b"])}, (called, seen)




# --------------------------------------------------------------------------- a session that goes away


@pytest.mark.anyio
async def test_http_session_that_disconnects_cancels_only_its_own_call(tmp_path, repo, sessions_relay):
    # A's launch hangs (with a grandchild in its group); B's, queued behind it, is a normal run.
    relay, agy = use_agy(sessions_relay, tmp_path / "bin",
                         scenario({"behaviour": "hang", "grandchild": True, "edits": EDIT}, OK))
    answers: dict[str, object] = {}

    async def call(name: str) -> None:
        async with http_client(relay.url, relay.token) as client:
            answers[name] = payload(await client.call_tool("antigravity_execute", {
                "task": f"session {name}", "workspace": str(repo)}))

    with anyio.fail_after(120):
        async with anyio.create_task_group() as tg:
            async with anyio.create_task_group() as session_a:
                session_a.start_soon(call, "a")
                await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=30))
                await _until(lambda: launches(agy)[0].get("grandchild_pid"), "A's grandchild")
                tg.start_soon(call, "b")
                await _until(lambda: _tickets(relay.data_dir) == 2, "B's call to queue behind A's")
                (run_a,) = launches(agy)
                # A's client goes away mid-call, as a killed leader does: its connections close, and
                # its exit (DELETE, courtesy cancel) is cancelled with it, so the relay hears nothing but
                # the dropped connection. (Regression: the SDK then ran A's call to its end.)
                session_a.cancel_scope.cancel()
            await _until(lambda: not pid_alive(run_a["pid"]) and not pid_alive(run_a["grandchild_pid"]),
                         "A's worker group to be gone", timeout=30)
    assert "a" not in answers and answers["b"]["status"] == "SUCCESS", answers
    records = [r for r in (json.loads(p.read_text(encoding="utf-8")) for p in (relay.data_dir / "runs").glob("r*.json"))
               if r["plan"]["workspace"] == str(repo)]  # this test's runs
    assert len(records) == 2
    (b_record,) = [r for r in records if r["run_id"] == answers["b"]["run_id"]]
    (a_record,) = [r for r in records if r["run_id"] != answers["b"]["run_id"]]
    assert a_record["state"] == "finished" and a_record["outcome"]["status"] == "CANCELLED", a_record
    assert b_record["outcome"]["status"] == "SUCCESS"
    assert "went away during request" in relay.stderr.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- arrival order


@pytest.mark.anyio
async def test_http_calls_from_several_sessions_run_in_arrival_order(tmp_path, repo, sessions_relay):
    # A first call holds the worker slot until the release file appears; sessions 1-3 then call one after
    # another, each waiting for the previous call's queue ticket, so their arrival order is known.
    release = tmp_path / "release"
    relay, agy = use_agy(sessions_relay, tmp_path / "bin", scenario({**OK, "sleep": 600, "release_file": str(release)}))
    statuses: dict[str, str] = {}

    async def session(name: str) -> None:
        async with http_client(relay.url, relay.token) as client:
            result = await client.call_tool("antigravity_execute", {"task": f"order {name}",
                                                                    "workspace": str(repo)})
            statuses[name] = payload(result)["status"]

    with anyio.fail_after(180):
        async with anyio.create_task_group() as tg:
            tg.start_soon(session, "holder")
            await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, 1, timeout=60))
            for n, name in enumerate(["first", "second", "third"], start=2):
                tg.start_soon(session, name)
                await _until(lambda: _tickets(relay.data_dir) == n, f"{name}'s queue ticket")
            assert len(launches(agy)) == 1  # all three wait behind the holder
            release.write_text("go", encoding="utf-8")
    assert statuses == dict.fromkeys(["holder", "first", "second", "third"], "SUCCESS")
    order = [next(w for w in ("holder", "first", "second", "third") if f"order {w}" in run["prompt"])
             for run in sorted(launches(agy), key=lambda r: r["start"])]
    assert order == ["holder", "first", "second", "third"]


# --------------------------------------------------------------------------- the request-rate bound


def test_rate_bucket_passes_a_burst_then_refuses_until_tokens_refill():
    from relay.doors.http_server import RateBucket

    now = [0.0]
    bucket = RateBucket(2.0, clock=lambda: now[0])
    assert bucket.burst == 8.0
    assert [bucket.take() for _ in range(8)] == [0.0] * 8
    assert bucket.take() == pytest.approx(0.5)  # one token comes back every 1/rate s
    now[0] += 0.5
    assert bucket.take() == 0.0 and bucket.take() > 0


def test_http_flood_is_answered_429_with_retry_after_as_a_jsonrpc_error(tmp_path):
    # 1 request/s, burst 8: a bounded flood of authenticated requests on loopback meets the bound.
    with http_relay(relay_env(tmp_path / "data", None, GRAVITY_RELAY_HTTP_MAX_RPS="1")) as relay:
        auth = {"Authorization": f"Bearer {relay.token}"}
        answers = [raw_request(relay.url, "POST", INIT, auth) for _ in range(40)]
        codes = [code for code, _headers, _body in answers]
        assert set(codes) <= {200, 429} and codes[0] == 200, codes
        assert codes.count(429) >= 40 - 8 - 30, codes  # even a 1 s per request machine refills only ~30
        code, headers, body = next(a for a in answers if a[0] == 429)
        error = json.loads(body)
        assert error["jsonrpc"] == "2.0" and error["error"]["code"] == -32000
        assert "GRAVITY_RELAY_HTTP_MAX_RPS" in error["error"]["message"]
        assert int(headers["retry-after"]) >= 1
        # Refused without the token is still 401 (the bound counts only authenticated requests).
        assert raw_request(relay.url, "POST", INIT, {})[0] == 401
        # After the wait it asked for, the relay serves again.
        time.sleep(int(headers["retry-after"]) + 0.1)
        assert raw_request(relay.url, "POST", INIT, auth)[0] == 200
        assert "answered 429" in relay.stderr.read_text(encoding="utf-8")  # the log line the test below looks for


@pytest.mark.anyio
async def test_http_normal_session_traffic_never_meets_the_default_rate_bound(tmp_path, repo, sessions_relay):
    relay, agy = use_agy(sessions_relay, tmp_path / "bin", scenario(OK))
    async with http_client(relay.url, relay.token) as client:
        for _ in range(20):
            await client.list_tools()
        for n in range(3):
            packet = payload(await client.call_tool("antigravity_execute", {"task": f"t{n}",
                                                                              "workspace": str(repo)}))
            assert packet["status"] == "SUCCESS", packet
    assert "answered 429" not in relay.stderr.read_text(encoding="utf-8")
