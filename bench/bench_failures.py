"""Failure figures: for each row of agy's failure table, the relay's status, agy launches and wall time.

Each scenario runs one `antigravity_execute` through `gravity-relay serve` over stdio against the
fake agy (which waits as long as the real one does: 60 s for a login prompt, 40 s for a keyring
timeout), so the wall time shows what the leader actually waits.

    python bench/bench_failures.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the suite's helpers: conftest, the fake agy

from conftest import make_repo, payload, relay_env, stdio_relay  # noqa: E402
from fake_agy_harness import (  # noqa: E402
    SECTION6_SCENARIOS,
    SECTION8_SCENARIOS,
    failure_scenario,
    install_fake_agy,
    launches,
    scenario,
    success_scenario,
)

EDIT = [{"op": "write", "path": "src/new.py", "content": "x = 1\n"}]
REPORT = {"summary": "ok", "files_changed": ["src/new.py"]}


def _signed_out() -> dict:
    scen = success_scenario(EDIT)
    scen["models"] = "signed_out"
    return scen


SCENARIOS: list[tuple[str, dict, dict]] = [
    ("success", success_scenario(EDIT), {}),
    ("agy too old (1.1.4)", success_scenario(EDIT, version="1.1.4"), {}),
    ("login required (probe)", _signed_out(), {}),
    ("login required (worker, agy waits 60s)", failure_scenario("login_required", wait_seconds=60), {}),
    ("keyring timeout then success", scenario({"behaviour": "keyring_timeout", "keyring_seconds": 5, "wait_seconds": 40},
                                              {"behaviour": "success", "edits": EDIT, "report": REPORT}), {}),
    ("keyring timeout twice", scenario({"behaviour": "keyring_timeout", "keyring_seconds": 5, "wait_seconds": 40}), {}),
    ("keyring timeout after a write", scenario({"behaviour": "keyring_timeout", "keyring_seconds": 5,
                                                "wait_seconds": 40, "edits": EDIT}), {}),
    ("quota 1.2.2 (exit 0)", failure_scenario("quota_1_2_2"), {}),
    ("quota 1.2.11 (exit 3)", failure_scenario("quota_1_2_11"), {}),
    ("quota text (exit 1)", failure_scenario("quota_text"), {}),
    ("permission soft-deny", failure_scenario("permission_denied", commands=["npm test"]), {}),
    ("print timeout <=1.1.27", failure_scenario("print_timeout_old"), {}),
    ("print timeout 1.2.0+ (partial)", failure_scenario("print_timeout_new"), {}),
    ("hung worker, relay timeout 3s", failure_scenario("hang", grandchild=True), {"timeout_minutes": 0.05}),
    ("empty output", failure_scenario("empty_output"), {}),
    ("garbage output", failure_scenario("garbage"), {}),
    ("stream without result", failure_scenario("no_result"), {}),
    ("no structured report", failure_scenario("no_report"), {}),
    ("stale error beside success", failure_scenario("stale_error", edits=EDIT), {}),
    ("API error (exit 3)", failure_scenario("api_error"), {}),
    # agy-protocol.md §6: what users of real agy see
    ("signed out, current text (probe)", SECTION6_SCENARIOS["probe_signed_out_current"], {}),
    ("signed out, 1.2.14 blocks for paste (probe)", SECTION6_SCENARIOS["probe_signed_out_blocks_for_paste"], {}),
    ("signed out, current text (worker)", SECTION6_SCENARIOS["worker_signed_out_current"], {}),
    ("signed out, worker ignores SIGTERM", SECTION6_SCENARIOS["worker_signed_out_blocks_ignoring_sigterm"], {}),
    ("Please sign in in the result", SECTION6_SCENARIOS["envelope_please_sign_in"], {}),
    ("OAuth prompt once, token valid (WSL2)", SECTION6_SCENARIOS["oauth_prompt_once_with_valid_token"], {}),
    ("auth timed out, no prompt (network)", SECTION6_SCENARIOS["auth_timed_out_without_prompt"], {}),
    ("account verification 403 (probe)", SECTION6_SCENARIOS["probe_verification_required"], {}),
    ("account verification 403 (worker)", SECTION6_SCENARIOS["worker_verification_required"], {}),
    ("eligibility 401 (worker)", SECTION6_SCENARIOS["worker_eligibility_401"], {}),
    ("quota words in log of a success", SECTION6_SCENARIOS["quota_words_in_log_of_a_success"], {}),
    ("quota retried until print timeout", SECTION6_SCENARIOS["quota_retried_until_print_timeout"], {}),
    ("503 retryable, agy 1.2.17", SECTION6_SCENARIOS["upstream_503_agy_error"], {}),
    ("network issue, agy 1.2.17", SECTION6_SCENARIOS["upstream_network_issue"], {}),
    ("network issue, agy 1.1.12, then ok", SECTION6_SCENARIOS["upstream_network_issue_old_agy_then_success"], {}),
    ("capacity termination, 1.1.12, after write", SECTION6_SCENARIOS["upstream_old_agy_after_a_write"], {}),
    ("timed out waiting for response (text)", SECTION6_SCENARIOS["print_timeout_text_wording"], {}),
    ("invalid model, 1.1.2+ list", SECTION6_SCENARIOS["invalid_model_lists_available"], {"model": "gemini-9-ultra"}),
    ("safe mode edits soft-denied", SECTION6_SCENARIOS["safe_mode_edits_soft_denied"], {}),
    # agy-protocol.md §8: agy 1.3.x up to 1.3.3
    ("1.3.3 Authentication expired (stderr)", SECTION8_SCENARIOS["auth_expired_on_stderr"], {}),
    ("base id needs --effort, agy models lists it", SECTION8_SCENARIOS["base_model_needs_effort_listed"],
     {"model": "gemini-3.8-flash"}),
    ("base id needs --effort, levels listed only", SECTION8_SCENARIOS["base_model_needs_effort_unlisted"],
     {"model": "gemini-3.8-flash"}),
    ("subagent stall (invoke_subagent)", SECTION8_SCENARIOS["subagent_stall_tool_step"], {}),
    ("subagent came back", SECTION8_SCENARIOS["subagent_came_back"], {}),
    ("denied, no denied_actions (1.2.12)", SECTION8_SCENARIOS["denied_write_without_a_list"], {}),
    ("soft deny only in agy's log (1.1.24)", SECTION8_SCENARIOS["soft_deny_only_in_the_log"], {}),
    ("503 No capacity, result error, exit 3", SECTION8_SCENARIOS["no_capacity_in_the_result_exit_3"], {}),
    ("289 KB partial at print timeout", SECTION8_SCENARIOS["degenerate_partial_at_print_timeout"], {}),
]


async def measure(root: Path, scen: dict, args: dict) -> tuple[str, int, float, bool | None]:
    repo = make_repo(root / "project")
    agy = install_fake_agy(root / "bin", scen)
    env = relay_env(root / "data", agy, GRAVITY_RELAY_TIMEOUT_GRACE_SECONDS="2")
    async with stdio_relay(env) as client:
        started = time.monotonic()
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo), **args}))
        elapsed = time.monotonic() - started
    retryable = packet["error"].get("retryable", False) if packet.get("error") else None
    return packet["status"], len(launches(agy)), elapsed, retryable


def main() -> None:
    print(f"{'scenario':<44} {'status':<30} {'launches':>8} {'wall s':>7}  retryable")
    for name, scen, args in SCENARIOS:
        with tempfile.TemporaryDirectory() as tmp:
            status, count, elapsed, retryable = anyio.run(measure, Path(tmp), scen, args)
        shown = "" if retryable is None else str(retryable).lower()
        print(f"{name:<44} {status:<30} {count:>8} {elapsed:>7.2f}  {shown}", flush=True)


if __name__ == "__main__":
    main()
