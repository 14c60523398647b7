"""agy 1.3.x up to 1.3.3 as its users report it (agy-protocol.md §8, issue 35) through the whole relay.

Each row names a scenario of ``fake_agy_harness.SECTION8_SCENARIOS`` (built from §8's exact texts) and runs it
through the MCP door (in process, the fake agy a real subprocess, a real git repo): the status, the number of
worker launches from the fake's own launch log, the words the message or hint must hold, and error.reason where
the status needs a finer code. Cases that need more than the packet have their own tests below. The repository's
own agy configuration (§8.4) is in tests/test_workspace_agy_config.py.
"""

from __future__ import annotations

import json

import pytest
from mcp import Client

from conftest import make_repo, payload
from fake_agy_harness import _OK, SECTION8_SCENARIOS, install_fake_agy, launches, scenario
from relay.agy.auth_reading import AuthWatch
from relay.core.contracts import Status
from relay.core.settings import load_settings
from relay.doors.mcp_server import create_server
from test_agy_reality import RowChecks, assert_row_answer, run_through_relay, tiered

pytestmark = pytest.mark.anyio

LOGIN = ("`agy`", "expired")
BASE = {"model": "gemini-3.8-flash"}
UNSUPPORTED = {"model": "gemini-3-1-pro", "effort": "high"}
STALL = ("delegated", "ended before it reported", "independent reviewer", "antigravity_continue")
# name -> (call arguments, status, worker launches, words the message or hint must hold, error.retryable or None)
ROWS: dict[str, tuple[dict, str, int, tuple[str, ...], bool | None]] = {
    "auth_expired_on_stderr": ({}, "LOGIN_REQUIRED", 1, LOGIN, False),
    "auth_expired_in_the_result": ({}, "LOGIN_REQUIRED", 1, LOGIN, False),
    "auth_expired_result_and_echo": ({}, "LOGIN_REQUIRED", 1, LOGIN, False),
    "base_model_needs_effort_listed": (BASE, "CONFLICTING_OPTIONS", 1, ("gemini-3.8-flash", "effort", "low, medium, high"),
                                       False),
    "base_model_needs_effort_unlisted": (BASE, "CONFLICTING_OPTIONS", 0, ("gemini-3.8-flash", "effort", "nothing was "
                                                                          "launched", "gemini-3.8-flash-high"), False),
    "base_model_needs_effort_exit_2": (BASE, "CONFLICTING_OPTIONS", 1, ("gemini-3.8-flash", "requires --effort"), False),
    "effort_not_supported_unlisted": (UNSUPPORTED, "CONFLICTING_OPTIONS", 0, ("gemini-3-1-pro", "effort",
                                                                              "nothing was launched"), False),
    "effort_not_supported_at_run": (UNSUPPORTED, "CONFLICTING_OPTIONS", 1, ("gemini-3-1-pro", "drop `effort`"), False),
    "subagent_stall_tool_step": ({}, "WORKER_ERROR", 1, (*STALL, "output tokens"), False),
    "subagent_stall_step_with_a_report": ({}, "WORKER_ERROR", 1, STALL, False),
    "subagent_came_back": ({}, "SUCCESS", 1, (), None),
    "denied_write_without_a_list": ({}, "PERMISSION_DENIED", 1, ("write_to_file (write_file)", "permissions.allow",
                                                                 "trusted"), False),
    "denied_command_without_a_list": ({}, "PERMISSION_DENIED", 1, ("unsandboxed command", "command("), False),
    "soft_deny_only_in_the_log": ({}, "PERMISSION_DENIED", 1, ("RunCommand", "permissions.allow"), False),
    "soft_deny_only_in_the_log_no_output": ({}, "PERMISSION_DENIED", 1, ("RunCommand",), False),
    "error_message_step": ({}, "SUCCESS", 1, (), None),
    "folded_answer_bytes": ({}, "SUCCESS", 1, (), None),
    "folded_answer_lines_crlf": ({}, "SUCCESS", 1, (), None),
    "no_capacity_agy_error_exit_3": ({}, "UPSTREAM_UNAVAILABLE", 2, ("No capacity", "once more", "another model"), True),
    "no_capacity_in_the_result_exit_3": ({}, "UPSTREAM_UNAVAILABLE", 2, ("No capacity", "once more"), True),
    "no_capacity_then_success": ({}, "SUCCESS", 2, (), None),
    "no_capacity_after_a_write": ({}, "MUTATION_ABORTED", 1, ("revert",), None),
    "degenerate_partial_at_print_timeout": ({}, "EXECUTION_TIMEOUT", 1, ("timeout",), False),
    "soft_deny_advice_on_1_3_3": ({}, "PERMISSION_DENIED", 1, ("permissions.allow", "trusted"), False),
}
REASONS = {"subagent_stall_tool_step": "subagent_unfinished", "subagent_stall_step_with_a_report": "subagent_unfinished"}


MORE = RowChecks()  # more checks of a row's one run (test_agy_reality.RowChecks), defined below


def test_every_section8_scenario_has_a_row_and_every_row_a_scenario():
    assert set(ROWS) == set(SECTION8_SCENARIOS) and set(MORE) <= set(ROWS)


# The rows the fast tier runs (test_agy_reality.tiered says which and why).
FAST = frozenset({
    "auth_expired_on_stderr", "base_model_needs_effort_unlisted", "subagent_stall_tool_step", "subagent_came_back",
    "error_message_step", "folded_answer_bytes", "folded_answer_lines_crlf", "degenerate_partial_at_print_timeout"
})


@pytest.mark.parametrize("name", tiered(ROWS, FAST))
async def test_relay_answers_each_section8_text_with_its_status_launches_and_hint(tmp_path, name):
    args, status, count, words, retryable = ROWS[name]
    packet, runs, elapsed = await run_through_relay(tmp_path, SECTION8_SCENARIOS[name], args)
    error = assert_row_answer(packet, runs, status, count, words, retryable)
    if error is not None:
        assert error.get("reason") == REASONS.get(name), error
    MORE.check(name, packet, runs, elapsed, tmp_path)


# ---------------------------------------------------------------- signed out on 1.3.3

@pytest.mark.parametrize("line", ["Authentication expired. Please log back in.",
                                  "AUTHENTICATION EXPIRED. please log back in.",
                                  "error: Authentication expired. Please log back in.",
                                  "  authentication expired. Please log back in.\r"])
def test_auth_expired_settles_the_watch_at_a_line_start_whatever_its_case(line):
    watch = AuthWatch()
    assert watch.feed(line) is Status.LOGIN_REQUIRED and watch.kind == "signed_out"


def test_auth_expired_quoted_mid_line_does_not_stop_a_run():
    # The line-start rule: a tool's output or a warning quoting the sentence is not agy saying it.
    watch = AuthWatch()
    assert watch.feed('warning: hook printed "Authentication expired. Please log back in."') is None


@MORE("auth_expired_on_stderr")
def _auth_expired_is_answered_at_once_and_not_retried(packet, runs, elapsed, root):
    assert packet["status"] == "LOGIN_REQUIRED" and len(runs) == 1
    assert "Authentication expired" in packet["error"]["message"] and elapsed < 20


# ---------------------------------------------------------------- the subagent stall

@MORE("subagent_stall_tool_step")
def _subagent_stall_names_the_subagent_and_lists_the_changes_so_far(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "WORKER_ERROR" and packet["error"]["reason"] == "subagent_unfinished"
    assert packet["changes"]["files"] == ["src/new.py"]  # what it did before delegating is listed
    assert packet.get("conversation_id") == run["conversation_id"]  # continue resumes it
    assert "invoke_subagent" in packet["error"]["hint"]


@MORE("subagent_came_back")
def _worker_prompt_tells_it_not_to_delegate(packet, runs, elapsed, root):
    (run,) = runs
    assert "do not delegate to subagents (invoke_subagent)" in run["prompt"]


# ---------------------------------------------------------------- error steps and folded answers

@MORE("error_message_step")
def _error_message_steps_are_counted_in_the_packet(packet, runs, elapsed, root):
    assert "agy reported 2 internal error steps (no reason given)" in packet["flags"], packet["flags"]


@MORE("folded_answer_bytes")
@MORE("folded_answer_lines_crlf")
def _folded_answer_is_said_to_be_lossy(packet, runs, elapsed, root):
    said = [f for f in packet["flags"] if "lossy" in f]
    assert len(said) == 1 and "<truncated " in said[0], packet["flags"]


async def test_a_marker_inside_a_line_is_not_a_fold(tmp_path):
    scen = json.loads(json.dumps(SECTION8_SCENARIOS["error_message_step"]))
    scen["launches"][0].update(extra_steps=[], response="The log said <truncated 12 bytes> here, quoting agy.\n")
    packet, _, _ = await run_through_relay(tmp_path, scen, {})
    assert not [f for f in packet.get("flags", []) if "lossy" in f]


# ---------------------------------------------------------------- keep holding (issue 35, item 3)

@MORE("degenerate_partial_at_print_timeout")
def _degenerate_partial_keeps_the_packet_under_2kb_and_the_record_small(packet, runs, elapsed, root):
    assert packet["status"] == "EXECUTION_TIMEOUT"
    assert len(json.dumps(packet, separators=(",", ":")).encode()) <= 2000
    record = json.loads(next((root / "data" / "runs").glob(f"{packet['run_id']}.json")).read_text(encoding="utf-8"))
    assert len(json.dumps(record)) < 200_000  # the 289 KB partial is not stored whole (the transcript has it)


async def test_soft_deny_advice_is_not_in_any_view_the_leader_reads(tmp_path):
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", SECTION8_SCENARIOS["soft_deny_advice_on_1_3_3"])
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        packet = payload(await client.call_tool("antigravity_execute", {"task": "t", "workspace": str(repo)}))
        views = [payload(await client.call_tool("antigravity_get_result", {"run_id": packet["run_id"], "detail": d}))
                 for d in ("summary", "errors", "full")]
    assert packet["status"] == "PERMISSION_DENIED"
    assert "jetski: no output produced" in json.dumps(views[1])  # agy's stderr is there ...
    for view in [packet, *views]:
        assert "dangerously-skip-permissions" not in json.dumps(view)  # ... without its advice
    record = next((tmp_path / "data" / "runs").glob(f"{packet['run_id']}.json")).read_text(encoding="utf-8")
    assert "--dangerously-skip-permissions to auto-approve" in record  # kept in the record itself


@pytest.mark.real_probes  # reads the probes' own launches
@pytest.mark.parametrize("task,minutes", [("-", 0.001), ("--remote-control", 1)])
async def test_every_launch_has_a_print_timeout_and_never_reads_the_prompt_from_stdin(tmp_path, task, minutes):
    repo = make_repo(tmp_path / "project")
    agy = install_fake_agy(tmp_path / "bin", SECTION8_SCENARIOS["subagent_came_back"])
    settings = load_settings({"GRAVITY_RELAY_DATA_DIR": str(tmp_path / "data"), "AGY_BIN": str(agy)})
    async with Client(create_server(settings, agy=(str(agy), None)), mode="legacy") as client:
        await client.call_tool("antigravity_execute", {"task": task, "workspace": str(repo), "timeout_minutes": minutes})
    everything = launches(agy, print_mode_only=False)
    assert {r["mode"] for r in everything} >= {"print", "models"}
    for run in everything:
        assert run["env"]["AGY_CLI_DISABLE_AUTO_UPDATE"] == "true", run["mode"]
        assert "--remote-control" not in run["argv"] and "--print=-" not in run["argv"]
        assert not any(a == "-" and b in ("-p", "--print") for b, a in zip(run["argv"], run["argv"][1:]))
    (print_run,) = [r for r in everything if r["mode"] == "print"]
    argv = print_run["argv"]
    assert argv[argv.index("--print-timeout") + 1] not in ("0", "0s")
    assert print_run["flags"]["print-timeout"] > 0 and print_run["stdin"]["devnull"]


@pytest.mark.parametrize("tools,said", [(None, True), (["view_file", "write_to_file", "run_command"], False)])
async def test_an_agent_that_still_offers_invoke_subagent_is_said(tmp_path, tools, said):
    # The other way to prevent the stall (agy-protocol.md §8.6 item 2): an --agent whose tools leave out
    # invoke_subagent, checked against what agy's init says it offered.
    scen = json.loads(json.dumps(SECTION8_SCENARIOS["subagent_came_back"]))
    if tools:
        scen["tools"] = tools
    packet, (run,), _ = await run_through_relay(tmp_path, scen, {"agent": "implementer"})
    assert run["argv"][run["argv"].index("--agent") + 1] == "implementer"
    flags = packet.get("flags", [])
    assert any("implementer still offers invoke_subagent" in f for f in flags) is said, flags


# ---------------------------------------------------------------- an effort this agy does not take

@pytest.mark.parametrize(("version", "effort", "takes", "more"), [
    ("1.2.17", "xhigh", "low, medium, high, max", ("1.3.0", "agy update")),
    ("1.3.3", "ultra", "low, medium, high, xhigh, max", ()),
])
async def test_an_effort_the_installed_agy_does_not_take_is_refused_before_launch_naming_the_ones_it_does(
        tmp_path, version, effort, takes, more):
    # The party: the leader's model (or a profile) naming an effort; the relay's use of agy. agy's efforts are known
    # by version (agy-protocol.md §1, §7.4). Before: agy was launched and refused it (exit 1) before any turn.
    packet, runs, _ = await run_through_relay(tmp_path, scenario(_OK, version=version), {"effort": effort})
    error = assert_row_answer(packet, runs, "CONFLICTING_OPTIONS", 0, (effort, takes, "nothing was launched", "`effort`",
                                                                       "profile", *more), False)
    assert f"agy {version}" in error["message"], error
