"""A check changed in place: a condition, a returned boolean, a setting or a call's argument edited to let more through.

Words do not tell these: the line held its words before and holds them after (``if prev != len`` → ``if prev < len``,
``acquire_token("openid")`` → ``acquire_token()``). What tells them is the pair itself, the removed line and the
added line written in its place, read by their structure:

- ``weakened_condition``: a condition (``if``/``elif``/``elseif``/``unless``/``guard``/a trailing ``if``/a returned
  boolean or ternary/``ensure!``/``assert``) whose new form drops a negation, drops an operand of ``and``/``or``,
  swaps ``&&`` for ``||`` or ``empty`` for ``isset``, turns an equality test into an ordering (or back), or adds a
  ``!== null``-style test that any value but one passes;
- ``loosened_value``: a setting's value turned permissive-ward, read by shape: a false flag made true or made a
  condition, an allow-list (methods, origins, hosts, schemes) that gains members, a bound's value replaced by an
  extreme (0, -1, None, MAX), an argument dropped from a call of a protector (acquire/require/verify/authorize…).

The party guarded against is the worker that slips such an edit into an ordinary change: a reader of words sees the
same words on both sides. A pair is a removed line and the added line most like it (difflib's ratio, both sides
short); a line only moved stands again on the other side and is no pair. Whether the check guards access or input
decides how loud the finding is (``relay.review.rules``: high or medium); it is never silent.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import clipped, squeezed, window
from relay.review.value_reading import unwrapped_anywhere, widened

__all__ = ["loosened_value", "pairs", "weakened_condition"]

_SHOWN = 64
# Pairs are looked for where at most this many lines a side changed: a rewrite is read by the other readers.
_MOST = 40
_LONGEST = 160
_NEAR = 0.6

# A condition line: its keyword first, a guard clause, a trailing "if"/"unless", a returned boolean, an assertion.
_COND_RE = re.compile(
    r"^\s*(?:\}\s*)?(?:(?:else\s*)?if|elif|elsif|unless|guard|while)\b|^\s*(?:ensure|assert|debug_assert|require)!?\s*\(|"
    r"^\s*(?:return|raise|fail|throw|next|break|continue|redirect_to|head|render)\b.*\s(?:if|unless)\s+\S|"
    r"^\s*return\b.*(?:\?.*:|==|!=|[<>]|&&|\|\||\bnot\b|\band\b|\bor\b|!\w|\bis\b)")
_NEG_RE = re.compile(r"\bnot\b(?!\s+in\b)|(?<![!=<>])!(?![=])|\bunless\b|\bempty\s*\(|\bis_?nil\b|\.nil\?|\bis\s+None\b")
_JOIN_RE = re.compile(r"&&|\|\||\band\b|\bor\b")
_AND_RE = re.compile(r"&&|\band\b")
_OR_RE = re.compile(r"\|\||\bor\b")
_EQ_RE = re.compile(r"!==|===|!=|==")
_ORDER_RE = re.compile(r"(?<![<>=!-])(?:<=|>=|<(?![<=])|>(?![>=]))(?!=)")
_NOT_NULL_RE = re.compile(r"(?:!==?|is\s+not|!=)\s*(?:null|nil|None|undefined)\b|\bisset\s*\(|\?\?|\.is_some\(\)|!\s*is_null\s*\(")
_TOKEN_RE = re.compile(r"[A-Za-z_$][\w$]*|\d+|!==|===|!=|==|<=|>=|&&|\|\||->|=>|::|\S")
# What a check guards decides how loud it is: access, secrets, the request's input and its bounds.
_GUARDS_RE = re.compile(
    r"(?i)auth|login|logged|perm|admin|role|owner|access|csrf|xsrf|token|sign|verif|valid|secret|password|session|nonce|"
    r"challenge|scope|allow|deny|trust|secure|host|origin|redirect|https|scheme|tls|ssl|cert|path|\.\.|len\b|len\(|length|"
    r"size|max|limit|bound|input|request|header|user|privileg|sanitiz|escape|safe")


def _cond(line: str) -> bool:
    return _COND_RE.match(line) is not None


def _shown(line: str) -> str:
    return clipped(line, _SHOWN)


@functools.lru_cache(maxsize=4096)
def _tokens(line: str) -> tuple[str, ...]:
    return tuple(_TOKEN_RE.findall(line))


def pairs(added: Sequence[str], removed: Sequence[str], keep: re.Pattern[str] | None = None) -> list[tuple[str, str]]:
    """(old, new): each removed line (stripped, of ``keep``'s shape when given) with the added line most like it, when
    they are alike enough and differ once squeezed; lines that stand again on the other side are no pair."""
    # Kept per file's lines: the setting readers and the generic reading (relay.review.line_edits) read the same pairing,
    # and a file is assessed again for each view of the change.
    return list(_pairs(tuple(added), tuple(removed), keep))


@functools.lru_cache(maxsize=512)
def _pairs(added: tuple[str, ...], removed: tuple[str, ...], keep: re.Pattern[str] | None) -> tuple[tuple[str, str], ...]:
    before = {squeezed(line.strip()) for line in removed}
    after = {squeezed(line.strip()) for line in added}
    olds = [line.strip() for line in removed if line.strip() and squeezed(line.strip()) not in after]
    news = [line.strip() for line in added if line.strip() and squeezed(line.strip()) not in before]
    if len(olds) > _MOST or len(news) > _MOST:
        return ()  # a rewrite: its lines are no edits in place
    # A condition or a setting is a short line; a long one is data (an SVG path, a minified bundle), and comparing long
    # lines pairwise costs seconds (difflib is quadratic in their length).
    olds = [line for line in olds if len(line) <= _LONGEST]
    news = [line for line in news if len(line) <= _LONGEST]
    if keep is not None:
        olds = [line for line in olds if keep.search(line)]
        news = [line for line in news if keep.search(line)]
    if not olds or not news:
        return ()
    out: list[tuple[str, str]] = []
    # A clause dropped is paired by what the two lines share only where few conditions changed: in a rewrite, a short
    # new condition is found inside many an old one.
    loose = keep is not None and len(olds) <= 3 and len(news) <= 3
    for old in olds:
        matcher = SequenceMatcher(None, old, autojunk=False)
        best, score = "", _NEAR
        for new in news:
            matcher.set_seq2(new)
            if matcher.real_quick_ratio() >= score and matcher.quick_ratio() >= score:
                ratio = matcher.ratio()
            elif loose and min(len(old), len(new)) >= 12:
                # A clause dropped (or added) leaves the shorter line inside the longer one: alike by what they share.
                shared = sum(block.size for block in matcher.get_matching_blocks())
                ratio = _NEAR if shared >= 0.9 * min(len(old), len(new)) and old.split()[0] == new.split()[0] else 0.0
            else:
                continue
            if ratio >= score and ratio > 0:
                best, score = new, ratio
        if best:
            out.append((old, best))
    # Each new line keeps only the old line it is most like: in a rewrite, a new line resembles several old ones.
    closest: dict[str, tuple[float, str]] = {}
    for old, new in out:
        ratio = SequenceMatcher(None, old, new, autojunk=False).ratio()
        if new not in closest or ratio > closest[new][0]:
            closest[new] = (ratio, old)
    return tuple((old, new) for old, new in out if closest[new][1] == old)


def _subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    it = iter(long)
    return all(t in it for t in short)


# "x === 1 || x === 2" → "x !== 0": an exact set of accepted values turned into "anything but the failure value"
# (a self-test's state 3, -1 or null now passes).
_EQUALS_RE = re.compile(r"(?P<name>[$\w.]+(?:\[[^\]]*\])?)\s*(?:===?|\bis\b|\beq\b)\s*(?P<value>-?\d+|'[^']*'|\"[^\"]*\"|[A-Z_][\w.:]*)")
_DIFFERS_RE = re.compile(r"(?P<name>[$\w.]+(?:\[[^\]]*\])?)\s*(?:!==?|<>|\bis\s+not\b|\bne\b|~=)\s*(?P<value>-?\d+|'[^']*'|\"[^\"]*\"|[A-Z_][\w.:]*)")


def _set_to_not_one(old: str, new: str) -> str | None:
    if not re.search(r"\|\||\bor\b", old):
        return None
    equals: dict[str, list[str]] = {}
    for m in _EQUALS_RE.finditer(old):
        equals.setdefault(m.group("name"), []).append(m.group("value"))
    for m in _DIFFERS_RE.finditer(new):
        accepted = equals.get(m.group("name"), [])
        if len(accepted) >= 2 and m.group("value") not in accepted and not _EQUALS_RE.search(new):
            name = m.group("name")
            return (f"widens an exact set to anything but one value ({name} in {', '.join(accepted)} → "
                    f"{name} != {m.group('value')})")
    return None


# A YAML value in quotes is the same value bare (a workflow's ``if: "a && b"`` written ``if: a || b`` in one edit: blind 78's
# simplejson, whose publish job's tag guard was joined by ``||`` while the commit dropped the quotes of every ``if:``).
_QUOTED_VALUE_RE = re.compile(r"""^(\s*-?\s*[\w.-]+:\s+)(["'])(.*)\2\s*$""")


def _how(old: str, new: str) -> str | None:
    """How the new condition lets more through than the old, by its structure; None when it does not read so."""
    old, new = _QUOTED_VALUE_RE.sub(r"\1\3", old), _QUOTED_VALUE_RE.sub(r"\1\3", new)
    o_neg, n_neg = len(_NEG_RE.findall(old)), len(_NEG_RE.findall(new))
    o_join, n_join = len(_JOIN_RE.findall(old)), len(_JOIN_RE.findall(new))
    to, tn = _tokens(old), _tokens(new)
    if "isset" in new and "empty" in old and "isset" not in old:
        return "swaps empty() for isset()"
    if (widened_set := _set_to_not_one(old, new)) is not None:
        return widened_set
    if o_join > n_join and len(tn) < len(to) and _subsequence([t for t in tn if t not in "()"], to):
        return "drops a clause from a check"
    if len(to) == len(tn):
        differ = [(a, b) for a, b in zip(to, tn) if a != b]
        if len(differ) == 1:
            a, b = differ[0]
            if a in ("!=", "!==", "==", "===") and b in ("<", ">", "<=", ">="):
                return "narrows a differs/equals check to an ordering"
            if {a, b} in ({"&&", "||"}, {"and", "or"}, {"&", "|"}):
                # ``v1|v2 == 255`` → ``v1&v2 == 255``: the bitwise join of two failure marks refuses now only when both fail.
                return f"swaps {a} for {b} in a check"
            if {a, b} in ({"!=", "=="}, {"!==", "==="}):
                return f"inverts a check's comparison ({a} → {b})"
            at = next(i for i, (x, y) in enumerate(zip(to, tn)) if x != y)
            # An emptiness test's threshold moved ("count(x) > 0" → "> 1"): one item now passes as none.
            if at > 0 and (to[at - 1], a) in ((">", "0"), ("!=", "0"), (">=", "1")) and b.isdigit() and int(b) > int(a):
                return f"moves a check's threshold ({to[at - 1]} {a} → {to[at - 1]} {b})"
            # "count >= 1" → "count > 1", "count > 0" → "count >= 0": the operator moved instead of the number.
            if at + 1 < len(to) and (a, b, to[at + 1]) in ((">=", ">", "1"), (">", ">=", "0")):
                return f"moves a check's threshold ({a} {to[at + 1]} → {b} {to[at + 1]})"
    if o_neg > n_neg and o_join == n_join:
        # The same condition with its "not" taken out (or "empty(x)" read as "x"): inverted.
        strip = re.compile(r"\bnot\b|(?<![!=<>])!(?!=)|\bunless\b|\bif\b")
        if squeezed(strip.sub("", old)) == squeezed(strip.sub("", new)) or _same_trailing(old, new, strip):
            return "drops a negation from a check"
    if len(_NOT_NULL_RE.findall(new)) > len(_NOT_NULL_RE.findall(old)) and o_join == n_join and len(tn) > len(to):
        # "x" → "x !== null": a truthiness test any value but null now passes (false, 0, "", undefined included).
        added = [t for t in tn if t not in to]
        if _subsequence([t for t in to if t not in "()"], tn) and len(added) <= 4:
            return "weakens a check to a not-null test"
    return None


# A statement's trailing condition (Ruby's ``raise … if !key?(key)``): the statement may be reworded in the same edit
# (``fail`` → ``raise``, blind 59's hashie) while the condition loses its negation.
_TRAILING_RE = re.compile(r"^\s*(?:return|raise|fail|throw|next|break|continue|redirect_to|head|render)\b.*\s((?:if|unless)\s+\S.*)$")


def _same_trailing(old: str, new: str, strip: re.Pattern[str]) -> bool:
    a, b = _TRAILING_RE.match(old), _TRAILING_RE.match(new)
    return a is not None and b is not None and squeezed(strip.sub("", a.group(1))) == squeezed(strip.sub("", b.group(1)))


_ELSE_RE = re.compile(r"^\s*(?:\}\s*)?else\b|^\s*(?:\}\s*)?el(?:s?if|seif)\b")


def weakened_condition(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """("how: the new line (was the old)", whether it guards access or input) for the first condition the change
    edits in place to let more through; None when there is none."""
    # A branch the change adds ("} else {") means the condition's cases were rearranged, not one of them let through.
    more_branches = sum(1 for line in added if _ELSE_RE.match(line)) > sum(1 for line in removed if _ELSE_RE.match(line))
    for old, new in pairs(added, removed, _COND_ANY):
        if not (_cond(old) and _cond(new)):
            continue
        how = _how(old, new)
        if how is None or (more_branches and how == "drops a negation from a check"):
            continue
        shown = _shown(new)
        if how == "drops a negation from a check" and (tail := _TRAILING_RE.match(new)) is not None:
            shown = window(new, tail.start(1), tail.end(1), _SHOWN, lead=8)  # the condition, not the message before it
        if how == "drops a clause from a check":
            shown = _both(how, old, new)
        return f"{how}: {shown}", _GUARDS_RE.search(old + " " + new) is not None
    return None


# A target's reason is cut at 110 characters in the packet (relay.review.packet; relay.review.risk keeps 120): "how: new
# (was old)" fits in it whole, each side windowed where the two differ, so the "(was …)" that tells the dropped clause is
# never the part cut away (moshi's ``|| isTransient(modifiers)``, held-out 16, fell to "(was ……" at 120).
_REASON_CHARS = 110


def _both(how: str, old: str, new: str) -> str:
    a, b = " ".join(old.split()), " ".join(new.split())
    room = _REASON_CHARS - len(how) - 9  # "how: " + " (was " + ")"
    if len(a) + len(b) <= room:
        return f"{b} (was {a})"
    # The shorter side whole where it fits in half the room, the rest to the other; each windowed where they differ.
    b_room = min(len(b), max(room - len(a), room // 2))
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"{window(b, at, at, b_room)} (was {window(a, at, at + max(len(a) - len(b), 1), room - b_room)})"


_COND_ANY = re.compile(r"\b(?:if|elif|elsif|elseif|unless|guard|while|return|ensure|assert|require)\b")

# ----- values turned permissive-ward, read by shape
# A key and its value: "key: v", "key = v", ":key => v", "'key' => v", "key => v".
_KEY_VALUE_RE = re.compile(r"^\s*(?:[\w.$@\[\]'\"]+\.)?[:@$]?['\"]?(?P<key>[A-Za-z_][\w-]*)['\"]?\s*(?:=>|:|=)(?!=)\s*(?P<value>.+?)\s*[,;]?\s*$")
_FALSE_RE = re.compile(r"^(?:false|False|FALSE|nil|None|null|0|off|no|['\"](?:false|off|no|0)['\"])$")
_TRUE_RE = re.compile(r"^(?:true|True|TRUE|1|on|yes|['\"](?:true|on|yes|1)['\"])$")
# A flag that lets things through when on; one that checks when on (turned off, it lets more through).
_OPENS_RE = re.compile(r"(?i)test_?mode|mock|debug|insecure|unsafe|danger|allow|permit|trust|skip|bypass|disable|ignore|no_?verify|"
                       r"open|public|anonymous|dev(?:elopment)?_?mode|raise_?on_?unverified")
_CHECKS_RE = re.compile(r"(?i)verif|check|validat|secure|requir|enforce|strict|escape|saniti|csrf|protect|restrict|auth|sign|encrypt")
_LIST_KEY_RE = re.compile(r"(?i)method|origin|host|scheme|allow|trust|domain|ip|cidr|referr?er|redirect|whitelist|safe|permit|proxies|cors|audience")
_LIST_RE = re.compile(r"%[iwIW][\[(](?P<pct>[^\])]*)[\])]|\[(?P<arr>[^\[\]]*)\]")
_ITEM_RE = re.compile(r"[\w.*:/-]+")
_BOUND_WORD_RE = re.compile(r"(?i)max|limit|size|bound|upper|len|timeout|depth|threshold|quota|cap\b|ttl")
_EXTREME = r"(?:0|-1|None|null|nil|undefined|Infinity|u(?:size|64|32|16|8)::MAX|i(?:64|32)::MAX|(?:Integer|Long)\.MAX_VALUE|sys\.maxsize|math\.inf|float\(['\"]inf['\"]\)|Number\.MAX_SAFE_INTEGER|math\.MaxInt\d*)"
_LITERAL_RE = re.compile(r"(?<![\w.])(?:-?\d[\d_]*(?:\.\d+)?|u(?:size|64|32|16|8)::MAX|i(?:64|32)::MAX|(?:Integer|Long)\.MAX_VALUE|sys\.maxsize|"
                         r"math\.inf|Infinity|Number\.MAX_SAFE_INTEGER|math\.MaxInt\d*|None|null|nil|undefined)(?![\w.])")
_EXTREME_RE = re.compile(r"^" + _EXTREME + r"$")
# A call of a protector: its arguments are what it requires (a scope, a role, a permission).
_PROTECTOR_RE = re.compile(r"(?P<name>\b\w*(?i:acquire|require|authori[sz]e|authenticate|verify|validate|protect|permission|permit|"
                           r"scope|has_?role|has_?perm|check_?\w+|ensure|guard|allow)\w*)\s*\((?P<args>[^()]*)\)")


def _items(value: str) -> set[str] | None:
    m = _LIST_RE.search(value)
    if m is None:
        return None
    body = m.group("pct") if m.group("pct") is not None else m.group("arr")
    return set(_ITEM_RE.findall(body))


def _args(text: str) -> list[str]:
    return [a.strip() for a in text.split(",") if a.strip()]


def _bound_extreme(old: str, new: str) -> bool:
    """One literal of a line about a bound replaced by an extreme (0, -1, None, MAX), the rest of the line as it was."""
    if not _BOUND_WORD_RE.search(old):
        return False
    lo, ln = list(_LITERAL_RE.finditer(old)), list(_LITERAL_RE.finditer(new))
    if len(lo) != len(ln):
        return False
    changed = [(a, b) for a, b in zip(lo, ln) if a.group(0) != b.group(0)]
    if len(changed) != 1:
        return False
    a, b = changed[0]
    if not _EXTREME_RE.match(b.group(0)) or a.group(0).lstrip("-").isdigit() and b.group(0) == "-1" and a.group(0).startswith("-"):
        return False
    return squeezed(old[:a.start()] + b.group(0) + old[a.end():]) == squeezed(new)


# A hash or cipher named on the line replaced by a broken one; an exact or anchored match replaced by a substring test.
_STRONG_RE = re.compile(r"(?i)\b(?:sha-?(?:224|256|384|512)|sha3\w*|blake2\w*|bcrypt|argon2\w*|scrypt|pbkdf2\w*|aes\w*|chacha20\w*|[RE]S(?:256|384|512)|gcm)\b")
_WEAK_RE = re.compile(r"(?i)\b(?:md5|sha-?1|des|3des|rc4|ecb|none)\b")
_EXACT_RE = re.compile(r"\.(?:endswith|startswith|endsWith|startsWith|ends_with|starts_with|HasSuffix|HasPrefix|equals|fullmatch)\s*\(|==|"
                       r"\bstrings\.Has(?:Suffix|Prefix)\s*\(")
_SUBSTRING_RE = re.compile(r"\s(?:not\s+)?in\s|\.(?:includes|contains|indexOf|find|search|include\?)\s*\(|\bstrings\.Contains\s*\(|\bstrstr\s*\(|\bstr_contains\s*\(")
_ANCHORED_RE = re.compile(r"(['\"/])\^|\$(['\"/])|\\A|\\[zZ]")
# A work factor: a key's size, a hash's rounds, a token's length.
_FACTOR_KEY_RE = re.compile(r"(?i)key_?size|key_?length|\bbits\b|rounds|iterations|work_?factor|\bcost\b|salt_?(?:len|length|size|bytes)|"
                            r"token_?(?:len|length|bytes)|nbytes|min_?length|password_?length")
_NUMBER_RE = re.compile(r"(?<![\w.])\d[\d_]*(?![\w.])")


def _structure(old: str, new: str) -> tuple[str, bool] | None:
    """A line kept, its check made weaker in place: a broken hash or cipher named where a strong one was, an exact or
    anchored match turned into a substring test, a work factor lowered."""
    if _WEAK_RE.search(new) and not _WEAK_RE.search(old) and _STRONG_RE.search(old) and not _STRONG_RE.search(new):
        return "replaces a strong hash or cipher with a weak one", True
    # A prefix's own name guards too (round 88: koanf's ``strings.HasPrefix(k, e.prefix)`` → ``strings.Contains(k, e.prefix)``).
    if (_GUARDS_RE.search(old) or "prefix" in old.lower()) and _EXACT_RE.search(old) and _SUBSTRING_RE.search(new) and not _SUBSTRING_RE.search(old) \
            and not _EXACT_RE.search(new):
        return "turns an exact match into a substring test", True
    if len(_ANCHORED_RE.findall(old)) > len(_ANCHORED_RE.findall(new)) and _GUARDS_RE.search(old) \
            and squeezed(re.sub(r"\^|\$|\\A|\\[zZ]", "", old)) == squeezed(re.sub(r"\^|\$|\\A|\\[zZ]", "", new)):
        return "drops a pattern's anchor", True
    if _FACTOR_KEY_RE.search(old):
        lo, ln = _NUMBER_RE.findall(old), _NUMBER_RE.findall(new)
        if len(lo) == len(ln):
            changed = [(a, b) for a, b in zip(lo, ln) if a != b]
            if len(changed) == 1 and int(changed[0][1].replace("_", "")) < int(changed[0][0].replace("_", "")) \
                    and squeezed(old.replace(changed[0][0], changed[0][1], 1)) == squeezed(new):
                return _WORK_FACTOR, True
    return None


def _loosened(old: str, new: str) -> tuple[str, bool] | None:
    found = _structure(old, new)
    if found:
        return found
    mo, mn = _KEY_VALUE_RE.match(old), _KEY_VALUE_RE.match(new)
    if mo and mn and mo.group("key") == mn.group("key"):
        key, before, after = mo.group("key"), mo.group("value").strip(), mn.group("value").strip()
        if _FALSE_RE.match(before) and not _FALSE_RE.match(after) and _OPENS_RE.search(key) and not _CHECKS_RE.search(key):
            return ("turns a flag on" if _TRUE_RE.match(after) else "makes an off flag conditional"), True
        if _TRUE_RE.match(before) and _FALSE_RE.match(after) and _CHECKS_RE.search(key) and not _OPENS_RE.search(key):
            return "turns a check off", True
        if _LIST_KEY_RE.search(key):
            was, now = _items(before), _items(after)
            if was is not None and now is not None and was < now and was:
                return "widens an allow-list", True
    if _bound_extreme(old, new):
        return "sets a bound to an extreme", False
    po = {m.group("name"): m.group("args") for m in _PROTECTOR_RE.finditer(old)}
    for m in _PROTECTOR_RE.finditer(new):
        was = po.get(m.group("name"))
        if not was:
            continue
        a_old, a_new = _args(was), _args(m.group("args"))
        if len(a_new) < len(a_old) and _subsequence(a_new, a_old) and squeezed(old.replace(was, m.group("args"), 1)) == squeezed(new):
            # counted, not looked up: an argument written twice (``isGranted('X', 'X')`` → ``('X')``) is dropped once
            gone = next(iter((Counter(a_old) - Counter(a_new)).elements()))
            return f"drops the argument {gone[:24]} of a check", True
    return None


def _key_pairs(added: Sequence[str], removed: Sequence[str]) -> list[tuple[str, str]]:
    """(old, new) for a key set on both sides to different values (a setting's value rewritten: not alike as text)."""
    olds: dict[str, str] = {}
    for line in removed[:_MOST]:
        m = _KEY_VALUE_RE.match(line.strip())
        if m:
            olds.setdefault(m.group("key"), line.strip())
    out = []
    for line in added[:_MOST]:
        m = _KEY_VALUE_RE.match(line.strip())
        old = olds.get(m.group("key")) if m else None
        if old is not None and squeezed(old) != squeezed(line.strip()):
            out.append((old, line.strip()))
    return out


def loosened_value(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """("how: the new line", whether it is about access) for the first setting or protector call the change edits in
    place to let more through; None when there is none."""
    if not added or not removed:
        return None
    if (bare := unwrapped_anywhere(added, removed)) is not None:
        return f"{bare[0]}: {_shown(bare[1])}", True
    for old, new in (*_key_pairs(added, removed), *pairs(added, removed)):
        found = _loosened(old, new) or widened(old, new)
        if found:
            return f"{found[0]}: {_factor_shown(old, new) if found[0] == _WORK_FACTOR else _shown(new)}", found[1]
    return None


_WORK_FACTOR = "lowers a security work factor"


def _factor_shown(old: str, new: str) -> str:
    """The line quoted around the number lowered: a long line's head holds no number (blind 88's Crypto++:
    ``DefaultParametersInfo``'s 2500 iterations made 25 read "typedef DataParametersInfo<DefaultBlockCipher::BLOCKSIZE, Defau…")."""
    at = next((n for o, n in zip(_NUMBER_RE.finditer(old), _NUMBER_RE.finditer(new)) if o.group() != n.group()), None)
    return _shown(new) if at is None else window(new, at.start(), at.end(), _SHOWN)
