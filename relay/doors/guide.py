"""What the leader reads: the server instructions, resources on demand, prompt shapes.

Instructions are paid for in every session, so they stay short and say only
what is true on this machine (found at start-up); when something is unknown
they say so. The longer guidance is in resources the leader pulls when needed.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from mcp import types
from msgspec import Struct

from relay.agy import command as agy_cli
from relay.core.contracts import Profile, Status
from relay.core.schemas import struct_schema
from relay.core.settings import Settings

__all__ = ["instructions", "RESOURCES", "PROMPTS", "render_prompt", "STATUS_GUIDE"]


def instructions(settings: Settings, agy: tuple[str | None, str | None] | None = None) -> str:
    """``agy`` is (path, version) when the caller already asked (serve does, while the SDK imports)."""
    path, version = agy if agy is not None else agy_cli.agy_fact(settings)
    if path is None:
        worker = "agy: NOT FOUND on this machine (calls will fail with SPAWN_ERROR; set AGY_BIN)."
    elif version is None:
        worker = f"agy: {path}, version unknown."
    else:
        worker = f"agy {version} at {path}."
    if settings.profile_error:
        profile = "Profiles: misconfigured (calls are refused until fixed; see `gravity-relay doctor`)."
    elif settings.default_profile:
        p = settings.profiles[settings.default_profile]
        mode = p.execution_mode.value if p.execution_mode else "default (agy's own permission policy)"
        profile = f"Default profile '{settings.default_profile}': workspace {p.workspace or 'not set'}, mode {mode}; a call needs only `task`."
    else:
        names = ", ".join(sorted(settings.profiles))
        profile = "No default profile; pass `workspace` (absolute)" + (f" or a profile ({names})." if names else ".")
    return "\n".join([
        "Gravity Relay: agy implements, you review its packet.",
        "Workflow: plan briefly; antigravity_execute(task) with the goal, files and acceptance criteria; read only "
        "the packet's review targets (file + lines); antigravity_continue(run_id, feedback) at most twice; "
        "antigravity_get_result only when the packet is not enough. Do not delegate questions or one-line edits.",
        "A packet's status is SUCCESS or says what failed with error.hint as the next step; "
        "resource relay://statuses explains each. RUNNING: the run goes on; antigravity_get_result(run_id, wait_seconds) "
        "waits for it. After a timeout, antigravity_get_result() lists recent runs.",
        worker,
        profile,
    ])


# --------------------------------------------------------------------------- resources

STATUS_GUIDE: dict[Status, str] = {
    Status.SUCCESS: "The worker finished; review the targets listed.",
    Status.PERMISSION_DENIED: "Headless agy auto-denied a tool (usually a command). Use a trusted profile or an allow rule.",
    Status.KEYRING_TIMEOUT: "agy could not reach the keyring; retried once. Start the relay from a desktop session.",
    Status.AUTH_TIMEOUT: "agy's sign-in check timed out; retried once. Usually transient.",
    Status.LOGIN_REQUIRED: "agy needs an interactive sign-in: run `agy` once in a terminal.",
    Status.ACCOUNT_VERIFICATION_REQUIRED: "agy's account must be verified in a browser (error.hint has the URL when "
                                          "agy gave one); not retried.",
    Status.QUOTA_EXHAUSTED: "The model quota is used up; error.resets_in_seconds says when it resets.",
    Status.EXECUTION_TIMEOUT: "The worker ran out of time; partial changes are listed. Split the task.",
    Status.UPSTREAM_UNAVAILABLE: "agy's service was unavailable (503, capacity, network); agy and the relay already "
                                 "retried. Transient: call again in a few minutes, or use another model's profile.",
    Status.SPAWN_ERROR: "agy could not be started; error.message names the path tried.",
    Status.AGY_TOO_OLD: "agy lacks a flag the relay needs; update it (`agy update`).",
    Status.STREAM_ERROR: "agy's output stopped early or was empty.",
    Status.INVALID_REPORT: "agy finished without the structured report; the change set is still the relay's own.",
    Status.INVALID_JSON: "agy printed something that is not JSON.",
    Status.INVALID_ENVELOPE: "agy's result lacked the expected fields.",
    Status.WORKER_ERROR: "agy reported a failed turn (API error, bad model, ...); see error.message.",
    Status.CONFLICTING_OPTIONS: "The call's options contradict each other or widen the profile; nothing ran. Or a "
                                "safe run's agy auto-approves every tool (its own settings): stopped before any tool.",
    Status.INVALID_INPUT: "An argument was wrong; error.hint lists what is accepted; nothing ran.",
    Status.INVALID_WORKSPACE: "The workspace is blank, relative, missing, a root, outside the allowed roots, the data dir, a bare repo or a .git folder; nothing ran.",
    Status.MUTATION_ABORTED: "A failed attempt had already changed files, so it was not retried; changes are listed.",
    Status.POLICY_VIOLATION: "The change broke the run's paths / protected / max_files / max_lines; error.message "
                             "names the files and limits; the changes are listed (restored if on_violation is revert).",
    Status.BUSY: "That conversation is running a turn now, or the queue wait passed its bound (the message says "
    "which run holds the slot); wait for its packet.",
    Status.RECURSION_REFUSED: "This relay runs inside an agy worker and will not delegate again.",
    Status.CANCELLED: "The call was cancelled; the worker was stopped. Or agy's turn was interrupted by someone "
                      "else: not retried, antigravity_continue carries on.",
    Status.RUNNING: "Not an outcome: the run goes on. antigravity_get_result(run_id, wait_seconds) waits for its packet; "
                    "antigravity_cancel(run_id) stops it.",
    Status.INTERRUPTED: "The relay process ended mid-run; its worker was stopped (identity checked) at the next start "
    "or before the next worker; the files git shows changed are listed.",
    Status.NOT_FOUND: "No readable run record with that id; error.message says which and why. Or agy no longer "
                      "knows the conversation a continue named: start a fresh execute with the whole task.",
    Status.STORAGE_ERROR: "The relay cannot write its run records (data dir read-only or missing); nothing ran.",
    Status.CONFIRMATION_REQUIRED: "The profile asks to confirm trusted runs: `preview` shows what would run; repeat the "
    "call with confirm=<token> as error.hint says. A refused token (expired, other arguments): call again without it.",
    Status.APPLY_CONFLICT: "Applying a worktree run's change would conflict with your tree (error.message names each "
                           "file and why); nothing was changed.",
    Status.MCP_ERROR: "A relay bug (see the relay's stderr) or a file it could not write (full disk); a run's answer "
    "still names its run_id and the worker's changes.",
}

_DELEGATION_GUIDE = """# Delegating to Gravity Relay

Good tasks: a feature with clear acceptance criteria, a bug with a reproduction, a mechanical refactor,
tests for existing code. Not worth it: questions, one-line edits, anything you can do faster than you
can describe it.

Write the task as: goal; files or modules in scope; constraints; how to check it (commands, expected
behaviour). Server-side constraints are added for you: do not repeat them.

Read the packet: `changes.review` lists at most 8 targets, highest risk first, each with line ranges.
Open only those ranges. `flags` says where the worker's claims and the diff disagree. `tests.source`
is `measured` when the relay ran the profile's verification commands, `claimed` when it is the worker's word.

Follow up with antigravity_continue(run_id, feedback): name the file and lines and what is wrong.
A packet with `branch` ran isolated in a git worktree: nothing reached the user's tree until
antigravity_continue(run_id, apply=true) applies it (APPLY_CONFLICT names the files when it cannot).
Stop after two follow-ups and fix the rest yourself. antigravity_get_result(run_id, detail="errors")
explains a failure; detail="full" has the whole record (transcript path included); detail="diff" is the
review read: the targets' changed lines at exactly those ranges, riskiest first, in 2,500 characters (its last
line says what it left out and the max_chars that shows it), so you can review without opening files.

Long runs: if your client cuts tool calls (60 s in many hosts, 300 s in Codex, 600 s in Gemini CLI), pass
wait_seconds a little under that limit. An answer with status RUNNING means the run goes on: call
antigravity_get_result(run_id, wait_seconds) again until the packet comes (each RUNNING answer is ~230 bytes);
antigravity_cancel(run_id) stops it and lists what it changed. If a call timed out anyway, the run was
cancelled with it: antigravity_get_result() without run_id lists recent runs and what they changed.
"""


class Resource(Struct, frozen=True):
    name: str
    description: str
    mime_type: str
    render: Callable[[Settings], str]


def _statuses(_: Settings) -> str:
    return "\n".join(f"{status.value}: {text}" for status, text in STATUS_GUIDE.items())


def _profile_schema(_: Settings) -> str:
    return msgspec.json.encode(struct_schema(Profile)).decode()


RESOURCES: dict[str, Resource] = {
    "relay://guide": Resource("delegation-guide", "How to write a task and read a packet.", "text/markdown",
                              lambda _: _DELEGATION_GUIDE),
    "relay://statuses": Resource("statuses", "Every status, what it means and what to do next.", "text/plain", _statuses),
    "relay://profile-schema": Resource("profile-schema", "JSON schema of a server-side profile.", "application/json",
                                       _profile_schema),
}


# --------------------------------------------------------------------------- prompts


class PromptShape(Struct, frozen=True):
    description: str
    arguments: list[str]
    template: str


PROMPTS: dict[str, PromptShape] = {
    "implement-with-tests": PromptShape(
        "Delegate a feature with tests and review the packet.",
        ["feature"],
        "Delegate with antigravity_execute: implement {feature}. Include tests for the new behaviour and run them. "
        "Then review only the packet's review targets and continue at most twice.",
    ),
    "mechanical-refactor": PromptShape(
        "Delegate a mechanical refactor with no behaviour change.",
        ["change"],
        "Delegate with antigravity_execute: {change}. No behaviour change; keep public names; run the existing tests. "
        "In the packet, check the flags for files changed but not mentioned.",
    ),
    "review-packet": PromptShape(
        "Review a finished run's packet.",
        ["run_id"],
        "Call antigravity_get_result(run_id='{run_id}'). Open only the review targets' line ranges, highest risk "
        "first; check flags; if tests.source is 'claimed', run the tests yourself before accepting.",
    ),
}


def render_prompt(name: str, arguments: dict[str, str]) -> types.GetPromptResult:
    if name not in PROMPTS:
        raise ValueError(f"unknown prompt {name!r}; known: {', '.join(PROMPTS)}")
    shape = PROMPTS[name]
    missing = [a for a in shape.arguments if not arguments.get(a)]
    if missing:
        raise ValueError(f"prompt {name!r} needs: {', '.join(missing)}")
    text = shape.template.format(**{a: arguments[a] for a in shape.arguments})
    return types.GetPromptResult(
        description=shape.description,
        messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
    )
