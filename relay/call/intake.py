"""Intake: a tool's input turned, once, into the plan of one call (DESIGN.md's steps 1–3).

Everything later steps need is decided here and carried in the ``CallPlan``: the profile and its
bounds (``policy.resolve_plan``, the one place a profile is read), the parent record of a continue
(read once, recovered first if its relay died), the agy that will run and its version (located and
asked once), the prompt, the tasks of the conversation so far (what the review reads), and the
wait before a RUNNING answer. Nothing after intake reads a profile or a parent record again.

A call refused here is a ``Refusal``: the record as far as it got and why; the finish step records it.
The confirm gate runs here too: a trusted call under a ``confirm_trusted`` profile ends with its
question (its preview, and who may confirm it); one a person must confirm is an ``AwaitingPerson``: the
door asks, then runs or declines that very CallPlan (no second intake, no second record).
"""

from __future__ import annotations

import functools
import os

import anyio
import msgspec

from relay.agy import command as agy_cli
from relay.agy.prompt import compose_feedback, compose_prompt
from relay.call.confirm import Gate, Question
from relay.call.enforce import prompt_limits
from relay.call.kept import refuse_kept
from relay.call.limits import asked_by, recorded_limits
from relay.call.policy import CallOptions, RunPlan, check_asked_names, require_text, resolve_plan, validate_workspace
from relay.call.recovery import recover_run
from relay.core.contracts import (ContinueInput, ExecuteInput, ExecutionMode, RecordPlan, RecordProcess,
                                  RecordRequest, RunRecord, Status)
from relay.core.errors import WAIT_FOR_IT as _WAIT_FOR_IT, InvalidInput, InvalidWorkspace, RelayError, SpawnError
from relay.core.identity import own_stamp
from relay.core.settings import Settings
from relay.core.views import view
from relay.runs.store import RunStore, new_run_id, now_iso
from relay.runs.usage import ANCESTORS

__all__ = ["CallPlan", "AwaitingPerson", "Refusal", "take_in", "refused_input", "record_plan", "call_wait"]

# How many earlier runs of a conversation a follow-up's review reads the task of (``CallPlan.asked``).
_ASKED_DEPTH = 8


class CallPlan(msgspec.Struct, kw_only=True):
    """One call, resolved: what every later step reads (and nothing re-reads)."""

    record: RunRecord  # the run's record: request and plan filled in
    plan: RunPlan
    prompt: str
    conversation_id: str | None  # the agy conversation a continue resumes
    parent: RunRecord | None  # the run a continue follows, as read (once) at intake
    ancestors: list[RunRecord]  # the runs it continues, nearest (the parent) first: the review's tasks, the usage
    agy: str
    version: agy_cli.AgyVersion | None
    asked: str  # the task and those of the runs it continues: what the review reads the change against
    wait: float | None  # seconds before a RUNNING answer (the call's, else its profile's, else the relay's)
    question: Question | None = None  # set: a confirm_trusted profile's preview and who confirms; nothing runs yet


class AwaitingPerson(msgspec.Struct):
    """A call a person must confirm (confirm_trusted "human", or true where the door can ask): the door shows
    ``call.question.preview`` in its form, then runs this very call or records the person's no."""

    call: CallPlan


class Refusal(msgspec.Struct, kw_only=True):
    """A call refused at intake: its record as far as it got, and why (finished as an early refusal)."""

    record: RunRecord
    error: Exception


def _strings(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return [v.strip() for v in value if v.strip()]


def _no_nul(text: str) -> str:
    return text.replace("\0", "\\0") if isinstance(text, str) else text


def _refuse_nul(args: object) -> None:
    """A NUL byte cannot travel in an argv or an environment; refuse it early, naming the field."""
    for name in args.__struct_fields__:
        value = getattr(args, name)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and "\0" in v for v in values):
            raise InvalidInput(
                f"{name} contains a NUL byte (\\u0000), which cannot be passed to agy",
                f"Remove the NUL character from {name} and call again.",
            )


def new_record(tool: str, text: str, *, ignored: list[str] | None, run_id: str | None, key: str | None = None,
               fingerprint: str | None = None) -> RunRecord:
    """A run's record from the moment the call arrives (early refusals are recorded too)."""
    request = RecordRequest(task=_no_nul(text), ignored_arguments=list(ignored or []), idempotency_key=key,
                            fingerprint=fingerprint)
    return RunRecord(run_id=run_id or new_run_id(), tool="continue" if tool == "continue" else "execute",
                     created_at=now_iso(), request=request,
                     process=RecordProcess(relay_pid=os.getpid(), relay_stamp=own_stamp()))


def refused_input(tool: str, task: str, exc: RelayError, *, ignored: list[str] | None = None) -> Refusal:
    """Arguments that did not decode: refused, and recorded like any other early refusal."""
    return Refusal(record=new_record("continue" if tool.endswith("continue") else "execute", task[:10_000],
                                     ignored=ignored, run_id=None), error=exc)


def record_plan(plan: RunPlan, agy: str | None = None, version: agy_cli.AgyVersion | None = None) -> RecordPlan:
    """The plan as the record keeps it (no profile env values: they can be credentials)."""
    return view(RecordPlan, plan, on_violation="revert" if plan.on_violation == "revert" else None,  # None: "keep"
                agy_bin=agy, agy_version=".".join(map(str, version)) if version else None)


async def take_in(tool: str, args: ExecuteInput | ContinueInput, *, settings: Settings, store: RunStore,
                  environ: dict[str, str], gate: Gate, ignored: list[str] | None = None,
                  run_id: str | None = None, fingerprint: str | None = None, ask: bool = False) -> CallPlan | Refusal:
    """Resolve one execute or continue call (see the module's docstring). ``run_id`` and ``fingerprint``: the
    id and the digest the call was taken under (relay/call/once.py), kept in its record with its key."""
    text = args.task if isinstance(args, ExecuteInput) else args.feedback
    record = new_record(tool, text, ignored=ignored, run_id=run_id, key=getattr(args, "idempotency_key", None),
                        fingerprint=fingerprint)
    try:
        if settings.inside_worker:
            raise RelayError(
                Status.RECURSION_REFUSED,
                f"this relay was started inside agy worker run {settings.inside_worker}; it will not delegate to agy again",
                "Do the work directly. (agy loads the same MCP config as your editor; see docs/clients.md, 'Antigravity and "
                "recursion'.)",
            )
        if isinstance(args, ExecuteInput):
            require_text("task", args.task)
            _refuse_nul(args)
            parent, conversation_id = None, None
            plan = resolve_plan(_execute_options(args), settings)
            prompt = compose_prompt(task=args.task, workspace=plan.workspace, constraints=plan.constraints,
                                    plan=args.plan, acceptance_criteria=args.acceptance_criteria, paths=plan.paths,
                                    limits=prompt_limits(plan))
            texts = {"task": args.task, "plan": args.plan, "acceptance_criteria": args.acceptance_criteria}
        else:
            if not args.feedback.strip():
                # feedback is optional in the published schema (a call with apply needs none): say both choices,
                # and run_id too when it is missing as well: one answer names all a call {} needs, not one a turn.
                said = "blank (only whitespace)" if args.feedback else "left out"
                unnamed = not args.run_id and not args.conversation_id
                raise InvalidInput(f"antigravity_continue needs {'run_id and ' if unnamed else ''}feedback or "
                                   f"apply=true; {'run_id was left out and ' if unnamed else ''}feedback was {said}",
                                   ("Pass the run_id from the packet you are following up on, and say" if unnamed else
                                    "Say") + " in `feedback` what the worker must do next, or send apply=true (no "
                                   "feedback) to bring a worktree run's change into your tree.")
            _refuse_nul(args)
            call, conversation_id, parent = _continue_options(args, settings, store)
            record.request.parent_run_id = parent.run_id if parent is not None else None
            record.request.requested_conversation_id = conversation_id
            plan = resolve_plan(call, settings)
            prompt = compose_feedback(feedback=args.feedback, constraints=plan.constraints, limits=prompt_limits(plan))
            texts = {"feedback": args.feedback}
        record.plan = record_plan(plan)  # a refusal from here on records what the call was resolved to
        agy, version = await _locate_agy(settings, environ)
        record.plan = record_plan(plan, agy, version)
        if (old := agy_cli.too_old(version)) is not None:
            raise old
        question = await gate.check(record, plan, prompt, args.confirm, texts=texts, conversation_id=conversation_id,
                                    agy=agy, version=version, ask=ask)
    except Exception as exc:  # noqa: BLE001 - a refusal, or a bug, before the run: recorded, with a run_id
        return Refusal(record=record, error=exc)
    wait = _wait(args, plan.wait_seconds, settings)
    ancestors = _ancestors(store, parent)
    asked = "\n".join([record.request.task, *(run.request.task for run in ancestors[:_ASKED_DEPTH])])
    return CallPlan(record=record, plan=plan, prompt=prompt, conversation_id=conversation_id, parent=parent,
                    ancestors=ancestors, agy=agy, version=version, asked=asked, wait=wait, question=question)


def _wait(args: ExecuteInput | ContinueInput, profile_wait: float | None, settings: Settings) -> float | None:
    if args.wait_seconds is not None:
        return args.wait_seconds
    return profile_wait if profile_wait is not None else settings.wait_seconds


def call_wait(args: ExecuteInput | ContinueInput, settings: Settings) -> float | None:
    """The wait a call of these arguments gets, without taking it in (a repeat's: relay/call/once.py)."""
    profile_wait = None
    if isinstance(args, ExecuteInput) and args.wait_seconds is None:
        try:
            profile_wait = resolve_plan(_execute_options(args), settings).wait_seconds
        except (RelayError, OSError):
            pass  # the first call was refused the same way; its answer says so
    return _wait(args, profile_wait, settings)


async def _locate_agy(settings: Settings, environ: dict[str, str]) -> tuple[str, agy_cli.AgyVersion | None]:
    """Where agy is and which version it is: decided once per call (the cached `agy --version` probe)."""
    agy = agy_cli.locate_agy(settings, environ)
    try:
        answer = await anyio.to_thread.run_sync(functools.partial(agy_cli.read_version, agy, environ, data_dir=settings.data_dir), abandon_on_cancel=True)
    except OSError as exc:
        raise SpawnError(f"could not start {agy}: {exc.strerror or exc}") from None
    return agy, answer.version


def _execute_options(args: ExecuteInput) -> CallOptions:
    check_asked_names(args)
    return CallOptions(
        profile=args.profile, workspace=args.workspace, execution_mode=args.execution_mode, sandbox=args.sandbox,
        skip_permissions=args.skip_permissions, constraints=_strings(args.constraints), model=args.model,
        effort=args.effort, agent=args.agent, timeout_minutes=args.timeout_minutes, limits=asked_by(args),
    )


def _continue_options(args: ContinueInput, settings: Settings, store: RunStore
                      ) -> tuple[CallOptions, str, RunRecord | None]:
    """(the call's options, the conversation to resume, the parent run) of a continue."""
    check_asked_names(args)
    overrides = dict(timeout_minutes=args.timeout_minutes, model=args.model, effort=args.effort, agent=args.agent)
    if args.run_id:
        parent = store.read(args.run_id)
        if parent.state == "running":
            # Still running only while its relay lives (identity checked); a dead relay's run is finished now.
            if not recover_run(store, parent.run_id):
                raise RelayError(Status.BUSY, f"run {args.run_id} is still running",
                                 _WAIT_FOR_IT.format(then="continue it"), retryable=True)
            parent = store.read(args.run_id)
        # Before the conversation: its change is on no branch, so a continue by run_id would start without it.
        refuse_kept(store.runs_dir.parent, parent, "the continue was not started: it would begin without that change")
        if not parent.outcome.conversation_id:
            ended = parent.outcome.status.value if parent.outcome.status else "early"
            raise InvalidInput(f"run {args.run_id} has no agy conversation to continue (it ended {ended})",
                               "Start a new antigravity_execute instead.")
        ran = parent.plan
        if args.workspace:
            # A continue runs where its run ran; another folder is refused, never silently ignored.
            asked = validate_workspace(args.workspace, settings)
            if ran.workspace and asked != ran.workspace:
                raise InvalidWorkspace(
                    f"run {args.run_id} ran in {ran.workspace}; a continue cannot move it to {asked}",
                    "Drop `workspace` (the run's own is restored), or start a new antigravity_execute there.",
                )
        mode, sandbox, skip = _kept_mode(args, parent)
        return (
            CallOptions(
                profile=ran.profile, workspace=ran.workspace, execution_mode=mode, sandbox=sandbox, skip_permissions=skip,
                **{k: v or getattr(ran, k, None) for k, v in overrides.items()},
                constraints=_strings(args.constraints), limits=asked_by(args), inherited=recorded_limits(parent),
            ),
            parent.outcome.conversation_id,
            parent,
        )
    if not args.conversation_id:
        raise InvalidInput(
            "antigravity_continue needs run_id (or the older conversation_id + workspace)",
            "Pass the run_id from the packet you are following up on.",
        )
    if not args.workspace:
        raise InvalidWorkspace(
            "continuing by conversation_id needs the workspace it ran in",
            "Pass run_id instead (the relay restores everything), or add workspace.",
        )
    return (
        CallOptions(profile=args.profile, workspace=args.workspace, execution_mode=args.execution_mode,
                    sandbox=args.sandbox, skip_permissions=args.skip_permissions, limits=asked_by(args),
                    constraints=_strings(args.constraints), **overrides),
        args.conversation_id,
        None,
    )


def _kept_mode(args: ContinueInput, parent: RunRecord) -> tuple[ExecutionMode | None, bool | None, bool | None]:
    """(execution_mode, sandbox, skip_permissions) of a continue by run_id: its run's, or "safe" when the call narrows
    a trusted run to it. Another profile, or trusted asked of a run that was not, is refused (never dropped unsaid: a
    "safe" once went unread and the continue launched agy trusted)."""
    ran = parent.plan
    if args.profile is not None and args.profile != ran.profile:
        raise InvalidInput(
            f"run {parent.run_id} ran under profile {ran.profile!r}; a continue keeps its run's profile, not "
            f"{args.profile!r}",
            f"Drop `profile`, or start a new antigravity_execute under profile {args.profile!r} (a new conversation).")
    safe = args.execution_mode is ExecutionMode.SAFE or args.sandbox is True or args.skip_permissions is False
    trusted = args.execution_mode is ExecutionMode.TRUSTED or args.skip_permissions is True or args.sandbox is False
    was_trusted = ran.execution_mode is ExecutionMode.TRUSTED or (ran.execution_mode is None and ran.skip_permissions)
    if safe and trusted:
        raise RelayError(Status.CONFLICTING_OPTIONS, "the continue asks for both safe and trusted mode "
                         "(execution_mode, sandbox, skip_permissions)", "Choose one, or drop them to keep the run's mode.")
    if trusted and not was_trusted:
        raise RelayError(
            Status.CONFLICTING_OPTIONS,
            f"run {parent.run_id} did not run trusted (it ran {'safe' if ran.sandbox else 'in the default mode'}); a "
            "continue keeps its run's mode: it may narrow a trusted run to safe, never widen one",
            "Drop execution_mode / skip_permissions / sandbox, or start a new antigravity_execute with execution_mode "
            "\"trusted\" (its profile must grant it).")
    if safe:
        return ExecutionMode.SAFE, None, None
    mode = ran.execution_mode
    return mode, None if mode else ran.sandbox, None if mode else ran.skip_permissions


def _ancestors(store: RunStore, parent: RunRecord | None) -> list[RunRecord]:
    """The runs a continue follows, nearest first (a bounded chain, best effort): what the leader asked in
    this conversation (a follow-up of a security fix is read as one) and agy's token totals before this run."""
    chain: list[RunRecord] = []
    earlier = parent
    while earlier is not None and len(chain) < max(_ASKED_DEPTH, ANCESTORS):
        chain.append(earlier)
        if not earlier.request.parent_run_id:
            break
        try:
            earlier = store.read(earlier.request.parent_run_id)
        except (RelayError, OSError):
            break
    return chain
