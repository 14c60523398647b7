"""A call answered once (issue 38, §4): a retried execute never starts a second worker.

Clients retry a tool call whose answer was lost (a dropped HTTP stream, a client restart). Each test counts
the fake agy's launches: a repeat of a running call (same arguments, same session) attaches to its run, and
an ``idempotency_key`` answers its run from any relay process of the data dir. Through the MCP door over
stdio and over HTTP (real relay processes), in process for the refusals, and the shell's ``execute``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import anyio
import msgspec
import pytest

from conftest import cli_main, memory_relay, payload, relay_env, stdio_relay
from fake_agy_harness import install_fake_agy, launches, scenario, wait_for_launches
from git_repos import make_repo
from http_harness import http_client, http_relay

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}


def _held(tmp_path: Path) -> tuple[Path, Path]:
    """A fake agy whose every launch waits for ``release`` to exist (an event, not a guess at timing)."""
    release = tmp_path / "release"
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "slow", "sleep": 60, "release_file": str(release),
                                                       "edits": EDIT, "report": REPORT}))
    return agy, release


def _quick(tmp_path: Path) -> Path:
    return install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": EDIT, "report": REPORT}))


async def _twice(call_one, call_two, agy: Path, release: Path, launched: int) -> tuple[dict, dict]:
    """Call one; once its worker runs, call two; then let the worker end. Both answers, as objects."""
    answers: dict[str, dict] = {}

    async def first() -> None:
        answers["one"] = payload(await call_one())

    async def second() -> None:
        await anyio.to_thread.run_sync(lambda: wait_for_launches(agy, launched + 1))
        async with anyio.create_task_group() as inner:
            async def call() -> None:
                answers["two"] = payload(await call_two())
            inner.start_soon(call)
            await anyio.sleep(1.0)  # the repeat is in flight, waiting on the run: now the worker may end
            release.write_text("go", encoding="utf-8")

    with anyio.fail_after(90):
        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            tg.start_soon(second)
    release.unlink()
    return answers["one"], answers["two"]


# --------------------------------------------------------------------------- over stdio


@pytest.mark.process
async def test_stdio_repeat_of_a_running_execute_attaches_and_a_key_answers_from_another_relay_process(tmp_path):
    # Before: each call started its own worker on the same workspace (two launches, two run ids).
    repo = make_repo(tmp_path / "project")
    agy, release = _held(tmp_path)
    env = relay_env(tmp_path / "data", agy)
    args = {"task": "add new.py", "workspace": str(repo)}
    keyed = {"task": "add new.py again", "workspace": str(repo), "idempotency_key": "task-7f3c"}
    async with stdio_relay(env) as client:
        one, two = await _twice(lambda: client.call_tool("antigravity_execute", args),
                                lambda: client.call_tool("antigravity_execute", args), agy, release, 0)
        assert one["status"] == two["status"] == "SUCCESS" and one["run_id"] == two["run_id"]
        assert len(launches(agy)) == 1
        release.write_text("go", encoding="utf-8")
        first = payload(await client.call_tool("antigravity_execute", keyed))
    assert first["status"] == "SUCCESS" and len(launches(agy)) == 2
    # The stdio relay is gone (a client restart); another relay process on the data dir gets the same key.
    async with memory_relay(env) as client:
        again = payload(await client.call_tool("antigravity_execute", keyed))
    assert again["run_id"] == first["run_id"] and again["status"] == "SUCCESS"
    assert len(launches(agy)) == 2


# --------------------------------------------------------------------------- over HTTP


@pytest.mark.process
async def test_http_repeat_in_one_session_attaches_and_a_key_from_another_session_answers_the_same_run(tmp_path):
    repo = make_repo(tmp_path / "project")
    agy, release = _held(tmp_path)
    args = {"task": "add new.py", "workspace": str(repo)}
    keyed = {"task": "add new.py, keyed", "workspace": str(repo), "idempotency_key": "0b9e2c44-retry"}
    with http_relay(relay_env(tmp_path / "data", agy)) as relay:
        async with http_client(relay.url, relay.token) as client:
            one, two = await _twice(lambda: client.call_tool("antigravity_execute", args),
                                    lambda: client.call_tool("antigravity_execute", args), agy, release, 0)
            assert one["status"] == "SUCCESS" and one["run_id"] == two["run_id"] and len(launches(agy)) == 1
        # A key: the first session's stream is "lost"; a new session (a restarted client) repeats the call.
        async with http_client(relay.url, relay.token) as first, http_client(relay.url, relay.token) as retry:
            one, two = await _twice(lambda: first.call_tool("antigravity_execute", keyed),
                                    lambda: retry.call_tool("antigravity_execute", keyed), agy, release, 1)
        assert one["status"] == "SUCCESS" and one["run_id"] == two["run_id"] and len(launches(agy)) == 2
        async with http_client(relay.url, relay.token) as client:
            done = payload(await client.call_tool("antigravity_execute", keyed))  # finished: its packet, no launch
            assert done["run_id"] == one["run_id"] and len(launches(agy)) == 2
            release.write_text("go", encoding="utf-8")
            other = payload(await client.call_tool("antigravity_execute", {**keyed, "idempotency_key": "another"}))
    assert other["run_id"] != one["run_id"] and other["status"] == "SUCCESS" and len(launches(agy)) == 3


# --------------------------------------------------------------------------- in process: the refusals


@pytest.fixture
def quick(tmp_path):
    repo = make_repo(tmp_path / "project")
    agy = _quick(tmp_path)
    return repo, agy, relay_env(tmp_path / "data", agy)


async def test_execute_same_key_with_other_arguments_is_refused_naming_the_run_and_starts_nothing(quick):
    repo, agy, env = quick
    async with memory_relay(env) as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                       "idempotency_key": "k1"}))
        other = payload(await client.call_tool("antigravity_execute", {"task": "b", "workspace": str(repo),
                                                                       "idempotency_key": "k1"}))
        # wait_seconds only says how long this call waits: the same call, answered by the same run.
        same = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                      "idempotency_key": "k1", "wait_seconds": 5}))
    assert first["status"] == "SUCCESS" and len(launches(agy)) == 1
    assert other["status"] == "INVALID_INPUT" and first["run_id"] in other["error"]["message"]
    assert "other arguments" in other["error"]["message"] and "new idempotency_key" in other["error"]["hint"]
    assert same["run_id"] == first["run_id"]


@pytest.mark.parametrize("key", ["../../etc/passwd", "a/b", "", " x", "x" * 129, "k\nl", "ключ"])
async def test_execute_refuses_a_malformed_key_before_it_touches_a_path(quick, key, tmp_path):
    repo, agy, env = quick
    async with memory_relay(env) as client:
        answer = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                        "idempotency_key": key}))
    assert answer["status"] == "INVALID_INPUT" and "idempotency_key" in answer["error"]["message"]
    assert "UUID" in answer["error"]["hint"] and not launches(agy)
    assert not (tmp_path / "data" / "keys").exists()


async def test_execute_refuses_a_claim_edited_to_name_a_run_of_another_workspace(quick, tmp_path):
    # The party: whoever writes the data dir. It points this key's claim at another workspace's run; the relay
    # must neither answer that run (its packet, its files) nor start a run from a claim it did not write.
    repo, agy, env = quick
    elsewhere = make_repo(tmp_path / "secret-project")
    async with memory_relay(env) as client:
        theirs = payload(await client.call_tool("antigravity_execute", {"task": "s", "workspace": str(elsewhere)}))
        mine = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                      "idempotency_key": "mine"}))
        from relay.runs.keys import KeyBook

        book = KeyBook(tmp_path / "data" / "keys")
        claim = json.loads(book.path("mine").read_bytes())
        book.path("mine").write_text(json.dumps({**claim, "run_id": theirs["run_id"]}), encoding="utf-8")
        edited = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                        "idempotency_key": "mine"}))
        # A claim file of another key copied over this key's name: refused too.
        book.path("mine").write_text(json.dumps({**claim, "key": "theirs"}), encoding="utf-8")
        copied = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                        "idempotency_key": "mine"}))
        # A symbolic link in its place is never followed.
        book.path("mine").unlink()
        book.path("mine").symlink_to(tmp_path / "data" / "runs" / f"{theirs['run_id']}.json")
        linked = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                        "idempotency_key": "mine"}))
    assert len(launches(agy)) == 2 and mine["run_id"] != theirs["run_id"]
    for answer in (edited, copied, linked):
        assert answer["status"] == "STORAGE_ERROR", answer
        assert answer["run_id"] != theirs["run_id"] and "secret-project" not in json.dumps(answer)
        assert "nothing was started" in answer["error"]["message"] and "new idempotency_key" in answer["error"]["hint"]


async def test_execute_key_whose_run_never_reached_its_worker_is_free_for_the_retry(quick, tmp_path):
    # A refusal did nothing: the retry (the workspace fixed, or the same call) is a new attempt, not the refusal.
    repo, agy, env = quick
    async with memory_relay(env) as client:
        refused = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(tmp_path / "nope"),
                                                                         "idempotency_key": "k2"}))
        fixed = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                       "idempotency_key": "k2"}))
        again = payload(await client.call_tool("antigravity_execute", {"task": "a", "workspace": str(repo),
                                                                       "idempotency_key": "k2"}))
    assert refused["status"] == "INVALID_WORKSPACE" and fixed["status"] == "SUCCESS"
    assert fixed["run_id"] != refused["run_id"] and again["run_id"] == fixed["run_id"] and len(launches(agy)) == 1


async def test_execute_key_claimed_more_than_24_hours_ago_starts_a_new_run(quick, tmp_path):
    repo, agy, env = quick
    call = {"task": "a", "workspace": str(repo), "idempotency_key": "old-key"}
    async with memory_relay(env) as client:
        first = payload(await client.call_tool("antigravity_execute", call))
        from relay.runs.keys import WINDOW_SECONDS, KeyBook

        path = KeyBook(tmp_path / "data" / "keys").path("old-key")
        claim = json.loads(path.read_bytes())
        path.write_text(json.dumps({**claim, "claimed_at": time.time() - WINDOW_SECONDS - 60}), encoding="utf-8")
        later = payload(await client.call_tool("antigravity_execute", call))
    assert later["status"] == "SUCCESS" and later["run_id"] != first["run_id"] and len(launches(agy)) == 2


def test_cli_execute_idempotency_key_answers_the_same_run_from_a_second_command(quick):
    repo, agy, env = quick
    command = ["execute", "add new.py", "--workspace", str(repo), "--idempotency-key", "shell-1"]
    one = cli_main(command, {**os.environ, **env})
    two = cli_main(command, {**os.environ, **env})
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout)["run_id"] == json.loads(two.stdout)["run_id"] and len(launches(agy)) == 1
    bad = cli_main([*command[:-1], "../x"], {**os.environ, **env})
    assert bad.returncode == 1 and json.loads(bad.stdout)["status"] == "INVALID_INPUT" and len(launches(agy)) == 1


def test_key_claims_from_many_threads_name_one_run(tmp_path):
    # Several relay processes claiming one key at once (here: threads, each its own KeyBook): one wins, the others
    # get its claim; the file lock makes the check and the write one step.
    import threading

    from relay.runs.keys import KeyBook
    from relay.runs.store import new_run_id

    results: list = []
    barrier = threading.Barrier(8)

    def claim() -> None:
        book = KeyBook(tmp_path / "keys")
        mine = new_run_id()
        barrier.wait()
        standing = book.claim("shared", mine)
        results.append(mine if standing is None else standing.run_id)

    threads = [threading.Thread(target=claim) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1, results
    assert msgspec.json.decode((KeyBook(tmp_path / "keys").path("shared")).read_bytes())["run_id"] == results[0]


# --------------------------------------------------------------------------- the SDK's private connection


async def test_the_sdk_still_keeps_each_requests_connection_where_the_relay_reads_it(tmp_path, monkeypatch):
    # The one private SDK name the relay reads (relay/doors/mcp_server.py::_connection: mcp 2.3 has no public way
    # from a request's context to its connection). Should a new SDK move it, a retried execute would no longer
    # attach to its running first call (it would start nothing twice, but wait for a new worker): this test says
    # so by name, rather than test_*_repeat_* failing on a launch count.
    from mcp.server.connection import Connection

    from relay.doors import mcp_server

    seen: list[object] = []
    read = mcp_server._connection
    monkeypatch.setattr(mcp_server, "_connection", lambda ctx: seen.append(read(ctx)) or seen[-1])
    env = relay_env(tmp_path / "data", _quick(tmp_path))
    for _client in range(2):
        async with memory_relay(env) as client:
            for _call in range(2):
                await client.call_tool("antigravity_get_result", {"run_id": "r20260101T000000-00000000"})
    assert len(seen) == 4
    assert all(isinstance(c, Connection) for c in seen), (
        f"ServerSession._connection is gone from this mcp SDK (got {[type(c).__name__ for c in seen]}): "
        "relay/doors/mcp_server.py::_connection must find the request's connection another way")
    assert seen[0] is seen[1] and seen[2] is seen[3] and seen[0] is not seen[2]
