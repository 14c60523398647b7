"""What a turned check now lets through, said from the line's own parts (issue 36, round 27 part A).

The first runs of held-out 35 and 36 quoted planted lines but said only what turned ("edits a security line (adds &&
…)", "changes an input check", "security-sensitive path (token)", "edit apart from the change"). The words a reader
writes are the consequence. Each reader here reads an edited pair and says it from the names on the line:

- an error check narrowed by an excusing clause (``err != nil && !errors.Is(err, ErrTokenExpired)``, ``and not
  isinstance(e, Expired)``, ``&& !(e instanceof X)``) or an empty handler of one error added (``catch (X) {}``,
  ``except X: pass``, ``rescue X; nil``): "lets an expired token through (ErrTokenExpired no longer fails)";
- an alternative of a rejecting condition dropped, the condition written on one line or several (``if (! $client ||
  ($client->provider !== …))`` → ``if (! $client)``): "no longer rejects when …";
- a checking call's result discarded (``return repo.isRevoked(id)`` → ``repo.isRevoked(id); return false``, ``_ =
  tok.Verify()``, ``await p.Process()`` → ``_ = p.Process()``): "discards the result of isRevoked(): returns false
  whatever it says";
- an early return that gave nothing now gives the value (``if (!remote) return`` → ``if (!remote) return value``):
  "returns value when remote is missing";
- an encoding call replaced by text joined by hand (``URI.encode_query(params)`` → ``Enum.map_join(params, "&", …)``)
  or an escaping call told to escape fewer characters (``addcslashes($s, "'\\\\")`` → ``addcslashes($s, "\\\\")``).

When the consequence cannot be read, nothing is said (the reasons that say what turned stay). The party guarded
against is a worker that slips one such line into an ordinary change. Linear: each reader meets each line of a side a
bounded number of times (at most ``_MOST`` lines a side; a pair costs its length).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rule table's types; facts imports the readers, not the other way
    from relay.review.facts import FileFacts, RiskContext
from relay.review.line_shapes import Screen, clipped

__all__ = ["SCREENS", "escapes_fewer", "turn_consequence"]

_MOST = 200
_LONGEST = 400
_SHOWN = 64
_COMMENT_RE = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


def _quote(line: str) -> str:
    return clipped(line, _SHOWN)


def _article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


# ----- an error check narrowed by an excusing clause, or an empty handler of one error added
_ERRORISH = r"[\w.:\\]*(?:\bErr[A-Z]\w*|\w*(?:Error|Exception|Expired|Invalid|NotFound|Mismatch|Denied|Failure)\w*)(?:\(\))?"
# The clause inserted: ``&& !errors.Is(err, X)``, ``&& err != X``, ``and not isinstance(e, X)``, ``and e is not X``,
# ``&& !(e instanceof X)``, ``&& e !is X``, ``unless e.is_a?(X)``.
_EXCUSE_RE = re.compile(rf"""\s*(?:&&|\band\b|\|\|\s*!?|,)\s*(?:
      !\s*\(?\s*[\w.]*\b(?:Is|As|is|isinstance|is_a\?|instanceof|matches)\s*\(?\s*\w+\s*,\s*(?P<a>{_ERRORISH})
    | \bnot\s+isinstance\s*\(\s*\w+\s*,\s*(?P<b>{_ERRORISH})
    | !\s*\(\s*\w+\s+instanceof\s+(?P<c>{_ERRORISH})
    | \w+\s*(?:!=|!==|\bis\s+not|!is)\s*(?P<d>{_ERRORISH})
    | \w+\.(?:kind|code|type|name)\(?\)?\s*(?:!=|!==)\s*(?P<e>{_ERRORISH})
)""", re.X)
_ERROR_CHECK_RE = re.compile(r"(?i)\berr\w*\b|\be\b|\bex\b|\bexc\b|error|exception|\bis_err\(\)|!\s*ok\b")
_HANDLER_RE = re.compile(rf"""(?x)^\s*\}}?\s*(?:
      catch\s*\(\s*(?P<a>{_ERRORISH})(?:\s+\w+)?\s*\)\s*\{{\s*(?:return\s*;?\s*)?\}}   # catch (X e) {{}}
    | except\s+\(?(?P<b>{_ERRORISH})\)?(?:\s+as\s+\w+)?\s*:\s*(?:pass|continue|\.\.\.)\s*$  # except X: pass
    | rescue\s+(?P<c>{_ERRORISH})(?:\s*=>\s*\w+)?\s*(?:;\s*(?:nil|next|true))?\s*$      # rescue X
    | catch\s*\(\s*(?P<d>{_ERRORISH})(?:\s+\w+)?\s*\)\s*\{{\s*$                          # catch (X e) {{ then }}
    | except\s+\(?(?P<e>{_ERRORISH})\)?(?:\s+as\s+\w+)?\s*:\s*$                          # except X: then pass
)""")
_EMPTY_BODY_RE = re.compile(r"^\s*(?:\}|pass|continue|nil|next|return\s*;?|//.*|#.*)\s*$")
_CAMEL_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_ERROR_WORDS = frozenset({"err", "error", "errors", "exception", "exc"})


def _what_passes(name: str) -> str:
    """``ErrTokenExpired`` → "an expired token"; ``InvalidSignatureError`` → "an invalid signature"; "" when it says
    nothing (``Error``)."""
    last = re.split(r"[.:\\]+", name.rstrip("()"))[-1]
    parts = [p.lower() for p in _CAMEL_RE.findall(last) if p.lower() not in _ERROR_WORDS]
    if not parts:
        return ""
    if len(parts) >= 2 and parts[-1].endswith("ed"):
        parts = [parts[-1], *parts[:-1]]
    return _article(" ".join(parts[:4]))


def _excused(name: str) -> str:
    short = re.split(r"[.:\\]+", name.rstrip("()"))[-1]
    passes = _what_passes(short)
    return f"lets {passes} through ({short} no longer fails)" if passes else f"excuses {short} (it no longer fails)"


def _excuse_added(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {" ".join(old.split()) for old in removed if _ERROR_CHECK_RE.search(old) and len(old) <= _LONGEST}
    for new in added:
        if len(new) > _LONGEST or _COMMENT_RE.match(new):
            continue
        line = " ".join(new.split())
        if olds:
            for m in re.finditer(r"\s*(?:&&|\band\b|\|\|)", line):
                clause = _EXCUSE_RE.match(line, m.start())
                if not clause:
                    continue
                # the line less the clause stood before (the clause is all the edit added), its parentheses closed
                end, depth = clause.end(), line.count("(", m.start(), clause.end()) - line.count(")", m.start(), clause.end())
                while depth > 0 and end < len(line):
                    depth += (line[end] == "(") - (line[end] == ")")
                    end += 1
                if (line[:m.start()] + line[end:]).strip() in olds:
                    name = next(g for g in clause.groups() if g)
                    start = max(line.rfind(";", 0, m.start()) + 1, 0)
                    return f"{_excused(name)}: {clipped(line[start:end], _SHOWN)}"
    return None


def _handler_added(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {" ".join(old.split()) for old in removed}
    for i, new in enumerate(added):
        if not (m := _HANDLER_RE.match(new)) or " ".join(new.split()) in before:
            continue
        if (m.group("d") or m.group("e")) and not (i + 1 < len(added) and _EMPTY_BODY_RE.match(added[i + 1])):
            continue  # a handler whose body does something is not an excuse
        name = next(g for g in m.groups() if g)
        return f"{_excused(name)}: {_quote(new)}"
    return None


# ----- an alternative of a rejecting condition dropped (one line or several)
_OPENS_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else\s+if|unless|guard|while)\b")
_ABSENT_RE = re.compile(r"""^\s*\(?\s*(?:!\s*[\w$.>-]+|not\s+[\w.]+|[\w$.>-]+\s*(?:===?\s*(?:nil|null|None|undefined)|is\s+None)|
                            (?:empty|is_null|isset)\s*\(|[\w$.>-]+\.(?:nil\?|blank\?|empty\?|isEmpty\(\)|IsZero\(\)))""", re.X)
_OR_RE = re.compile(r"\s*(?:\|\||\bor\b)\s*")


def _conditions(lines: Sequence[str]) -> list[str]:
    """Each condition the side writes, a condition written on several lines joined into one."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not _OPENS_RE.match(line) or len(line) > _LONGEST:
            i += 1
            continue
        text, depth, j = line.strip(), line.count("(") - line.count(")"), i
        while (depth > 0 or re.search(r"(?:\|\||&&|\bor|\band)\s*$", text)) and j + 1 < len(lines) and j - i < 6:
            j += 1
            text += " " + lines[j].strip()
            depth += lines[j].count("(") - lines[j].count(")")
        out.append(" ".join(text.split()))
        i = j + 1
    return out


def _strip_ends(cond: str) -> str:
    return re.sub(r"\s*(?:\{|:|\bthen|\bdo)\s*$", "", cond)


def _alternatives(body: str) -> list[str] | None:
    """The alternatives ``a || b || c`` at the outermost depth of a condition's body, or None when it is not one."""
    parts, depth, start, k = [], 0, 0, 0
    while k < len(body):
        ch = body[k]
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and (m := _OR_RE.match(body, k)) and m.group().strip() and (body[k:k + 2] == "||" or (k and not body[k - 1].isalnum())):
            parts.append(body[start:k].strip())
            start = k = m.end()
            continue
        k += 1
    parts.append(body[start:].strip())
    return parts if len(parts) > 1 else None


def _unwrapped(text: str) -> str:
    """``(a && b)`` → ``a && b``: the parentheses that wrap the whole text dropped, others kept."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _alternatives_depth_ok(text[1:-1]):
        text = text[1:-1].strip()
    return text


def _alternatives_depth_ok(inner: str) -> bool:
    depth = 0
    for ch in inner:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _body(cond: str) -> tuple[str, str] | None:
    m = re.match(r"^((?:\}\s*)?(?:if|elif|elsif|else\s+if|unless|guard|while)\b\s*)(.*)$", _strip_ends(cond))
    if not m:
        return None
    head, body = m.groups()
    if body.startswith("(") and body.endswith(")"):
        depth = 0
        for k, ch in enumerate(body):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and k < len(body) - 1:
                break
        else:
            body = body[1:-1].strip()
    return head.strip(), body


def _rejection_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [(cond, parsed) for cond in _conditions(removed) if (parsed := _body(cond)) and _alternatives(parsed[1])]
    if not olds:
        return None
    for new in _conditions(added):
        parsed = _body(new)
        if not parsed:
            continue
        kept = _alternatives(parsed[1]) or [parsed[1]]
        squeezed = ["".join(k.split()) for k in kept]
        for _, (head, body) in olds:
            if head.split()[0] != parsed[0].split()[0]:
                continue
            was = _alternatives(body) or []
            if len(was) != len(kept) + 1:
                continue
            gone = [w for w in was if "".join(w.split()) not in squeezed]
            if len(gone) != 1 or [w for w in was if w is not gone[0]] != [w for w in was if "".join(w.split()) in squeezed]:
                continue
            if ["".join(w.split()) for w in was if w is not gone[0]] != squeezed:
                continue
            clause = clipped(_unwrapped(gone[0]), 56)
            if head.split()[0] == "unless" or not _ABSENT_RE.match(was[0]):
                continue  # a condition that does not open on a missing value need not reject: what it lets through is not read
            return f"no longer rejects when {clause}: {_quote(new)}"
    return None


# ----- a checking call's result discarded
_CHECKING = r"\w*(?:(?i:verif|valid|check|auth|revok|sign|permi|allow|confirm|compare|match|login|process|save|commit)|is[A-Z_]\w*|has[A-Z_]\w*|can[A-Z_]\w*)\w*"
_USED_RE = re.compile(rf"""(?x)^\s*(?:
      return\s+(?:await\s+|try\s+|!\s*)?(?P<r>[\w$.>:-]*?(?P<rn>{_CHECKING})\s*\()
    | (?:\}}\s*)?(?:if|unless|elif)\s*\(?\s*(?:!|not\s+)?\s*(?:await\s+)?(?P<i>[\w$.>:-]*?(?P<in>{_CHECKING})\s*\()
    | if\s+(?:_,\s*)?err\w*\s*:?=\s*(?P<g>[\w$.>:-]*?(?P<gn>{_CHECKING})\s*\()
    | await\s+(?P<a>[\w$.>:-]*?(?P<an>{_CHECKING})\s*\()
    | (?:let\s+|var\s+|const\s+|\$)?\w+\s*:?=\s*(?:await\s+|try\s+)?(?P<v>[\w$.>:-]*?(?P<vn>{_CHECKING})\s*\()
)""")
_BARE_RE = re.compile(r"^\s*(?:_\s*:?=\s*|let\s+_\s*=\s*|void\s+)?(?P<call>[\w$.>:-]+\s*\(.*\))\s*(?:\.ConfigureAwait\(\w+\))?\s*;?\s*$")
_CONSTANT_RETURN_RE = re.compile(r"^\s*return\s+(?P<v>true|false|True|False|nil|null|None|Ok\(\(\)\)|0|1|\{:ok[^}]*\})\s*;?\s*$")


def _result_discarded(added: Sequence[str], removed: Sequence[str]) -> str | None:
    used: dict[str, tuple[str, str]] = {}
    for old in removed:
        if len(old) <= _LONGEST and (m := _USED_RE.match(old)):
            callee = next(g for g in (m.group("r"), m.group("i"), m.group("g"), m.group("a"), m.group("v")) if g)
            name = next(g for g in (m.group("rn"), m.group("in"), m.group("gn"), m.group("an"), m.group("vn")) if g)
            used.setdefault("".join(callee.split()), (name, old))
    if not used:
        return None
    for i, new in enumerate(added):
        if len(new) > _LONGEST or not (b := _BARE_RE.match(new)):
            continue
        call = "".join(b.group("call").split())
        for callee, (name, old) in used.items():
            if not call.startswith(callee):
                continue
            then = next((r.group("v") for line in added[i + 1:i + 4] if (r := _CONSTANT_RETURN_RE.match(line))), None)
            if then:
                return f"discards the result of {name}(): returns {then} whatever it says: {_quote(new)}"
            if re.match(r"^\s*await\b", old) or re.search(r"\bawait\b", old) and "await" not in new:
                return f"no longer awaits {name}(): its failure goes unseen (result discarded): {_quote(new)}"
            if re.match(r"^\s*(?:_\s*:?=|let\s+_\s*=)", new):
                continue  # bound to the blank: relay.review.looser_checks and lost_results say it (once)
            return f"discards the result of {name}(): a failure reads as success: {_quote(new)}"
    return None


# ----- an early return that gave nothing now gives the value
_EMPTY = r"(?:nil|null|None|undefined|false|False|NULL)?"
_GUARDED_RETURN_RE = re.compile(r"""(?x)^(?P<guard>\s*(?:(?:\}\s*)?(?:if|unless)\b.*?[):]\s*|guard\b.*\belse\s*\{\s*)?)
                                (?P<ret>return)(?P<value>|\s+\S.*?)\s*(?P<end>;?\s*\}?\s*;?)
                                (?P<post>\s+(?:if|unless)\b.*)?$""")
_ABSENCE_RE = re.compile(r"""(?x)^\s*(?:if|unless|guard)?\s*\(?\s*(?:
      !\s*(?P<a>[\w$.>-]+)\s*\)? | not\s+(?P<b>[\w.]+) | (?P<c>[\w$.>-]+)\s*(?:===?\s*(?:nil|null|None|undefined)|is\s+None)\s*\)?
    | (?P<d>[\w$.>-]+)\.(?:nil\?|blank\?|empty\?) | (?:empty|is_null)\s*\(\s*(?P<e>[\w$.>-]+)\s*\)\s*\)?
    | let\s+(?P<f>\w+)\s*=.*\belse
)\s*[):{]?\s*$""")


def _value_returned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    empties = {}
    for old in removed:
        m = _GUARDED_RETURN_RE.match(old) if len(old) <= _LONGEST else None
        if m and re.fullmatch(_EMPTY, m.group("value").strip()):
            empties.setdefault(" ".join(m.group("guard").split()) + "|" + (m.group("post") or "").strip(), m)
    if not empties:
        return None
    for new in added:
        n = _GUARDED_RETURN_RE.match(new) if len(new) <= _LONGEST else None
        if not n or not re.fullmatch(r"[\w$.]+", value := n.group("value").strip()) or re.fullmatch(_EMPTY, value) or value.isdigit():
            continue
        old = empties.get(" ".join(n.group("guard").split()) + "|" + (n.group("post") or "").strip())
        if old is None:
            continue
        guard = old.group("guard").strip() or (old.group("post") or "").strip()
        if not guard:
            continue  # a return on its own line: ``return false`` → ``return record`` is as often a refactor's
        unless = re.fullmatch(r"unless\s+\(?\s*([\w$.>-]+)\s*\)?", guard)
        absent = None if guard.startswith("unless") else _ABSENCE_RE.match(guard)
        missing = unless.group(1) if unless else next((g for g in absent.groups() if g), None) if absent else None
        when = f"when {missing.lstrip('$')} is missing" if missing else f"when {clipped(guard, 40)}"
        return f"returns {value} {when} (it returned nothing): {_quote(new)}"
    return None


# ----- an encoding call replaced by text joined by hand, or told to escape fewer characters
# What escapes text for a URL, HTML, a shell or a string literal (a hex or base64 encoding is no escaping: quiet).
_ENCODER_RE = re.compile(r"(?P<call>[\w$.:>\\-]*\b(?:\w*(?:[Ee]scape|[Qq]uote|[Ss]anitiz|urlencode|URLEncode|UrlEncode|encode_?(?:query|www_form\w*|uri\w*|url\w*|component)|"
                         r"encodeURI(?:Component)?|htmlspecialchars|htmlentities|addc?slashes)\w*|URLEncoder\.encode))\s*\(", re.I)
# Every encoding call holds one of these words: most lines hold none, and the pattern's leading run of name characters makes
# each search of a long line cost ~140 us (a 37,000-line docs tree: 6% of its review), the screen ~7.
_ENCODER = Screen(("escape", "quote", "sanitiz", "encode", "htmlspecialchars", "htmlentities", "slashes"), _ENCODER_RE)
_JOINED_RE = re.compile(r"""#\{|\$\{|\$\w|\.join\(|map_join\(|\b[Jj]oin\(|Sprintf\(|format\(|\bf["']|<>\s*["']|["']\s*<>|\+\s*["']|["']\s*\+|%\s*\(""")
_URLISH_RE = re.compile(r"(?i)query|param|url|uri|href|link|path")
_STRING_RE = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def _encoding_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    news: list[tuple[str, re.Match[str] | None]] | None = None
    for old in removed:
        if len(old) > _LONGEST or _COMMENT_RE.match(old) or not (m := _ENCODER.search(old)):
            continue
        head = " ".join(old[:m.start()].split())  # what stood before the call: shared, the line is the same line rebuilt
        if news is None:
            # Each added line's encoding call, looked for once: every removed line that encodes is paired with all of them
            # (a regenerated docs tree of 37,000 lines, jcommander's: 28,000 searches of long lines, 2 s).
            news = [(new, _ENCODER.search(new)) for new in added if len(new) <= _LONGEST and not _COMMENT_RE.match(new)]
        for new, n in news:
            if n is None and _shared_head(old, new) >= min(len(head), 8) and _JOINED_RE.search(new):
                what = "the query unencoded" if _URLISH_RE.search(old) else "the text unescaped"
                return f"drops {m.group('call')}(): builds {what} by hand: {_quote(new)}"
            if n and n.group("call") == m.group("call") and (gone := _fewer(old, new)):
                return f"escapes fewer characters in {m.group('call')}() ({gone} no longer escaped): {_quote(new)}"
    return None


def escapes_fewer(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The escaping call told to escape fewer characters, alone: relay.review.turned_lines rates it worth a look."""
    found = _encoding_dropped(added, removed)
    return found if found and found.startswith("escapes fewer characters") else None


def _shared_head(old: str, new: str) -> int:
    """How many characters the two lines (spaces squeezed) open with alike: the same target or arm, its value rebuilt."""
    a, b = " ".join(old.split()), " ".join(new.split())
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return k


def _fewer(old: str, new: str) -> str | None:
    """The characters a string literal of ``old`` loses in ``new`` when that is the whole difference."""
    a, b = _STRING_RE.findall(old), _STRING_RE.findall(new)
    if len(a) != len(b) or _STRING_RE.sub('""', old) != _STRING_RE.sub('""', new):
        return None
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    if len(diff) != 1:
        return None
    x, y = diff[0][0][1:-1], diff[0][1][1:-1]
    i = 0
    while i < len(y) and x[i] == y[i]:
        i += 1
    cut = len(x) - len(y)
    if cut <= 0 or x[i + cut:] != y[i:]:
        return None
    return x[i:i + cut].replace("\\\\", "\\").replace("\\'", "'").replace('\\"', '"')


def turn_consequence(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What the edited lines now let through, in words of its consequence with the line quoted, or None."""
    if not added:
        return None
    added, removed = added[:_MOST], removed[:_MOST]
    return (_excuse_added(added, removed) or _handler_added(added, removed) or _rejection_dropped(added, removed)
            or _result_discarded(added, removed) or _value_returned(added, removed) or _encoding_dropped(added, removed))


def turn_consequence_row(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule table's check (rules.py ``consequence_note``): this reader on one file's changed lines."""
    return turn_consequence(f.change.added_lines, f.change.removed_lines)


SCREENS = {"turn_consequences.encoder": _ENCODER}  # proved by tests/test_screens.py
