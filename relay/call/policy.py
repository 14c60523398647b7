"""Policy: turn a call plus its server-side profile into one validated RunPlan.

A call may narrow what its profile allows (a sub-folder, a safer mode, a
shorter timeout), never widen it. Contradictory options and bad workspaces are
refused here, before anything is spawned.

The bounds, when the profile is silent (or there is no profile):

* who may choose trusted (``--dangerously-skip-permissions``), issue 22:

  ========================  ==========================================================
  no profile in use         the call chooses: safe, trusted, or the legacy booleans
                            (contradictions are CONFLICTING_OPTIONS)
  profile names no mode     safe-bounded: a call asking trusted is CONFLICTING_OPTIONS
  profile ``safe``          a call cannot widen it (CONFLICTING_OPTIONS)
  profile ``trusted``       granted (``execution_mode: "trusted"`` or the legacy
                            ``skip_permissions: true``), behind ``confirm_trusted``
  ========================  ==========================================================

  An operator forbids trusted runs by setting a default profile (GRAVITY_RELAY_DEFAULT_PROFILE):
  a call then always has a profile in use, and no profile that names no trusted mode grants it;
* the timeout bound is the default (30 minutes); a call may ask for less;
* a profile's ``model`` / ``agent`` win over the call's, unless the profile lists the
  call's choice in ``allowed_models`` / ``allowed_agents``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

import msgspec
from msgspec import Struct

from relay.call.limits import AskedLimits, Limits, inherit, narrow, profile_limits
from relay.core.contracts import ExecutionMode, OnViolation, Profile, Status
from relay.core.errors import InvalidInput, RelayError
from relay.core.settings import Settings
from relay.core.views import view
from relay.core.workspace import validate_workspace
from relay.isolate.repo import repo_facts

__all__ = ["RunPlan", "CallOptions", "resolve_plan", "check_asked_names", "profile_grants_trusted", "validate_workspace", "require_text", "DEFAULT_TIMEOUT_MINUTES"]

DEFAULT_TIMEOUT_MINUTES = 30.0


class CallOptions(Struct, kw_only=True, frozen=True):
    """The options of one call, whichever tool it came through."""

    profile: str | None = None
    workspace: str | None = None
    execution_mode: ExecutionMode | None = None
    sandbox: bool | None = None
    skip_permissions: bool | None = None
    constraints: list[str] = []
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    timeout_minutes: float | None = None
    limits: AskedLimits = AskedLimits()  # issue 10: narrower paths / protected / max_files / max_lines
    inherited: Limits | None = None  # a continue's run's limits: its bound instead of the profile's alone


class RunPlan(Struct, kw_only=True, frozen=True):
    """Everything the worker step needs, resolved and checked: the one plan; the record's plan and agy's
    invocation are views of it, as the limits are of a profile and a record (core/views.py)."""

    workspace: str
    profile: str | None
    execution_mode: ExecutionMode | None
    sandbox: bool
    skip_permissions: bool
    constraints: list[str]
    model: str | None
    effort: str | None
    agent: str | None
    timeout_seconds: float
    verify: list[str]
    verify_timeout_seconds: float
    env: dict[str, str]
    paths: list[str]
    notes: list[str]
    # issue 10: enforced after the run (relay.call.enforce); the Limits a continue inherits are read back from the
    # record (limits.recorded_limits). The order of the fields is the preview's policy order (confirm.py).
    protected: list[str] = []
    max_files: int | None = None
    max_lines: int | None = None
    on_violation: OnViolation = "keep"
    # Isolation (issue 10): the profile's; a non-git workspace is refused here, before anything runs.
    isolation: str = "in_place"
    carry_uncommitted: bool = False
    # What the profile says of the call itself (the plan is the one place the profile is read): a trusted run
    # waits for a confirm token (issue 10, gate); the wait before a RUNNING answer (issue 9). Neither is shown
    # in a preview's policy nor bound by its token (confirm._UNBOUND).
    confirm_trusted: bool | Literal["human", "token"] = False
    wait_seconds: float | None = None
    # The workspace's own agy MCP servers and hooks may load in a run that is not trusted (call/prelaunch.py).
    allow_workspace_agy_config: bool = False


def _conflict(message: str, hint: str) -> RelayError:
    return RelayError(Status.CONFLICTING_OPTIONS, message, hint)


def _pick_profile(settings: Settings, name: str | None) -> tuple[str | None, Profile]:
    if settings.profile_error:
        raise InvalidInput(
            f"the relay's profiles cannot be used: {settings.profile_error}",
            "Fix the profile configuration (GRAVITY_RELAY_PROFILES / GRAVITY_RELAY_PROFILE_FILE) and restart "
            "the relay; `gravity-relay doctor` shows what is wrong.",
        )
    chosen = name or settings.default_profile
    if chosen is None:
        return None, Profile()
    if chosen not in settings.profiles:
        names = ", ".join(sorted(settings.profiles)) or "none are defined"
        raise InvalidInput(
            f"unknown profile {chosen!r}",
            f"Use one of the server's profiles ({names}), or omit `profile` to use the default.",
        )
    return chosen, settings.profiles[chosen]


def require_text(name: str, value: str) -> str:
    """A task or feedback made only of whitespace gives the worker nothing to do: refused."""
    if not value.strip():
        raise InvalidInput(
            f"{name} is blank (only whitespace)",
            f"Say in `{name}` what the worker must do.",
        )
    return value


def _choice(what: str, asked: str | None, named: str | None, allowed: list[str], profile: str | None) -> str | None:
    """The profile's model/agent wins; the call may pick another only from the profile's allowed list."""
    if not asked or asked == named:
        return named or asked
    if asked in allowed or (named is None and not allowed):
        return asked
    options = ", ".join(repr(x) for x in ([named] if named else []) + [a for a in allowed if a != named])
    raise _conflict(
        f"profile {profile!r} sets {what} {named!r}; a call cannot choose {asked!r}" if named else
        f"profile {profile!r} allows only these {what}s: {options}; not {asked!r}",
        f"Drop `{what}` (the profile's is used)" + (f", or pick one of: {options}" if options else "") +
        f". The relay's owner can list more in the profile's allowed_{what}s.",
    )


def _merge(*groups: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for group in groups:
        for item in group:
            item = item.strip()
            if item:
                seen.setdefault(item, None)
    return list(seen)


def _refuse_moved_patterns(name: str | None, profile: Profile, workspace: str) -> None:
    """A profile's ``paths`` and ``protected`` are written from its workspace. A call naming a sub-folder of it
    would have them matched from that folder (``sub/migrations/**`` then names nothing there) and, in place, leave
    the rest of the profile's workspace unobserved (a ``../.github`` write): refused, naming the narrowing that
    keeps their meaning (``paths``)."""
    home = Path(os.path.expanduser(str(profile.workspace).strip())).resolve()
    here = Path(workspace)
    try:
        if here == home or os.path.samefile(here, home):
            return
    except OSError:
        pass  # the profile's folder cannot be read: validate_workspace said so already, or it is not this one
    inside = here.relative_to(home).as_posix() if here.is_relative_to(home) else here.name
    raise _conflict(
        f"profile {name!r} sets paths/protected ({_patterns(profile)}) "
        f"from its workspace {home}; a call naming its sub-folder {here} as workspace would match them from there "
        f"instead, and leave the rest of {home} unobserved",
        f"Drop `workspace` (the profile's is used) and narrow with `paths: [\"{inside}/\"]` instead, or ask the "
        f"relay's owner for a profile whose workspace is {here}.",
    )


def _refuse_sub_folder_of_a_repository(name: str | None, profile: Profile, workspace: str) -> None:
    """A profile that names no workspace has its ``paths`` and ``protected`` read from the project the call names.
    A sub-folder of a git repository is not one (``sub/migrations/**`` would name nothing there, and in place the
    rest of the repository goes unobserved): refused, naming the repository and the narrowing that keeps their
    meaning. A repository's own top level (a submodule's, a nested clone's: a ``.git`` of its own) is its project."""
    here = Path(workspace)
    if os.path.lexists(here / ".git"):
        return
    for folder in here.parents:
        if os.path.lexists(folder / ".git"):
            inside = here.relative_to(folder).as_posix()
            raise _conflict(
                f"profile {name!r} sets paths/protected ({_patterns(profile)}) and names no workspace, so they are "
                f"read from the project a call names; {here} is a sub-folder of the git repository {folder}, where "
                "they would not name what they name there",
                f"Name the repository ({folder}) as workspace and narrow with `paths: [\"{inside}/\"]`, or ask the "
                "relay's owner to give the profile a workspace.",
            )


def _patterns(profile: Profile) -> str:
    patterns = ", ".join([*profile.paths, *profile.protected])
    return patterns if len(patterns) <= 200 else patterns[:199] + "…"


def profile_grants_trusted(profile: Profile) -> bool:
    """Whether a profile in use lets its calls run trusted: ``execution_mode: "trusted"``, or the legacy
    ``skip_permissions: true``."""
    return profile.execution_mode is ExecutionMode.TRUSTED or (
        profile.execution_mode is None and profile.skip_permissions is True)


# A model, effort or agent the call names goes into agy's argv as one flag's value (relay.agy.command): a name,
# never text. The leader's model picks these; a 1 MB model id failed the spawn (E2BIG) and was answered
# SPAWN_ERROR, blaming the machine, and a name with spaces or line breaks went into the record and the log as asked.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}")
_NAME_HINTS = {
    "model": "Drop `model` (the profile's, or agy's default, is used), or name one that `agy models` lists.",
    "effort": "Drop `effort`, or use one of low, medium, high, xhigh, max (what this agy takes is checked next).",
    "agent": "Drop `agent` (agy's default agent is used), or name an agent agy knows.",
}


def check_asked_names(args: object) -> None:
    """INVALID_INPUT for a call's model, effort or agent that cannot be a name, before anything reads it (only what
    the call asked: a profile's are the operator's, and a continue's inherited ones were its run's)."""
    for what, hint in _NAME_HINTS.items():
        value = getattr(args, what, None)
        if value and not _NAME.fullmatch(value):  # "" is "not given", as everywhere the plan reads them
            shown = value[:40] + "…" if len(value) > 40 else value
            raise InvalidInput(f"{what} {shown!r} is not accepted: use 1-128 characters of letters, digits and "
                               ". _ : / @ + - (starting with a letter or digit)", hint)


def resolve_plan(call: CallOptions, settings: Settings) -> RunPlan:
    name, profile = _pick_profile(settings, call.profile)
    notes: list[str] = []

    mode = call.execution_mode or profile.execution_mode
    if profile.execution_mode is ExecutionMode.SAFE and call.execution_mode is ExecutionMode.TRUSTED:
        raise _conflict(
            f"profile {name!r} runs in safe mode; a call cannot widen it to trusted",
            "Drop execution_mode, or ask the relay's owner for a trusted profile.",
        )
    sandbox = call.sandbox if call.sandbox is not None else profile.sandbox
    skip = call.skip_permissions if call.skip_permissions is not None else profile.skip_permissions
    if call.execution_mode is ExecutionMode.SAFE and call.skip_permissions is None:
        skip = None  # a call narrowing a legacy auto-approving profile to safe is narrowing, not a conflict
    if profile.execution_mode is ExecutionMode.SAFE and call.skip_permissions:
        raise _conflict(
            f"profile {name!r} runs in safe mode; skip_permissions would widen it",
            "Drop skip_permissions.",
        )
    if profile.sandbox and call.sandbox is False:
        raise _conflict(f"profile {name!r} sandboxes the worker; a call cannot turn the sandbox off",
                        "Drop sandbox=false, or use another profile.")
    if profile.skip_permissions is False and (call.skip_permissions or call.execution_mode is ExecutionMode.TRUSTED):
        raise _conflict(f"profile {name!r} does not auto-approve tools; skip_permissions would widen it",
                        "Drop skip_permissions, or use a trusted profile.")
    # A profile in use is the operator's word and bounds the call: one that names no mode is safe-bounded
    # (issue 13, item 4). With no profile in use the call chooses, as the seed's contract says (issue 22).
    if name is not None and not profile_grants_trusted(profile) and (
            call.execution_mode is ExecutionMode.TRUSTED or call.skip_permissions):
        asked = "execution_mode 'trusted'" if call.execution_mode is ExecutionMode.TRUSTED else "skip_permissions=true"
        raise _conflict(
            f"{asked} is not granted by profile {name!r}, which names no execution_mode: the call is bounded to safe",
            "Drop it (the worker runs in the default mode; commands not allowed in agy's settings are denied), "
            "or use a profile with \"execution_mode\": \"trusted\" set by the relay's owner.",
        )
    if mode is ExecutionMode.SAFE and skip:
        raise _conflict(
            "execution_mode 'safe' contradicts skip_permissions=true",
            "Choose one: execution_mode 'safe' (sandboxed, asks) or 'trusted' (auto-approves every tool).",
        )
    if mode is ExecutionMode.TRUSTED and sandbox:
        raise _conflict(
            "execution_mode 'trusted' contradicts sandbox=true",
            "Choose one: execution_mode 'trusted', or 'safe' for a sandbox.",
        )
    if sandbox and skip:
        raise _conflict(
            "sandbox=true contradicts skip_permissions=true",
            "Use execution_mode 'safe' (sandbox) or 'trusted' (skip permissions), not both legacy flags.",
        )
    if mode is ExecutionMode.TRUSTED:
        sandbox, skip = False, True
    elif mode is ExecutionMode.SAFE:
        sandbox, skip = True, False
    else:
        sandbox, skip = bool(sandbox), bool(skip)

    workspace = validate_workspace(
        call.workspace or profile.workspace, settings, within=profile.workspace if call.workspace else None
    )
    if call.workspace and profile.workspace and (profile.paths or profile.protected):
        _refuse_moved_patterns(name, profile, workspace)
    elif name is not None and not profile.workspace and (profile.paths or profile.protected):
        _refuse_sub_folder_of_a_repository(name, profile, workspace)

    # The profile's limit, or the default when it names none, is the bound (issue 13, item 5).
    limit = profile.timeout_minutes or DEFAULT_TIMEOUT_MINUTES
    minutes = call.timeout_minutes or limit
    if call.timeout_minutes and call.timeout_minutes > limit:
        whose = f"the profile's {limit:g}" if profile.timeout_minutes else f"the default {limit:g} (no profile sets one)"
        notes.append(f"timeout_minutes capped at {whose}")
        minutes = limit
    if profile.isolation == "worktree":
        repo_facts(workspace)  # CONFLICTING_OPTIONS naming why, when the workspace cannot be isolated

    bound = profile_limits(profile, name)
    if call.inherited is not None:
        bound = inherit(call.inherited, bound)
    limits = narrow(bound, call.limits, "the run" if call.inherited is not None else
                    f"profile {name!r}" if name else "the relay's default (no profile)")

    # The profile's other options (verify, env, isolation, the wait…) pass to the plan by name (core/views.py).
    return view(
        RunPlan, profile,
        workspace=workspace,
        profile=name,
        execution_mode=mode,
        sandbox=sandbox,
        skip_permissions=skip,
        constraints=_merge(settings.fixed_constraints, profile.constraints, call.constraints),
        model=_choice("model", call.model, profile.model, profile.allowed_models, name),
        effort=call.effort or profile.effort,
        agent=_choice("agent", call.agent, profile.agent, profile.allowed_agents, name),
        timeout_seconds=float(minutes) * 60.0,
        verify_timeout_seconds=profile.verify_timeout_minutes * 60.0,
        notes=notes,
        **msgspec.structs.asdict(limits),
    )
