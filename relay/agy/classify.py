"""One status for one worker attempt: exit code + envelope + stderr + agy's log.

Exit 0 is not success (agy-protocol.md §4). The verdict comes from ``RULES``,
a table read top to bottom, first match wins; adding a failure mode is adding
one row. Each row names the status, a predicate over the ``Outcome``, the
hint the leader is shown and, where agy says so, whether calling again can help.

The rows read the attempt through small readers, one per failure family: ``agy_said`` (the
envelope, AGY_ERROR, stderr: a ``SUCCESS`` envelope wins), ``auth_reading`` (sign-in, keyring,
account verification), ``service_reading`` (quota, outages, network, API errors) and
``turn_reading`` (signals, refused command lines, denied tools, unknown models). The names the rest
of the relay imports from here are re-exported below.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from msgspec import Struct

from relay.agy.agy_said import (agy_error, agy_error_is_quota, envelope_status, error_text, first_line, heard_of,
                                report_of, said_of, succeeded)
from relay.agy.auth_reading import (AUTH_SIGNALS, KEYRING_HINT, KEYRING_LOCKED_HINT, LOGIN_HINT, AuthWatch, auth_failed,
                                    keyring_locked, login_hint, login_message, login_signal, says, transient_oauth,
                                    verification_hint, verification_text)
from relay.agy.command import MIN_VERSION
from relay.agy.outcome import LOGIN_CLASS, TRANSIENT, Outcome, Verdict
from relay.agy.watch import MODE_SEEN
from relay.agy.service_reading import (IN_PROCESS_RETRY_SINCE, TERMINATED, agy_retryable, api_error_hint,
                                       api_error_message, parse_reset, relay_retries, retry_once,
                                       terminated_hint, upstream, upstream_hint, upstream_message)
from relay.agy.answer_reading import STALL_REASON, stall_hint, stall_message, subagent_stall
from relay.agy.turn_reading import (UNKNOWN_FLAG, background_cut, background_message, bad_model, cli_refused,
                                    cli_refused_message, denied, denied_hint, denied_message, effort_conflict,
                                    effort_hint, effort_message, effort_refused, interrupted, interrupted_hint,
                                    interrupted_message, model_hint, model_message, refused_effort_hint,
                                    refused_effort_message, refusals_flag)
from relay.core.contracts import Status
from relay.core.redact import drop_skip_advice

__all__ = [
    "Outcome", "Verdict", "Rule", "RULES", "classify", "parse_reset", "AuthWatch", "TRANSIENT", "LOGIN_CLASS",
    "IN_PROCESS_RETRY_SINCE", "relay_retries", "transient_oauth", "AUTH_SIGNALS", "says", "LOGIN_HINT",
    "KEYRING_HINT", "KEYRING_LOCKED_HINT", "verification_hint", "report_of", "refusals_flag",
]

_PRINT_TIMEOUT = re.compile(r"\[agy\] print timeout|timeout waiting for response|timed out waiting for response")
# Region eligibility (1.2.14): exit 1, no init, while `agy models` still passes (agy-protocol.md §7.3).
_REGION = re.compile(r"not (?:currently )?available in your (?:location|region|country)", re.IGNORECASE)


class Rule(Struct, frozen=True):
    status: Status
    when: Callable[[Outcome], bool]
    message: Callable[[Outcome], str]
    hint: str | Callable[[Outcome], str]
    retryable: Callable[[Outcome], bool | None] | None = None
    retry_once: Callable[[Outcome], bool] | None = None
    reason: str | None = None  # a finer code inside the status (Verdict.reason)


RULES: list[Rule] = [
    Rule(Status.CANCELLED, lambda o: o.cancelled, lambda o: "the call was cancelled; the worker was stopped",
         "Nothing more to do; call again to retry."),
    Rule(Status.ACCOUNT_VERIFICATION_REQUIRED,
         lambda o: o.stopped_for is Status.ACCOUNT_VERIFICATION_REQUIRED or says("verification", heard_of(o)),
         lambda o: "agy's account check failed: the account must be verified in a browser"
                   + (f" (agy said: {first_line(o.stop_line or said_of(o))[:200]})" if (o.stop_line or said_of(o).strip()) else ""),
         lambda o: verification_hint(verification_text(o)), lambda o: False),
    Rule(Status.LOGIN_REQUIRED, lambda o: o.stopped_for is Status.LOGIN_REQUIRED, login_message, login_hint),
    Rule(Status.KEYRING_TIMEOUT, lambda o: o.stopped_for is Status.KEYRING_TIMEOUT,
         lambda o: "agy timed out reaching the system keyring and fell back to a browser login; stopped at once",
         KEYRING_HINT),
    # The relay's own early stops of watch.py: a safe run agy reports under always-proceed or proceed-in-sandbox
    # (each said as it was seen: MODE_SEEN), an unknown conversation.
    Rule(Status.CONFLICTING_OPTIONS, lambda o: o.stopped_for is Status.CONFLICTING_OPTIONS,
         lambda o: (f"the call asked for a safe run, but agy reported permission_mode \"{o.stop_line[:40]}\" "
                    f"({MODE_SEEN.get(o.stop_line, 'not request-review or strict')}): the worker was stopped at its "
                    "start, before any tool ran"),
         lambda o: (f"agy's own settings set toolPermission \"{o.stop_line[:40]}\" (agy's settings.json, "
                    "~/.gemini/antigravity-cli/), a policy a safe run does not take on: safe runs run under "
                    "request-review or strict. Set it back to one of those for safe runs, or use a profile with "
                    "execution_mode 'trusted' if agy may run tools unasked in this workspace."), lambda o: False),
    Rule(Status.NOT_FOUND, lambda o: o.stopped_for is Status.NOT_FOUND,
         lambda o: (f"agy does not know the conversation this continue named ({o.stop_line[:200]}): it would have run "
                    "the feedback in a new conversation without the earlier context; the worker was stopped before "
                    "it did anything"),
         lambda o: ("Start a fresh antigravity_execute with the whole task (the original task and this feedback "
                    "together): agy no longer has that conversation (its state under ~/.gemini/antigravity-cli/ was "
                    "cleared, or the run was made by another user or machine). The earlier run's changes stay as "
                    "they are."), lambda o: False),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: o.relay_timeout,
         lambda o: "the worker did not finish within its timeout and was stopped (its whole process group killed)",
         "Split the task, or raise timeout_minutes in the profile; changes so far are listed."),
    Rule(Status.AGY_TOO_OLD, lambda o: o.exit_code == 2 and bool(UNKNOWN_FLAG.search(o.stderr)),
         lambda o: f"agy rejected the flag {UNKNOWN_FLAG.search(o.stderr)[1]}: this agy is too old",
         f"Update the Antigravity CLI (`agy update`) to {'.'.join(map(str, MIN_VERSION))} or newer."),
    # --model/--effort refused as a pair (1.2.17, 1.3.0; agy-protocol.md §8.1): the call's options, not agy's health;
    # read before the exit-2 rule (the exit code is unconfirmed) and never retried.
    Rule(Status.CONFLICTING_OPTIONS, effort_conflict, effort_message, effort_hint, lambda o: False),
    # An effort value agy does not take (§1, §7.4): the call's effort, with the efforts it takes; agy words it
    # "invalid model selection", so it is read before bad_model, whose hint is about the model.
    Rule(Status.CONFLICTING_OPTIONS, effort_refused, refused_effort_message, refused_effort_hint, lambda o: False),
    Rule(Status.WORKER_ERROR, cli_refused, cli_refused_message,
         "The relay builds agy's command line itself, so this is a relay bug or a wrapper in front of agy: run "
         "`gravity-relay doctor`, and report it with antigravity_get_result(detail='errors').", lambda o: False),
    # agy's "interrupted" (a signal the relay did not send: its own timeout and stops are read above, its cancel
    # by the caller): CANCELLED, not retried; the conversation is kept and can be continued.
    Rule(Status.CANCELLED, interrupted, interrupted_message, interrupted_hint, lambda o: False),
    # Quota from the envelope's error, AGY_ERROR and stderr of a failed run: a SUCCESS envelope wins (agy ≥ 1.2.1
    # retries per-minute 429s itself, so a successful run can carry the words in its log).
    Rule(Status.QUOTA_EXHAUSTED, lambda o: agy_error_is_quota(o) or says("quota", said_of(o)),
         lambda o: "agy's model quota is used up" + (f": {first_line(error_text(o) or o.stderr)}"
                                                      if (error_text(o) or o.stderr).strip() else ""),
         "Wait for the reset shown in resets_in_seconds, or switch model/account; retrying sooner fails again.",
         lambda o: False),
    Rule(Status.LOGIN_REQUIRED, keyring_locked, login_message, KEYRING_LOCKED_HINT, lambda o: False),
    Rule(Status.KEYRING_TIMEOUT, lambda o: says("keyring", o.log + o.stderr) and (o.exit_code != 0 or auth_failed(o))
         and not succeeded(o),
         lambda o: "agy timed out reaching the system keyring and could not authenticate", KEYRING_HINT),
    Rule(Status.LOGIN_REQUIRED, login_signal, login_message, login_hint),
    Rule(Status.AUTH_TIMEOUT, lambda o: auth_failed(o) and not succeeded(o),
         lambda o: f"agy could not authenticate: {error_text(o) or first_line(o.stderr)} (no sign-in prompt "
                   "beside it: the auth endpoint may have been unreachable)",
         "Usually transient (the relay retried once). If it persists, run `agy` in a terminal to check the login "
         "and the network."),
    Rule(Status.UPSTREAM_UNAVAILABLE, upstream, upstream_message, upstream_hint, lambda o: True, retry_once),
    Rule(Status.EXECUTION_TIMEOUT, lambda o: bool(_PRINT_TIMEOUT.search(o.stderr + "\n" + error_text(o))),
         lambda o: "agy's own print timeout expired before the turn finished; any answer is partial",
         "Split the task, or raise timeout_minutes; changes so far are listed."),
    Rule(Status.PERMISSION_DENIED, denied, denied_message, denied_hint),
    Rule(Status.WORKER_ERROR, bad_model, model_message, model_hint, lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: bool(_REGION.search(said_of(o))),
         lambda o: f"agy is not available here: {first_line(chr(10).join(ln for ln in said_of(o).splitlines() if _REGION.search(ln)))}",
         "agy's service is not offered in this location for this account (a region eligibility check; `agy models` "
         "may still pass). Calling again will not help: run the relay where agy is available, or use another "
         "account or model.", lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: bool(agy_error(o)), api_error_message, api_error_hint, agy_retryable),
    Rule(Status.WORKER_ERROR, lambda o: not succeeded(o) and bool(TERMINATED.search(said_of(o))),
         lambda o: f"agy stopped: {first_line(error_text(o)) or first_line(o.stderr)}", terminated_hint),
    Rule(Status.STREAM_ERROR, lambda o: o.stdout_lines == 0 and o.exit_code == 0,
         lambda o: "agy exited 0 but printed nothing", "Run `gravity-relay doctor`; check agy's log in the run record."),
    Rule(Status.WORKER_ERROR, lambda o: o.stdout_lines == 0,
         lambda o: f"agy exited {o.exit_code} without output: {first_line(o.stderr) or 'no stderr'}",
         "See the stderr tail with antigravity_get_result(detail='errors')."),
    Rule(Status.INVALID_JSON, lambda o: o.json_lines == 0,
         lambda o: f"agy printed {o.stdout_lines} line(s), none of them JSON",
         "agy's output format changed or a wrapper prints to stdout; run `gravity-relay doctor`."),
    Rule(Status.STREAM_ERROR, lambda o: o.results == 0,
         lambda o: f"agy's stream ended without a result event (exit {o.exit_code})",
         "The worker may have crashed mid-turn; see detail='errors'. Changes so far are listed."),
    Rule(Status.INVALID_ENVELOPE, lambda o: o.envelope is None,
         lambda o: "agy's result event does not have the expected fields (status, response)",
         "agy's output format changed; update the relay or pin agy."),
    Rule(Status.WORKER_ERROR, background_cut, background_message,
         "Continue the run asking the worker to run that command in the foreground and wait for its end (agy "
         "1.2.13+ waits for background tasks itself: `agy update`); the changes so far are listed.", lambda o: False),
    Rule(Status.WORKER_ERROR, lambda o: envelope_status(o) != "SUCCESS",
         lambda o: f"agy reported {envelope_status(o) or 'no status'}: {error_text(o)[:300] or first_line(o.stderr)}",
         "Read the error; continue the run with feedback, or see detail='errors'."),
    Rule(Status.WORKER_ERROR, lambda o: o.exit_code not in (0, None),
         lambda o: f"agy reported success but exited {o.exit_code}: {first_line(o.stderr)}",
         "See detail='errors'."),
    # The subagent stall (agy-protocol.md §8.2, §8.6 item 2): SUCCESS, yet the answer is the worker's narration.
    Rule(Status.WORKER_ERROR, subagent_stall, stall_message, stall_hint, lambda o: False, reason=STALL_REASON),
    Rule(Status.INVALID_REPORT, lambda o: o.schema_requested and report_of(o) is None,
         lambda o: ("agy finished but its structured report does not have the shape the relay asked for"
                    if isinstance((o.envelope or {}).get("structured_output"), dict) else
                    "agy finished but returned no structured report (the answer's text is not read as one)")
                   + "; the change set below is the relay's own observation",
         "Review the listed changes; continue the run asking for the report if you need the worker's summary."),
]


def classify(outcome: Outcome) -> Verdict:
    for rule in RULES:
        if rule.when(outcome):
            status = rule.status
            return Verdict(
                status=status,
                message=drop_skip_advice(rule.message(outcome)),  # agy-protocol.md §8.6 item 8
                reason=rule.reason,
                hint=rule.hint(outcome) if callable(rule.hint) else rule.hint,
                resets_in_seconds=parse_reset(error_text(outcome) + "\n" + outcome.stderr)
                if status is Status.QUOTA_EXHAUSTED else None,
                retryable=rule.retryable(outcome) if rule.retryable else None,
                retry_once=bool(rule.retry_once and rule.retry_once(outcome)),
            )
    return Verdict(status=Status.SUCCESS, message="", hint="")
