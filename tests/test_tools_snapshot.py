"""`tools/list` pinned: every tool's name, description, input schema and annotations, and the byte size
a client pays for them in every session.

The snapshot is ``tests/snapshots/tools_list.json``. A change to the tools (a new argument, a new tool,
a changed annotation or description) fails here with a diff; if the change is intended, regenerate it
with one command and commit the file with the change:

    GRAVITY_RELAY_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_tools_snapshot.py
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest
from mcp import Client

from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server

pytestmark = pytest.mark.anyio

SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "tools_list.json"
UPDATE = "GRAVITY_RELAY_UPDATE_SNAPSHOTS"


async def listed_tools(tmp_path: Path) -> dict:
    """What a client receives for tools/list, as JSON, and the size of the result on the wire."""
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(tmp_path / "no-agy")})
    async with Client(create_server(settings), mode="legacy") as client:
        result = await client.list_tools()
    # exclude_unset: the fields that came over the wire, serialized as the SDK's transport writes them.
    wire = result.model_dump_json(by_alias=True, exclude_unset=True)
    return {"result_bytes": len(wire.encode("utf-8")),
            "tools": json.loads(wire)["tools"]}


def _pretty(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


async def test_tools_list_matches_the_snapshot_byte_for_byte(tmp_path):
    got = _pretty(await listed_tools(tmp_path))
    if os.environ.get(UPDATE):
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(got, encoding="utf-8")
    want = SNAPSHOT.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                            "tests/snapshots/tools_list.json (pinned)", "tools/list (now)"))
        pytest.fail(f"tools/list changed. If that is intended, run:\n  {UPDATE}=1 python -m pytest "
                    f"tests/test_tools_snapshot.py\nand commit the snapshot.\n\n{diff}", pytrace=False)


def test_tools_snapshot_names_the_three_tools_and_their_hints():
    # The snapshot itself must hold what it claims to pin (a regenerated empty file would pass the test above).
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    tools = {t["name"]: t for t in pinned["tools"]}
    assert {"antigravity_execute", "antigravity_continue", "antigravity_get_result"} <= set(tools)
    assert all(t["inputSchema"]["type"] == "object" and t.get("annotations") for t in tools.values())
    assert tools["antigravity_get_result"]["annotations"]["readOnlyHint"] is True
    assert pinned["result_bytes"] > 1000


async def test_every_tool_has_a_title_and_tools_list_with_instructions_stays_within_3400_bytes(tmp_path):
    # Every session pays for tools/list and the instructions (issue 27, item 6). Measured with agy NOT FOUND,
    # the longest instructions line the relay writes (a found agy's path is usually shorter).
    from relay.doors.guide import instructions

    listed = await listed_tools(tmp_path)
    assert all(t.get("title") for t in listed["tools"]), [t["name"] for t in listed["tools"] if not t.get("title")]
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(tmp_path / "no-agy")})
    said = instructions(settings, (None, None))
    assert "NOT FOUND" in said
    total = listed["result_bytes"] + len(said.encode("utf-8"))
    assert total <= 3400, total  # issue 38 added idempotency_key (was 3,300)
