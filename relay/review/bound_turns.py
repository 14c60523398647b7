"""What a check decides, read from the pair of lines that changed it (issue 36, round 21 part A).

Held-out 23-26 left plants quoted but unnamed, or low, where one edited line turned what a check lets through and no
reader knew the class. Each reader pairs a removed line with an added one (linear: at most ``_PAIRS`` lines a side,
``_CLOSEST`` olds a line, lines of at most 400 characters) and names what turned:

- ``bound_moved``: a number that bounds security moved the way that lets more through, read by its name: a maximum work
  factor, attempts, clock skew or verification window raised (``maxWorkFactor: 22`` → ``30``, ``MaxFailedAccessAttempts
  = 5`` → ``500``); a tag, nonce or password length, or a lockout's duration, lowered (``tag_length: 16`` → ``4``);
- ``bound_multiplied``: such a bound multiplied in place (``$i <= $window`` → ``$i <= $window * $this->getPeriod()``);
- ``length_check_dropped``: a length test taken out of a deciding line (``when bit_size(tag) === 128`` dropped, ``len(sig)
  == 64 &&`` dropped): a short tag or key passes;
- ``predicate_constant``: a check's lambda or condition made constant (``p => p.IsPublic()`` → ``p => true``, ``{ it.x ==
  ca }`` → ``{ true }``, ``|p| p.owned`` → ``|_| true``, ``|| true`` appended, ``if (user.isAdmin())`` → ``if (true)``);
- ``quoting_dropped``: a command's quoting dropped (``map { |fn| "\\"#{fn}\\"" }.join`` → ``.join``, ``shlex.quote(x)`` →
  ``x``; a shell line's ``"$dir"`` → ``$dir`` is relay.review.looser_checks') or an escaped expansion made live (``"\\$(git_ref)"`` → ``"$(git_ref)"``:
  a branch named ``$(…)`` runs where the prompt expands);
- ``operand_swapped``: a check's argument or receiver swapped for another name that already stood in the code
  (``checkExists(autoCompleteScript)`` → ``checkExists(commandScript)``), not a rename;
- ``first_only``: a collection narrowed to its first element (``return values.length ? values : [x]`` → ``return
  [values[0] || x]``): the rest go unchecked.

The party guarded against is the worker that slips one such line into an ordinary change. Each is medium (rule
``weakens_more``); the reason says what turned, old → new.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.small_edits import paired as _pair

__all__ = ["bound_turned", "others", "screen"]

_PAIRS = 200
_CLOSEST = 40
_LONGEST = 400
_CANDIDATES = 4
_NAME_RE = re.compile(r"[A-Za-z_]\w{2,}")
_TOKEN_RE = re.compile(r"===|!==|==|!=|<=|>=|=>|->|<<|\|\||&&|\w+|\S")
_NUMBER_RE = re.compile(r"^\d[\d_]*$")
_IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")


def _tokens(line: str) -> list[str]:
    return _TOKEN_RE.findall(line)


def _middles(old: str, new: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """The tokens before the change, the old middle, the new middle and the tokens after it."""
    a, b = _tokens(old), _tokens(new)
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    s = 0
    while s < len(a) - p and s < len(b) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return a[:p], a[p:len(a) - s], b[p:len(b) - s], a[len(a) - s:]


def others(lines: Sequence[str], one: str) -> list[str]:
    """The lines but one of them, by its text: a pair's line comes from ``_measured``'s cache, kept from the first call
    whose lines were the same text but not the same objects (round 25: an identity test kept the line itself)."""
    rest = list(lines)
    if one in rest:
        rest.remove(one)
    return rest


def _names(line: str) -> set[str]:
    return {t for t in _NAME_RE.findall(line)}


def _pairs(added: Sequence[str], removed: Sequence[str], screens: Sequence[tuple[re.Pattern[str] | None, float]]) -> list[list[tuple[str, str]]]:
    """For each screen (a pattern the old line must hold, or None, and the least likeness): each fresh added line with
    its closest such removed line. Only the ``_CANDIDATES`` olds sharing the most names with a new line are measured
    (a name in more than ``_CLOSEST`` olds tells nothing), so a rewrite of hundreds of lines costs a bounded number of
    likeness measures a line, not one per old line."""
    lowest = min(least for _, least in screens)
    olds, measured = _measured(tuple(added[:_PAIRS]), tuple(removed), min(lowest, _FLOOR))
    out: list[list[tuple[str, str]]] = [[] for _ in screens]
    if not olds:
        return out
    kept = [[keep is None or keep.search(o) is not None for keep, _ in screens] for o in olds]
    for new, likeness in measured:
        best: list[tuple[str | None, float]] = [(None, least) for _, least in screens]
        for i, ratio in likeness:
            if ratio < lowest:
                continue  # under every screen's least (this screen set's quick bounds skipped it before measuring)
            for k, keep in enumerate(kept[i]):
                if keep and ratio >= best[k][1]:
                    best[k] = (olds[i], ratio)
        for k, (old, _) in enumerate(best):
            if old is not None:
                out[k].append((old, new))
    return out


# The least likeness a reader's screen may ask for and share the measures below (bound_turned's length screen, 0.3).
_FLOOR = 0.3


@functools.lru_cache(maxsize=256)
def _measured(added: tuple[str, ...], removed: tuple[str, ...], floor: float
              ) -> tuple[list[str], list[tuple[str, list[tuple[int, float]]]]]:
    """The olds ``_pairs`` reads, and each fresh added line with the likeness of its candidate olds (index, ratio; in the
    order they are weighed; an old whose quick bounds are under ``floor`` left out). Kept per file's lines: four readers
    (bound_turned, decision_turns, flipped_lines, loosened_lines) pair the same lines, and a file is assessed again for
    each view of the change; each pays difflib's likeness once."""
    olds = [o for o in removed[:_PAIRS] if len(o) <= _LONGEST]
    measured: list[tuple[str, list[tuple[int, float]]]] = []
    if not olds:
        return olds, measured
    holding: dict[str, list[int]] = {}
    for i, old in enumerate(olds):
        for name in _names(old):
            holding.setdefault(name, []).append(i)
    before = {o.strip() for o in removed}
    matcher = SequenceMatcher(None, autojunk=False)
    for new in added:
        if len(new) > _LONGEST or new.strip() in before or not new.strip():
            continue
        shared: dict[int, int] = {}
        for name in _names(new):
            if len(at := holding.get(name, ())) <= _CLOSEST:
                for i in at:
                    shared[i] = shared.get(i, 0) + 1
        if not shared:
            continue
        matcher.set_seq2(new.strip())  # the new side's index is built once for its candidates
        likeness: list[tuple[int, float]] = []
        for i in sorted(shared, key=lambda i: (-shared[i], i))[:_CANDIDATES]:
            matcher.set_seq1(olds[i].strip())
            if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
                continue
            likeness.append((i, matcher.ratio()))
        measured.append((new, likeness))
    return olds, measured


# ----- a bound's number moved the unsafe way

# Raised lets more through: a maximum work factor a received file may ask for, attempts before a lockout, clock skew.
_RAISED_RE = re.compile(r"(?i)max\w*(?:work_?factor|cost|log_?n|attempt|(?<!re)tries|fail|guess|skew|drift|leeway)|work_?factor_?max|"
                        r"(?:allowed|max|login|auth|failed|password|pin|otp|lockout)\w*(?:attempts|(?<!re)tries|failures|guesses|threshold)|"
                        r"clock_?skew|\w*leeway|\w*drift\w*|(?:otp|totp|hotp|verif\w*|valid\w*)_?window|window_?(?:size_?)?(?:otp|drift)")
# A bare window or tolerance bounds security only where the line or the file speaks of one-time codes or tokens.
_WINDOW_RE = re.compile(r"(?i)^(?:window|tolerance|skew)$")
_OTP_RE = re.compile(r"(?i)otp|totp|hotp|one_?time|2fa|mfa|drift|verify|token|jwt|code|pin\b")
# Lowered lets more through: a tag, nonce or secret's length; a password's minimum; how long a lockout holds.
_LOWERED_RE = re.compile(r"(?i)(?:auth_?)?(?:tag|mac|nonce|iv|digest|signature|salt|otp|pin|password|passphrase|secret)_?(?:len|length|size|bits|bytes)|"
                         r"min\w*(?:password|passphrase|secret|pin|otp)\w*|min\w*(?:entropy|strength)|(?:password|passphrase|pin)\w*min\w*|"
                         r"lockout\w*(?:duration|time|seconds|minutes|period|window)|password_?reuse\w*|password_?history\w*")


def _name_before(prefix: Sequence[str]) -> str:
    """The bound's name: a bound-named word among the last tokens (``leeway: TimeInterval = 30``), else the nearest name."""
    for token in reversed(prefix[-6:]):
        if _IDENT_RE.match(token) and (_RAISED_RE.search(token) or _LOWERED_RE.search(token) or _WINDOW_RE.match(token)):
            return token
    for token in reversed(prefix[-4:]):
        if _IDENT_RE.match(token) and token.lower() not in ("const", "val", "let", "var", "int", "usize", "final", "static", "this", "self"):
            return token
    return ""


def _bound_moved(path: str, old: str, new: str) -> str | None:
    prefix, a, b, _ = _middles(old, new)
    if len(a) == 1 and len(b) == 1 and _NUMBER_RE.match(a[0]) and _NUMBER_RE.match(b[0]):
        name = _name_before(prefix)
        x, y = int(a[0].replace("_", "")), int(b[0].replace("_", ""))
        if not name:
            return None
        if y > x and (_RAISED_RE.search(name) or (_WINDOW_RE.match(name) and (_OTP_RE.search(new) or _OTP_RE.search(path)))):
            return f"raises a security bound ({name} {x} → {y}: more is let through): {_pair(old, new)}"
        if y < x and _LOWERED_RE.search(name):
            return f"lowers a security bound ({name} {x} → {y}: less is demanded): {_pair(old, new)}"
    if not a and b and b[0] in ("*", "<<") and len(b) >= 2:  # the bound kept, multiplied in place
        name = prefix[-1] if prefix and _IDENT_RE.match(prefix[-1]) else ""
        if name and (_RAISED_RE.search(name) or (_WINDOW_RE.match(name) and (_OTP_RE.search(new) or _OTP_RE.search(path)))):
            grown = _old_middle(new, old)[:40]  # the new line quoted whole, near its change: the line the view shows
            return f"multiplies a security bound ({name} {grown}): {_near(new, grown)}"
    return None


# ----- a length test taken out of a deciding line
_LENGTH_RE = re.compile(r"(?i)\b(?:bit_size|byte_size|bytesize|len|length|size|count|Length|Count|Len|Size|len\(\))\b")
# The value a length test guards: a tag, signature, key, nonce or code (a loop counter's or a buffer's length is not).
_SECRET_VALUE_RE = re.compile(r"(?i)tag|\bmac\b|hmac|sig|key|nonce|\biv\b|digest|hash|token|otp|\bpin\b|secret|salt|cert|password|passphrase")
_CONJUNCT = frozenset({"&&", "||", "and", "or", "when", "andalso"})
_COMPARE = frozenset({"===", "==", "!=", "!==", "<=", ">=", "<", ">"})
_DECIDES_RE = re.compile(r"(?i)^\s*(?:\}?\s*else\s*)?(?:if|elif|elsif|unless|guard|when|while|assert\w*|require|ensure|check)\b|\bwhen\b|&&|\|\||\band\b|<-|\bwhere\b")


def _length_check_dropped(old: str, new: str) -> str | None:
    _, a, b, _ = _middles(old, new)
    if b or not a or not _DECIDES_RE.search(old) or not _LENGTH_RE.search(" ".join(a)) or not _COMPARE & set(a):
        return None
    if not any(_NUMBER_RE.match(t) or t.isupper() or t.endswith(("Size", "SIZE", "Length", "LEN")) for t in a):
        return None
    if not new.strip() or not _CONJUNCT & {a[0], a[-1]} or not _SECRET_VALUE_RE.search(" ".join(a)):
        return None  # a whole condition deleted is the guard readers'; a loop's or a buffer's length is no check of a value
    return f"drops a length check ({' '.join(a).strip()}): a short or long value passes: {_pair(old, new)}"


# ----- a check's lambda or condition made constant
_CONST_BODY_RE = re.compile(r"(?:=>|->|\bin\b|\blambda\b[^:\n]{0,40}:|\|[^|\n]{0,40}\|)\s*(?:true|True|TRUE)\s*(?:[)};,\]]|\bend\b|$)|"
                            r"(?<!else)(?<!else )(?<![\]\w])\s?\{\s*(?:true|True)\s*\}")
_CONST_IF_RE = re.compile(r"(?i)\b(?:if|elif|elsif|unless|guard|while|when)\s*\(?\s*(?:true|1)\s*\)?\s*(?:\{|:|\bthen\b|\bdo\b|$)")
_ASSIGNED_RE = re.compile(r"([A-Za-z_]\w*)\s*(?::\s*\([^)]*\)\s*->\s*\w+\s*)?(?:=(?![=>])|\{\s*get;)")
_ALWAYS_RE = re.compile(r"(?:\|\||\bor\b|\bOR\b)\s*\(?\s*(?:true|True|TRUE|1\s*==\s*1|1)\s*\)?")


def _old_middle(old: str, new: str) -> str:
    """What the old line held where the new one differs, by characters (``p => p.IsPublic()`` → ``p.IsPublic()``)."""
    a, b = old.strip(), new.strip()
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return a[p:len(a) - s].strip()


def _near(line: str, part: str, most: int = 90) -> str:
    """A line quoted within ``most`` characters, around ``part``."""
    text = line.strip()
    if len(text) <= most:
        return text
    at = max(0, text.find(part) - most // 2)
    return ("…" if at else "") + text[at:at + most] + ("…" if at + most < len(text) else "")


def _predicate_constant(old: str, new: str) -> str | None:
    _, a, b, _ = _middles(old, new)
    if not a and b and _ALWAYS_RE.fullmatch(" ".join(b).replace("( ", "(").replace(" )", ")")) and _DECIDES_RE.search(new):
        return f"makes a condition always true ({' '.join(b)} added): {_pair(old, new)}"
    if not a or not any(_IDENT_RE.match(t) and t not in ("true", "True", "TRUE", "_") for t in a):
        return None
    if _CONST_BODY_RE.search(new) and not _CONST_BODY_RE.search(old):
        m = _ASSIGNED_RE.search(new)
        whose = f"{m.group(1)}'s " if m is not None else "a check's "
        return f"makes {whose}predicate constant ({_old_middle(old, new)[:40]} → always true): {_pair(old, new)}"
    if _CONST_IF_RE.search(new) and not _CONST_IF_RE.search(old) and b and b[-1] in ("true", "1"):
        return f"makes a condition always true: {_pair(old, new)}"
    return None


# ----- a command's quoting dropped, an escaped expansion made live
_QUOTER_RE = re.compile(r"""\\"#\{|\\"\$\{|'"'\s*\+|\+\s*'"'|\\"%s\\"|\bshellescape\b|Shellwords\.(?:escape|join)|shlex\.(?:quote|join)|\bescapeshellarg\b|"""
                        r"""\bescapeshellcmd\b|\bshell_?quote\b|\bquote_?shell\b|\bpipes\.quote\b|ShellQuote|\bshellQuote\b""")
# Where a line builds a command: a space-joined list, a run/exec/system call, a command or cmd variable.
_JOINED_RE = re.compile(r"""\.join\(\s*["'] ["']\s*\)|\bjoin\s+["'] ["']""")
_COMMAND_RE = re.compile(r"""(?i)\b(?:system|exec\w*|spawn\w*|popen\w*|run|shell_?exec|passthru|command|cmd|sh)\b|%x|`""")
# A double-quoted string's text: a word or a backtick inside a message ("the `kid` value \"#{kid}\"") builds no command.
_DQ_TEXT_RE = re.compile(r'"(?:[^"\\]|\\.)*"')


def _builds_command(line: str) -> bool:
    return bool(_JOINED_RE.search(line) or _COMMAND_RE.search(_DQ_TEXT_RE.sub('""', line)))
_ARGV_RE = re.compile(r"""\[\s*["']|\bconcat\b""")  # an argument list: each element is one argument, no shell splits it
_SHELL_PATH_RE = re.compile(r"(?i)\.(?:sh|bash|zsh|ksh|bats|fish|mk|ya?ml)$|(?:^|/)(?:Dockerfile[^/]*|Makefile|GNUmakefile|[^/.]+)$")
_ESCAPED_VAR_RE = re.compile(r"\\\$(?=\{?[A-Za-z_])")
_LIVE_RE = re.compile(r"(?<!\\)\$\(|(?<!\\)`")


def _quoting_dropped(path: str, old: str, new: str) -> str | None:
    if (m := _QUOTER_RE.search(old)) is not None and not _QUOTER_RE.search(new) and (_builds_command(old) or _builds_command(new)) and not _ARGV_RE.search(new):
        names = [t for t in _tokens(old) if _IDENT_RE.match(t) and len(t) > 2]
        if names and names[0] in new:
            return f"drops the quoting of a command's argument ({m.group(0).strip()}): a value with a space or ; is split by the shell: {_pair(old, new)}"
    shell = bool(_SHELL_PATH_RE.search(path))
    live = old.replace("\\$(", "$(").replace("\\`", "`")
    if live != old and (live == new or (shell and _ESCAPED_VAR_RE.sub("$", live) == new)) or (
            shell and _ESCAPED_VAR_RE.search(old) and _ESCAPED_VAR_RE.sub("$", old) == new):
        if _LIVE_RE.search(new) or shell:
            return f"lets an escaped expansion run where the string is used (\\$ → $): a value holding $(…) is executed: {_pair(old, new)}"
    return None


# ----- a check pointed at another operand
_CHECK_CALL_RE = re.compile(r"(?i)^(?:\w*exists?|check\w*|can[A-Z_]\w*|can_\w+|verify\w*|valid\w*|\w*allowed|authori[sz]\w*|permit\w*|owns\w*)$")
_GUARDS_RE = re.compile(r"^\s*(?:\}?\s*else\s*)?(?:if|unless|guard|when|require)\b|&&|\|\|")


def _operand_swapped(old: str, new: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    prefix, a, b, suffix = _middles(old, new)
    if len(a) != 1 or len(b) != 1 or not _IDENT_RE.match(a[0]) or not _IDENT_RE.match(b[0]) or not _GUARDS_RE.search(old):
        return None
    call_arg = len(prefix) >= 2 and prefix[-1] in ("(", ",") and _CHECK_CALL_RE.match(prefix[-2] if prefix[-1] == "(" else "")
    receiver = len(suffix) >= 2 and suffix[0] == "." and _CHECK_CALL_RE.match(suffix[1])
    if not (call_arg or receiver):
        return None
    word_a, word_b = re.compile(rf"\b{re.escape(a[0])}\b"), re.compile(rf"\b{re.escape(b[0])}\b")
    others_added = others(added[:_PAIRS], new)
    if any(word_a.search(line) for line in others(removed[:_PAIRS], old)) and (
            not any(word_a.search(line) for line in others_added) or any(word_b.search(line) for line in others_added)):
        return None  # the old name is gone from the new side, or the new one came in beside it elsewhere: a rename
    if a[0].lower() in b[0].lower() or b[0].lower() in a[0].lower():
        return None  # path → pathname, user → currentUser: the same value renamed or narrowed
    return f"points a check at another operand ({a[0]} → {b[0]}): {_pair(old, new)}"


# ----- a collection narrowed to its first element
_FIRST_RE = r"(?:\[\s*0\s*\]|\.first\b(?:\(\s*\))?|\.First(?:OrDefault)?\(\s*\)|\.firstOrNull\(\s*\)|\.get\(\s*0\s*\)|\.head\b)"
_WHOLE_USE = r"\s*(?:[;,)\]}:]|\?\?|\|\||$|\bdo\b|\.(?:each|map|all|every|forEach|filter|any|some)\b)"
_USES_RE = re.compile(r"(?i)\breturn\b|\bfor\b|\beach\b|\bmap\b|\bevery\b|\ball\b|\bvalidat\w*|\bcheck\w*|\bverif\w*|=>|->")


def _first_only(old: str, new: str) -> str | None:
    if not _USES_RE.search(old):
        return None
    for name in dict.fromkeys(t for t in _tokens(new) if _IDENT_RE.match(t) and len(t) > 2):
        first = re.search(rf"(?<![\w.>:]){re.escape(name)}{_FIRST_RE}", new)
        if first is None or re.search(rf"(?<![\w.>:]){re.escape(name)}{_WHOLE_USE}", new) or re.search(rf"(?<![\w.>:]){re.escape(name)}{_FIRST_RE}", old):
            continue
        if re.search(rf"(?<![\w.>:]){re.escape(name)}{_WHOLE_USE}", old):
            return f"narrows {name} to its first element ({first.group(0)}): the others go unchecked: {_pair(old, new)}"
    return None


_SCREEN_RE = re.compile("(?i)" + _RAISED_RE.pattern[4:] + "|" + _LOWERED_RE.pattern[4:] + r"|\\\$\(|\bwindow\b")


def screen(line: str) -> bool:
    """A settings or build file's line these readers read (a bound's number, an escaped expansion), kept though it
    holds no risky word."""
    return len(line) <= _LONGEST and _SCREEN_RE.search(line) is not None


def bound_turned(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn of what a check decides that the edit makes, said old → new (medium), or None."""
    if not added or not removed:
        return None
    close, quoted, measured = _pairs(added, removed, ((None, 0.5), (_QUOTER_RE, 0.4), (_LENGTH_RE, 0.3)))
    for old, new in close:
        for found in (_bound_moved(path, old, new), _length_check_dropped(old, new), _predicate_constant(old, new),
                      _quoting_dropped(path, old, new), _operand_swapped(old, new, added, removed), _first_only(old, new)):
            if found:
                return found
    # A quoting helper's wrap or a length test removed takes much of a short line: read those pairs at a lower likeness.
    for old, new in quoted:
        if (found := _quoting_dropped(path, old, new)) is not None:
            return found
    for old, new in measured:
        if (found := _length_check_dropped(old, new)) is not None:
            return found
    return None
