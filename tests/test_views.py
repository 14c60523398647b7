"""The run views (`runs list`, `runs show`, antigravity_get_result) over real record files,
damaged ones included: what can be read is shown, what cannot is named, never a traceback."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mcp import Client

from conftest import cli_main, payload
from relay.core.contracts import Packet, RecordOutcome, RecordPlan, RecordProcess, RecordRequest, RunRecord, Status
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings
from relay.runs.store import RunStore

GOOD = "r20261130T100000-00000001"
FOLDER = "r20261130T100001-00000002"
BYTES = "r20261130T100002-00000003"
FIFO = "r20261130T100003-00000004"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    # A long path, so a truncation note that quotes it cannot fit a small budget.
    return tmp_path / ("deep-" * 12) / "data"


def write_good(store: RunStore, run_id: str = GOOD, response: str = "") -> None:
    store.write(RunRecord(run_id=run_id, created_at="2026-11-30T10:00:00.000Z", state="finished",
                          request=RecordRequest(task="t"), plan=RecordPlan(workspace="/w"),
                          process=RecordProcess(response=response),
                          outcome=RecordOutcome(status=Status.SUCCESS, packet=Packet(
                              run_id=run_id, status=Status.SUCCESS, summary="s" * len(response)))))


@pytest.fixture
def damaged(data_dir: Path) -> RunStore:
    store = RunStore(data_dir / "runs")
    store.ensure()
    write_good(store)
    (store.runs_dir / f"{FOLDER}.json").mkdir()  # a folder where a record should be
    (store.runs_dir / f"{BYTES}.json").write_bytes(b"\xff\xfe{not json")  # invalid bytes
    os.mkfifo(store.runs_dir / f"{FIFO}.json")  # a pipe: reading it would block for ever
    return store


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    # cli.main in process: these tests are about what the commands print (an escaping exception fails the test,
    # a logged one is checked through caplog), not about the process.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))}
    env["GRAVITY_RELAY_DATA_DIR"] = str(data_dir)
    return cli_main(list(args), env)


def no_logged_traceback(caplog) -> bool:
    return not [r for r in caplog.records if r.exc_info]


def test_runs_list_shows_the_readable_records_and_names_the_unreadable_ones(data_dir, damaged, caplog):
    # Regression (issue 13, item 14): one folder where a record should be made `runs list` crash.
    got = cli(data_dir, "runs", "list")
    assert got.returncode == 0, got.stderr
    assert "Traceback" not in got.stderr and no_logged_traceback(caplog)
    rows = {line.split()[0]: line for line in got.stdout.splitlines()}
    assert "SUCCESS" in rows[GOOD]
    for bad in (FOLDER, BYTES, FIFO):
        assert "UNREADABLE" in rows[bad]
        assert str(damaged.runs_dir / f"{bad}.json") in got.stderr
    assert "not a regular file" in got.stderr


def test_runs_show_of_an_unreadable_record_says_why_without_a_traceback(data_dir, damaged, caplog):
    got = cli(data_dir, "runs", "show", FOLDER)
    assert got.returncode == 1
    assert "Traceback" not in got.stderr and no_logged_traceback(caplog)
    assert "cannot be read" in got.stderr and "chown" in got.stderr


@pytest.mark.anyio
async def test_get_result_of_an_unreadable_record_is_a_clear_error_not_mcp_error(data_dir, damaged):
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(data_dir), "AGY_BIN": "/nonexistent"}))
    async with Client(server) as client:
        folder = payload(await client.call_tool("antigravity_get_result", {"run_id": FOLDER}))
        fifo = payload(await client.call_tool("antigravity_get_result", {"run_id": FIFO, "detail": "errors"}))
        good = payload(await client.call_tool("antigravity_get_result", {"run_id": GOOD}))
    assert folder["status"] == "NOT_FOUND" and "cannot be read" in folder["error"]["message"]
    assert fifo["status"] == "NOT_FOUND" and "not a regular file" in fifo["error"]["message"]
    assert good["status"] == "SUCCESS"


@pytest.mark.anyio
async def test_get_result_refuses_a_run_id_with_a_trailing_newline(data_dir, damaged):
    # Regression: the id check used `$`, which also matches before a final newline.
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(data_dir), "AGY_BIN": "/nonexistent"}))
    async with Client(server) as client:
        got = payload(await client.call_tool("antigravity_get_result", {"run_id": GOOD + "\n"}))
    assert got["status"] == "INVALID_INPUT" and "is not a Gravity Relay run id" in got["error"]["message"]


@pytest.mark.anyio
@pytest.mark.parametrize("detail", ["summary", "errors", "full"])
@pytest.mark.parametrize("max_chars", [200, 201, 257, 1000])
async def test_get_result_never_answers_more_than_max_chars(data_dir, detail, max_chars):
    # Regression: max_chars=200 answered up to 208 characters (the cut note quoted a long path).
    store = RunStore(data_dir / "runs")
    write_good(store, response='x"é\\\n' * 3000)
    server = create_server(load_settings({"GRAVITY_RELAY_DATA_DIR": str(data_dir), "AGY_BIN": "/nonexistent"}))
    async with Client(server) as client:
        result = await client.call_tool("antigravity_get_result", {"run_id": GOOD, "detail": detail,
                                                                   "max_chars": max_chars})
    obj = payload(result)
    assert len(result.content[0].text) <= max_chars
    assert obj["run_id"] == GOOD
