"""A check turned, widened or cut off by one edit with no security word on it (issue 36, round 81: blind 113/114's misses).

- ``predicate_flipped`` (pairs): a predicate call swapped for its opposite, the rest of the line kept (``errors.borrow()
  .is_some()`` → ``.is_none()``: blind 114's serde, a drop guard that panics only when nothing is wrong; ``is_ok`` /
  ``is_err``, ``isEmpty`` / ``isNotEmpty``, ``present?`` / ``blank?``, ``any(`` / ``all(``, ``.some(`` / ``.every(``);
- ``absent_let_through`` (pairs): a comparison given an alternative that holds when the value is missing (``if
  (session.get(key) === state)`` → ``if (!session.has(key) || session.get(key) === state)``: blind 114's remix-auth,
  an OAuth callback with no state in the session passes). High when what is compared is a state, a nonce, a token, a
  signature or an origin;
- ``refusal_unreachable`` (new lines): an ``else`` that refuses after ``if not x`` / ``elif x`` (``if (!x)`` / ``else if
  (x)``), which leave it nothing (blind 113's ecies: ``elif is_valid_secret(curve, secret):`` written ``elif secret:``,
  the "Invalid secret key" raise never runs);
- ``default_made_optional`` (pairs, high): a policy's or a mode's default turned from required to optional
  (``var DefaultPolicy = REQUIRE`` → ``USE``: blind 114's go-proxyproto, a PROXY header anyone may now omit or forge;
  ``sslmode=require`` → ``prefer``); ``default_unlike_comment`` (new lines): a default set to another value than the
  comment written above it says (go-proxyproto's new ``var DefaultPolicy = USE`` under "It defaults to REQUIRE"), high
  when the comment's value is the required one and the code's the optional one;
- ``rule_made_optional`` (pairs; round 91, blind 137's fortify): a field's validation rule turned from required to
  optional, the rest kept (``'current_password' => ['required', …]`` → ``['sometimes', …]``, ``.required()`` →
  ``.optional()``): high when the field is a password, a token, a signature…, else worth a look;
- ``unsafe_default_on`` (pairs, high; round 91, blind 138's NelmioSecurityBundle): a default turned false → true on a
  switch that turns a protection off when true (``$options['report_only'] ?? false`` → ``?? true``, ``skip_verify``);
  ``unsafe_default_new`` (new lines, worth a look): the same default written in the commit's new code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import edited_sides
from relay.review.overridden_turns import cut_quote, paired_quote

__all__ = ["absent_let_through", "check_slip", "default_made_optional", "default_unlike_comment", "says_default", "predicate_flipped", "refusal_unreachable",
           "rule_made_optional", "unsafe_default_new", "unsafe_default_on"]

_LONG = 300  # a line past this is data, not a statement
_CLASSIC_RE = re.compile(r"(?i)state|csrf|xsrf|nonce|token|signature|\bsig\b|hmac|otp|verifier|origin|secret|password|issuer|audience")


def _squeezed(line: str) -> str:
    return "".join(line.split())


# ----- a predicate swapped for its opposite
_OPPOSITES = (("is_some", "is_none"), ("is_ok", "is_err"), ("isEmpty", "isNotEmpty"), ("isPresent", "isEmpty"), ("is_null", "is_not_null"),
              ("isNull", "isNotNull"), ("isDefined", "isUndefined"), ("present?", "blank?"), ("any?", "none?"), ("any?", "empty?"),
              ("some", "every"), ("any", "all"))


def _flip_pattern(name: str) -> re.Pattern[str]:
    if name.endswith("?"):
        return re.compile(rf"(?<=\.){re.escape(name)}(?![\w?])")
    lead = r"(?<=\.)" if name in ("some", "every") else r"(?<![\w$.])" if name in ("any", "all") else r"(?<![\w$])"
    return re.compile(rf"{lead}{name}(?=\s*\()")


_FLIPS = tuple((a, b, _flip_pattern(a), _flip_pattern(b)) for a, b in _OPPOSITES)


def predicate_flipped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"inverts a check (is_some → is_none) …" where a line comes back with one predicate call swapped for its opposite."""
    new, old = edited_sides(added, removed)
    for a, b, a_re, b_re in _FLIPS:
        for x, y, x_re, y_re in ((a, b, a_re, b_re), (b, a, b_re, a_re)):
            olds = {_squeezed(x_re.sub(y, line)): line for line in old if x_re.search(line) and not y_re.search(line)}
            for line in new if olds else ():
                if y_re.search(line) and (was := olds.get(_squeezed(line))) is not None and len(x_re.findall(was)) == 1:
                    return f"inverts a check ({x} → {y}): {paired_quote(was, line)}"
    return None


# ----- an alternative that holds when the value is missing
_ABSENT_RE = re.compile(r"!\s*[\w$.]+\.(?:has|contains|containsKey|includes|exists|hasOwnProperty|get|getItem)\s*\([^()]*\)\s*\|\|\s*|"
                        r"[\w$.\[\]'\"()]+?\s*(?:===?|\bis)\s*(?:null|undefined|None|nil)\s*(?:\|\||\bor\b)\s*|"
                        r"(?<![\w$!=])!\s*[\w$.\[\]'\"]+\s*\|\|\s*|\bnot\s+[\w.\[\]'\"()]+\s+or\s+|[\w'\"]+\s+not\s+in\s+[\w.]+\s+or\s+")


def _absent_subject(clause: str) -> str:
    """What an absence clause finds missing: the key of ``!m.has(key) ||``, the value of ``v is None or``, ``!v ||``,
    ``not v or``, ``k not in d or``."""
    clause = clause.strip()
    if m := re.match(r"!\s*[\w$.]+\.\w+\s*\((?P<k>[^()]*)\)", clause):
        return m.group("k").strip()
    if m := re.match(r"(?P<v>.+?)\s*(?:===?|\bis)\s*(?:null|undefined|None|nil)\b", clause):
        return m.group("v")
    if m := re.match(r"(?P<k>\S+)\s+not\s+in\b", clause):
        return m.group("k")
    if m := re.match(r"(?:!|not\s+)\s*(?P<v>[^|\s]+)", clause):
        return m.group("v")
    return ""


def absent_let_through(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """("lets a missing value through the check …", classic) where a comparison comes back with an alternative before it
    that holds when the compared value is absent."""
    new, old = edited_sides(added, removed)
    olds = {_squeezed(line): line for line in old if re.search(r"===?|!==?|\bis\b|\bin\b", line)}
    for line in new if olds else ():
        for m in _ABSENT_RE.finditer(line):
            was = olds.get(_squeezed(line[:m.start()] + line[m.end():]))
            # The value found absent is the one compared after (kubectx's ``!ok || new == ""`` adds a refusal of another value).
            subject = _absent_subject(m.group(0))
            if was is not None and subject and subject in line[m.end():]:
                clause = " ".join(m.group(0).split())
                return (f"lets a missing value through the check ({clause} …: absent, it is never compared): {paired_quote(was, line)}",
                        bool(_CLASSIC_RE.search(line)))
    return None


# ----- an else left nothing by the branches before it
_IF_NOT_RE = re.compile(r"^(?P<at>\s*)if\s+not\s+(?P<x>[\w.]+(?:\([^()]*\))?)\s*:\s*$|^(?P<at2>\s*)if\s*\(\s*!\s*(?P<x2>[\w$.]+(?:\([^()]*\))?)\s*\)\s*\{\s*$")
_REFUSE_RE = re.compile(r"^\s*(?:raise|throw|panic!?|abort|return\s+(?:err|Err|error|false|False|nil,\s*\w*[Ee]rr))\b")
_WINDOW = 12


def refusal_unreachable(added: Sequence[str]) -> tuple[str, bool] | None:
    """("makes a refusal unreachable …", classic) where ``if not x`` / ``elif x`` (``if (!x)`` / ``else if (x)``) are
    followed by an ``else`` that refuses: nothing is left for it."""
    lines = list(added[:4000])
    for i, line in enumerate(lines):
        m = _IF_NOT_RE.match(line) if "if" in line and ("not" in line or "!" in line) else None
        if m is None:
            continue
        at, x = (m.group("at"), m.group("x")) if m.group("x") else (m.group("at2"), m.group("x2"))
        python = m.group("x") is not None
        again = (re.compile(rf"^{at}elif\s+{re.escape(x)}\s*:\s*$") if python else
                 re.compile(rf"^{at}\}}\s*else\s+if\s*\(\s*{re.escape(x)}\s*\)\s*\{{\s*$"))
        otherwise = re.compile(rf"^{at}else\s*:\s*$") if python else re.compile(rf"^{at}\}}\s*else\s*\{{\s*$")
        j = next((j for j in range(i + 1, min(i + _WINDOW, len(lines))) if again.match(lines[j])), None)
        k = next((k for k in range(j + 1, min(j + _WINDOW, len(lines))) if otherwise.match(lines[k])), None) if j else None
        if k is not None and k + 1 < len(lines) and _REFUSE_RE.match(lines[k + 1]):
            refusal = lines[k + 1].strip()
            return (f"makes a refusal unreachable (if not {x} / elif {x} leave the else nothing): {cut_quote(refusal)}",
                    bool(re.search(r"(?i)invalid|secret|key|sign|verif|auth|permission|denied|forbidden|trust|unsafe", refusal)))
    return None


# ----- a required default made optional
_DEFAULT_RE = re.compile(r"(?P<name>\b\w*(?:[Dd]efault|DEFAULT|[Pp]olicy|POLICY|[Mm]ode|MODE|[Ll]evel|LEVEL)\w*)\s*(?::?=|:|=>)\s*['\"]?(?P<value>[\w.-]+)")
_REQUIRED_RE = re.compile(r"(?i)(?:^|[._-])(?:require[ds]?|strict|enforced?|mandatory|verify[_-]full|verify[_-]ca|reject|deny)$")
_OPTIONAL_RE = re.compile(r"(?i)(?:^|[._-])(?:use|optional|allow|permissive|ignore|skip|lax|none|off|disabled?|prefer|accept|warn)$")


def default_made_optional(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"turns a default from required to optional (…: REQUIRE → USE) …" where a default's, a policy's or a mode's value
    comes back as one that lets what it required be left out."""
    new, old = edited_sides(added, removed)
    olds = {m.group("name"): (m.group("value"), line) for line in old if (m := _DEFAULT_RE.search(line)) and _REQUIRED_RE.search(m.group("value"))}
    for line in new if olds else ():
        m = _DEFAULT_RE.search(line)
        if m and (was := olds.get(m.group("name"))) and _OPTIONAL_RE.search(m.group("value")):
            return f"turns a default from required to optional ({m.group('name')}: {was[0]} → {m.group('value')}): {paired_quote(was[1], line)}"
    return None


_COMMENT_RE = re.compile(r"^\s*(?://+|#|\*|--|/\*)")
_SAYS_DEFAULT_RE = re.compile(r"(?i)\bdefaults?\s+(?:to|is)\s+`?(?P<said>[A-Za-z_][\w.]*)")
_DECLARED_RE = re.compile(r"^\s*(?:(?:var|const|let|static|final|pub|public|private)\s+)*(?P<name>[A-Za-z_]\w*)\s*(?::\s*[\w.\[\]<>]+\s*)?(?::?=)\s*"
                          r"['\"]?(?P<value>[A-Za-z_][\w.-]*)['\"]?\s*;?\s*$")


def says_default(comment: str) -> bool:
    """Whether a comment line says what something defaults to: kept for the rules (relay.review.file_kinds drops the
    other comment lines), so ``default_unlike_comment`` reads it beside the declaration under it."""
    # Only a constant's name (``REQUIRE``): a sentence's "defaults to the empty string" is prose, and a kept comment line is
    # read by the other rules too (round 82's dev run: ruby/json's "#   defaults to the empty \String" read as code).
    return "efault" in comment and any(m.group("said").isupper() and len(m.group("said")) >= 3 for m in _SAYS_DEFAULT_RE.finditer(comment))


def default_unlike_comment(added: Sequence[str]) -> tuple[str, bool] | None:
    """("sets a default other than its comment says …", classic) for a new declaration whose comment block, written with
    it, says it defaults to another value."""
    lines = list(added[:4000])
    for i, line in enumerate(lines):
        m = _DECLARED_RE.match(line) if "=" in line and i and _COMMENT_RE.match(lines[i - 1]) else None
        if m is None:
            continue
        j = i
        while j > 0 and i - j < 30 and _COMMENT_RE.match(lines[j - 1]):
            j -= 1
        value = m.group("value").rsplit(".", 1)[-1]
        for said in (s.group("said").rsplit(".", 1)[-1] for c in lines[j:i] for s in _SAYS_DEFAULT_RE.finditer(c)):
            if said != value and said.lower() not in ("a", "an", "the", "none", "nothing", "whatever") and said.isupper() == value.isupper():
                return (f"sets a default other than its comment says (comment: {said}; code: {value}): {cut_quote(line.strip())}",
                        bool(_REQUIRED_RE.search(said) and _OPTIONAL_RE.search(value)))
    return None


# ----- a field's validation rule turned from required to optional, the rest of the rule kept
# Laravel's ``'current_password' => ['required', …]`` → ``['sometimes', …]`` (blind 137's fortify: a password change that
# needs no current password), Joi's and zod's ``.required()`` → ``.optional()``, a schema's ``required: true`` → ``false``.
_REQUIRED_WORD_RE = re.compile(r"(?<![\w-])required(?![\w-])(?:\s*:\s*true\b)?")
_OPTIONAL_WORD_RE = re.compile(r"(?<![\w-])(?:sometimes|nullable|optional|required\s*:\s*false\b)(?![\w-])")
_PAIRED = 200


def rule_made_optional(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    olds = {_squeezed(_REQUIRED_WORD_RE.sub("\0", line, count=1)): line for line in removed[:_PAIRED]
            if len(line) <= _LONG and _REQUIRED_WORD_RE.search(line)}
    for line in added[:_PAIRED] if olds else ():
        if len(line) <= _LONG and (m := _OPTIONAL_WORD_RE.search(line)) and not _REQUIRED_WORD_RE.search(line) \
                and (old := olds.get(_squeezed(_OPTIONAL_WORD_RE.sub("\0", line, count=1)))):
            classic = _CLASSIC_RE.search(line) is not None
            return (f"makes a {'security ' if classic else ''}field's validation optional (required → {m.group().split(':')[0].strip()}: "
                    f"a request without it passes): {paired_quote(old, line)}", classic)
    return None


# ----- a default turned to the side that switches a protection off
# ``$options['report_only'] ?? false`` → ``?? true`` (blind 138's NelmioSecurityBundle: a cross-origin policy reported,
# no longer enforced, unless configured), ``get("skip_verify", False)`` → ``True``.
_OFF_WHEN_TRUE_RE = re.compile(r"(?i)report_?only|insecure|bypass|no_?verify|permissive|unsafe|allow_?(?:all|any|insecure|http|unsigned)|trust_?all|"
                               r"(?:skip|disable)_?(?:verif\w*|tls|ssl|auth\w*|csrf|xsrf|signature\w*|validation|security|cert\w*|hostname)")
_FALSE_TRUE_RE = re.compile(r"(?<![\w.$])(?:false|False|FALSE)(?![\w.])")


def unsafe_default_on(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {_squeezed(_FALSE_TRUE_RE.sub("\0", line, count=1)): line for line in removed[:_PAIRED]
            if len(line) <= _LONG and _FALSE_TRUE_RE.search(line) and _OFF_WHEN_TRUE_RE.search(line)}
    for line in added[:_PAIRED] if olds else ():
        if len(line) <= _LONG and (m := re.search(r"(?<![\w.$])(?:true|True|TRUE)(?![\w.])", line)) and not _FALSE_TRUE_RE.search(line):
            old = olds.get(_squeezed(line[:m.start()] + "\0" + line[m.end():]))
            key = _OFF_WHEN_TRUE_RE.search(line)
            if old is not None and key is not None:
                return f"turns a protection's switch to off by default ({key.group()}: false → true): {paired_quote(old, line)}"
    return None


# The same default written in new code: ``$options['report_only'] ?? true`` (blind 138's plant sat in the commit's new
# listener), ``opts.skipVerify || true``, ``get("insecure", True)``, ``getOrDefault("disable_csrf", true)``: worth a look.
# Read after each switch's name (no pattern that backtracks over a long line's words before it).
_OR_TRUE_AFTER_RE = re.compile(r"[\w'\"\]]*\s*(?:\?\?|\|\|)\s*true\b", re.I)
_ARG_TRUE_AFTER_RE = re.compile(r"[\w'\"]*\s*,\s*(?:true|True)\s*\)")
_GETTER_BEFORE_RE = re.compile(r"\b(?:get|fetch|getOrDefault|get_or|pop|getattr)\s*\(\s*[^,()]*$")


def unsafe_default_new(added: Sequence[str]) -> str | None:
    for line in added[:_PAIRED * 4]:
        if len(line) > _LONG or _COMMENT_RE.match(line) or "rue" not in line:
            continue
        for m in _OFF_WHEN_TRUE_RE.finditer(line):
            after = line[m.end():]
            if _OR_TRUE_AFTER_RE.match(after) or (_ARG_TRUE_AFTER_RE.match(after) and _GETTER_BEFORE_RE.search(line[:m.start()])):
                name = re.search(r"\w*$", line[:m.start()]).group() + m.group() + re.match(r"\w*", after).group()  # type: ignore[union-attr]
                return f"defaults a protection's switch to off ({name} defaults to true): {cut_quote(line.strip())}"
    return None


def check_slip(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these slips the edit makes (see the module's doc), with whether it is classic (high)."""
    if (found := default_made_optional(added, removed) or unsafe_default_on(added, removed)) is not None:
        return found, True
    return (rule_made_optional(added, removed) or absent_let_through(added, removed) or refusal_unreachable(added) or default_unlike_comment(added)
            or ((flipped, False) if (flipped := predicate_flipped(added, removed)) else None)
            or ((fresh, False) if (fresh := unsafe_default_new(added)) else None))
