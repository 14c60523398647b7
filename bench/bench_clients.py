"""What the relay costs a client's model: listing bytes, and an error result as Gemini CLI hands it on.

Prints figures; asserts nothing. Run: python bench/bench_clients.py

- tools/list + instructions: the JSON of the ListToolsResult and the instructions text, in bytes
  (paid in every session).
- A failure packet (INVALID_WORKSPACE, SPAWN_ERROR) and the CallToolResult around it as Gemini CLI
  stringifies it for its model on isError (JSON.stringify: compact JSON of the whole result).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy


def js_stringify(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def main() -> None:
    from mcp import Client

    from conftest import make_repo
    from fake_agy_harness import failure_scenario, install_fake_agy
    from relay.doors.guide import instructions
    from relay.doors.mcp_server import create_server
    from relay.core.settings import load_settings

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        repo = make_repo(tmp_path / "project")
        settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"),
                                  "AGY_BIN": str(tmp_path / "nowhere" / "agy")})
        quota_agy = install_fake_agy(tmp_path / "bin", failure_scenario("quota_1_2_11"))
        quota_settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(quota_agy),
                                        "GRAVITY_RELAY_PROFILES": '{"gated": {"execution_mode": "trusted", '
                                                                  '"confirm_trusted": true}}'})
        fact = ("/usr/local/bin/agy", "1.2.17")
        async with Client(create_server(settings, agy=fact), mode="legacy") as client:
            listed = await client.list_tools()
            # exclude_unset: the fields that came over the wire, as the client's SDK sees them
            tools = js_stringify(listed.model_dump(by_alias=True, exclude_unset=True, mode="json"))
            text = instructions(settings, fact)
            print(f"tools/list {len(tools.encode())} B + instructions {len(text.encode())} B = "
                  f"{len(tools.encode()) + len(text.encode())} B")
            results = {
                "INVALID_WORKSPACE": await client.call_tool("antigravity_execute", {
                    "task": "add a feature", "workspace": str(tmp_path / "missing")}),
                "SPAWN_ERROR": await client.call_tool("antigravity_execute", {
                    "task": "add a feature", "workspace": str(repo)}),
            }
        async with Client(create_server(quota_settings, agy=fact), mode="legacy") as client:
            results["QUOTA_EXHAUSTED (fake agy)"] = await client.call_tool("antigravity_execute", {
                "task": "add a feature", "workspace": str(repo)})
            # issue 10's gate: the preview (agy's argv, workspace, policy, time limit) and its token
            results["CONFIRMATION_REQUIRED (preview)"] = await client.call_tool("antigravity_execute", {
                "task": "add a feature", "workspace": str(repo), "profile": "gated"})
        for name, result in results.items():
            packet = result.content[0].text
            gemini = js_stringify(result.model_dump(by_alias=True, exclude_unset=True, mode="json"))
            ratio = len(gemini.encode()) / len(packet.encode())
            print(f"{name}: packet {len(packet.encode())} B; Gemini-style stringified result "
                  f"{len(gemini.encode())} B ({ratio:.2f}x); structuredContent "
                  f"{'present' if result.structured_content is not None else 'absent'}")


if __name__ == "__main__":
    anyio.run(main)
