"""Start-up figures of ``gravity-relay serve`` (a script, not a test).

    python bench/bench_startup.py [--runs 10] [--json]

Measures, in one run, with the SDK client in legacy mode (the ``initialize``
handshake today's hosts use):

* cold start: spawn to ``initialize`` response, median of N, for the relay (with an
  agy on AGY_BIN: the demo worker, so the start-up ``agy --version`` probe is paid; and
  with no agy at all), next to a minimal server written with the same SDK (low-level
  ``mcp.server.Server`` with one tool, over stdio). Runs are interleaved so drift hits
  all three alike. Next to the wall time, the CPU the server process had spent by then (its own and its
  waited-for children's, from /proc): on a shared machine the wall time moves with the load, the CPU much
  less. The relay is this checkout's (PYTHONPATH: the venv's editable install may point at another one).
* idle RSS of the relay's server process (``VmRSS`` from /proc after initialize and
  tools/list, then a short idle).
* the bytes every session pays for: the JSON of ``tools/list``'s tools and the
  ``instructions`` string.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MINIMAL_SERVER = '''
import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server


async def on_list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(
        name="echo", description="Echo the text back.",
        input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})])


async def on_call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(type="text", text=str((params.arguments or {}).get("text")))])


server = Server("minimal", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
'''


def relay_command() -> list[str]:
    script = Path(sys.executable).parent / "gravity-relay"
    return [str(script), "serve"] if script.exists() else [sys.executable, "-m", "relay", "serve"]


def _children() -> set[int]:
    pids: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            pids.update(int(p) for p in (task / "children").read_text(encoding="utf-8").split())
        except OSError:
            pass
    return pids


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU of ``pid`` and of the children it waited for (/proc/<pid>/stat fields 14-17)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


async def one_start(command: list[str], env: dict[str, str], *, measure: bool = False) -> dict:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    before = _children()
    started = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        elapsed = time.perf_counter() - started
        new = sorted(_children() - before)
        out: dict = {"seconds": elapsed, "cpu": _cpu_seconds(new[0]) if new else None}
        if measure:
            tools = await client.list_tools()
            tools_json = json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools.tools],
                                    separators=(",", ":"), ensure_ascii=False)
            out["tools_bytes"] = len(tools_json.encode())
            out["tools"] = [t.name for t in tools.tools]
            out["instructions_bytes"] = len((client.instructions or "").encode())
            out["instructions"] = client.instructions or ""
            await anyio.sleep(1.0)  # idle
            new = sorted(_children() - before)
            out["pid"] = new[0] if new else None
            out["rss_kib"] = _rss_kib(new[0]) if new else None
    return out


async def main(runs: int) -> dict:
    from relay.demo.run import install_demo_worker

    with tempfile.TemporaryDirectory(prefix="gravity-relay-bench-") as tmp:
        tmp_path = Path(tmp)
        minimal = tmp_path / "minimal_server.py"
        minimal.write_text(MINIMAL_SERVER, encoding="utf-8")
        agy = install_demo_worker(tmp_path / "bin")
        base = {"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "GRAVITY_RELAY_LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)}
        variants = {
            "relay (agy found: `agy --version` at start-up)": (relay_command(), {**base, "AGY_BIN": str(agy)}),
            "relay (no agy on this machine)": (relay_command(), {**base, "AGY_BIN": str(tmp_path / "no-agy")}),
            "minimal low-level SDK server, one tool": ([sys.executable, str(minimal)], {}),
        }
        # One warm-up each (page cache, .pyc), not counted.
        for command, env in variants.values():
            await one_start(command, env)
        times: dict[str, list[float]] = {name: [] for name in variants}
        cpu: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(runs):
            for name, (command, env) in variants.items():
                start = await one_start(command, env)
                times[name].append(start["seconds"])
                if start["cpu"] is not None:
                    cpu[name].append(start["cpu"])
        first = next(iter(variants.values()))
        detail = await one_start(first[0], first[1], measure=True)
    return {
        "runs": runs,
        "python": sys.version.split()[0],
        "cold_start_ms": {name: round(statistics.median(t) * 1000, 1) for name, t in times.items()},
        "cold_start_ms_min_max": {name: [round(min(t) * 1000, 1), round(max(t) * 1000, 1)] for name, t in times.items()},
        "cold_start_cpu_ms": {name: round(statistics.median(t) * 1000) if t else None for name, t in cpu.items()},
        "relay_idle_rss_mib": round(detail["rss_kib"] / 1024, 1) if detail.get("rss_kib") else None,
        "tools": detail["tools"],
        "tools_list_bytes": detail["tools_bytes"],
        "instructions_bytes": detail["instructions_bytes"],
        "session_fixed_bytes": detail["tools_bytes"] + detail["instructions_bytes"],
        "instructions": detail["instructions"],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = anyio.run(main, args.runs)
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        sys.exit(0)
    print(f"cold start, spawn → initialize response (median of {figures['runs']}, Python {figures['python']}):")
    for name, ms in figures["cold_start_ms"].items():
        low, high = figures["cold_start_ms_min_max"][name]
        print(f"  {ms:7.1f} ms  {name}  (min {low}, max {high}; CPU by then {figures['cold_start_cpu_ms'][name]} ms)")
    print(f"relay idle RSS: {figures['relay_idle_rss_mib']} MiB")
    print(f"tools/list: {figures['tools_list_bytes']} bytes ({', '.join(figures['tools'])}); "
          f"instructions: {figures['instructions_bytes']} bytes; together {figures['session_fixed_bytes']} bytes")
