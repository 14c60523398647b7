"""Verification commands measured by the relay, and prompts too large for argv."""

from __future__ import annotations

import json
import sys

import pytest

from conftest import memory_relay, payload, relay_env
from fake_agy_harness import install_fake_agy, launches, make_report, success_scenario
from relay.agy.prompt import ARGV_PROMPT_LIMIT
from relay.review.verify import parse_counts

pytestmark = pytest.mark.anyio

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]


@pytest.mark.parametrize(
    ("output", "code", "expected"),
    [
        ("===== 1 failed, 5 passed in 0.3s =====", 1, (5, 1)),
        ("===== 12 passed in 1.0s =====", 0, (12, 0)),
        ("Tests:       2 failed, 1 skipped, 40 passed, 43 total", 1, (40, 2)),
        ("test result: ok. 7 passed; 0 failed; 0 ignored", 0, (7, 0)),
        ("all good", 0, (1, 0)),
        ("Segmentation fault", 139, (0, 1)),
        ("===== 3 passed in 1.0s =====", 2, (3, 1)),
    ],
)
def test_parse_counts_reads_common_runners_and_never_reports_a_failed_run_green(output, code, expected):
    assert parse_counts(output, code) == expected


async def test_profile_verify_commands_make_tests_measured_not_claimed(tmp_path, repo):
    report = make_report(summary="s", files_changed=["src/new.py"], tests_passed=99, tests_run=True)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT, report=report))
    script = "import os; assert os.path.exists('src/new.py'); print('== 1 failed, 4 passed in 0.1s ==')"
    profiles = {"app": {"workspace": str(repo), "verify": [f"{sys.executable} -c \"{script}\""]}}
    env = relay_env(tmp_path / "data", agy, GRAVITY_RELAY_PROFILES=json.dumps(profiles),
                    GRAVITY_RELAY_DEFAULT_PROFILE="app")
    async with memory_relay(env) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t"}))
        full = payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": "full"}))
    assert packet["tests"] == {"passed": 4, "failed": 1, "source": "measured"}
    (result,) = full["observation"]["verification"]
    assert "4 passed" in result["output_tail"] and result["exit_code"] == 0


async def test_without_verify_the_workers_counts_are_marked_claimed(tmp_path, repo):
    report = make_report(summary="s", files_changed=["src/new.py"], tests_passed=7, tests_run=True)
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT, report=report))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
    assert packet["tests"]["passed"] == 7 and packet["tests"]["source"] == "claimed"


async def test_a_prompt_too_large_for_argv_travels_in_a_file_the_worker_may_read(tmp_path, repo):
    agy = install_fake_agy(tmp_path / "bin", success_scenario(EDIT))
    task = "Implement the spec below.\n" + ("spec line\n" * (ARGV_PROMPT_LIMIT // 5))
    async with memory_relay(relay_env(tmp_path / "data", agy)) as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": task, "workspace": str(repo)}))
    assert packet["status"] == "SUCCESS"
    argv = launches(agy)[-1]["argv"]
    dirs = [argv[i + 1] for i, a in enumerate(argv) if a == "--add-dir"]
    assert len(dirs) == 2 and dirs[0] == str(repo.resolve())
    prompt = argv[-1]
    assert len(prompt) < 1000 and "TASK.md" in prompt
    spilled = (tmp_path / "data" / "runs").glob("*.prompt/TASK.md")
    (path,) = list(spilled)
    assert path.read_text(encoding="utf-8").count("spec line") == ARGV_PROMPT_LIMIT // 5
