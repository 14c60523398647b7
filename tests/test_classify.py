"""One verdict per row of agy's failure table, fed with the real captures."""

from __future__ import annotations

import pytest

from conftest import CAPTURES
from relay.agy.classify import RULES, AuthWatch, Outcome, Verdict, classify, parse_reset, relay_retries, transient_oauth
from relay.core.contracts import Status
from relay.agy.stream import StreamReader

REPORT = {"summary": "did it", "files_changed": ["a.py"], "tests_passed": 1, "tests_run": True}


def _section(title: str) -> str:
    """The lines under '## title' in failures.real.txt."""
    text = (CAPTURES / "failures.real.txt").read_text(encoding="utf-8")
    chunks = text.split("## ")
    for chunk in chunks:
        if chunk.startswith(title):
            return chunk.split("\n", 1)[1].strip()
    raise KeyError(title)


def outcome_from(stdout: str, *, exit_code: int = 0, stderr: str = "", log: str = "", **kw) -> Outcome:
    reader = StreamReader()
    for line in stdout.splitlines():
        reader.feed(line.encode())
    return Outcome(
        exit_code=exit_code, stdout_lines=reader.lines, json_lines=reader.json_lines, bad_lines=reader.bad_lines,
        results=reader.results, envelope=reader.envelope, result_raw=reader.result, response=reader.response,
        conversation_id=reader.conversation_id, stderr=stderr, log=log, **kw,
    )


def with_report(ndjson: str) -> str:
    """A real success stream, with the structured report the relay asks for spliced into its result."""
    import json

    lines = ndjson.strip().splitlines()
    last = json.loads(lines[-1])
    last["result"]["structured_output"] = REPORT
    return "\n".join([*lines[:-1], json.dumps(last)])


def test_classify_real_success_stream_with_report_is_success():
    stream = with_report((CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8"))
    verdict = classify(outcome_from(stream))
    assert verdict.status is Status.SUCCESS


def test_classify_real_success_without_structured_output_is_invalid_report():
    verdict = classify(outcome_from((CAPTURES / "stream-1.1.12-model.real.ndjson").read_text(encoding="utf-8")))
    assert verdict.status is Status.INVALID_REPORT


def test_classify_login_failure_result_with_oauth_lines_is_login_required():
    stdout = _section("auth failure, stream-json/json")
    stderr = _section("interactive OAuth fallback")
    verdict = classify(outcome_from(stdout, exit_code=1, stderr=stderr))
    assert verdict.status is Status.LOGIN_REQUIRED
    assert "agy" in verdict.hint and "login" in verdict.hint


def test_classify_lone_auth_failure_with_keyring_log_is_keyring_timeout():
    verdict = classify(outcome_from(_section("auth failure, stream-json/json"), exit_code=1,
                                    log=_section("keyring timeout (log file)")))
    assert verdict.status is Status.KEYRING_TIMEOUT
    assert verdict.error().retryable


def test_classify_lone_auth_failure_without_other_signal_is_auth_timeout():
    verdict = classify(outcome_from(_section("auth failure, stream-json/json"), exit_code=1))
    assert verdict.status is Status.AUTH_TIMEOUT


@pytest.mark.parametrize(
    ("title", "exit_code", "where", "seconds"),
    [
        ("quota, agy 1.2.2, stream-json", 0, "stdout", 76 * 3600 + 3 * 60 + 46),
        ("quota, agy 1.2.11, stderr", 3, "stderr", 167 * 3600 + 51 * 60 + 3),
        ("quota, ~1.1.x", 1, "stderr", 2 * 60 + 38),
    ],
)
def test_classify_quota_in_each_form_is_quota_exhausted_with_reset(title, exit_code, where, seconds):
    text = _section(title)
    out = outcome_from(text if where == "stdout" else "", exit_code=exit_code, stderr=text if where == "stderr" else "")
    verdict = classify(out)
    assert verdict.status is Status.QUOTA_EXHAUSTED
    assert verdict.resets_in_seconds == seconds
    assert verdict.error().resets_in_seconds == seconds


def test_classify_old_print_timeout_is_execution_timeout():
    verdict = classify(outcome_from(_section("print-timeout (pre-1.1.28/1.2.0)"), exit_code=1))
    assert verdict.status is Status.EXECUTION_TIMEOUT


def test_classify_new_print_timeout_with_partial_success_is_never_success():
    stream = with_report((CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8"))
    verdict = classify(outcome_from(stream, stderr=_section("print-timeout (1.2.0+ / 1.1.28+)")))
    assert verdict.status is Status.EXECUTION_TIMEOUT


def test_classify_soft_deny_is_permission_denied():
    result = ('{"event":"result","result":{"conversation_id":"c1","status":"SUCCESS","response":"","duration_seconds":1,'
              '"num_turns":1,"usage":{},"denied_actions":[{"action":"command","display_name":"RunCommand"}]}}')
    verdict = classify(outcome_from(result, stderr=_section("headless permission soft-deny")))
    assert verdict.status is Status.PERMISSION_DENIED
    assert "RunCommand" in verdict.message


def test_classify_unknown_flag_exit_2_is_agy_too_old():
    verdict = classify(outcome_from("", exit_code=2, stderr=_section("unknown flag")))
    assert verdict.status is Status.AGY_TOO_OLD
    assert "-output-format" in verdict.message and "1.1.8" in verdict.hint


def test_classify_api_error_is_worker_error_with_agy_message():
    verdict = classify(outcome_from("", exit_code=3, stderr=_section("API error, agy 1.2.11")))
    assert verdict.status is Status.WORKER_ERROR
    assert "API key not valid" in verdict.message


def test_classify_empty_output_exit_0_is_stream_error():
    assert classify(outcome_from("", exit_code=0)).status is Status.STREAM_ERROR


def test_classify_garbage_is_invalid_json():
    assert classify(outcome_from("hello\nworld\n", exit_code=0)).status is Status.INVALID_JSON


def test_classify_stream_without_result_is_stream_error():
    lines = (CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8").strip().splitlines()[:-1]
    assert classify(outcome_from("\n".join(lines))).status is Status.STREAM_ERROR


def test_classify_result_missing_envelope_keys_is_invalid_envelope():
    assert classify(outcome_from('{"event":"result","result":{"status":"SUCCESS"}}')).status is Status.INVALID_ENVELOPE


def test_classify_stale_error_beside_success_is_not_a_failure():
    stream = with_report((CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8"))
    stream = stream.replace('"status":"SUCCESS"', '"status":"SUCCESS","error":"stale thing from an earlier turn"', 1)
    stream = stream.replace('"status": "SUCCESS"', '"status": "SUCCESS", "error": "stale"', 1)
    assert classify(outcome_from(stream)).status is Status.SUCCESS


def test_classify_banner_before_json_output_still_reads_envelope():
    banner = "agy 1.1.12 (update available)\n" + (CAPTURES / "json-1.1.12.real.json").read_text(encoding="utf-8")
    verdict = classify(outcome_from(banner))
    assert verdict.status is Status.INVALID_REPORT  # the envelope was found: only the report is missing


def test_classify_invalid_model_is_worker_error_with_model_hint():
    result = ('{"event":"result","result":{"conversation_id":"","status":"ERROR","response":"",'
              '"error":"invalid model selection: effort conflicts with model","duration_seconds":0,"num_turns":0,"usage":{}}}')
    verdict = classify(outcome_from(result, exit_code=1))
    assert verdict.status is Status.WORKER_ERROR and "agy models" in verdict.hint


def test_classify_relay_timeout_and_cancel_win_over_everything():
    assert classify(outcome_from("", exit_code=None, relay_timeout=True)).status is Status.EXECUTION_TIMEOUT
    assert classify(outcome_from("", exit_code=None, cancelled=True)).status is Status.CANCELLED


def test_auth_watch_stops_on_oauth_lines_and_tells_keyring_from_login():
    login = AuthWatch()
    assert login.feed("Fetching...") is None
    assert login.feed("Waiting for authentication (timeout 60s)...") is Status.LOGIN_REQUIRED
    keyring = AuthWatch()
    lines = _section("keyring timeout (log file)").splitlines()
    assert keyring.feed(lines[0]) is None
    assert keyring.feed(lines[1]) is Status.KEYRING_TIMEOUT


def test_auth_watch_ignores_a_bare_auth_word():
    assert AuthWatch().feed("added OAuth client docs to auth.md") is None


def test_parse_reset_reads_go_durations():
    assert parse_reset("Resets in 2m38s.") == 158
    assert parse_reset("no reset here") is None


def test_rules_table_rows_each_name_a_hint():
    assert all(rule.hint for rule in RULES)


def test_report_is_never_read_from_the_response_text_when_structured_output_is_missing():
    # agy-protocol.md §8.6 item 11: only structured_output is the report; the response is the worker's own text
    import json

    from relay.agy.classify import report_of

    lines = (CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8").strip().splitlines()
    last = json.loads(lines[-1])
    for text in ("```json\n" + json.dumps(REPORT) + "\n```", json.dumps(REPORT)):
        last["result"]["response"] = text
        out = outcome_from("\n".join([*lines[:-1], json.dumps(last)]))
        assert report_of(out) is None
        assert classify(out).status is Status.INVALID_REPORT
    last["result"]["structured_output"] = REPORT
    assert report_of(outcome_from(json.dumps(last))).files_changed == ["a.py"]


# ---------------------------------------------------------------- agy-protocol.md §6: what users of real agy see

SIGNED_OUT = "Error: authentication required. Run 'agy' to log in, then retry."
LONE_AUTH_FAILED = ('{"event":"result","result":{"conversation_id":"","status":"ERROR","response":"",'
                    '"error":"authentication failed or timed out","duration_seconds":0,"num_turns":0,"usage":{}}}')


def _result(status: str, error: str | None = None, **extra) -> str:
    import json

    result = {"conversation_id": "c1", "status": status, "response": "", "duration_seconds": 1, "num_turns": 1,
              "usage": {}, **extra}
    if error is not None:
        result["error"] = error
    return json.dumps({"event": "result", "result": result})


@pytest.mark.parametrize("line", [SIGNED_OUT, "Error: authentication required. Run 'agy' to log in.",
                                  "ERROR: AUTHENTICATION REQUIRED. RUN 'AGY' TO LOG IN, THEN RETRY."])
def test_classify_current_and_early_sign_out_lines_are_login_required(line):
    verdict = classify(outcome_from("", exit_code=1, stderr=line))
    assert verdict.status is Status.LOGIN_REQUIRED and "signed out" in verdict.message


def test_auth_watch_stops_at_the_current_sign_out_line_and_names_it():
    watch = AuthWatch()
    assert watch.feed(SIGNED_OUT) is Status.LOGIN_REQUIRED
    assert watch.kind == "signed_out" and watch.line == SIGNED_OUT


def test_auth_watch_never_stops_on_the_not_logged_in_start_up_line():
    # agy logs it at start-up on runs that then succeed (agy-protocol.md §6.4)
    watch = AuthWatch()
    for line in ("You are not logged into Antigravity.", "Auth succeeded", "Print mode: silent auth succeeded"):
        assert watch.feed(line) is None


def test_classify_success_envelope_wins_over_quota_words_in_stderr_and_log():
    stream = with_report((CAPTURES / "stream-1.2.17-tool.real.ndjson").read_text(encoding="utf-8"))
    words = "API error (attempt 1): RESOURCE_EXHAUSTED (code 429): quota reached. Retrying in 2s"
    assert classify(outcome_from(stream, stderr=words, log=words)).status is Status.SUCCESS


def test_classify_lone_auth_failure_beside_a_sign_out_line_or_oauth_url_is_login_required():
    assert classify(outcome_from(LONE_AUTH_FAILED, exit_code=1, stderr=SIGNED_OUT)).status is Status.LOGIN_REQUIRED
    url = "https://accounts.google.com/o/oauth2/auth?client_id=x"
    assert classify(outcome_from(LONE_AUTH_FAILED, exit_code=1, stderr=url)).status is Status.LOGIN_REQUIRED


def test_classify_please_sign_in_inside_the_result_error_is_login_required():
    verdict = classify(outcome_from(_result("ERROR", "Please sign in to use Antigravity."), exit_code=1))
    assert verdict.status is Status.LOGIN_REQUIRED


def test_classify_account_verification_carries_the_validation_url():
    url = "https://accounts.google.com/signin/continue?sarp=1&plt=abc"
    log = ('Eligibility check failed: PERMISSION_DENIED (code 403): {"reason":"VALIDATION_REQUIRED",'
           f'"metadata":{{"validation_url":"{url}"}}}}')
    stderr = "Error: Eligibility check failed: Your current account is not eligible for Antigravity. Verify your account to continue."
    verdict = classify(outcome_from("", exit_code=1, stderr=stderr, log=log))
    assert verdict.status is Status.ACCOUNT_VERIFICATION_REQUIRED
    assert url in verdict.hint and verdict.error().retryable is False
    unauth = classify(outcome_from("", exit_code=1, stderr="Error: Eligibility check failed: UNAUTHENTICATED (code 401)"))
    assert unauth.status is Status.ACCOUNT_VERIFICATION_REQUIRED and "401" in unauth.hint


def test_classify_verification_url_is_read_whole_when_the_stop_line_cut_it():
    # Regression (flaky in CI): when agy's log line settled the run first, the stop line (cut at 300
    # characters) was read before the whole log and the hint's URL ended at "continue=https:".
    url = "https://accounts.google.com/signin/continue?sarp=1&scc=1&continue=https://antigravity.google/verify&plt=x"
    log = ("E1130 22:05:58.651120   19858 eligibility.go:88] Eligibility check failed: PERMISSION_DENIED (code 403): "
           f'{{"error":{{"code":403,"details":[{{"reason":"VALIDATION_REQUIRED","metadata":{{"validation_url":"{url}"}}}}]}}}}')
    stop_line = log[: log.index("continue=https:") + len("continue=https:")]
    verdict = classify(outcome_from("", exit_code=1, log=log, stopped_for=Status.ACCOUNT_VERIFICATION_REQUIRED,
                                    stop_kind="verification", stop_line=stop_line))
    assert verdict.status is Status.ACCOUNT_VERIFICATION_REQUIRED and f"Open {url} in a browser" in verdict.hint, verdict.hint


def test_classify_agy_error_retryable_503_is_upstream_and_keeps_agys_retryable():
    err = ('AGY_ERROR: {"short_error":"UNAVAILABLE (code 503): No capacity available for model m","status":"UNAVAILABLE",'
           '"error_code":503,"code_kind":"http","retryable":true}')
    verdict = classify(outcome_from("", exit_code=3, stderr=err))
    assert verdict.status is Status.UPSTREAM_UNAVAILABLE and verdict.error().retryable is True
    assert "No capacity" in verdict.message


def test_classify_quota_is_not_retryable_although_agy_says_so():
    verdict = classify(outcome_from("", exit_code=3, stderr=_section("quota, agy 1.2.11, stderr")))
    assert verdict.status is Status.QUOTA_EXHAUSTED and verdict.error().retryable is False


@pytest.mark.parametrize("stderr", ["There was a network issue connecting to the server, please try again.",
                                    "Agent execution terminated due to error.\nError ID: x\n"
                                    "UNAVAILABLE (code 503): No capacity available for model m"])
def test_classify_network_issue_and_capacity_termination_are_upstream(stderr):
    assert classify(outcome_from("", exit_code=1, stderr=stderr)).status is Status.UPSTREAM_UNAVAILABLE


def test_classify_termination_without_a_capacity_cause_is_worker_error_with_error_id():
    verdict = classify(outcome_from("", exit_code=1, stderr="Agent execution terminated due to error.\nError ID: abc-1"))
    assert verdict.status is Status.WORKER_ERROR and "abc-1" in verdict.hint and "settings.json" in verdict.hint


def test_relay_retries_upstream_only_for_agy_without_in_process_retry():
    upstream = Verdict(status=Status.UPSTREAM_UNAVAILABLE, message="m", hint="h")
    assert relay_retries(upstream, (1, 1, 12)) and relay_retries(upstream, (1, 2, 0))
    assert not relay_retries(upstream, (1, 2, 1)) and not relay_retries(upstream, None)
    assert relay_retries(Verdict(status=Status.AUTH_TIMEOUT, message="m", hint="h"), (1, 2, 17))
    assert not relay_retries(Verdict(status=Status.QUOTA_EXHAUSTED, message="m", hint="h"), (1, 1, 12))


def test_transient_oauth_only_for_a_first_prompt_after_a_healthy_login():
    login = Verdict(status=Status.LOGIN_REQUIRED, message="m", hint="h")
    prompt = Outcome(stopped_for=Status.LOGIN_REQUIRED, stop_kind="oauth_prompt")
    assert transient_oauth(login, prompt, attempt=1, healthy_seconds_ago=3.0).status is Status.AUTH_TIMEOUT
    assert transient_oauth(login, prompt, attempt=2, healthy_seconds_ago=3.0) is login
    assert transient_oauth(login, prompt, attempt=1, healthy_seconds_ago=None) is login
    signed_out = Outcome(stopped_for=Status.LOGIN_REQUIRED, stop_kind="signed_out")
    assert transient_oauth(login, signed_out, attempt=1, healthy_seconds_ago=3.0) is login


@pytest.mark.parametrize("where", ["stderr", "error"])
def test_classify_timed_out_waiting_for_response_is_a_print_timeout(where):
    text = "Error: timed out waiting for response"
    out = (outcome_from("", exit_code=0, stderr=text) if where == "stderr"
           else outcome_from(_result("ERROR", "timed out waiting for response"), exit_code=1))
    assert classify(out).status is Status.EXECUTION_TIMEOUT


def test_classify_invalid_model_hint_keeps_the_model_and_a_bounded_list():
    models = [f"gemini-{i}-flash" for i in range(30)]
    error = 'invalid model selection: model "gemini-9-ultra" is not recognized\nAvailable models:\n' + "".join(
        f"  {m}\n" for m in models)
    log = "E1130 models.go:57] Failed to resolve model flag gemini-9-ultra: model gemini-9-ultra is not recognized"
    verdict = classify(outcome_from(_result("ERROR", error), exit_code=1, log=log))
    assert verdict.status is Status.WORKER_ERROR and "gemini-9-ultra" in verdict.hint
    assert "gemini-0-flash" in verdict.hint and "gemini-11-flash" in verdict.hint and "gemini-12-flash" not in verdict.hint
    assert "(18 more)" in verdict.hint and len(verdict.hint) < 600


def test_classify_denied_edit_names_it_and_says_safe_mode_cannot_write():
    out = outcome_from(_result("SUCCESS", denied_actions=[{"action": "edit", "display_name": "EditFile"}]),
                       stderr='jetski: no output produced — a tool required the "edit" permission that headless mode '
                              "cannot prompt for, so it was auto-denied.")
    verdict = classify(out)
    assert verdict.status is Status.PERMISSION_DENIED and "EditFile (edit)" in verdict.message
    assert "accept-edits" in verdict.hint and "trusted" in verdict.hint


@pytest.mark.parametrize("version,effort,accepted", [("1.1.12", "max", "low, medium, high"),
                                                     ("1.2.17", "turbo", "low, medium, high, max"),
                                                     (None, "turbo", "low, medium, high, xhigh, max")])
def test_an_effort_refusal_that_lists_no_levels_names_the_versions_efforts(version, effort, accepted):
    # agy-protocol.md §7.4 does not quote 1.3.x's words for a bad --effort: a refusal that names the value but lists
    # no levels gets the efforts of the agy that ran (§1: +max in 1.2.x; §7.4: +xhigh in 1.3.x)
    o = Outcome(exit_code=1, envelope={"status": "ERROR", "response": "", "error": f'invalid effort "{effort}"'},
                results=1, json_lines=1, stdout_lines=1, effort=effort, agy_version=version)
    verdict = classify(o)
    assert verdict.status is Status.CONFLICTING_OPTIONS and f"takes {accepted} (a model may take fewer)." in verdict.hint
    assert ("agy update" in verdict.hint) is (effort == "max"), verdict.hint
    # 1.2.1's invalid model line quotes the effort beside the model it does not know: still the model's refusal
    said = ('error: invalid model selection (--model "no-such-model-xyz" --effort "high"): model no-such-model-xyz is '
            "not recognized as a known model or custom model in settings")
    assert classify(Outcome(exit_code=1, stderr=said, effort="high")).status is Status.WORKER_ERROR
