"""Every view of recent runs masks credentials (issue 22, D5): one redaction step, before the task is cut.

Before: antigravity_get_result without run_id, `runs show` without an id and `runs list --json` printed
the task's AWS / GitHub / OpenAI keys verbatim, and a key cut at the row's 60th character kept its first
part readable (the cut left fewer characters than the key's shape needs, so the redactor missed it).
The records here are real: refused calls (nothing to run) whose tasks carry the keys.
"""

from __future__ import annotations

import json
import os

import anyio

from conftest import cli_main, memory_relay, relay_env

AWS = "AKIA" + "Q7XK3MZP2LBV9WND"
GITHUB = "ghp_" + "k9Xq2mV7pL4sR8tY1wZ3nB6cD5fG0hJ2aE4u"
OPENAI = "sk-proj-" + "T3BlbkFJq8Zr2Lm5Vx9Nc4Pw7Ks1Dg6Hy0Ub"
KEYS = {"aws": AWS, "github": GITHUB, "openai": OPENAI}


def _tasks() -> list[str]:
    tasks = [f"deploy with {key} please" for key in KEYS.values()]
    # Each key starts so that the row's 60-character cut falls inside it.
    tasks += ["x" * (59 - 10) + " use key " + key + " now" for key in KEYS.values()]
    return tasks


def _leaks(text: str) -> list[str]:
    found = []
    for name, key in KEYS.items():
        for start in range(0, len(key) - 9):
            if key[start : start + 10] in text:
                found.append(f"{name}: {key[start:start + 10]}")
                break
    return found


def test_every_view_of_recent_runs_masks_planted_keys_whole_or_cut(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("GRAVITY_RELAY_", "AGY_"))},
           **relay_env(tmp_path / "data", tmp_path / "no-agy")}
    missing = str(tmp_path / "missing")  # refused before anything runs: the record keeps the task

    async def mcp_views() -> list[str]:
        texts = []
        async with memory_relay(env) as client:
            for task in _tasks():
                await client.call_tool("antigravity_execute", {"task": task, "workspace": missing})
            texts.append((await client.call_tool("antigravity_get_result", {})).content[0].text)
            rows = json.loads(texts[-1])["recent_runs"]
            assert len(rows) == len(_tasks())
            for row in rows:
                for detail in ("summary", "errors", "full"):
                    result = await client.call_tool("antigravity_get_result", {"run_id": row["run_id"], "detail": detail})
                    texts.append(result.content[0].text)
        return texts

    views = {f"mcp {i}": text for i, text in enumerate(anyio.run(mcp_views))}
    for argv in (["runs", "show"], ["runs", "list", "--json"], ["runs", "list"]):
        done = cli_main(argv, env)
        assert done.returncode == 0, done.stderr
        views[" ".join(argv)] = done.stdout + done.stderr
    listed = [json.loads(line) for line in views["runs list --json"].splitlines() if line.strip()]
    assert "totals" in listed[-1]  # the last line sums the runs listed (issue 27)
    for row in listed[:-1]:
        done = cli_main(["runs", "show", row["run_id"], "--detail", "full"], env)
        views[f"runs show {row['run_id']}"] = done.stdout + done.stderr
    leaks = {name: found for name, text in views.items() if (found := _leaks(text))}
    assert leaks == {}
    assert "[REDACTED:" in views["runs list --json"] and "[REDACTED:" in views["runs show"]
