"""The rows of docs/agy-coverage.md that no earlier table met: agy behaviours of agy-protocol.md §6-§8 that the fake
could not produce, or that no test ran through the relay (issue: the agy audit, session 15).

Each row names a scenario below (built from the notes' texts, under the fake's explicit switches) and runs it through
the MCP door in process, the fake agy a real subprocess and the repository a real git repo: the status, the number of
worker launches from the fake's own launch log, and the words the message or hint must hold. The §6-§8 tables are in
test_agy_reality.py, test_agy_1_3.py and test_agy_1_3_3.py; the workspace's own agy configuration (§8.4) in
test_workspace_agy_config.py.
"""

from __future__ import annotations

import json

import pytest

from fake_agy_harness import _EDIT, _OK, _REPORT, scenario
from test_agy_reality import RowChecks, assert_row_answer, run_through_relay, tiered

pytestmark = pytest.mark.anyio

SAFE = {"execution_mode": "safe"}
_POLICY = {"permissions": "policy"}
_LEVELS = ["low", "medium", "high", "xhigh"]
_DESCRIBED = [[f"gemini-3.8-flash-{lv}", f"Gemini 3.8 Flash ({lv}) · Fast, for everyday tasks"] for lv in _LEVELS[:3]]
STALE_EOF = ('error: API error (attempt 2): Post "https://daily-cloudcode-pa.googleapis.com/v1internal:'
             'streamGenerateContent?alt=sse": EOF')
# 1.2.11/1.2.12 with --json-schema on stream-json: response is JSON text carrying keys the schema does not allow,
# structured_output matches the schema (agy-protocol.md §8.1)
_LOOSE_RESPONSE = json.dumps({"summary": "the response's own text", "files_changed": ["src/new.py"],
                              "toolAction": "Reporting", "wouldEdit": True}) + "\n"
_COMMAND = {"commands": ["npm test"]}
_CUT_ANSWER = "I updated the parser and all tests pass. Summary of the chan"


def _denied(action: str) -> dict:
    """1.2.7-1.3.x soft deny whose denied_actions names one of the newer actions (agy-protocol.md §7.1)."""
    return scenario({"behaviour": "permission_denied", **_COMMAND, "denied_action": action}, version="1.3.3")


AUDIT_SCENARIOS: dict[str, dict] = {
    # §7.1: 1.1.13-1.1.19 refused a write (or a command) as a hard error, exit 1: PERMISSION_DENIED [meas]
    "hard_denied_write_1_1_13": {**scenario({**_OK, "deny_style": "hard"}, version="1.1.13"), **_POLICY},
    "hard_denied_command_1_1_19": scenario({**_OK, **_COMMAND, "deny_style": "hard"}, version="1.1.19"),
    # §7.1: the newer denied_actions[].action values (1.2.7-1.3.x)
    "denied_unsandboxed_1_3_3": _denied("unsandboxed"),
    "denied_execute_url_1_3_3": _denied("execute_url"),
    "denied_mcp_1_3_3": _denied("mcp"),
    "denied_read_file_1_3_3": _denied("read_file"),
    # §8.1: the invalid model, verbatim as 1.2.1 prints it: on stderr, nothing on stdout, exit 1
    "invalid_model_on_stderr_1_2_1": scenario({"behaviour": "invalid_model", "where": "stderr"}, version="1.2.1"),
    # §7.3: an `API error (attempt 2): … EOF` line beside a complete answer (1.2.14): keep the response and changes
    "stale_api_error_line_beside_a_success_1_2_14": scenario({**_OK, "stderr": [STALE_EOF]}, version="1.2.14"),
    # §8.1: structured_output is the report; response carries keys the schema forbids
    "schema_response_with_forbidden_keys_1_2_12": scenario({**_OK, "response": _LOOSE_RESPONSE}, version="1.2.12"),
    # §8.3: proceed-in-sandbox is the user's settings auto-approving: a safe run reporting it is stopped at init
    "safe_run_under_proceed_in_sandbox_1_3_3": {**scenario({**_OK, "think_seconds": 5}, version="1.3.3"), **_POLICY,
                                                "tool_permission": "proceed-in-sandbox"},
    # §7.4: 1.3.x's efforts include xhigh; a base id with it runs
    "xhigh_effort_on_1_3_3": {**scenario(_OK, version="1.3.3"), "base_models": {"gemini-3.8-flash": _LEVELS},
                              "model_list": [["gemini-3.8-flash", "Gemini 3.8 Flash"]]},
    # §8.2: the plain-answer step types 1.2.11 streams (thinking, reasoning, planner_response) are read as unknown
    "plain_answer_step_types_1_2_11": scenario({**_OK, "extra_steps": ["thinking", "reasoning", "planner_response"]},
                                               version="1.2.11"),
    # §8.3: since 1.2.10 a run that streamed part of its answer and then hit a model error exits 3 with AGY_ERROR
    "streamed_part_then_a_model_error_1_2_10": scenario({"behaviour": "agy_error_short", "streamed": _CUT_ANSWER,
                                                         "short_error": "INTERNAL (code 500): An internal error has "
                                                                        "occurred."}, version="1.2.10"),
    # §1, §4: an agy whose --version the relay cannot read is taken as current; an older one then refuses a flag
    "unknown_flag_when_the_version_is_unreadable": scenario(_OK, version="dev-build"),
    # §6.1: `agy models` rows carrying ` · description` after the label still settle a bare id before a launch
    "models_rows_with_descriptions": {**scenario(_OK, version="1.3.3"), "base_models": {"gemini-3.8-flash": _LEVELS[:3]},
                                      "model_list": _DESCRIBED},
}

XHIGH = {"model": "gemini-3.8-flash", "effort": "xhigh"}
# name -> (call arguments, status, worker launches, words the message or hint must hold)
ROWS: dict[str, tuple[dict, str, int, tuple[str, ...]]] = {
    "hard_denied_write_1_1_13": (SAFE, "PERMISSION_DENIED", 1, ("write_to_file", "--write-probe", "trusted",
                                                                 "agy update")),
    "hard_denied_command_1_1_19": ({}, "PERMISSION_DENIED", 1, ("unsandboxed command", "command(", "trusted")),
    "denied_unsandboxed_1_3_3": ({}, "PERMISSION_DENIED", 1, ("RunCommand (unsandboxed)", "command(npm test)")),
    "denied_execute_url_1_3_3": ({}, "PERMISSION_DENIED", 1, ("execute_url", "read_url(")),
    "denied_mcp_1_3_3": ({}, "PERMISSION_DENIED", 1, ("mcp", "permissions.allow")),
    "denied_read_file_1_3_3": ({}, "PERMISSION_DENIED", 1, ("read_file", "permissions.allow")),
    "invalid_model_on_stderr_1_2_1": ({"model": "no-such-model-xyz"}, "WORKER_ERROR", 1,
                                      ("no-such-model-xyz", "agy models")),
    "stale_api_error_line_beside_a_success_1_2_14": ({}, "SUCCESS", 1, ()),
    "schema_response_with_forbidden_keys_1_2_12": ({}, "SUCCESS", 1, ()),
    "safe_run_under_proceed_in_sandbox_1_3_3": (SAFE, "CONFLICTING_OPTIONS", 1, ("proceed-in-sandbox", "request-review",
                                                                                 "before any tool")),
    "xhigh_effort_on_1_3_3": (XHIGH, "SUCCESS", 1, ()),
    "plain_answer_step_types_1_2_11": ({}, "SUCCESS", 1, ()),
    "streamed_part_then_a_model_error_1_2_10": ({}, "WORKER_ERROR", 1, ("INTERNAL",)),
    # launched once, refused at its flags: the fake's launch log has no print-mode run for it
    "unknown_flag_when_the_version_is_unreadable": ({}, "AGY_TOO_OLD", 0, ("-output-format", "agy update")),
    "models_rows_with_descriptions": ({"model": "gemini-3.8-flash"}, "CONFLICTING_OPTIONS", 0,
                                      ("gemini-3.8-flash-high", "nothing was launched")),
}


MORE = RowChecks()  # more checks of a row's one run (test_agy_reality.RowChecks), defined below


def test_every_audit_scenario_has_a_row_and_every_row_a_scenario():
    assert set(ROWS) == set(AUDIT_SCENARIOS) and set(MORE) <= set(ROWS)


# The rows the fast tier runs (test_agy_reality.tiered says which and why).
FAST = frozenset({
    "hard_denied_write_1_1_13", "schema_response_with_forbidden_keys_1_2_12", "xhigh_effort_on_1_3_3",
    "unknown_flag_when_the_version_is_unreadable"
})


@pytest.mark.parametrize("name", tiered(ROWS, FAST))
async def test_relay_answers_each_audited_behaviour_with_its_status_launches_and_hint(tmp_path, name):
    args, status, count, words = ROWS[name]
    packet, runs, elapsed = await run_through_relay(tmp_path, AUDIT_SCENARIOS[name], args)
    assert_row_answer(packet, runs, status, count, words, retryable=False)
    MORE.check(name, packet, runs, elapsed, tmp_path)


@MORE("hard_denied_write_1_1_13")
def _a_hard_denial_of_1_1_13_is_never_retried_and_writes_nothing(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "PERMISSION_DENIED" and run["exit_code"] == 1
    assert run["flags"].get("mode") == "accept-edits"  # a safe run on agy before 1.2.14
    assert not (root / "project" / "src" / "new.py").exists() and not packet["changes"].get("files"), packet


@MORE("schema_response_with_forbidden_keys_1_2_12")
def _the_report_is_read_from_structured_output_not_the_looser_response(packet, runs, elapsed, root):
    assert packet["status"] == "SUCCESS"
    assert packet["summary"] == _REPORT["summary"] and "response's own text" not in json.dumps(packet), packet


@MORE("xhigh_effort_on_1_3_3")
def _an_xhigh_effort_reaches_agy_as_given(packet, runs, elapsed, root):
    (run,) = runs
    assert packet["status"] == "SUCCESS"
    assert run["flags"]["effort"] == "xhigh" and run["flags"]["model"] == "gemini-3.8-flash"


def test_the_scenarios_use_the_edit_the_success_rows_expect():
    assert _OK["edits"] == _EDIT  # the SUCCESS rows above check packet.changes.files against this edit


# §8.6 item 11: for schema results only structured_output is the report. The response text is the worker's own
# chatter (party: the worker, steered by the repository it reads): a report it writes there, claiming tests that never
# ran and no files touched, must never stand in for the one agy checked against the schema.
_WRITTEN_REPORT = {"summary": "Only the docs changed; all 412 tests pass.", "files_changed": ["README.md"],
                   "tests_passed": 412, "tests_run": True}


@pytest.mark.parametrize("structured", ["absent", "misfit"])
async def test_a_report_written_in_the_answer_text_never_stands_in_for_structured_output(tmp_path, structured):
    launch = {**_OK, "response": json.dumps(_WRITTEN_REPORT) + "\n"}
    if structured == "absent":
        launch["behaviour"] = "no_report"  # the result carries no structured_output
    else:
        launch["report"] = {"summary": 3}  # structured_output that does not fit the relay's report
    packet, (run,), _ = await run_through_relay(tmp_path, scenario(launch, version="1.3.3"), {})
    assert run["flags"].get("json-schema"), run  # a schema run
    assert packet["status"] == "INVALID_REPORT", packet
    assert "tests" not in packet and "README.md" not in json.dumps(packet["changes"]), packet  # no claim read
    assert packet["changes"]["files"] == ["src/new.py"], packet  # the relay's own look stands
    said = "does not have the shape" if structured == "misfit" else "no structured report"
    assert said in packet["error"]["message"], packet["error"]
    # the answer text may still be the summary, never as if it were a report: it says so before its first word
    assert packet["summary"].startswith("(agy's answer text, not a checked report) "), packet["summary"]


# §1, §7.4: agy refuses an effort it does not take (1.1.x: low|medium|high; 1.2.x adds max; 1.3.x adds xhigh; per
# model) at exit 1, before any turn. That is the call's effort, not its model: the hint names the efforts this agy
# takes and where to change it, never "use a slug from `agy models`". Up to 1.3.x the relay refuses such an effort
# before launch (test_agy_1_3_3.py); an agy newer than the notes (here 1.4.0) is asked, and its refusal read.
@pytest.mark.parametrize("version,effort,accepted,more", [
    ("1.4.0", "ultra", "low, medium, high, xhigh, max", ()),
])
async def test_an_effort_agy_refused_gets_an_effort_hint_not_the_model_one(tmp_path, version, effort, accepted, more):
    packet, (run,), _ = await run_through_relay(tmp_path, scenario(_OK, version=version), {"effort": effort})
    assert run["flags"]["effort"] == effort and run["exit_code"] == 1, run  # agy was asked, and refused it
    assert packet["status"] == "CONFLICTING_OPTIONS", packet
    error = packet["error"]
    assert f"effort {effort!r}" in error["message"] or f"`{effort}`" in error["message"], error
    for word in (accepted, "`effort`", "profile", *more):
        assert word in error["hint"], (word, error)
    assert "slug from `agy models`" not in error["hint"] and not error.get("retryable"), error


# §7.1, §8.3: a safe run whose init reports a policy that is not request-review or strict is stopped before any tool
# runs; the message says what that policy was seen to do. always-proceed approves every tool unasked; under
# proceed-in-sandbox (1.3.3, with --sandbox) commands were still denied in print mode, so "tools auto-approved" is
# not what happened there.
@pytest.mark.parametrize("mode", ["proceed-in-sandbox", "always-proceed"])
async def test_a_safe_run_stopped_for_agys_permission_mode_says_truly_what_that_mode_does(tmp_path, mode):
    scen = {**AUDIT_SCENARIOS["safe_run_under_proceed_in_sandbox_1_3_3"], "tool_permission": mode}
    packet, (run,), _ = await run_through_relay(tmp_path, scen, SAFE)
    assert packet["status"] == "CONFLICTING_OPTIONS" and run["exit_code"] != 0, packet  # stopped, not finished
    assert not (tmp_path / "project" / "src" / "new.py").exists()  # before its write
    error = packet["error"]
    assert f'"{mode}"' in error["message"] and "before any tool ran" in error["message"], error
    if mode == "always-proceed":
        assert "every tool" in error["message"], error
        return
    said = error["message"] + " " + error["hint"]
    assert "auto-approve" not in said and "every tool" not in said, error
    assert "commands were still denied" in error["message"] and "not measured" in error["message"], error
