"""How the turn itself went wrong: a signal the relay did not send, background tasks cut at exit, a command line
agy refused, tool calls agy denied or refused by the user's rules, a model agy does not know."""

from __future__ import annotations

import re

from relay.agy.agy_said import envelope_status, error_text, first_line, succeeded
from relay.agy.command import parse_version
from relay.agy.models import LEVELS, efforts_of
from relay.agy.outcome import Outcome

__all__ = [
    "UNKNOWN_FLAG", "interrupted", "interrupted_message", "interrupted_hint", "background_cut",
    "background_message", "cli_refused", "cli_refused_message", "refusals_flag", "denied_message", "denied_hint",
    "bad_model", "model_message", "model_hint", "denied", "effort_conflict", "effort_message", "effort_hint",
    "effort_refused", "refused_effort_message", "refused_effort_hint",
]

_SOFT_DENY_ACTION = re.compile(r"required the \"([\w-]+)\" permission")
UNKNOWN_FLAG = re.compile(r"flags provided but not defined: (-\S+)")
_INTERRUPTED = re.compile(r"^error: interrupted\s*$", re.MULTILINE)
_BACKGROUND_CUT = re.compile(r"terminating (\d+) background task\(s\) on exit")
_TOOK_PROMPT = re.compile(r"-p took .{0,80} as its prompt")
_BAD_MODEL = re.compile(r"invalid model selection|Failed to resolve model flag|Available models:|is not recognized")
_RESOLVE_MODEL = re.compile(r"Failed to resolve model flag (\S+?):? model (\S+) is not recognized")
_QUOTED_MODEL = re.compile(r"model \"([^\"]+)\"")
_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*[a-z0-9]")
# agy-protocol.md §8.1 (1.3.0; 1.2.17): a base model id without --effort, --effort with an id `agy models` does not list
_EFFORT_NEEDED = re.compile(r"--model (\S+) requires --effort \(available: ([^)]*)\)")
_EFFORT_UNSUPPORTED = re.compile(r"--effort is not supported for model (\S+)")
# An effort value agy does not take (§1: low|medium|high, +max in 1.2.x; §7.4: 1.3.x exits 1 listing `low, medium,
# high, xhigh, max`, per model; its words are not quoted): a line refusing an effort by name. Not 1.2.1's invalid
# model line, which quotes `--effort "…"` beside the model it does not know, nor an effort-suffixed model's conflict.
_EFFORT_REFUSED = re.compile(r"[^\n]*(?:\b(?:unknown|invalid|unsupported|unrecognized|bad)\s+(?:reasoning\s+)?effort\b"
                             r"|\beffort\b[^\n]{0,80}?\b(?:must be|want|one of|not (?:a )?valid|not allowed))[^\n]*",
                             re.IGNORECASE)
_LEVEL_WORD = re.compile(r"\b(" + "|".join(LEVELS) + r")\b")
# agy's log when it soft-denies a tool (1.1.24, glog prefix before it; agy-protocol.md §8.3): the fallback when
# stderr and the envelope say nothing
_SOFT_DENY_LOG = re.compile(r'Print mode: soft-denying tool confirmation "([^"]{1,80})"')
_SOFT_DENY = re.compile(r"no output produced .{0,40}permission|auto-denied")
# 1.1.13-1.1.19 refused a tool as a hard error (agy-protocol.md §7.1): an ERROR result (or, in text mode, stderr) whose
# error is agy's own permission check saying the (headless) user denied it, exit 1. A deny rule of the user's says
# "Matches user-configured deny rule" instead, and its turn goes on.
_HARD_DENY = re.compile(r"^\s*(?:error:\s*)?permission check failed for (unsandboxed command|[\w.-]+)\b[^\n]{0,120}?"
                        r"user denied permission", re.IGNORECASE | re.MULTILINE)
# What each newer denied_actions[].action (1.2.7-1.3.x) needs in agy's settings.json (§7.1, §8.3: `command(git diff)`,
# `read_url(go.dev)`): unsandboxed is a command run outside agy's sandbox.
_COMMAND_KINDS = frozenset({"command", "unsandboxed"})
_URL_KINDS = frozenset({"execute_url", "read_url"})


def interrupted(o: Outcome) -> bool:
    """agy's turn ended "interrupted" (a SIGINT/SIGTERM; agy-protocol.md §7.2), or its result said CANCELED.
    Read only after the rules for the relay's own stops (timeout, early stop; cancel is handled by the caller)."""
    return (error_text(o).strip() == "interrupted" or envelope_status(o) == "CANCELED"
            or (not succeeded(o) and bool(_INTERRUPTED.search(o.stderr))))


def interrupted_message(o: Outcome) -> str:
    if envelope_status(o) == "CANCELED":
        return "agy reported its turn CANCELED (the relay did not stop it)"
    return ("agy's turn was interrupted by a signal the relay did not send (an OOM killer, a shutdown, or a Ctrl-C "
            "on its process group); not retried")


def interrupted_hint(o: Outcome) -> str:
    how = ("the conversation was kept: antigravity_continue(run_id, feedback) carries on from where it stopped "
           "(review the listed changes first)") if _conversation_of(o) else "call again with the whole task"
    return f"Nothing was retried; {how}. If it keeps happening, check the machine's memory and who signals agy."


def _conversation_of(o: Outcome) -> str | None:
    cid = (o.envelope or {}).get("conversation_id")
    return cid if isinstance(cid, str) and cid else o.conversation_id


def background_cut(o: Outcome) -> bool:
    return succeeded(o) and bool(_BACKGROUND_CUT.search(o.stderr))


def background_message(o: Outcome) -> str:
    n = _BACKGROUND_CUT.search(o.stderr)[1]
    return (f"agy ended the turn while {n} background task(s) still ran and terminated them at exit (agy said: "
            f"terminating {n} background task(s) on exit): the answer is the worker's narration, not the finished "
            "work")


def cli_refused(o: Outcome) -> bool:
    """Exit 2 for something else than an unknown flag (agy-protocol.md §7.4): not an old agy."""
    return (o.exit_code == 2 and o.json_lines == 0 and not UNKNOWN_FLAG.search(o.stderr)
            and "panic:" not in o.stderr)  # a Go panic exits 2 too: a crash, read by the stream rules below


def cli_refused_message(o: Outcome) -> str:
    said = first_line(o.stderr) or first_line(o.log)
    what = "took a dash-leading word as its prompt" if _TOOK_PROMPT.search(o.stderr) else "refused its command line"
    return f"agy {what} (exit 2, not an unknown flag: this agy is not too old)" + (f": {said[:200]}" if said else "")


def refusals_flag(o: Outcome) -> str:
    """The packet's line for tool calls agy's own rules refused (agy-protocol.md §7.1): the turn went on and
    ended SUCCESS with denied_actions empty, but a reviewer needs to know what the worker was not let do."""
    more = o.refused_total - len(o.refusals)
    return (f"agy refused {o.refused_total} tool call(s) by your rules: " + "; ".join(o.refusals)
            + (f"; and {more} more" if more > 0 else ""))


def denied(o: Outcome) -> bool:
    """agy denied a tool: denied_actions, its stderr line, or (agy-protocol.md §8.3, §8.6 item 3) an empty answer
    after a tool step its permission check refused, or your own deny rule or pre-tool hook, or after its log's
    soft-deny marker, whatever the status said. A turn your rule refused a tool in that went on to answer is not this
    (SUCCESS, its flags name the refusal: ``refusals_flag``)."""
    if (o.envelope or {}).get("denied_actions") or _SOFT_DENY.search(o.stderr) or _hard_denial(o):
        return True
    if o.response.strip() or envelope_status(o) not in ("SUCCESS", ""):
        return False
    return bool(o.permission_checks) or bool(o.refused_total) or bool(_SOFT_DENY_LOG.search(o.log))


def _by_own_rules(o: Outcome) -> bool:
    """Only the person's own deny rule or pre-tool hook refused the tools of this denied turn: agy's own check, its
    soft deny and its denied_actions said nothing."""
    return (bool(o.refused_total) and _unlisted(o) and not o.permission_checks and not _hard_denial(o)
            and not _SOFT_DENY_LOG.search(o.log))


def _hard_denial(o: Outcome) -> bool:
    """1.1.13-1.1.19: the turn ended ERROR on agy's own permission check (§7.1), not on a user's deny rule."""
    return not succeeded(o) and bool(_HARD_DENY.search(error_text(o) + "\n" + o.stderr))


def _denied(o: Outcome) -> list[str]:
    """What agy auto-denied: the envelope's denied_actions, else the permission named on stderr."""
    env = o.envelope or {}
    out = []
    for a in env.get("denied_actions") or []:
        if isinstance(a, dict):
            action, name = a.get("action"), a.get("display_name")
            label = f"{name} ({action})" if name and action else str(name or action)
            if label not in out:
                out.append(label)
    if not out:
        out = [f'the "{m}" permission' for m in dict.fromkeys(_SOFT_DENY_ACTION.findall(o.stderr))]
    if not out:
        out = list(o.permission_checks) or list(dict.fromkeys(_SOFT_DENY_LOG.findall(o.log)))
    if not out and _hard_denial(o):
        out = list(dict.fromkeys(_HARD_DENY.findall(error_text(o) + "\n" + o.stderr)))
    return out


def _denied_kinds(o: Outcome) -> set[str]:
    kinds = {str(a.get("action")) for a in (o.envelope or {}).get("denied_actions") or [] if isinstance(a, dict)}
    return kinds | set(_SOFT_DENY_ACTION.findall(o.stderr))


def _unlisted(o: Outcome) -> bool:
    """Denied with no list and no stderr line: read from a tool step's error or agy's log (§8.3)."""
    return not (o.envelope or {}).get("denied_actions") and not _SOFT_DENY.search(o.stderr)


def denied_message(o: Outcome) -> str:
    if _by_own_rules(o):
        more = o.refused_total - len(o.refusals)
        return ("your own rules in agy's settings refused " + "; ".join(o.refusals) + (f"; and {more} more" if more > 0
                else "") + ", and the turn ended with an empty answer: the task was not done")
    what = ", ".join(_denied(o)) or "a tool permission"
    if _unlisted(o) and _hard_denial(o):
        return (f"agy's permission check refused {what} and agy ended the turn with an error (exit "
                f"{o.exit_code}: this agy refuses a tool headless agy cannot ask for as a hard error)")
    if _unlisted(o) and o.permission_checks:
        return (f"agy's permission check refused {what} and the turn ended with an empty answer (agy said "
                f"{envelope_status(o) or 'nothing'}, with no denied_actions)")
    if _unlisted(o):
        return f"agy soft-denied {what} (its log says so) and the turn ended with an empty answer"
    return "agy auto-denied " + what + " (headless agy cannot ask)"


def denied_hint(o: Outcome) -> str:
    if _by_own_rules(o):
        return _OWN_RULE_HINT
    if _unlisted(o) and _hard_denial(o):
        if "command" in " ".join(_denied(o)):
            return _COMMAND_HINT
        return ("This agy (1.1.13-1.1.19 refuse this way) did not let the worker's file write through: safe mode's "
                "`--mode accept-edits` is no headless write grant (check with `gravity-relay doctor --write-probe`). "
                "`agy update`: from 1.2.14 agy's default policy lets edits inside the workspace through. Or use a "
                "profile with execution_mode 'trusted' (agy then auto-approves every tool: keep it to workspaces you "
                "can revert), or allow file edits in agy's settings.json (permissions.allow).")
    if _unlisted(o) and o.permission_checks and not any("command" in c for c in o.permission_checks):
        return ("agy's own permission check refused the tool (agy 1.2.12 refused a write outside the workspace, in "
                "a temp folder, this way). Keep the worker's files inside the workspace, add an allow rule for it in "
                "agy's settings.json (permissions.allow), or use a profile with execution_mode 'trusted'.")
    kinds = _denied_kinds(o)
    writes = kinds & {"edit", "write", "file", "write_file", "edit_file", "create_file"}
    if writes:
        return ("Safe mode's `--mode accept-edits` did not let file edits through on this agy (agy-protocol.md §6.1; "
                "check with `gravity-relay doctor --write-probe`). Use a profile with execution_mode 'trusted' "
                "(agy then auto-approves every tool: keep it to workspaces you can revert), or allow file edits in "
                "agy's settings.json (permissions.allow).")
    if kinds & _COMMAND_KINDS or not kinds or _unlisted(o):
        return _COMMAND_HINT
    if kinds & _URL_KINDS:
        return ("The worker needed to read a URL, which agy's policy denies unless an allow rule matches its host: "
                "add one (permissions.allow in agy's settings.json, e.g. read_url(go.dev)), or use a profile with "
                "execution_mode 'trusted'.")
    names = ", ".join(sorted(kinds))
    return (f"Allow {names} in agy's settings.json (permissions.allow), or use a profile with execution_mode "
            "'trusted'.")


# The person's own deny rule or hook said no: deny beats ask beats allow (agy-protocol.md §8.3), so an allow rule
# does not get past it, and a trusted run is not offered as a way around the person's own decision.
_OWN_RULE_HINT = ("That refusal is your own: a deny rule (permissions.deny in agy's settings.json) or a pre-tool hook, "
                  "and a deny rule wins over any allow rule. Give the worker a task that does not need that tool, or, if "
                  "the rule is broader than you meant, change it in agy's settings yourself; then call again.")
_COMMAND_HINT = ("A command needed approval that headless agy cannot ask for. Add an allow rule for it "
                 "(permissions.allow in agy's settings.json, e.g. command(npm test)), or use a profile with "
                 "execution_mode 'trusted'.")


def bad_model(o: Outcome) -> bool:
    return bool(_BAD_MODEL.search(error_text(o) + "\n" + ("" if succeeded(o) else o.stderr + "\n" + o.log)))


def _model_facts(o: Outcome) -> tuple[str, list[str]]:
    """(the model agy refused, the slugs it listed after "Available models:"), at most 40."""
    text = error_text(o) + "\n" + o.stderr + "\n" + o.log
    named = _RESOLVE_MODEL.search(text) or _QUOTED_MODEL.search(text)
    model = named[1] if named else ""
    listed: list[str] = []
    at = text.find("Available models:")
    if at >= 0:
        for line in text[at + len("Available models:"):].splitlines():
            # a row is "slug", "slug<TAB>Label" or "slug · description"; labels hold no hyphenated lowercase word
            tokens = (t.strip("\"'`.;()") for t in re.split(r"[,\s]+", line.strip()))
            slugs = [t for t in tokens if _SLUG.fullmatch(t) and "-" in t]
            if not slugs and listed:
                break  # the list ended
            listed += [slug for slug in slugs if slug not in listed]
            if len(listed) >= 40:
                break
    return model, listed[:40]


def model_message(o: Outcome) -> str:
    model, _ = _model_facts(o)
    first = first_line(error_text(o)) or next(
        (ln.strip() for ln in (o.stderr + "\n" + o.log).splitlines() if _BAD_MODEL.search(ln)), "")
    return f"agy rejected the model settings{f' (model {model})' if model else ''}: {first[:200]}"


def model_hint(o: Outcome) -> str:
    model, listed = _model_facts(o)
    shown = ", ".join(listed[:12]) + (f" … ({len(listed) - 12} more)" if len(listed) > 12 else "")
    known = f" Available on this agy: {shown}." if listed else ""
    which = f"`{model}` is not a model this agy knows." if model else "agy refused the model settings."
    return (f"{which}{known} Use a slug from `agy models` in the profile's model, and do not combine --effort "
            "with an effort-suffixed model.")


def effort_refused(o: Outcome) -> bool:
    """agy refused the effort's value (not the model): its line says so, by the value the relay passed or with the
    levels it takes. Read after effort_conflict and before bad_model (agy words it "invalid model selection")."""
    return not succeeded(o) and _refused_effort_line(o) is not None


def _refused_effort_line(o: Outcome) -> str | None:
    for match in _EFFORT_REFUSED.finditer(error_text(o) + "\n" + o.stderr):
        line = match[0].strip()
        if (o.effort and o.effort in line) or len(set(_LEVEL_WORD.findall(line))) >= 2:
            return line
    return None


def _accepted_efforts(o: Outcome, line: str) -> tuple[list[str], str]:
    """(the efforts agy takes, the sentence saying so): agy's own list after the refused value, else its version's."""
    after = line.split(o.effort, 1)[1] if o.effort and o.effort in line else line
    listed = list(dict.fromkeys(_LEVEL_WORD.findall(after)))
    if listed:
        return listed, f"agy lists {', '.join(listed)}."
    version = parse_version(o.agy_version or "")
    accepted = list(efforts_of(version))
    shown = f"agy {o.agy_version}" if version else "current agy (1.3.x)"
    return accepted, f"{shown} takes {', '.join(accepted)} (a model may take fewer)."


def refused_effort_message(o: Outcome) -> str:
    line = _refused_effort_line(o) or ""
    what = f"the effort {o.effort!r}" if o.effort else "the effort"
    return f"agy refused {what} before any turn (exit {o.exit_code}): {line[:200]}"


def refused_effort_hint(o: Outcome) -> str:
    accepted, source = _accepted_efforts(o, _refused_effort_line(o) or "")
    asked = f"`{o.effort}`" if o.effort else "The effort given"
    newer = ""
    if o.effort in LEVELS and o.effort not in accepted:
        since = "1.3.0" if o.effort == "xhigh" else "1.2.0"
        newer = f" `{o.effort}` is an effort of agy {since} and later: `agy update`, or pick one of those."
    return (f"{asked} is not an effort this agy takes for this model: {source} Set `effort` in the profile (or the "
            f"call) to one of them, or leave it out for the model's default.{newer} Calling again unchanged fails the "
            "same way.")


def effort_conflict(o: Outcome) -> bool:
    """agy refused --model/--effort as a pair (agy-protocol.md §8.1): stderr or the lone result's error."""
    text = error_text(o) + "\n" + o.stderr
    return bool(_EFFORT_NEEDED.search(text) or _EFFORT_UNSUPPORTED.search(text))


def effort_message(o: Outcome) -> str:
    text = error_text(o) + "\n" + o.stderr
    said = _EFFORT_NEEDED.search(text) or _EFFORT_UNSUPPORTED.search(text)
    return f"agy refused the model and effort settings before any turn: {said[0][:200]}"


def effort_hint(o: Outcome) -> str:
    text = error_text(o) + "\n" + o.stderr
    needed = _EFFORT_NEEDED.search(text)
    if needed:
        model, levels = needed[1].strip("\"'"), needed[2].strip()
        first = levels.split(",")[0].strip() or "high"
        return (f"`{model}` is a base model id: this agy runs it only with an effort. Set `effort` to one of "
                f"{levels} in the profile (or the call), or use an id that names its level (e.g. `{model}-{first}`, "
                "see `agy models`). Calling again unchanged fails the same way.")
    model = _EFFORT_UNSUPPORTED.search(text)[1].strip("\"'.")
    return (f"`{model}` takes no --effort on this agy (it refuses --effort for a model `agy models` does not list): "
            "drop `effort` from the profile (or the call), or pick a model `agy models` lists. Calling again unchanged "
            "fails the same way.")
