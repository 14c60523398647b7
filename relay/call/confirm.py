"""The escalation gate (issue 10): a trusted run under a ``confirm_trusted`` profile is shown before it runs.

The first call answers CONFIRMATION_REQUIRED with a preview (agy's argv as the relay would run it,
the workspace, the policy, the time limit) and a token; repeating the call with ``confirm=<token>``
runs it. Stateless, so any relay process sharing the data dir accepts the token:

    token = "c1.<expiry, unix seconds>.<two keyed bytes per argument group, hex>.<tag, hex>"
    tag   = HMAC-SHA256(key, "c1" | expiry | group bytes | canonical JSON of the whole resolved call)[:12]

The canonical JSON is the resolved RunPlan (every field, so keys added later are bound too), the
hash of the composed prompt, the task text, the agy binary and version, the tool and the
conversation. The tag binds all of it; the group bytes only let a refusal say *what* differs
(workspace, time limit, ...) without keeping the earlier call anywhere.

The key is 32 random bytes in ``<data_dir>/confirm-key``, created 0600 by a temp file linked into
place (two relays cannot both create it; a reader never sees half a key). A key file that others
could read (group/other bits), that another user owns, that is a symlink or of the wrong size is
*replaced* with a new key, not chmod-ed: it may have leaked, and a leaked key forges tokens.
Replacing it invalidates tokens not yet used; their calls are refused and ask again.

Who may confirm (issue 34, D1): the token is the model's way, so it exists only where the model may
confirm: ``"token"`` profiles, and ``true`` where the door cannot ask a person (``ask`` False: a client
without forms, the shell). Under ``"human"``, and ``true`` where the door can ask, no token is issued and a
``confirm`` argument is refused whatever it holds: the call comes back as a ``Question`` ``by="person"`` and
the door asks (relay/doors/person_confirm.py); nothing is written until the person answers, and no record
ever holds a token. A ``true`` profile's record keeps its preview without the token too (its answer alone
carries it); a ``"token"`` profile's record keeps it, as before.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

import anyio
import msgspec

from relay.agy import command as agy_cli
from relay.agy.classify import Verdict
from relay.agy.prompt import prompt_fits
from relay.call.finish import Ending, finish
from relay.call.policy import RunPlan
from relay.core.contracts import ExecutionMode, Packet, Preview, RunRecord, Status
from relay.core.errors import InvalidInput, RelayError, StorageError
from relay.core.files import private_dir, read_secret, replace_file
from relay.core.settings import Settings
from relay.core.views import view
from relay.runs.store import RunStore

__all__ = ["Gate", "Question", "KEY_FILE", "TOKEN_TTL_SECONDS", "GROUPS", "load_or_create_key", "key_problem",
           "issue_token", "check_token", "plan_argv", "preview_answer", "preview_packet", "declined_packet", "Refusal"]

log = logging.getLogger("relay.call.confirm")

KEY_FILE = "confirm-key"
TOKEN_TTL_SECONDS = 300  # a few minutes: long enough to read the preview, short enough not to linger
_KEY_BYTES = 32
_TAG_BYTES = 12
# Per argument group, so a refusal can name what changed. One byte named the wrong groups once in 256
# (a changed task read as unchanged); two make that 1 in 65,536. The tag, not these, is the security.
_GROUP_BYTES = 2
_PREFIX = "c1"
# What a refusal can name. Order is part of the token format (one byte each).
GROUPS = ("tool", "task", "workspace", "execution mode", "time limit", "model/effort/agent", "profile", "policy", "agy")
_TOOL_NAMES = {"execute": "antigravity_execute", "continue": "antigravity_continue"}
_PROMPT_SHOWN = 80


# --------------------------------------------------------------------------- the key


def load_or_create_key(data_dir: Path) -> bytes:
    """The gate's HMAC key: read from ``data_dir/confirm-key`` (owner-only), else made there."""
    path = data_dir / KEY_FILE
    key, problem = _read_private(path)
    if key is not None:
        return key
    private_dir(data_dir)
    new = secrets.token_bytes(_KEY_BYTES)
    fd, tmp = tempfile.mkstemp(prefix=f".{KEY_FILE}.", suffix=".tmp", dir=data_dir)  # mkstemp: mode 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(new)
            fh.flush()
            os.fsync(fh.fileno())
        if problem is None:
            try:
                os.link(tmp, path)  # atomic create-if-absent: the first relay's key wins
            except FileExistsError:
                key, problem = _read_private(path)
                if key is None:
                    raise StorageError(f"the confirm key {path} appeared but cannot be used: {problem}") from None
                return key
        else:
            log.warning("confirm key %s %s: replaced with a new key (tokens issued before are refused)", path, problem)
            replace_file(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return new


def key_problem(path: Path) -> tuple[bool, str | None]:
    """(exists, problem) of a key file, by the gate's own rules, without making or replacing it (doctor).

    problem None with exists True: a good key. A problem the gate replaces the key over ("was readable
    by others (mode 0644)") is returned as is; one it cannot get past raises StorageError, as at a call.
    """
    key, problem = _read_private(path)
    return key is not None or problem is not None, problem


def _read_private(path: Path) -> tuple[bytes | None, str | None]:
    """(key, None) when the file is a good key; (None, None) when there is none; (None, why) when it must go."""
    try:
        data, problem = read_secret(path, _KEY_BYTES, tighten=False)
    except IsADirectoryError:
        raise StorageError(f"the confirm key {path} is a directory",
                           f"Remove {path}; the relay makes a new key at the next trusted call.") from None
    except OSError as exc:
        raise StorageError(f"cannot read the confirm key {path}: {exc.strerror or exc}") from None
    if data is None:
        return None, problem
    if len(data) != _KEY_BYTES:
        return None, f"holds {len(data)} bytes, not {_KEY_BYTES}"
    return data, None


# --------------------------------------------------------------------------- the token


def _canonical(value: Any) -> bytes:
    return msgspec.json.encode(value, order="sorted")


def _group_bytes(key: bytes, groups: dict[str, Any]) -> bytes:
    return b"".join(hmac.new(key, b"group\0" + label.encode() + b"\0" + _canonical(groups[label]),
                             hashlib.sha256).digest()[:_GROUP_BYTES] for label in GROUPS)


def _tag(key: bytes, expiry: int, group_bytes: bytes, whole: bytes) -> bytes:
    message = b"\0".join([_PREFIX.encode(), str(expiry).encode(), group_bytes, hashlib.sha256(whole).digest()])
    return hmac.new(key, message, hashlib.sha256).digest()[:_TAG_BYTES]


def issue_token(key: bytes, groups: dict[str, Any], extra: dict[str, Any], *, now: float,
                ttl: float = TOKEN_TTL_SECONDS) -> tuple[str, int]:
    """(token, expiry in unix seconds) binding ``groups`` (named in refusals) and ``extra`` (bound only)."""
    expiry = int(now + ttl)
    group_bytes = _group_bytes(key, groups)
    tag = _tag(key, expiry, group_bytes, _canonical({"groups": groups, "extra": extra}))
    return f"{_PREFIX}.{expiry}.{group_bytes.hex()}.{tag.hex()}", expiry


class Refusal(msgspec.Struct, frozen=True):
    kind: str  # "differ" | "expired" | "invalid"
    differs: tuple[str, ...] = ()
    expiry: int = 0


def check_token(key: bytes, token: str, groups: dict[str, Any], extra: dict[str, Any], *, now: float) -> Refusal | None:
    """None when ``token`` was issued for exactly these arguments and has not expired; else why not."""
    parts = token.strip().split(".")
    try:
        if len(parts) != 4 or parts[0] != _PREFIX:
            raise ValueError
        expiry, given_groups, given_tag = int(parts[1]), bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
    except ValueError:
        return Refusal("invalid")
    if len(given_groups) != len(GROUPS) * _GROUP_BYTES or len(given_tag) != _TAG_BYTES:
        return Refusal("invalid")
    whole = _canonical({"groups": groups, "extra": extra})
    if hmac.compare_digest(_tag(key, expiry, given_groups, whole), given_tag):
        # The tag covers the expiry too: only now is it worth believing.
        return Refusal("expired", expiry=expiry) if now > expiry else None
    now = _group_bytes(key, groups)
    differs = tuple(label for i, label in enumerate(GROUPS)
                    if given_groups[i * _GROUP_BYTES:(i + 1) * _GROUP_BYTES] != now[i * _GROUP_BYTES:(i + 1) * _GROUP_BYTES])
    return Refusal("differ", differs) if differs else Refusal("invalid")


# --------------------------------------------------------------------------- the preview


def plan_argv(plan: RunPlan, *, agy: str, version: agy_cli.AgyVersion | None, prompt: str, conversation_id: str | None,
              spill: str | None, log_file: str | None) -> list[str]:
    """agy's argv for a plan: what a run launches, and what a preview shows (the same function)."""
    return agy_cli.build_agy_argv(view(  # the plan's workspace, mode, time limit, model… by name (core/views.py)
        agy_cli.AgyInvocation, plan, agy=agy, version=version, prompt=prompt, conversation_id=conversation_id,
        extra_dirs=(spill,) if spill else (), log_file=log_file, schema=agy_cli.report_schema()))


def _shown(value: Any) -> Any:
    """A policy value small enough for the packet's budget (the token binds the whole value)."""
    if isinstance(value, str):
        return value if len(value) <= 120 else value[:119] + "…"
    if isinstance(value, list):
        head = [_shown(v) for v in value[:6]]
        return head + [f"… (+{len(value) - 6} more)"] if len(value) > 6 else head
    return value


def _policy(plan: RunPlan) -> dict[str, Any]:
    """Every plan key the command line does not already show (future policy keys included)."""
    shown = msgspec.to_builtins(plan)
    for key in (*_UNBOUND, "workspace", "execution_mode", "sandbox", "skip_permissions", "timeout_seconds", "model", "effort",
                "agent", "notes", "env", "verify_timeout_seconds"):
        shown.pop(key, None)
    if not plan.allow_workspace_agy_config:
        shown.pop("allow_workspace_agy_config", None)  # shown when a profile allows it; a preview's bytes unchanged
    policy = {k: _shown(v) for k, v in shown.items() if v not in (None, [], {}, "")}
    if plan.env:
        policy["env"] = sorted(plan.env)  # names only: values can be credentials
    return policy


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# Plan keys about the call rather than the run: neither shown in a preview's policy nor bound by the token.
_UNBOUND = ("confirm_trusted", "wait_seconds")


ConfirmBy = Literal["token", "person"]


class Question(msgspec.Struct, frozen=True, kw_only=True):
    """A gated call's answer before it runs: what would run, and who may say yes. ``by="token"``: the
    model, repeating the call with the preview's token; ``by="person"``: a person, in the door's own form
    (the preview then has no token: nothing the model can read confirms it)."""

    preview: Preview
    by: ConfirmBy


def _who_confirms(confirm_trusted: bool | str, ask: bool) -> ConfirmBy:
    """"token" profiles: the model; "human": a person (refused where the door cannot ask); true: a person where
    the door can ask, else the model."""
    if confirm_trusted == "human" or (confirm_trusted is True and ask):
        return "person"
    return "token"


def _trusted(plan: RunPlan) -> bool:
    if plan.execution_mode is not None:
        return plan.execution_mode is ExecutionMode.TRUSTED
    return plan.skip_permissions


def _bound(record: RunRecord, plan: RunPlan, prompt: str, texts: dict[str, Any], conversation_id: str | None,
           agy: str, version: agy_cli.AgyVersion | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the groups a refusal can name, what the tag binds besides): the whole resolved call."""
    plan_fields = {k: v for k, v in msgspec.to_builtins(plan).items() if k not in _UNBOUND}
    groups = {
        "tool": {"tool": record.tool, "conversation": conversation_id, "parent": record.request.parent_run_id},
        "task": hashlib.sha256(_canonical(texts)).hexdigest(),
        "workspace": plan.workspace,
        "execution mode": [plan_fields["execution_mode"], plan.sandbox, plan.skip_permissions],
        "time limit": plan.timeout_seconds,
        "model/effort/agent": [plan.model, plan.effort, plan.agent],
        "profile": plan.profile,
        "policy": {k: v for k, v in plan_fields.items() if k not in (
            "workspace", "execution_mode", "sandbox", "skip_permissions", "timeout_seconds", "model", "effort",
            "agent", "profile")},
        "agy": [agy, list(version) if version else None],
    }
    return groups, {"prompt": hashlib.sha256(prompt.encode()).hexdigest()}


class Gate:
    """One per Relay. Tokens carry wall-clock expiries, so they mean the same in every relay process."""

    # The clock, injectable: an instance's own (``Gate(..., clock=f)``), or the class's in tests of a whole relay.
    clock: Callable[[], float] = staticmethod(time.time)

    def __init__(self, settings: Settings, store: RunStore, environ: dict[str, str],
                 clock: Callable[[], float] | None = None) -> None:
        self.settings, self.store, self.environ = settings, store, environ
        if clock is not None:
            self.clock = clock

    def needed(self, plan: RunPlan) -> bool:
        return bool(plan.confirm_trusted) and _trusted(plan)

    async def check(self, record: RunRecord, plan: RunPlan, prompt: str, confirm: str | None, *,
                    texts: dict[str, Any], conversation_id: str | None, agy: str,
                    version: agy_cli.AgyVersion | None, ask: bool = False) -> Question | None:
        """None: the call may run (no gate, or a good token). A Question: answer it (its preview, and who
        confirms). Raises on a refused token, on a token where only a person may confirm, and where a person
        must confirm but the door cannot ask (``ask``: the door can show the person a form).

        ``agy`` and ``version``: the agy the call will run, located once at intake (the token binds them)."""
        if not self.needed(plan):
            return None
        by = _who_confirms(plan.confirm_trusted, ask)
        if by == "person":
            if confirm is not None and confirm.strip():
                raise _token_not_accepted(plan, ask, _TOOL_NAMES.get(record.tool, record.tool))
            if not ask:
                raise _needs_person()
        now = self.clock()
        if by == "person":
            # No token: the door asks, and holds the call meanwhile; nothing the model reads confirms it.
            return Question(preview=self._preview(record, plan, prompt, texts, agy, version, conversation_id, now),
                            by="person")
        groups, extra = _bound(record, plan, prompt, texts, conversation_id, agy, version)
        key = await anyio.to_thread.run_sync(load_or_create_key, self.settings.data_dir)
        if confirm is not None and confirm.strip():
            refusal = check_token(key, confirm, groups, extra, now=now)
            if refusal is None:
                log.info("run %s: confirm token accepted for a trusted run", record.run_id)
                return None
            raise _refused(refusal, _TOOL_NAMES.get(record.tool, record.tool))
        token, expiry = issue_token(key, groups, extra, now=now)
        preview = self._preview(record, plan, prompt, texts, agy, version, conversation_id, expiry)
        return Question(preview=msgspec.structs.replace(preview, confirm=token), by="token")

    def _preview(self, record: RunRecord, plan: RunPlan, prompt: str, texts: dict[str, Any], agy: str,
                 version: agy_cli.AgyVersion | None, conversation_id: str | None, expiry: float) -> Preview:
        text = next((v for v in texts.values() if isinstance(v, str)), "")
        return Preview(command=self._command(record, plan, prompt, text, agy, version, conversation_id),
                       workspace=plan.workspace, execution_mode=ExecutionMode.TRUSTED.value,
                       timeout_minutes=round(plan.timeout_seconds / 60, 2), policy=_policy(plan),
                       expires_at=_iso(expiry))

    def _command(self, record: RunRecord, plan: RunPlan, prompt: str, text: str, agy: str,
                 version: agy_cli.AgyVersion | None, conversation_id: str | None) -> list[str]:
        """The argv a run would launch; the run's own id (unknown yet) as <run_id>, long texts shortened: the
        prompt shows its size and the start of the task (its own start is the relay's fixed preamble)."""
        placeholder = "<run_id>"
        log_file = str(self.store.log_path(record.run_id, 1)).replace(record.run_id, placeholder)
        before = plan_argv(plan, agy=agy, version=version, prompt="", conversation_id=conversation_id, spill=None,
                           log_file=log_file)[:-1]
        spill = None if prompt_fits(prompt, before) else str(self.store.runs_dir / f"{placeholder}.prompt")
        schema = agy_cli.report_schema()
        one_line = " ".join(text.split())
        begins = one_line if len(one_line) <= _PROMPT_SHOWN else one_line[:_PROMPT_SHOWN] + "…"
        shown_prompt = f"<prompt, {len(prompt)} chars; its task begins: {begins}>"
        argv = plan_argv(plan, agy=agy, version=version, prompt=shown_prompt, conversation_id=conversation_id,
                         spill=spill, log_file=log_file)
        return [f"<report schema, {len(schema)} chars>" if a == schema else a for a in argv]


def _token_not_accepted(plan: RunPlan, ask: bool, tool: str) -> RelayError:
    who = ('confirm_trusted "human"' if plan.confirm_trusted == "human"
           else "confirm_trusted true, on a client that shows confirmation forms")
    return RelayError(
        Status.CONFIRMATION_REQUIRED,
        f"confirm: a token is not accepted for profile {plan.profile!r} ({who}): a person confirms its trusted runs "
        "in the client's form; nothing ran",
        f"Call {tool} again without `confirm`: the user is asked in a form." if ask else _NO_FORM_HINT)


_NO_FORM_HINT = ("Run it from a client that shows MCP elicitation forms (Claude Code or Codex, interactive), use "
                 "execution_mode \"safe\", or ask the user to set the profile's confirm_trusted to \"token\".")


def _needs_person() -> RelayError:
    return RelayError(Status.CONFIRMATION_REQUIRED, "this profile needs a person to confirm a trusted run, and this "
                      "client cannot show a confirmation form; nothing ran", _NO_FORM_HINT)


def _refused(refusal: Refusal, tool: str) -> RelayError:
    again = (f"Call {tool} again without `confirm` for a new preview and token, check the preview, then repeat "
             "the call with that token.")
    if refusal.kind == "expired":
        return RelayError(Status.CONFIRMATION_REQUIRED,
                          f"confirm: the token expired at {_iso(refusal.expiry)} (tokens last "
                          f"{TOKEN_TTL_SECONDS // 60} minutes); nothing ran", again)
    if refusal.kind == "differ":
        return RelayError(Status.CONFIRMATION_REQUIRED,
                          f"confirm: the arguments differ from the preview the token was issued for "
                          f"({', '.join(refusal.differs)}); nothing ran", again)
    return InvalidInput("confirm: not a token this relay issued for these arguments (altered or malformed, or "
                        "issued before the relay's confirm key was replaced); nothing ran", again)


def preview_answer(record: RunRecord, plan: RunPlan, preview: Preview) -> Verdict:
    """The CONFIRMATION_REQUIRED ending: what would run (the preview goes in the packet), and how to run it."""
    tool = _TOOL_NAMES.get(record.tool, record.tool)
    token = (f"confirm: \"{preview.confirm}\"" if preview.confirm is not None
             else "`confirm`: the token this call answered (not kept in the run record)")
    return Verdict(
        status=Status.CONFIRMATION_REQUIRED,
        message=f"profile {plan.profile!r} asks for confirmation before a trusted run (every tool auto-approved); "
        "nothing ran. `preview` shows the agy command, workspace, policy and time limit.",
        hint=f"To run exactly this, repeat the same {tool} call with the same arguments plus "
        f"{token} before {preview.expires_at}. Any other change needs a new preview.",
        retryable=False,
    )


def preview_packet(store: RunStore, record: RunRecord, plan: RunPlan, preview: Preview) -> Packet:
    """A token preview's answer, recorded like a refusal. Only a "token" profile's record keeps the token: a
    ``true`` profile's may be read by a model on a client that shows forms, where no token may confirm."""
    record.process.argv = preview.command
    kept = preview if plan.confirm_trusted == "token" else msgspec.structs.replace(preview, confirm=None)
    packet = finish(store, record, Ending(verdict=preview_answer(record, plan, kept), flags=list(plan.notes),
                                          preview=kept))
    if kept is preview:
        return packet
    return msgspec.structs.replace(packet, preview=preview, error=preview_answer(record, plan, preview).error())


_SAID = {"decline": "declined", "cancel": "dismissed the confirmation without answering",
         "chose_cancel": "chose not to run it", "changed": "was asked about other arguments than this retry's",
         "form_open": "is still being asked about a trusted run in this session (one form at a time), so was not "
                      "asked about this call"}


def declined_packet(store: RunStore, record: RunRecord, plan: RunPlan, said: str) -> Packet:
    """What the model hears, and the record keeps, when the person said no: declined (``decline``), dismissed
    the form (``cancel``), chose cancel (``chose_cancel``), or the client failed the form (anything else).
    Final for that preview: the door held the call, and lets go of it here."""
    verdict = Verdict(
        status=Status.CONFIRMATION_REQUIRED,
        message=f"the person {_SAID.get(said, 'did not confirm it')}: the trusted run did not start; nothing ran",
        hint=("Wait for the open form's answer: it is the answer of the call that opened it; call again after it only "
              "if the user wants another run." if said == "form_open" else
              "Ask the user how to go on before trying again; a safe run (execution_mode \"safe\") needs no "
              "confirmation."))
    return finish(store, record, Ending(verdict=verdict, flags=list(plan.notes)))
