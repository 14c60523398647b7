"""agy 1.2.x-1.3.x as its users report it (agy-protocol.md §7, issue 26) through the whole relay.

Each row names a scenario of ``fake_agy_harness.SECTION7_SCENARIOS`` and runs it through the MCP door
(in process, the fake agy a real subprocess, a real git repo): the status, the number of worker launches
from the fake's own launch log, and the words the hint or message must hold. The continue, preflight and
environment cases need more than one call and have their own tests below.
"""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from conftest import make_repo, payload
from fake_agy_harness import (_OK, SECTION7_SCENARIOS, install_fake_agy, launches, pid_alive, scenario, set_scenario,
                              wait_for_launches)
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server
from test_agy_reality import RowChecks, assert_row_answer, run_through_relay, tiered

pytestmark = pytest.mark.anyio

SAFE = {"execution_mode": "safe"}
KEYRING = ("unlock", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "GEMINI_API_KEY", "file token")
# name -> (call arguments, status, worker launches, words the hint or message must hold, error.retryable or None)
ROWS: dict[str, tuple[dict, str, int, tuple[str, ...], bool | None]] = {
    "safe_writes_under_agys_default_policy": (SAFE, "SUCCESS", 1, (), None),
    "safe_writes_on_1_2_14": (SAFE, "SUCCESS", 1, (), None),
    "safe_edits_denied_under_accept_edits_on_1_2_13": (SAFE, "PERMISSION_DENIED", 1, ("--write-probe", "trusted"), False),
    "safe_run_reported_always_proceed": (SAFE, "CONFLICTING_OPTIONS", 1,
                                         ("always-proceed", "settings.json", "trusted", "before any tool"), False),
    "safe_run_under_strict_policy": (SAFE, "PERMISSION_DENIED", 1, ("EditFile",), False),
    "interrupted_by_someone_else": ({}, "CANCELLED", 1, ("antigravity_continue", "did not send", "retried"), False),
    "interrupted_at_the_relays_timeout": ({"timeout_minutes": 0.02}, "EXECUTION_TIMEOUT", 1, ("timeout",), False),
    "keyring_locked_line": ({}, "LOGIN_REQUIRED", 1, ("keyring is locked", *KEYRING), False),
    "keyring_locked_terminated_zero_usage": ({}, "LOGIN_REQUIRED", 1, ("keyring", *KEYRING), False),
    "probe_keyring_locked": ({}, "LOGIN_REQUIRED", 0, ("keyring is locked", *KEYRING), False),
    "deny_rule_and_hook_refusals": ({}, "SUCCESS", 1, (), None),
    "agy_error_short_not_found": ({}, "WORKER_ERROR", 1, ("NOT_FOUND", "agy models", "location"), False),
    "agy_error_short_unauthenticated": ({}, "LOGIN_REQUIRED", 1, ("UNAUTHENTICATED", "`agy`"), False),
    "agy_error_short_quota": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "region_not_available": ({}, "WORKER_ERROR", 1, ("not currently available in your location", "will not help"),
                             False),
    "bad_gateway_exit_3_then_success": ({}, "SUCCESS", 2, (), None),
    "wsasend_exit_3_twice": ({}, "UPSTREAM_UNAVAILABLE", 2, ("wsasend", "network"), True),
    "bad_gateway_after_a_write": ({}, "MUTATION_ABORTED", 1, ("Bad Gateway", "revert"), None),
    "quota_in_result_error": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "result_status_canceled": ({}, "CANCELLED", 1, ("CANCELED", "antigravity_continue"), False),
    "result_status_waiting": ({}, "WORKER_ERROR", 1, ("WAITING",), False),
    "subagent_and_finish_steps": ({}, "SUCCESS", 1, (), None),
    "p_took_a_dash_prompt_exit_2": ({}, "WORKER_ERROR", 1, ("not too old", "-p took", "doctor"), False),
    "unknown_subcommand_exit_2": ({}, "WORKER_ERROR", 1, ("not too old", "unknown command", "doctor"), False),
    "background_tasks_cut_at_exit": ({}, "WORKER_ERROR", 1, ("background task", "foreground", "1.2.13"), False),
    "daemon_left_after_a_normal_exit": ({}, "SUCCESS", 1, (), None),
}


MORE = RowChecks()  # more checks of a row's one run (test_agy_reality.RowChecks), defined below


def test_every_section7_scenario_has_a_row_and_every_row_a_scenario():
    assert set(ROWS) == set(SECTION7_SCENARIOS) and set(MORE) <= set(ROWS)


# The rows the fast tier runs (test_agy_reality.tiered says which and why).
FAST = frozenset({
    "safe_writes_under_agys_default_policy", "safe_run_reported_always_proceed", "interrupted_by_someone_else",
    "deny_rule_and_hook_refusals", "quota_in_result_error", "daemon_left_after_a_normal_exit"
})


@pytest.mark.parametrize("name", tiered(ROWS, FAST))
async def test_relay_answers_each_section7_text_with_its_status_launches_and_hint(tmp_path, name):
    args, status, count, words, retryable = ROWS[name]
    packet, runs, elapsed = await run_through_relay(tmp_path, SECTION7_SCENARIOS[name], args)
    assert_row_answer(packet, runs, status, count, words, retryable)
    MORE.check(name, packet, runs, elapsed, tmp_path)


# ---------------------------------------------------------------- 1. safe mode on current agy

@MORE("safe_writes_under_agys_default_policy")
def _safe_run_on_current_agy_passes_no_mode_flag_and_writes(packet, runs, elapsed, root):
    # Regression: every safe run passed --mode accept-edits, no headless write grant, and ended PERMISSION_DENIED.
    (run,) = runs
    assert packet["status"] == "SUCCESS"
    assert "--mode" not in run["argv"] and "--sandbox" in run["argv"]
    assert "--dangerously-skip-permissions" not in run["argv"]


@MORE("safe_run_reported_always_proceed")
def _safe_run_reported_always_proceed_is_stopped_before_any_tool(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "CONFLICTING_OPTIONS" and not packet.get("changes", {}).get("files"), packet
    assert not (root / "project" / "src" / "new.py").exists()  # stopped on init, before its write
    assert run["exit_code"] != 0  # killed, not finished


async def test_trusted_run_reporting_always_proceed_is_what_it_asked_for(tmp_path):
    scen = {**SECTION7_SCENARIOS["safe_run_reported_always_proceed"], "launches": [{"behaviour": "success",
            "edits": [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]}]}
    root = tmp_path
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scen)
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_PROFILES": '{"t": {"execution_mode": "trusted"}}'})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                          "profile": "t"}))
    assert packet["status"] == "SUCCESS", packet


# ---------------------------------------------------------------- 2. continue into an unknown conversation

async def _execute_then_continue(tmp_path: Path, continue_launch: dict, version: str = "1.3.2") -> tuple[dict, dict, Path, Path]:
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", scenario({"behaviour": "success", "edits": [], "report": {
        "summary": "ok", "files_changed": []}}, version=version))
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy),
                              # The fake writes its end record (the warning it noted) in its SIGTERM handler: 0.2 s of grace
                              # ran out on a loaded machine (a CI rehearsal beside a bench run), the relay's SIGKILL left no
                              # record, and the test failed on the record, not on the relay. A fake that exits on SIGTERM
                              # costs nothing more with 2 s.
                              "GRAVITY_RELAY_KILL_GRACE_SECONDS": "2"})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        set_scenario(agy, scenario(continue_launch, version=version))
        second = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"],
                                                                           "feedback": "now add the test"}))
    return first, second, repo, agy


async def test_continue_into_a_conversation_agy_does_not_know_is_stopped_on_its_warning_line(tmp_path):
    # agy 1.3.x: `warning: conversation "<id>" not found` ~1.7 s before init, then the feedback runs in a new
    # conversation without its context and edits files. Regression: the relay let it run (SUCCESS + a flag).
    # The lead is 1.7 s on real agy (the relay stops in well under 0.5 s); 5 s here so a loaded machine cannot flake it.
    launch = {"behaviour": "success", "forget_conversation": True, "not_found_lead": 5,
              "edits": [{"op": "write", "path": "feedback.py", "content": "x = 2\n"}]}
    started = time.monotonic()
    first, second, repo, agy = await _execute_then_continue(tmp_path, launch)
    assert second["status"] == "NOT_FOUND", second
    error = second["error"]
    assert first["conversation_id"] in error["message"] and "new conversation" in error["message"]
    assert "fresh antigravity_execute" in error["hint"] and "whole task" in error["hint"]
    assert error.get("retryable", False) is False
    assert not (repo / "feedback.py").exists()  # stopped before the edit
    runs = launches(agy)
    assert len(runs) == 2 and runs[1]["exit_code"] != 0 and runs[1].get("conversation_not_found")
    assert time.monotonic() - started < 30
    assert not second.get("conversation_id")  # nothing to continue from this run


# ---------------------------------------------------------------- 3. interrupted

@MORE("interrupted_by_someone_else")
def _interrupted_by_someone_else_keeps_the_conversation_and_can_be_continued(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "CANCELLED" and packet["conversation_id"] == run["conversation_id"], packet
    assert packet["changes"]["files"] == ["src/new.py"]  # what it did before the signal is listed


async def test_cancel_of_a_worker_that_prints_interrupted_stays_cancelled_by_the_relay(tmp_path):
    root = tmp_path
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", SECTION7_SCENARIOS["interrupted_at_the_relays_timeout"])
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        started = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo),
                                                                           "wait_seconds": 0}))
        await anyio.to_thread.run_sync(wait_for_launches, agy, 1)
        payload(await client.call_tool("antigravity_cancel", {"run_id": started["run_id"]}))
        with anyio.fail_after(30):
            while True:
                got = payload(await client.call_tool("antigravity_get_result", {"run_id": started["run_id"]}))
                if got["status"] != "RUNNING":
                    break
                await anyio.sleep(0.1)
    assert got["status"] == "CANCELLED", got
    assert "interrupted by a signal the relay did not send" not in got["error"]["message"]


# ---------------------------------------------------------------- 5. refusals named in the packet

@MORE("deny_rule_and_hook_refusals")
def _deny_rule_and_hook_refusals_are_named_in_the_packet(packet, runs, elapsed, root):
    # Regression: a turn whose tools were refused by a deny rule and a hook ended SUCCESS saying nothing of it.
    assert packet["status"] == "SUCCESS"
    said = [f for f in packet["flags"] if "refused" in f]
    assert len(said) == 1, packet["flags"]
    assert "write_to_file out.txt (refused by a deny rule)" in said[0]
    assert "run_command (refused by a pre-tool hook)" in said[0]
    assert not (root / "project" / "out.txt").exists()


@pytest.mark.parametrize(("rule", "who"), [("deny_rules", "a deny rule"), ("hook_denies", "a pre-tool hook")])
async def test_a_turn_your_own_rule_stopped_is_permission_denied_and_never_told_to_get_around_the_rule(
        tmp_path, rule, who):
    # agy-protocol.md §8.6 item 3: a turn that answered nothing after a refused tool step is PERMISSION_DENIED, and
    # §8.3: deny beats ask beats allow. Here the refusal is the person's own (a deny rule in agy's settings, a pre-tool
    # hook). Before: the deny rule's turn was put down to agy's headless permission check and the hint told the leader
    # to add an allow rule or ask for a trusted run (a model follows it: around the person's own rule); the hook's
    # turn read SUCCESS with a flag, as if the work were done.
    scen = {**scenario({**_OK, "commands": [{"command": "pytest -q"}], "needs_command_permission": False,
                        "response": ""}, version="1.3.3"), rule: ["run_command"]}
    packet, runs, _ = await run_through_relay(tmp_path, scen, {})
    error = assert_row_answer(packet, runs, "PERMISSION_DENIED", 1, ("run_command", f"refused by {who}", "your own"),
                              False)
    assert "trusted" not in error["hint"] and "permissions.allow" not in error["hint"], error
    assert "agy's permission check" not in error["message"], error


# ---------------------------------------------------------------- 7. the rest

@MORE("quota_in_result_error")
def _quota_in_the_result_error_carries_its_reset(packet, runs, elapsed, root):
    assert packet["error"]["resets_in_seconds"] == 94 * 3600 + 19 * 60 + 9


async def test_print_timeout_is_always_passed_since_its_default_is_no_limit(tmp_path):
    _, (run,), _ = await run_through_relay(tmp_path, SECTION7_SCENARIOS["subagent_and_finish_steps"],
                                           {"timeout_minutes": 2})
    argv = run["argv"]
    assert argv[argv.index("--print-timeout") + 1] == "120s"


@MORE("daemon_left_after_a_normal_exit")
def _a_daemon_left_by_a_normal_exit_is_swept_with_the_group(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "SUCCESS" and run["exit_code"] == 0
    assert run["grandchild_pid"] and not pid_alive(run["grandchild_pid"])


async def test_worker_env_passes_the_sign_in_routes(tmp_path):
    routes = {"GEMINI_API_KEY": "k", "AGY_ADC_AUTH": "true", "GOOGLE_CLOUD_QUOTA_PROJECT": "p",
              "GOOGLE_CLOUD_LOCATION": "us-central1", "USE_ADC": "1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x",
              "XDG_RUNTIME_DIR": "/run/user/1000"}
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", SECTION7_SCENARIOS["subagent_and_finish_steps"])
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    from relay.call.orchestrate import Relay
    from relay.core.contracts import ExecuteInput

    relay = Relay(settings, environ={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "OPENAI_API_KEY": "x", **routes})
    packet = await relay.execute(ExecuteInput(task="t", workspace=str(repo)))
    assert packet.status.value == "SUCCESS"
    (run,) = launches(agy)
    assert set(routes) <= set(run["env_keys"]) and "OPENAI_API_KEY" not in run["env_keys"]


# ---------------------------------------------------------------- 6. the auth probe never beside a worker

def _two_relays(tmp_path: Path, scen: dict):
    from relay.call.orchestrate import Relay

    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", scen)
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    # Two relay processes' worth of state (each its own auth cache), one data dir: one machine-wide slot.
    return repo, agy, Relay(settings, environ=env), Relay(settings, environ=env)


def _overlaps(a: dict, b: dict) -> bool:
    return a["start"] < (b["end"] or time.time()) and b["start"] < (a["end"] or time.time())


@pytest.mark.real_probes  # reads the probes' own launches
async def test_auth_probe_never_runs_beside_another_relays_worker(tmp_path):
    # Users saw `agy models` starting beside a run end it in `Agent execution terminated due to error.` (§7.2).
    # Regression: relay B probed before queueing, while relay A's worker was starting or running.
    from relay.core.contracts import ExecuteInput

    release = tmp_path / "release"
    edit = {"op": "write", "path": "src/new.py", "content": "x = 1\n"}
    slow = {"behaviour": "slow", "sleep": 60, "release_file": str(release), "edits": [edit]}
    repo, agy, relay_a, relay_b = _two_relays(tmp_path, scenario(slow, {"behaviour": "success", "edits": []}))
    answers: dict[str, object] = {}

    async def run(name, relay):
        answers[name] = await relay.execute(ExecuteInput(task=name, workspace=str(repo)))

    async with anyio.create_task_group() as tg:
        tg.start_soon(run, "a", relay_a)
        await anyio.to_thread.run_sync(wait_for_launches, agy, 1)
        tg.start_soon(run, "b", relay_b)
        await anyio.sleep(1.0)  # B is queued behind A's worker by now (nothing B does may start agy meanwhile)
        release.write_text("go", encoding="utf-8")
    assert answers["a"].status.value == "SUCCESS" and answers["b"].status.value == "SUCCESS", answers
    everything = launches(agy, print_mode_only=False)
    probes = [r for r in everything if r["mode"] == "models"]
    workers = [r for r in everything if r["mode"] == "print"]
    assert len(probes) == 2 and len(workers) == 2  # each relay asked agy once, its cache being empty
    assert not [(p["start"], w["start"]) for p in probes for w in workers if _overlaps(p, w)]


@pytest.mark.real_probes  # reads the probes' own launches
async def test_a_sign_out_behind_a_busy_slot_still_answers_at_once(tmp_path):
    from relay.core.contracts import ExecuteInput

    release = tmp_path / "release"
    repo, agy, relay_a, relay_b = _two_relays(tmp_path, {**scenario({"behaviour": "success"}), "models": "signed_out"})
    first = await relay_b.execute(ExecuteInput(task="b1", workspace=str(repo)))
    assert first.status.value == "LOGIN_REQUIRED"
    set_scenario(agy, scenario({"behaviour": "slow", "sleep": 60, "release_file": str(release)}))
    async with anyio.create_task_group() as tg:
        tg.start_soon(relay_a.execute, ExecuteInput(task="a", workspace=str(repo)))
        await anyio.to_thread.run_sync(wait_for_launches, agy, 1)
        probes_before = len([r for r in launches(agy, print_mode_only=False) if r["mode"] == "models"])
        with anyio.fail_after(20):  # not behind A's worker, which waits 60 s for the release file
            second = await relay_b.execute(ExecuteInput(task="b2", workspace=str(repo)))
        release.write_text("go", encoding="utf-8")
    assert second.status.value == "LOGIN_REQUIRED", second
    assert "last check" in second.error.message and "running worker" in second.error.hint
    assert len([r for r in launches(agy, print_mode_only=False) if r["mode"] == "models"]) == probes_before
