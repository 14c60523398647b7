"""What a run cost, in the packet and in `runs list` (issue 27, item 4).

The fake agy counts tokens as real agy does: a `--conversation` result carries the conversation's
running total, a print timeout's partial result says zero (agy-protocol.md §6.2, §7.2).
"""

from __future__ import annotations

import json
import pytest
from mcp import Client

from conftest import cli_main, payload
from fake_agy_harness import install_fake_agy, scenario
from relay.core.contracts import Usage
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server
from relay.runs.usage import usage_totals

pytestmark = pytest.mark.anyio

ONE_FILE = [{"op": "replace-lines", "path": "src/app.py", "start": 2, "end": 2, "lines": ["    return 2"]}]


def _launch(tokens_in: int, tokens_out: int, **extra) -> dict:
    return {"behaviour": "success", "edits": ONE_FILE, "response": "done",
            "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out, "thinking_tokens": 0,
                      "cache_read_tokens": 0}, **extra}


async def test_the_packet_says_this_runs_own_tokens_model_and_time_even_in_a_continued_conversation(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", scenario(_launch(12_000, 300), _launch(3_000, 80), version="1.3.2"))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings), mode="legacy") as client:
        first = await client.call_tool("antigravity_execute", {"task": "return 2", "workspace": str(repo)})
        follow = payload(await client.call_tool("antigravity_continue", {
            "run_id": payload(first)["run_id"], "feedback": "and a docstring"}))
    packet = payload(first)
    # Init.model is what agy ran (1.3.2 always says it); the turn's tokens as agy reported them.
    assert packet["usage"]["in"] == 12_000 and packet["usage"]["out"] == 300
    assert packet["usage"]["model"] == "gemini-3.6-flash-medium"
    assert 0 < packet["usage"]["seconds"] < 60
    # agy's second result says 15,000 / 380 for the conversation: the continue itself spent 3,000 / 80.
    assert follow["conversation_id"] == packet["conversation_id"]
    assert (follow["usage"]["in"], follow["usage"]["out"]) == (3_000, 80)
    # A few dozen bytes, and a one-file packet's text block stays within 700 B.
    text = first.content[0].text
    usage_bytes = len(json.dumps({"usage": packet["usage"]}, separators=(",", ":"))) - 2
    assert usage_bytes <= 80, usage_bytes
    assert len(text.encode()) <= 700, (len(text.encode()), text)


async def test_a_zero_usage_partial_shows_no_tokens_and_the_next_turn_counts_from_the_last_reported_total(tmp_path, repo):
    # A print timeout's partial result reports zero usage (§6.2; here the quota variant, which agy retries until
    # --print-timeout): the packet shows no tokens rather than a made-up zero cost, and the next continue's share
    # is measured from the last run that did report a total (10,000 / 200), not from that zero.
    from relay.runs.store import RunStore

    agy = install_fake_agy(tmp_path / "bin", scenario(
        _launch(10_000, 200), {"behaviour": "quota_print_timeout"}, _launch(4_000, 50)))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings), mode="legacy") as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        cut = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "more"}))
        last = payload(await client.call_tool("antigravity_continue", {"run_id": cut["run_id"], "feedback": "finish"}))
    assert cut["status"] == "QUOTA_EXHAUSTED", cut
    assert cut["usage"].keys() == {"seconds"}  # no tokens, no model (the fake's 1.2.17 names none), the time
    store = RunStore(tmp_path / "data" / "runs")
    assert store.read(cut["run_id"]).process.usage["input_tokens"] == 0
    total = store.read(last["run_id"]).process.usage  # agy's running total: the three turns, the cut one included
    assert total["input_tokens"] >= 14_000
    assert last["usage"]["in"] == total["input_tokens"] - 10_000
    assert last["usage"]["out"] == total["output_tokens"] - 200
    assert last["conversation_id"] == first["conversation_id"]


async def test_runs_list_shows_each_runs_tokens_and_json_ends_with_totals(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", scenario(_launch(12_000, 300), _launch(3_000, 80)))
    env = {"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)}
    settings = load_settings(env)
    async with Client(create_server(settings), mode="legacy") as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "more"})
        await client.call_tool("antigravity_execute", {"task": "t", "workspace": "relative"})  # refused: no usage
    listed = cli_main(["runs", "list"], env)
    assert listed.returncode == 0, listed.stderr
    assert "12.0k/300 tok" in listed.stdout and "3.0k/80 tok" in listed.stdout
    lines = [json.loads(line) for line in cli_main(["runs", "list", "--json"], env).stdout.splitlines()]
    *rows, totals = lines
    assert len(rows) == 3 and all("run_id" in r for r in rows)
    # (runs started in the same second may list in either order)
    assert sorted(r.get("usage", {}).get("in", 0) for r in rows) == [0, 3_000, 12_000]
    assert totals["totals"]["runs"] == 3 and totals["totals"]["runs_with_usage"] == 2
    assert (totals["totals"]["tokens_in"], totals["totals"]["tokens_out"]) == (15_000, 380)
    assert totals["totals"]["seconds"] > 0


def test_usage_totals_sum_per_model_and_skip_runs_without_usage():
    got = usage_totals([Usage(tokens_in=10, tokens_out=2, model="a", seconds=1.25),
                        None, Usage(tokens_in=5, tokens_out=1, model="b", seconds=2.0),
                        Usage(model="a", seconds=0.5)])
    assert got == {"runs": 4, "runs_with_usage": 3, "tokens_in": 15, "tokens_out": 3, "seconds": 3.8,
                   "models": {"a": {"runs": 2, "tokens_in": 10, "tokens_out": 2},
                              "b": {"runs": 1, "tokens_in": 5, "tokens_out": 1}}}
