"""Every real agy text of agy-protocol.md §6 through the whole relay: status, launches and hint.

Each row names a scenario of ``fake_agy_harness.SECTION6_SCENARIOS``; the relay runs in process
(``mcp.Client(server)``) against the fake agy as a real subprocess and a real git repo, so the
texts travel the real path: the auth probe, the worker's login watch, the classifier, the retry
guard and the packet. Launches are counted from the fake's own launch log.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from mcp import Client

from conftest import make_repo, payload
from fake_agy_harness import SECTION6_SCENARIOS, VALIDATION_URL_FOR_TESTS, install_fake_agy, launches
from relay.doors.mcp_server import create_server
from relay.core.settings import load_settings

pytestmark = pytest.mark.anyio

LOGIN = "`agy`"
# name -> (call arguments, status, worker launches, words the hint must hold, error.retryable or None)
ROWS: dict[str, tuple[dict, str, int, tuple[str, ...], bool | None]] = {
    "probe_signed_out_current": ({}, "LOGIN_REQUIRED", 0, (LOGIN, "sign"), False),
    "probe_please_sign_in": ({}, "LOGIN_REQUIRED", 0, (LOGIN,), False),
    "probe_signed_out_blocks_for_paste": ({}, "LOGIN_REQUIRED", 0, (LOGIN,), False),
    "worker_signed_out_current": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "worker_signed_out_early_wording": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "worker_signed_out_with_lone_result": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "worker_signed_out_blocks_ignoring_sigterm": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "worker_signed_out_line_on_stdout": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "worker_signed_out_line_in_log_only": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "envelope_please_sign_in": ({}, "LOGIN_REQUIRED", 1, (LOGIN,), False),
    "oauth_prompt_once_with_valid_token": ({}, "SUCCESS", 2, (), None),
    "oauth_prompt_twice": ({}, "LOGIN_REQUIRED", 2, (LOGIN,), False),
    "auth_timed_out_without_prompt": ({}, "AUTH_TIMEOUT", 2, ("transient",), True),
    "not_logged_in_log_then_success": ({}, "SUCCESS", 1, (), None),
    "result_without_conversation_id": ({}, "SUCCESS", 1, (), None),
    "probe_verification_required": ({}, "ACCOUNT_VERIFICATION_REQUIRED", 0, (VALIDATION_URL_FOR_TESTS,), False),
    "probe_eligibility_401": ({}, "ACCOUNT_VERIFICATION_REQUIRED", 0, ("401", LOGIN), False),
    "worker_verification_required": ({}, "ACCOUNT_VERIFICATION_REQUIRED", 1, (VALIDATION_URL_FOR_TESTS,), False),
    "worker_eligibility_401": ({}, "ACCOUNT_VERIFICATION_REQUIRED", 1, ("401", LOGIN), False),
    "quota_words_in_log_of_a_success": ({}, "SUCCESS", 1, (), None),
    "quota_retried_until_print_timeout": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "quota_agy_error_exit_3": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "quota_error_result_1_2_2": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "quota_text_exit_1": ({}, "QUOTA_EXHAUSTED", 1, ("reset",), False),
    "upstream_503_agy_error": ({}, "UPSTREAM_UNAVAILABLE", 2, ("in-process", "once more", "another model"), True),
    "upstream_network_issue": ({}, "UPSTREAM_UNAVAILABLE", 1, ("again",), True),
    "upstream_terminated_no_capacity": ({}, "UPSTREAM_UNAVAILABLE", 2, ("once more",), True),
    "upstream_503_retried_until_print_timeout": ({}, "UPSTREAM_UNAVAILABLE", 1, ("again",), True),
    "terminated_broken_settings": ({}, "WORKER_ERROR", 1, ("settings.json", "Error ID"), None),
    "upstream_network_issue_old_agy_then_success": ({}, "SUCCESS", 2, (), None),
    "upstream_network_issue_old_agy_twice": ({}, "UPSTREAM_UNAVAILABLE", 2, ("again",), True),
    "upstream_old_agy_after_a_write": ({}, "MUTATION_ABORTED", 1, ("revert",), None),
    "print_timeout_text_wording": ({}, "EXECUTION_TIMEOUT", 1, ("timeout",), False),
    "print_timeout_envelope_wording": ({}, "EXECUTION_TIMEOUT", 1, ("timeout",), False),
    "print_timeout_partial_success": ({}, "EXECUTION_TIMEOUT", 1, ("timeout",), False),
    "invalid_model_lists_available": ({"model": "gemini-9-ultra"}, "WORKER_ERROR", 1,
                                      ("gemini-9-ultra", "gemini-3.6-flash-high", "claude-opus-4-6-thinking"), False),
    "safe_mode_edits_soft_denied": ({}, "PERMISSION_DENIED", 1, ("trusted", "accept-edits", "EditFile (edit)", "--write-probe"), False),
    "command_soft_denied": ({}, "PERMISSION_DENIED", 1, ("permissions.allow", "command("), False),
}


def test_every_section6_scenario_has_a_row_and_every_row_a_scenario():
    assert set(ROWS) == set(SECTION6_SCENARIOS)


async def run_through_relay(root: Path, scen: dict, args: dict) -> tuple[dict, list[dict], float]:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scen)
    # A short kill grace: a worker that ignores SIGTERM at its sign-out line is SIGKILLed 0.2 s later, not 1 s.
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(root / "data"), "AGY_BIN": str(agy),
                              "GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS": "2", "GRAVITY_RELAY_KILL_GRACE_SECONDS": "0.2"})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        started = time.monotonic()
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), **args}))
        elapsed = time.monotonic() - started
    return packet, launches(agy), elapsed


def assert_row_answer(packet: dict, runs: list[dict], status: str, count: int, words: tuple[str, ...],
                      retryable: bool | None) -> dict | None:
    """What every row of agy's reported behaviours (§6, §7, §8, the audit) must answer: its status, its number of
    launches, nothing left running, agy's "re-run with --dangerously-skip-permissions" never handed to the leader, and
    on a failure the words its hint or message must hold and whether it may be retried. The error, for more checks."""
    assert packet["status"] == status, packet
    assert len(runs) == count, [r.get("behaviour") for r in runs]
    # nothing left running: every launch ended (SIGKILL included)
    assert all(r["end"] is not None or r["exit_code"] is not None or not _alive(r["pid"]) for r in runs)
    assert "dangerously-skip-permissions" not in json.dumps(packet)
    if status == "SUCCESS":
        assert packet["ok"] is True and packet["changes"]["files"] == ["src/new.py"], packet
        return None
    error = packet["error"]
    for word in words:
        assert word in error["hint"] or word in error["message"], (word, error)
    if retryable is not None:
        assert error.get("retryable", False) is retryable, error
    return error


class RowChecks(dict):
    """More checks of a row's one delegation, by row name: what a test ran the row's scenario with the row's own
    arguments again for is checked on the row's run instead (each delegation is a fake agy, git and the review: ~0.2 s
    of CPU). ``@MORE("row")`` on a function of (packet, runs, elapsed, root); the row's test calls ``check``."""

    def __call__(self, name: str):
        def kept(check):
            self.setdefault(name, []).append(check)
            return check
        return kept

    def check(self, name: str, packet: dict, runs: list[dict], elapsed: float, root: Path) -> None:
        for more in self.get(name, ()):
            more(packet, runs, elapsed, root)


MORE = RowChecks()


def tiered(rows: dict, fast: frozenset[str]) -> list:
    """A row table's names as the test's parameters: the rows of ``fast`` in the fast tier, the others in the process
    tier (the ``process`` mark, conftest.py). Each row is a whole delegation (the fake agy, git, the review: ~0.1-0.3 s
    of CPU, ~130 rows in four tables). Rows with the same status and number of launches travel the same path through
    the relay (the auth probe, the worker's login watch, the retry guard, the classifier's verdict) and differ in the
    text the classifier reads, what its own tests (tests/test_classify.py) read in memory: the fast tier keeps one row of each
    path across the four tables and every row with more checks (MORE), and --tier process runs them all."""
    return [name if name in fast else pytest.param(name, marks=pytest.mark.process) for name in rows]


def test_the_fast_tier_keeps_a_row_of_each_path_and_every_row_with_more_checks():
    import test_agy_1_3
    import test_agy_1_3_3
    import test_agy_audit

    tables = [(module.ROWS, module.FAST, module.MORE)
              for module in (sys.modules[__name__], test_agy_1_3, test_agy_1_3_3, test_agy_audit)]
    for rows, fast, more in tables:
        assert set(more) <= fast <= set(rows), sorted(fast - set(rows)) or sorted(set(more) - fast)
    paths = {(row[1], row[2]) for rows, _, _ in tables for row in rows.values()}
    assert {(rows[name][1], rows[name][2]) for rows, fast, _ in tables for name in fast} == paths


# The rows the fast tier runs (tiered says which and why).
FAST = frozenset({
    "probe_signed_out_current", "worker_signed_out_current", "worker_signed_out_blocks_ignoring_sigterm",
    "oauth_prompt_once_with_valid_token", "oauth_prompt_twice", "auth_timed_out_without_prompt",
    "not_logged_in_log_then_success", "probe_verification_required", "worker_verification_required",
    "quota_retried_until_print_timeout", "upstream_503_agy_error", "upstream_network_issue",
    "terminated_broken_settings", "upstream_old_agy_after_a_write", "print_timeout_text_wording",
    "safe_mode_edits_soft_denied"
})


@pytest.mark.parametrize("name", tiered(ROWS, FAST))
async def test_relay_answers_each_real_agy_text_with_its_status_launches_and_hint(tmp_path, name):
    args, status, count, words, retryable = ROWS[name]
    packet, runs, elapsed = await run_through_relay(tmp_path, SECTION6_SCENARIOS[name], args)
    assert_row_answer(packet, runs, status, count, words, retryable)
    MORE.check(name, packet, runs, elapsed, tmp_path)


def test_every_row_check_names_a_row():
    assert set(MORE) <= set(ROWS)


def _alive(pid: int) -> bool:
    from fake_agy_harness import pid_alive

    return pid_alive(pid)


@MORE("worker_signed_out_blocks_ignoring_sigterm")
def _worker_blocking_for_a_paste_and_ignoring_sigterm_is_killed_at_its_sign_out_line(packet, runs, elapsed, root):
    # agy 1.2.14 signed out: the line, then a wait for a pasted code that ignores SIGTERM. The relay used to
    # miss the line and wait out the whole run timeout (30 min) before EXECUTION_TIMEOUT.
    assert packet["status"] == "LOGIN_REQUIRED"
    (run,) = runs
    assert run["signals_ignored"] == [15] and not _alive(run["pid"])  # SIGKILL followed the ignored SIGTERM
    assert "authentication required" in packet["error"]["message"]


@MORE("not_logged_in_log_then_success")
def _not_logged_in_start_up_line_in_the_log_of_a_successful_run_is_not_a_failure(packet, runs, elapsed, root):
    assert packet["status"] == "SUCCESS" and len(runs) == 1
    log = Path(runs[0]["flags"]["log-file"]).read_text(encoding="utf-8")
    assert "You are not logged into Antigravity." in log  # the line was really there


async def test_a_result_without_conversation_id_is_a_success_that_can_be_continued(tmp_path):
    # agy-protocol.md §6.2: a user pasted a result with no conversation_id. The relay called such a
    # run INVALID_ENVELOPE, though agy had done the work; the id is in the stream's init event.
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", SECTION6_SCENARIOS["result_without_conversation_id"])
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        first = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        assert first["status"] == "SUCCESS" and first.get("conversation_id"), first
        second = payload(await client.call_tool("antigravity_continue", {"run_id": first["run_id"], "feedback": "more"}))
    assert second["status"] == "SUCCESS", second
    assert launches(agy)[-1]["flags"].get("conversation") == first["conversation_id"]
