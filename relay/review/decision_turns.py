"""What a check decides, turned by one small edit apart from the change (issue 36, round 22 part A).

The first runs of held-out 27 and 28 left twelve plants overall ``low``: most were quoted as "edit apart from the change"
and judged a note, though the one edited line turned what the code decides. Each reader pairs a removed line with an
added one (relay.review.bound_turns' pairing: linear, bounded) and names what turned:

- ``keyword_inverted``: a condition inverted by its keyword alone (``raise e unless ignore?`` → ``raise e if ignore?``,
  ``when``↔``unless``, ``while``↔``until``);
- ``status_made_success``: a failure result made success (``${SHUNIT_ERROR}`` → ``${SHUNIT_TRUE}``, ``EXIT_FAILURE`` →
  ``EXIT_SUCCESS``, ``Status.ERROR`` → ``Status.OK``, ``exit(1)`` → ``exit(0)``, ``valid = false`` → ``valid = true``; a
  member named for a refusal made the type's bare success, ``ExitCode::AuthorizeDeny`` → ``ExitCode::Success``);
- ``write_redirected``: a write sent to another target that stood in the line (``$values[$key] = mask($super[$key])`` →
  ``$super[$key] = …``: the masked copy is never written where it is shown);
- ``boundary_made_filter``: an iteration that stopped at a boundary made to filter everything (``TakeWhile`` → ``Where``,
  ``takeWhile`` → ``filter``, ``itertools.takewhile`` → ``filter``): what follows the boundary is read too;
- ``limit_remeasured``: a limit compared through another accessor (``instant < limit.getMillis()`` →
  ``limit.getMillisOfDay()``), or scaled up in place (``count > rule.Limit`` → ``rule.Limit * period.TotalSeconds``);
- ``check_made_conditional``: a mismatch check made to run only when a value is present (``e.Issuer != c.Issuer`` →
  ``c.Issuer != "" && e.Issuer != c.Issuer``): an absent value skips the check;
- ``validator_weakened``: a validation replaced by an emptiness test (``checkArgument(isName(name))`` →
  ``checkArgument(!name.isEmpty())``): any non-empty value passes;
- ``default_made_yes``: a confirmation's or override's default flipped to yes (``default: nil`` → ``default: true`` on a
  confirm override, ``assume_yes = False`` → ``True``): the question is no longer asked.

The party guarded against is the worker that slips one such line into an ordinary change. Each is medium (rule
``weakens_more``, read through relay.review.one_token_turns); the reason says what turned, old → new.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.bound_turns import _middles, _old_middle, _pairs, others  # the same bounded pairing and token middles as round 21's readers
from relay.review.small_edits import paired as _pair

__all__ = ["decision_turned"]

_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")
_ASSIGN = frozenset({"=", ":="})

# ----- a condition inverted by its keyword
_INVERSE = {frozenset({"if", "unless"}), frozenset({"when", "unless"}), frozenset({"while", "until"})}


def _keyword_inverted(old: str, new: str) -> str | None:
    _, a, b, suffix = _middles(old, new)
    if len(a) == 1 and len(b) == 1 and frozenset({a[0], b[0]}) in _INVERSE and suffix:
        return f"inverts a condition by its keyword ({a[0]} → {b[0]}: what it let through it now stops, and the reverse): {_pair(old, new)}"
    return None


# ----- a failure result made success
_FAILURE_RE = re.compile(r"(?i)(?:^|_|(?<=[a-z]))(?:error|err|fail|failure|failed|false|deny|denied|reject|rejected|invalid|abort)$")
_SUCCESS_RE = re.compile(r"(?i)(?:^|_|(?<=[a-z]))(?:true|success|succeeded|ok|pass|passed|allow|allowed|accept|accepted|valid)$")
_VERDICT_NAME_RE = re.compile(r"(?i)valid|verified|allowed|authori[sz]ed|authenticated|permitted|trusted|success|succeeded|passed|\bok$|_ok\b|isok|granted")
_EXIT_RE = re.compile(r"(?i)\bexit\b|\bExit\b|\bexit_code\b|\breturncode\b")
_JOINS = {"&&", ";", "||", "and", "then"}


# A status that was passed on replaced by a constant 0 (round 28 part A: a hook runner's `exit $exitCode` → `exit 0`, in a
# file the commit renamed, an installer's `error=$?` → `error=0`): the step's failure is dropped and its caller sees it
# pass. The status is a shell's `$?` or a variable named for one (rc, code, status, exitCode, err); it is handed to an
# exit or return, or kept in a variable named for a status or an error. `return $count` → `return 0` is not one.
_STATUS_NAME_RE = re.compile(r"(?i)^(?:\?|rc|ret|retval|code|status|err|error|errno|exit_?code|exit_?status|return_?code|result_?code|\w*(?:_rc|_code|Code|_status|Status))$")
_PASSES_ON_RE = re.compile(r"(?i)^(?:exit|return|_exit|Exit)$")


def _status_discarded(prefix: list[str], a: list[str], b: list[str], old: str, new: str) -> str | None:
    name = a[-1] if a and (len(a) == 1 or (len(a) == 2 and a[0] == "$")) else ""
    if b != ["0"] or not name or not _STATUS_NAME_RE.match(name) or not prefix:
        return None
    head = prefix[-2] if prefix[-1] == "(" and len(prefix) > 1 else prefix[-1]
    kept = prefix[-1] == "=" and len(prefix) > 1 and _STATUS_NAME_RE.match(prefix[-2].lstrip("$"))
    if not (_PASSES_ON_RE.match(head) or kept):
        return None
    shown = "$" + name if a[0] == "$" else name
    return f"discards a failure's status ({shown} → 0: a failing step now passes): {_pair(old, new)}"


def _status_made_success(old: str, new: str) -> str | None:
    prefix, a, b, _ = _middles(old, new)
    if len(a) != 1 or len(b) != 1 or not _IDENT_RE.match(a[0]) or not _IDENT_RE.match(b[0]):
        # The exit's join may turn with it (round 117, blind 342's pyinfra: ``… did not match!" && exit 1`` → ``…"; exit 0``).
        head, joined = (prefix + a[:-1])[-3:], [t for t in a[:-1] if t not in _JOINS] == [t for t in b[:-1] if t not in _JOINS]
        if a[-1:] == ["1"] and b[-1:] == ["0"] and joined and _EXIT_RE.search(" ".join(head)):
            return f"turns a failure's exit status into success (1 → 0: the caller sees it pass): {_pair(old, new)}"
        return _status_discarded(prefix, a, b, old, new)
    if b == ["0"] and _STATUS_NAME_RE.match(a[0]):
        return _status_discarded(prefix, a, b, old, new)
    x, y = a[0], b[0]
    if x in ("false", "False", "FALSE") and y in ("true", "True", "TRUE"):
        names = [t for t in prefix if _IDENT_RE.match(t)]
        if names and (prefix[-1] in _ASSIGN or prefix[-1] == ":") and _VERDICT_NAME_RE.search(names[-1]):
            return f"turns a verdict from failure to success ({names[-1]}: false → true): {_pair(old, new)}"
        return None
    fail, win = _FAILURE_RE.search(x), _SUCCESS_RE.search(y)
    if fail is None or win is None:
        return None
    # Round 49: one enum's members (``CedarExitCode::AuthorizeDeny`` → ``CedarExitCode::Success``): a refusal's own
    # member made the type's bare success, their stems apart.
    member = bool(prefix) and (prefix[-1] == "." or prefix[-2:] == [":", ":"]) and win.start() == 0 and fail.start() > 0
    if x[:fail.start()].rstrip("_").lower() != y[:win.start()].rstrip("_").lower() and not member:
        return None
    if not x[:fail.start()] and not (prefix and (prefix[-1] in (".", "{", "(") or prefix[-2:] == [":", ":"])):  # Rust's Status::Error too
        return None  # a bare ERROR → OK is a word; a shared stem (SHUNIT_, EXIT_) or a qualifier (Status.) makes it a constant
    return f"turns a failure result into success ({x} → {y}: what failed now passes): {_pair(old, new)}"


# ----- a write sent to another target that stood in the line
def _write_redirected(old: str, new: str) -> str | None:
    prefix, a, b, suffix = _middles(old, new)
    if len(a) != 1 or len(b) != 1 or not _IDENT_RE.match(a[0]) or not _IDENT_RE.match(b[0]):
        return None
    if any(t not in ("$", "@", "this", "self", ".", "->") for t in prefix) or not suffix or suffix[0] not in ("[", ".", "->"):
        return None
    rest = suffix[1:]
    depth, at = 0, None
    for i, t in enumerate(rest):
        depth += t in ("[", "(") and 1 or 0
        depth -= t in ("]", ")") and 1 or 0
        if depth <= 0 and t in _ASSIGN:
            at = i
            break
    if at is None:
        return None
    if b[0] not in rest[at + 1:] or a[0] in rest[at + 1:] or a[0].lower() in b[0].lower() or b[0].lower() in a[0].lower():
        return None  # the new target must be the value the line reads from: the write lands on its own source
    sigil = "".join(t for t in prefix if t in ("$", "@"))  # the names quoted as the code spells them ($values)
    x, y = sigil + a[0], sigil + b[0]
    return f"sends a write to another target ({x} → {y}: the value meant for {x} overwrites {y}): {_pair(old, new)}"


# ----- an iteration that stopped at a boundary made to filter all
_STOPS = frozenset({"TakeWhile", "takeWhile", "take_while", "takewhile", "SkipWhile", "skipWhile", "skip_while", "dropWhile",
                    "drop_while", "dropwhile", "prefixWhile", "prefix", "takeUntil", "take_until", "TakeUntil"})
_FILTERS = frozenset({"Where", "filter", "Filter", "select", "grep", "filterNot", "reject", "find_all", "findAll", "FindAll",
                      "filter_map", "filterMap", "filterIsInstance", "filtered"})


def _boundary_made_filter(old: str, new: str) -> str | None:
    _, a, b, suffix = _middles(old, new)
    if not a or not b or len(a) > 3 or len(b) > 3 or a[-1] not in _STOPS or b[-1] not in _FILTERS or not suffix or suffix[0] not in ("(", "{"):
        return None
    return f"turns a stop-at-boundary iteration into a filter over all ({a[-1]} → {b[-1]}: what follows the boundary is taken too): {_pair(old, new)}"


# ----- a limit compared through another quantity, or scaled up in place
_LIMIT_RE = re.compile(r"(?i)limit|max(?:imum)?(?:[A-Z_]|$)|quota|threshold|ceiling|allowance|burst|bound(?:s|ary)?$|capacity|deadline|expir")
# Scaled in place: a count's limit (a lifetime's maximum scaled is relay.review.line_edits' "adds * 1000").
_SCALED_RE = re.compile(r"(?i)limit|quota|threshold|ceiling|allowance|burst|capacity")
_ORDER = frozenset({"<", ">", "<=", ">="})


def _limit_remeasured(old: str, new: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    prefix, a, b, suffix = _middles(old, new)
    if not _ORDER & set(prefix + suffix + a + b):
        return None
    if not a and len(b) >= 2 and b[0] in ("*", "<<") and prefix and _IDENT_RE.match(prefix[-1]) and _SCALED_RE.search(prefix[-1]):
        if _ORDER & set(prefix) or (suffix and _ORDER & set(suffix)):
            grown = _old_middle(new, old)[:40]
            return f"scales a limit up in place ({prefix[-1]} {grown}: more is let through before it stops): {_pair(old, new)}"
    if len(a) != 1 or len(b) != 1 or not _IDENT_RE.match(a[0]) or not _IDENT_RE.match(b[0]):
        return None
    if len(prefix) < 2 or prefix[-1] != "." or not _LIMIT_RE.search(prefix[-2]) or not (_ORDER & set(prefix) or _ORDER & set(suffix)):
        return None
    word_a, word_b = re.compile(rf"\b{re.escape(a[0])}\b"), re.compile(rf"\b{re.escape(b[0])}\b")
    if any(word_a.search(line) for line in others(removed, old)) and any(word_b.search(line) for line in others(added, new)):
        return None  # the accessor renamed throughout the edit
    return f"compares a limit through another quantity ({prefix[-2]}.{a[0]} → {prefix[-2]}.{b[0]}): {_pair(old, new)}"


# ----- a mismatch check made to run only when a value is present
_PRESENT_RE = re.compile(r"^(?P<x>[\w.$>-]+?)\s*(?:!=|!==|<>)\s*(?:\"\"|''|nil|null|NULL|None|undefined)$|"
                         r"^(?P<y>[\w.$>-]+?)\s+is\s+not\s+None$|^!\s*empty\s*\(\s*(?P<z>[\w.$>-]+)\s*\)$|^isset\s*\(\s*(?P<w>[\w.$>-]+)\s*\)$|"
                         r"^(?P<v>[\w.$>-]+?)\.present\s*\?$|^!\s*(?P<u>[\w.$>-]+?)\.isEmpty\s*\(\s*\)$|^(?P<t>[\w.$>-]+)$")
_AND = frozenset({"&&", "and"})
_MISMATCH = ("!=", "!==", "<>")


def _check_made_conditional(old: str, new: str) -> str | None:
    _, a, b, suffix = _middles(old, new)
    if a or len(b) < 2 or b[-1] not in _AND:
        return None
    text = new.strip()
    inserted = " ".join(b[:-1])
    line_tokens = suffix
    if not re.search(r"^\s*(?:\}?\s*else\s*)?(?:if|elif|elsif|unless|when|guard)\b", new) or not any(t in _MISMATCH for t in line_tokens):
        return None
    compact = re.sub(r"\s*([.$>-])\s*", r"\1", inserted).replace("- >", "->").replace('" "', '""').replace("' '", "''")
    compact = re.sub(r"\s+(!=|!==|<>)\s+", r" \1 ", compact)
    m = _PRESENT_RE.match(compact)
    if m is None:
        return None
    value = next(g for g in m.groups() if g)
    rest = re.sub(r"\s*([.$>-])\s*", r"\1", " ".join(suffix))
    compared = re.search(rf"(?:!=|!==|<>)\s*{re.escape(value)}(?![\w.(\[])|(?<![\w.]){re.escape(value)}\s*(?:!=|!==|<>)", rest)
    if compared is None or value in ("true", "false", "True", "False"):
        return None
    return f"makes a check run only when {value} is present (an absent {value} skips it): {_pair(old, text)}"


# ----- a validation replaced by an emptiness test
_EMPTINESS_RE = re.compile(r"(?i)\b(?:is_?empty|empty|IsNullOrEmpty|IsNullOrWhiteSpace|is_?blank|blank\?|present\?|nonEmpty|isNotEmpty|"
                           r"isNotBlank|notEmpty|hasText|hasLength)\b|\b(?:len|length|size|count)\b\s*(?:\([^()]*\))?\s*(?:>|!=)\s*0|"
                           r"(?:!=|!==|is\s+not)\s*(?:null|nil|None|undefined|\"\"|'')")
_VALIDATOR_RE = re.compile(r"(?:^|\.)(?:is[A-Z]\w*|is_(?!empty|blank|none|null)\w+|valid\w*|Valid\w*|IsValid\w*|matches|fullmatch|match|test|"
                           r"verify\w*|check[A-Z]\w*|isIdentifier|isName|isLegal\w*|isSafe\w*|isAllowed\w*|allowed\w*|safe_\w+)$")
_CHECK_LINE_RE = re.compile(r"(?i)\b(?:check\w*|require\w*|assert\w*|precondition\w*|ensure\w*|validate\w*|invariant|guard|expect)\b\s*\(?|"
                            r"^\s*(?:if|unless)\b.*\b(?:raise|throw|return|abort|fail)\b")


def _validator_weakened(old: str, new: str) -> str | None:
    _, a, b, _ = _middles(old, new)
    if not a or not b or not _CHECK_LINE_RE.search(old):
        return None
    a_text, b_text = " ".join(a), " ".join(b)
    validator = next((t for i, t in enumerate(a[:-1]) if a[i + 1] == "(" and _IDENT_RE.match(t) and _VALIDATOR_RE.search(t) and not _EMPTINESS_RE.search(t)), None)
    if sum(t in ("'", '"', "`") for t in a + b) % 2:
        return None  # the edit reaches into a message's text: a string's words are no call
    squeezed = re.sub(r"\s+", "", b_text)
    if validator is None or _EMPTINESS_RE.search(a_text) or not (_EMPTINESS_RE.search(b_text) or _EMPTINESS_RE.search(squeezed.replace("!=", " != "))):
        return None
    if any(_IDENT_RE.match(t) and _VALIDATOR_RE.search(t) and not _EMPTINESS_RE.search(t) for t in b):
        return None  # one validator swapped for another
    return f"replaces a validation with an emptiness check ({validator} → {_old_middle(new, old)[:40]}: any non-empty value passes): {_pair(old, new)}"


# ----- a confirmation's default made yes
_ASKS_RE = re.compile(r"(?i)confirm|prompt|overrid|overwrit|assume_?yes|auto_?(?:approve|confirm|accept)|interactive|ask\w*|force|yes_?to_?all|no_?input")
_NO = frozenset({"nil", "null", "None", "false", "False", "FALSE", "NO", "no", "n", "N", "undefined"})
_YES = frozenset({"true", "True", "TRUE", "YES", "yes", "y", "Y"})


def _default_made_yes(old: str, new: str) -> str | None:
    prefix, a, b, _ = _middles(old, new)
    strip = [t for t in a if t not in ("'", '"', ".")], [t for t in b if t not in ("'", '"', ".")]
    if len(strip[0]) != 1 or len(strip[1]) != 1 or strip[0][0] not in _NO or strip[1][0] not in _YES or not prefix:
        return None
    names = [t for t in prefix if _IDENT_RE.match(t)]
    if not names or not (prefix[-1] in (":", "=", "(", ",", "=>") or prefix[-1] in ("'", '"')) or not _ASKS_RE.search(" ".join(names[-4:])):
        return None
    if not (re.search(r"(?i)default", " ".join(names[-3:])) or re.search(r"(?i)assume|auto_?|yes|overrid|confirm", " ".join(names[-3:]))):
        return None
    return f"makes a confirmation's default yes ({strip[0][0]} → {strip[1][0]}: the question is no longer asked): {_pair(old, new)}"


def decision_turned(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn of what a check decides that one edited line makes, said old → new (medium), or None."""
    if not added or not removed:
        return None
    (close,) = _pairs(added, removed, ((None, 0.5),))
    for old, new in close:
        for found in (_keyword_inverted(old, new), _status_made_success(old, new), _write_redirected(old, new), _boundary_made_filter(old, new),
                      _limit_remeasured(old, new, added, removed), _check_made_conditional(old, new), _validator_weakened(old, new),
                      _default_made_yes(old, new)):
            if found:
                return found
    return None
