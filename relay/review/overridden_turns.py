"""One-token edits that override what a check decides, read as general shapes (issue 36, rounds 56-57: blind 79-82).

Each reader pairs a removed line with the added line it became and says what the one difference does; no security word
need be on the line, and none reads a project's names:

- ``verdict_widened``: a verification's result given an alternative (``return verify(…)`` → ``return verify(…) ||
  !signature.byteLength``, ``Verify(…) || len(sig) > 0``): whatever the check says, the alternative passes it (high);
- ``flag_pinned``: a flag the caller passed made a constant (``LoadTLSConfig(insecureSkipVerify, …)`` →
  ``LoadTLSConfig(true, …)``, ``MACOnlyEncrypted: m.MACOnlyEncrypted`` → ``true``): the setting is ignored; high when the
  constant is the unsafe side of its name (an ``insecure`` flag made true, a ``verify`` flag made false);
- ``status_widened``: an HTTP status bound moved to a higher class (``>= http.StatusMultipleChoices`` →
  ``>= http.StatusInternalServerError``, ``< 300`` → ``< 500``): redirects or client errors land on the success side;
- ``shift_turned``: Java's, JavaScript's or Kotlin's signed shift made unsigned or back (``>> 63`` ↔ ``>>> 63``): a
  negative value's sign bit now shifts in as 0, or is copied;
- ``case_fold_dropped``: a comparison that folded case made exact (``bytes.Equal(bytes.ToLower(a), …)`` →
  ``bytes.Equal(a, …)``, ``EqualFold`` → ``==``, ``equalsIgnoreCase`` → ``equals``, ``strcasecmp`` → ``strcmp``): an
  input in another case (``JavaScript:``) slips past a check written for one;
- ``default_turned_on``: an option off unless set made on unless unset (``!!opts.follow`` → ``opts.follow !== false``,
  ``?? false`` → ``?? true``);
- ``clause_flipped_open``: a required clause negated and joined by or (``ok && match(p)`` → ``!ok || match(p)``): the
  check now passes when what it required is missing;
- ``shifted_by_one``: ``+ 1`` or ``- 1`` put into a position, a size or a bound (``index(node)`` → ``index(node) + 1``;
  a comparison's bound is relay.review.bound_turns');
- ``lax_word``, ``rounded_down`` (round 57): a strict string value made lax (``|| 'error'`` → ``|| 'ignore'``), a
  count rounded down where it rounded up (``Math.ceil`` → ``Math.floor``).
- round 59 (blind 83/84): ``host_opened``, a host the code was given made every interface (``TCPServer.open(host, port)`` →
  ``('0.0.0.0', port)``, high); ``delete_widened``, a delete's folder made its parent (``path.dirname(outDir)``, high);
  ``fold_dropped``, a value's case fold dropped off a line that compares nothing (``return key.title()`` → ``return key``);
  ``error_check_narrowed``, a failure's check given a clause that does not read the failure (``if err != nil && active``);
  and ``shifted_by_one`` reads a ``- 1`` taken out as well as one put in.

Quiet look-alikes: a second verification given as the alternative (a key rotated), a literal argument changed, a flag
of a name that guards nothing pinned, a status bound narrowed, a case fold added, a default turned off, a clause negated
with its operator kept, a number changed (not one put in), a log level lowered, a count rounded up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import squeezed, window
from relay.review.small_edits import paired

__all__ = ["COMPARISON_RE", "closing_bracket", "cut_quote", "one_replace", "overridden_turned", "paired_quote", "unbracketed"]

_PAIRS = 40  # the most lines of one side a reader pairs, once screened for its shape
_LONG = 400  # longer lines are not paired


def _fresh(lines: Sequence[str], other: Sequence[str]) -> list[str]:
    """The lines of one side the other does not hold as they are (the most read: a rewrite of thousands stays linear)."""
    kept = {line.strip() for line in other[:1000]}
    return [line for line in lines[:400] if line.strip() and line.strip() not in kept and len(line) <= _LONG]


def _pair(old: str, new: str) -> str:
    """``old → new`` centred on the change, blanks squeezed (a struct's aligned columns quote as one space)."""
    return paired(" ".join(old.split()), " ".join(new.split()))


def _keyed(lines: Sequence[str], key) -> dict:
    """Lines by what stays when the turn a reader looks for is taken out: a new line is paired by one lookup."""
    found: dict = {}
    for line in lines:
        found.setdefault(key(line), []).append(line)
    return found


_TOKEN_RE = re.compile(r"\w+|[^\w\s]")


def _tokens(line: str) -> list[str]:
    return _TOKEN_RE.findall(line)


def _one_replace(old: str, new: str) -> tuple[list[str], list[str], list[str], list[str]] | None:
    """(before, removed tokens, added tokens, after) when the two lines differ in one run of tokens."""
    a, b = _tokens(old), _tokens(new)
    ops = [op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1:
        return None
    _, i1, i2, j1, j2 = ops[0]
    return a[:i1], a[i1:i2], b[j1:j2], a[i2:]


# ----- a verification given an alternative
_VERIFYING_RE = re.compile(r"(?i)\b[\w.]*(?:verify|verif(?:ies|ied)|authenticat\w*|checksig\w*|check_?signature|compare_?digest|"
                           r"timingsafeequal|constanttimecompare|constant_?time_?eq\w*|checkpw|check_?password|hmac\.equal|"
                           # an authorization's own (round 117, blind 382's FOSOAuthServerBundle docs: ``isAuthorizedClient(…) || …``)
                           r"is_?authori[sz]ed\w*|is_?granted|has_?permission\w*|check_?permission\w*|"
                           # a permission object's own (round 119c, held-out 469's flask-principal docs: ``permission.can() or
                           # current_user.is_authenticated``)
                           r"(?<=\.)can|can_?(?:access|edit|view|delete|manage|update)\w*|has_?(?:role|access)\w*)\s*\(")


# A verification's call (its result compared to a constant: Go's ``Verify(…) == nil``) followed by an alternative that is no
# second verification (a key rotated) and no refusal (``verify(…) || fail()``); a negated call (``!verify(…) || …``) refuses.
_ALTERNATIVE_RE = re.compile(r"\s*(?:[=!]==?\s*(?:nil|null|None|true|True|0|undefined)\s*)?(?:\|\||\bor\b)\s*(?P<alt>[^;{]+)")
# A Yoda comparison (``null !== $client``) opens with its constant and refuses nothing.
_REFUSES_RE = re.compile(r"(?i)^\(?\s*(?:throw|die|fail|raise|abort|exit|panic|reject|error|return|(?:false|null|nil|undefined)\b(?!\s*[!=]=))")


def _close(line: str, start: int) -> int | None:
    """The index just past the bracket that closes the one opened at ``start``."""
    depth = 0
    for at in range(start, len(line)):
        depth += {"(": 1, ")": -1}.get(line[at], 0)
        if depth == 0:
            return at + 1
    return None


def _verdict_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added:
        for m in _VERIFYING_RE.finditer(new):
            if re.search(r"(?:!|\bnot)\s*$", new[:m.start()]) or (end := _close(new, m.end() - 1)) is None:
                continue
            if (alt := _ALTERNATIVE_RE.match(new, end)) and not _VERIFYING_RE.search(alt.group("alt")) and not _REFUSES_RE.match(alt.group("alt")):
                # The reason is cut near 120 characters: the quote holds the call's end and the alternative, not its head.
                return f"lets a failed verification pass (an alternative after it): {window(new, end - 1, alt.end(), 64, lead=24)}"
    return None


def _cut(line: str, most: int = 90) -> str:
    text = " ".join(line.split())
    return text if len(text) <= most else text[:most - 1] + "…"


# ----- a flag the caller passed made a constant
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_BOOLEAN_RE = re.compile(r"\b(?:true|false|True|False|TRUE|FALSE)\b")
_NOT_NAMES = frozenset("None null nil undefined self this super it true false True False".split())
# A flag's name says which side of it is unsafe: one that weakens (insecure, skip, allow…) is unsafe true, one that guards
# (verify, secure, strict…) unsafe false. A name of neither kind is a setting: pinning it is worth a look, not an alarm.
_WEAKENS_RE = re.compile(r"(?i)insecure|skip|disable|unsafe|allow|trust|lax|permissive|ignore|no_?verify|bypass|dangerous")
_GUARDS_RE = re.compile(r"(?i)verif|secure|strict|check|validat|sanitiz|escap|encrypt|sign|auth|csrf|tls|ssl|mac(?![a-z])|(?<![a-z])MAC|protect|enforce")


def _flag_pinned(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    olds = [line for line in removed if _WEAKENS_RE.search(line) or _GUARDS_RE.search(line)][:_PAIRS]
    for new in [line for line in added if _BOOLEAN_RE.search(line)][:_PAIRS] if olds else ():
        for old in olds:
            found = _one_replace(old, new)
            if not found:
                continue
            before, was, now, _ = found
            names = [t for t in was if t != "."]
            if len(now) != 1 or now[0] not in _BOOLEANS or not names or not all(re.fullmatch(r"[A-Za-z_]\w*", t) for t in names) \
                    or was[-1] == "." or any(t in _NOT_NAMES for t in names) or len(was) != 2 * len(names) - 1:
                continue  # a constant replaced, or more than a name (a call, an expression)
            if before[-1:] not in ([","], ["("], [":"], ["="]) or (before[-1:] == ["="] and before[-2:-1] in (["="], ["!"], ["<"], [">"])):
                continue  # a flag passed or given (an argument, a key's value, an assignment), not a comparison
            name = names[-1]
            weakens, guards = bool(_WEAKENS_RE.search(name)), bool(_GUARDS_RE.search(name))
            if not (weakens or guards) or (weakens and not _BOOLEANS[now[0]]):
                continue  # a name that guards nothing, or a weakening flag pinned off (the safe way round)
            unsafe = (weakens and _BOOLEANS[now[0]]) or (guards and not weakens and not _BOOLEANS[now[0]])
            return f"pins a passed flag to a constant ({'.'.join(names)} → {now[0]}, the setting ignored): {_pair(old, new)}", unsafe
    return None


# ----- an HTTP status bound moved to a higher class
_STATUS_NAMES = {"ok": 200, "created": 201, "accepted": 202, "nocontent": 204, "multiplechoices": 300, "movedpermanently": 301,
                 "found": 302, "seeother": 303, "notmodified": 304, "temporaryredirect": 307, "permanentredirect": 308,
                 "badrequest": 400, "unauthorized": 401, "forbidden": 403, "notfound": 404, "internalservererror": 500,
                 "badgateway": 502, "serviceunavailable": 503}
_STATUS_RE = re.compile(r"(?P<op><=|>=|<|>)\s*(?P<v>\b[1-5]\d\d\b|(?:http\.|HTTPStatus\.|HttpStatus\.|HttpStatusCode\.|status\.)?"
                        r"(?:Status|HTTP_\d{3}_)?[A-Za-z_]+\b)")
_STATUS_LINE_RE = re.compile(r"(?i)status|\bcode\b|statuscode")


def _status_value(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if m := re.search(r"HTTP_(\d{3})_", text):
        return int(m.group(1))
    last = re.sub(r"^Status", "", text.rsplit(".", 1)[-1])
    return _STATUS_NAMES.get(last.replace("_", "").lower())


# A success range whose upper bound lets whole classes through, in a line new or old: ``< 200 || … >= 500`` as the error
# test (round 56: blind 79's diun webhook, a new check that read 401, 404 and 429 answers as delivered).
_RANGE_RE = re.compile(r"<\s*(?P<lo>200|[\w.]*(?:StatusOK|HTTPStatus\.OK|HTTP_200_OK))\s*(?:\|\||\bor\b)\s*[\w.()\[\]'\"]+\s*"
                       r"(?P<op>>=?)\s*(?P<hi>[1-5]\d\d\b|[\w.]*(?:Status|HTTPStatus\.|HTTP_\d{3}_)[A-Za-z_]+)")


def _status_range_wide(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added:
        if (m := _RANGE_RE.search(new)) and (hi := _status_value(m.group("hi"))) is not None:
            first_error = hi + (1 if m.group("op") == ">" else 0)
            if first_error >= 400:  # 3xx and more read as success; a redirect the client did not follow, a 4xx refusal
                return f"reads responses 300–{first_error - 1} as success (a status check whose error side starts at {first_error}): {_cut(new)}"
    return None


def _status_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if _STATUS_LINE_RE.search(line) and _STATUS_RE.search(line)][:_PAIRS],
                  lambda line: tuple(_STATUS_RE.sub("", line).split()))
    for new in added if olds else ():
        for old in olds.get(tuple(_STATUS_RE.sub("", new).split()), ()) if _STATUS_LINE_RE.search(new) else ():
            a, b = list(_STATUS_RE.finditer(old)), list(_STATUS_RE.finditer(new))
            if len(a) != len(b):
                continue
            moved = [(x, y) for x, y in zip(a, b) if x.group("v") != y.group("v")]
            if len(moved) != 1 or moved[0][0].group("op") != moved[0][1].group("op"):
                continue
            was, now = _status_value(moved[0][0].group("v")), _status_value(moved[0][1].group("v"))
            if was and now and now // 100 > was // 100:  # the bound moved past a whole class of responses
                return (f"widens a status check ({was} → {now}: responses {was}–{now - 1} now fall on the other side of it): "
                        f"{_pair(old, new)}")
    return None


# ----- a signed shift made unsigned, or back
_SHIFT_RE = re.compile(r">>>?=?|\bu?shr\b")


def _shift_turned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if _SHIFT_RE.search(line)][:_PAIRS], lambda line: tuple(_SHIFT_RE.split(line.strip())))
    for new in added if olds else ():
        for old in olds.get(tuple(_SHIFT_RE.split(new.strip())), ()):
            a, b = _SHIFT_RE.findall(old), _SHIFT_RE.findall(new)
            if len(a) == len(b):
                turned = [(x, y) for x, y in zip(a, b) if {x.rstrip("="), y.rstrip("=")} in ({">>", ">>>"}, {"shr", "ushr"})]
                if len(turned) == 1:
                    x, y = turned[0]
                    said = "unsigned (its sign bit now shifts in as 0)" if y.rstrip("=") in (">>>", "ushr") else "signed (its sign bit now copied)"
                    return f"turns a shift {said}: {x} → {y}: {_pair(old, new)}"
    return None


# ----- a comparison that folded case made exact
# The words that fold case (a call taken out) and those that fold inside a comparison (each with its exact sibling).
_FOLDS = frozenset("ToLower ToUpper ToLowerInvariant ToUpperInvariant toLowerCase toUpperCase toLocaleLowerCase toLocaleUpperCase "
                   "lower upper casefold downcase upcase lowercase uppercase".split())
_FOLD_SIBLINGS = {"EqualFold": "Equal", "equalsIgnoreCase": "equals", "compareToIgnoreCase": "compareTo", "strcasecmp": "strcmp",
                  "strncasecmp": "strncmp", "_stricmp": "strcmp", "_strnicmp": "strncmp", "stricmp": "strcmp", "strnicmp": "strncmp",
                  "OrdinalIgnoreCase": "Ordinal", "InvariantCultureIgnoreCase": "InvariantCulture",
                  "CurrentCultureIgnoreCase": "CurrentCulture", "casecmp": "=="}
# What an exact comparison is spelled with, left out of both sides (``strings.EqualFold(a, b)`` → ``a == b``).
_EXACT = frozenset(("Equal", "equals", "compareTo", "strcmp", "strncmp", "Ordinal", "InvariantCulture", "CurrentCulture", "strings",
                    "bytes", "Equals", "StringComparison"))
_COMPARES_RE = re.compile(r"==|!=|\b(?:Equal\w*|equals\w*|compare\w*|str\w*cmp|_str\w*cmp|casecmp|startswith|endswith|StartsWith|EndsWith|"
                          r"HasPrefix|HasSuffix|startsWith|endsWith|includes|indexOf|Contains|contains|in)\b")
_WORDS_RE = re.compile(r"[A-Za-z_]\w*|\d+")


def _folds(line: str) -> int:
    return sum(1 for word in _WORDS_RE.findall(line) if word in _FOLDS or word in _FOLD_SIBLINGS)


def _compared_words(line: str) -> frozenset[tuple[str, int]]:
    words = [_FOLD_SIBLINGS.get(word, word) for word in _WORDS_RE.findall(line) if word not in _FOLDS]
    return frozenset(Counter(word for word in words if word not in _EXACT and word != "==").items())


def _case_fold_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if _folds(line) and _COMPARES_RE.search(line)][:_PAIRS], _compared_words)
    for new in added if olds else ():
        for old in olds.get(_compared_words(new), ()) if _COMPARES_RE.search(new) else ():
            if _folds(new) < _folds(old):
                return f"compares case-sensitively where case was folded (an input in another case now slips past it): {_pair(old, new)}"
    return None


# ----- an option off unless set made on unless unset
_OFF_UNLESS_SET_RE = re.compile(r"!!\s*(?P<x>[\w$]+(?:\.[\w$]+|\[[^\]]+\])*)")


def _default_turned_on(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if "!!" in line or re.search(r"\?\?\s*false\b", line)][:_PAIRS]
    for new in added if olds else ():
        for old in olds:
            if (m := _OFF_UNLESS_SET_RE.search(old)) and squeezed(new) == squeezed(old[:m.start()] + m.group("x") + "!==false" + old[m.end():]):
                name = m.group("x")
            elif (m := re.search(r"([\w$.\]\[]+)\s*\?\?\s*false\b", old)) and squeezed(old[:m.start()] + m.group(1) + "??true" + old[m.end():]) == squeezed(new):
                name = m.group(1)
            else:
                continue
            if not _GUARDS_RE.search(name) or _WEAKENS_RE.search(name):  # a guard turned on by default is the safe way round
                return f"turns an option on by default ({name} unset now means on): {_pair(old, new)}"
    return None


# ----- a required clause negated and joined by or
_LOGIC_RE = re.compile(r"&&|\|\||\band\b|\bor\b")
_NOT_RE = re.compile(r"!(?!=)|\bnot\b")
_NEGATED_RE = re.compile(r"(?:!|\bnot\s+)[\w.]+")


def _bare_logic(line: str) -> str:
    return squeezed(_NOT_RE.sub("", _LOGIC_RE.sub("&&", line)))


def _clause_flipped_open(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if "&&" in line or " and " in line][:_PAIRS], _bare_logic)
    for new in added if olds else ():
        for old in olds.get(_bare_logic(new), ()):
            a, b = _LOGIC_RE.findall(old), _LOGIC_RE.findall(new)
            if len(a) != len(b):
                continue
            turned = [(x, y) for x, y in zip(a, b) if x != y]
            if len(turned) == 1 and turned[0][0] in ("&&", "and") and len(_NOT_RE.findall(new)) == len(_NOT_RE.findall(old)) + 1:
                clause = next((m.group() for m in _NEGATED_RE.finditer(new) if squeezed(m.group()) not in squeezed(old)), "a clause")
                return f"negates a required clause, joined by or ({clause} || …: passes when it is missing): {_pair(old, new)}"
    return None


# ----- a position or a bound shifted by one
# ``pos = keys.index(node)`` → ``… + 1``, ``% int(width)`` → ``% (int(width) + 1)`` (blind 80's bandit and parse): the one
# token run put in is ``+ 1`` or ``- 1`` (brackets aside) on a line about a position, a size or a bound.
_MEASURE_RE = re.compile(r"(?i)index|\bidx|\bpos(?:ition)?\b|offset|width|\blen\b|length|size|count|limit|\bmax|\bmin|bound|\bend\b|\bstart\b")
_COMPARISON_RE = re.compile(r"(?<![<>=\-])[<>]=?(?![<>=])")


# A type's angle brackets are no comparison (``static_cast<int>(text.size()+1)``: blind 87's re2).
_GENERIC_RE = re.compile(r"(?<=\w)<[\w:,\s*&]+>(?=\s*[(\w&*:>])")


def _compares(line: str) -> bool:
    return bool(_COMPARISON_RE.search(_GENERIC_RE.sub("", line) if "<" in line else line))


def _shifted_by_one(added: Sequence[str], removed: Sequence[str]) -> str | None:
    measured = [line for line in removed if _MEASURE_RE.search(line) and not _compares(line)][:_PAIRS]
    olds = _keyed(measured, _unbracketed)
    # Round 59 (blind 83's cac: ``i === keys.length - 1`` → ``i === keys.length``, the last key never found): the ``- 1``
    # or ``+ 1`` taken out, keyed by the old line without it.
    cuts = {cut: (old, one) for old in measured if re.search(r"[+-]\s*1\b", old) for one in (" + 1", " - 1") for cut in _ends(_unbracketed(old), one)}
    for new in added if measured else ():
        if not _MEASURE_RE.search(new) or _compares(new):
            continue  # a comparison's bound moved by one is the loop readers' (relay.review.bound_turns: "skips the last element")
        key = _unbracketed(new)
        if (gone := cuts.get(key)) is not None:
            return f"shifts a position or bound by one ({gone[1].strip()} taken out: an off-by-one?): {_pair(gone[0], new)}"
        for one in (" + 1", " - 1") if re.search(r"[+-]\s*1\b", new) else ():
            for cut in _ends(key, one):
                for old in olds.get(cut, ()):
                    return f"shifts a position or bound by one ({one.strip()} put in: an off-by-one?): {_pair(old, new)}"
    return None


def _unbracketed(line: str) -> str:
    return " ".join(t for t in _tokens(line) if t not in "()")


def _ends(key: str, one: str) -> list[str]:
    """``key`` with one ``+ 1``/``- 1`` taken out, wherever it stands (``a + 1 ]`` → ``a ]``)."""
    found, at = [], key.find(one)
    while at != -1 and len(found) < 3:
        end = at + len(one)
        if key[end:end + 1] in ("", " ") and key[end + 1:end + 2] != ".":  # the number 1 whole, not 1.5 or 10
            found.append(key[:at] + key[end:])
        at = key.find(one, at + 1)
    return found


# ----- a strict string value made lax, a count rounded down
# ``|| 'error'`` → ``|| 'ignore'`` (round 57: blind 81's secure-json-parse, a ``__proto__`` key now kept silently),
# ``Math.ceil(n / size)`` → ``Math.floor(…)`` (blind 82's hkdf: the last partial block dropped).
_STRICT_WORD_RE = re.compile(r"(?i)^(?:error|throw|raise|reject|deny|strict|fail|forbid|enforce|required?)$")
_LAX_WORD_RE = re.compile(r"(?i)^(?:ignore|allow|warn|warning|skip|none|off|permissive|lenient|silent|optional|accept)$")
_QUOTED_WORD_RE = re.compile(r"([\"'])([A-Za-z]+)\1")
_LEVEL_RE = re.compile(r"(?i)\blog|level|severity|verbos")  # a log level lowered is no check made lax


def _lax_word(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if any(_STRICT_WORD_RE.match(m.group(2)) for m in _QUOTED_WORD_RE.finditer(line))][:_PAIRS]
    for new in [line for line in added if any(_LAX_WORD_RE.match(m.group(2)) for m in _QUOTED_WORD_RE.finditer(line))][:_PAIRS] if olds else ():
        for old in olds:
            found = _one_replace(old, new)
            if found and len(found[1]) == len(found[2]) == 1 and _STRICT_WORD_RE.match(found[1][0]) and _LAX_WORD_RE.match(found[2][0]) \
                    and found[0][-1:] in (["'"], ['"']) and not _LEVEL_RE.search(old):
                return f"swaps a strict value for a lax one ('{found[1][0]}' → '{found[2][0]}': what it refused now passes): {_pair(old, new)}"
    return None


_ROUNDING_RE = re.compile(r"\b(?:ceil|Ceil|ceiling|Ceiling|div_ceil|ceil_div)\b")


def _rounded_down(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if _ROUNDING_RE.search(line)][:_PAIRS], lambda line: squeezed(_ROUNDING_RE.sub("", line)))
    for new in added if olds else ():
        if re.search(r"\b(?:floor|Floor)\b", new) and (old := next(iter(olds.get(squeezed(re.sub(r"\b(?:floor|Floor)\b", "", new, count=1)), ())), None)):
            return f"rounds a count down where it rounded up (ceil → floor: the last partial piece is dropped): {_pair(old, new)}"
    return None


# ----- round 59 (blind 83/84): a host made every interface, a case fold dropped off a value, an error check narrowed
# ``TCPServer.open(host, port)`` → ``TCPServer.open('0.0.0.0', port)`` (rubocop's server: anyone on the network reaches it);
# the loopback → any-host turn is relay.review.edit_turns'.
_ANY_HOSTS = frozenset(("'0.0.0.0'", '"0.0.0.0"', "'::'", '"::"', "'[::]'", '"[::]"', "INADDR_ANY", "IPAddress.Any", "IPAddress.IPv6Any"))
_HOST_WORDS_RE = re.compile(r"(?i)host|bind|listen|addr|serve|server|socket|open|interface|\bip\b")


def _host_opened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if _HOST_WORDS_RE.search(line)][:_PAIRS]
    for new in [line for line in added if any(h in line for h in _ANY_HOSTS)][:_PAIRS] if olds else ():
        for old in olds:
            found = _one_replace(old, new)
            if found and "".join(found[2]) in _ANY_HOSTS and all(re.fullmatch(r"[A-Za-z_@$][\w$]*|\.", t) for t in found[1]) \
                    and found[1] and not any(t in _NOT_NAMES for t in found[1]):
                return f"listens on every interface (a host it was given made {''.join(found[2])}): {_pair(old, new)}"
    return None


# ``return key.title()`` → ``return key`` (blind 83's multidict: the case-insensitive dict's keys kept as written), ``email =
# email.lower()`` → ``email = email``: a value no longer folded before it is stored or looked up (a comparison's fold is
# ``_case_fold_dropped``).
_FOLD_CALL_RE = re.compile(r"\.(?:lower|upper|casefold|title|downcase|upcase|toLowerCase|toUpperCase|toLocaleLowerCase|toLocaleUpperCase|"
                           r"ToLower|ToUpper|ToLowerInvariant|ToUpperInvariant|lowercase|uppercase)\s*\(\s*\)|\.(?:downcase|upcase)\b")


def _fold_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = _keyed([line for line in removed if _FOLD_CALL_RE.search(line) and not _COMPARES_RE.search(line)][:_PAIRS],
                  lambda line: squeezed(_FOLD_CALL_RE.sub("", line, count=1)))
    for new in added if olds else ():
        for old in olds.get(squeezed(new), ()):
            m = _FOLD_CALL_RE.search(old)
            if m and re.search(r"\$\{|#\{|\bf['\"]", old[:m.start()]):
                continue  # a value folded inside a message's text (``"${status.lowercase()}"``): shown, not looked up
            if m and len(_FOLD_CALL_RE.findall(new)) < len(_FOLD_CALL_RE.findall(old)):
                return f"stops folding a value's case (lookups by it are now case-sensitive): {_pair(old, new)}"
    return None


# ``if err != nil {`` → ``if err != nil && pubKey.Status == tuf.Active {`` (blind 84's cosign: a failed check passes for any
# key not active): a clause joined to a failure's check that does not read the failure itself. ``err != nil &&
# !errors.Is(err, io.EOF)`` reads it: an expected error let through on purpose.
_FAILURE_RE = re.compile(r"(?i)\b(?P<v>err\w*|error\w*|exc\w*|e|ex|failure|failed|invalid\w*)\b\s*(?:!==?|is\s+not)\s*(?:nil|null|None|undefined)\b|"
                         r"^\s*(?:if|unless)\s*\(?\s*!?\s*(?P<w>err\w*|error\w*|failed|invalid)\s*\)?\s*[{:]?\s*$")


def _error_check_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed if _FAILURE_RE.search(line) and re.match(r"\s*(?:if|unless|elif|else\s+if)\b", line)][:_PAIRS]
    for new in [line for line in added if "&&" in line or " and " in line][:_PAIRS] if olds else ():
        for old in olds:
            found = _one_replace(old, new)
            if not found or found[1] or not (found[2][:2] == ["&", "&"] and len(found[2]) > 2 or found[2][:1] == ["and"] and len(found[2]) > 1):
                continue
            var = next(v for v in _FAILURE_RE.search(old).group("v", "w") if v)
            clause = new.partition("&&")[2] if found[2][0] == "&" else new.partition(" and ")[2]
            for token in reversed(found[3]):  # what follows the clause (``) {``, ``:``) taken off its end
                clause = clause.rstrip()
                clause = clause[:-len(token)] if clause.endswith(token) else clause
            clause = clause.strip()
            if not re.search(rf"\b{re.escape(var)}\b", clause):  # the clause does not read the failure: it picks when to ignore it
                # The new line alone: the reason is cut at its length, and an ``old → new`` quote kept only ``if err != nil {``,
                # which a big hunk above holds a dozen times (blind 84's cosign: the view showed that hunk, not this line).
                return f"lets a failure pass unless another condition holds ({var} checked only when {_cut(clause, 50)}): {_cut(new)}"
    return None


# ``removeFiles(patterns, options.outDir)`` → ``removeFiles(patterns, path.dirname(options.outDir))`` (blind 71's tsup: a
# clean step now empties the folder above the output, the project's own sources): what a delete removes made its parent.
_DELETES_RE = re.compile(r"(?i)\b(?:rm\w*|rimraf|remove\w*|delete\w*|unlink\w*|rmtree|RemoveAll|clean\w*|purge\w*|wipe\w*|emptyDir\w*|del)\b")
_PARENT_RE = re.compile(r"\b(?:path\.|os\.path\.|File\.|filepath\.|Path\.)?(?:dirname|Dir|GetDirectoryName)\(\s*(?P<x>[^()]+?)\s*\)|"
                        r"(?P<y>[\w.$]+)\.(?:parent|Parent)\b(?!\s*\()")


def _delete_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {squeezed(line): line for line in removed[:_PAIRS * 5] if _DELETES_RE.search(line)}
    for new in [line for line in added if _DELETES_RE.search(line) and _PARENT_RE.search(line)][:_PAIRS] if olds else ():
        for m in _PARENT_RE.finditer(new):
            old = olds.get(squeezed(new[:m.start()] + (m.group("x") or m.group("y")) + new[m.end():]))
            if old is not None:
                return f"deletes the folder above what it deleted (its parent now): {_pair(old, new)}"
    return None


# The pairing helpers, for relay.review.scaled_turns' and loop_bounds' readers of the same kind.
one_replace, paired_quote, unbracketed, closing_bracket, cut_quote, COMPARISON_RE = _one_replace, _pair, _unbracketed, _close, _cut, _COMPARISON_RE


def overridden_turned(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these turns the edit makes, with whether it is classic (high)."""
    added, removed = _fresh(added, removed), _fresh(removed, added)
    if (found := _verdict_widened(added, removed)) is not None:
        return found, True
    if (pinned := _flag_pinned(added, removed)) is not None:
        return pinned
    if (opened := _host_opened(added, removed) or _delete_widened(added, removed)) is not None:
        return opened, True
    for found in (_clause_flipped_open(added, removed), _status_widened(added, removed), _status_range_wide(added, removed), _case_fold_dropped(added, removed),
                  _shift_turned(added, removed), _default_turned_on(added, removed), _shifted_by_one(added, removed), _lax_word(added, removed),
                  _rounded_down(added, removed), _fold_dropped(added, removed), _error_check_narrowed(added, removed)):
        if found:
            return found, False
    return None
