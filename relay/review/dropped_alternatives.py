"""An alternative dropped from what a check or a case matches (issue 36, round 25 part C).

A case label or a check's list of values loses one item and nothing else on the line changes: ``when /^git:/, /^http:/``
→ ``when /^git:/`` (a detector stops reporting plain-http sources), ``[".", "/"].contains(path.first)`` →
``["."].contains(…)`` (a sandbox stops refusing absolute paths), ``case "admin", "root":`` → ``case "admin":``,
``Error::Expired | Error::Revoked =>`` → ``Error::Expired =>``, ``if kind in ("exe", "dll")`` → ``("exe",)``. The held-out
runs named such a line only as "edit apart from the change": the item gone is what the branch no longer covers, so the
reason names it. Whether the branch refuses or allows is not read (a list that shrinks may narrow an allow-list): worth a
look (medium), named, first among its risk's files.

``refusal_narrowed`` (round 121b, high): a pattern's alternatives cut in a line that refuses or redacts (grav's nginx
``location ~* /user/(accounts|config|env)/.*$ { return 403; }`` → ``(config|env)``: the accounts folder served again;
octokit's README ``logger.filter(/(Authorization: "(token|Bearer) )(\\w+)/, '\\1[REMOVED]')`` → ``(basic)``: tokens logged).

Read as pairs of one line each, the same line less one item: a reordered list, an item renamed, an item added, a list
written on several lines, a docs page's prose are quiet. Linear: each side's lines are read once (at most ``_MOST``), a
pair costs its length, and a line meets only the removed lines that open as it does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from relay.review.line_shapes import window

__all__ = ["alternative_dropped", "refusal_narrowed"]

_MOST = 400
_LONGEST = 300
_QUOTE = 70
# A line that matches values: a case label or arm, a condition, a membership test.
_MATCHING_RE = re.compile(r"^\s*(?:\}\s*)?(?:when|case|if|elif|elsif|else\s+if|unless|guard|while|match|switch)\b|\|[^|]*=>|->\s*$|"
                          r"\.(?:contains|includes|include\?|has|any\?|member\?)\s*\(|\bin\s*[\[(]|\bin_array\s*\(|\bnot\s+in\s*[\[(]|"
                          r"\bcase\b[^:]*:\s*$")
_COMMENT_RE = re.compile(r"^\s*(?:#|//|/\*|\*|--|;)")
_OPEN, _CLOSE = "([{", ")]}"
# A word before "(" that opens a tuple, not a call's arguments (compacted lines lose the space: ``in ("a", "b")``).
_KEYWORDS = ("in", "when", "case", "if", "elif", "return", "and", "or", "not", "of")


_AROUND_PUNCT_RE = re.compile(r" ?([^\w$ ]) ?")


def _compact(line: str) -> str:
    """The line with its spaces dropped around punctuation and squeezed to one between words (``kind in ("a", "b")`` →
    ``kind in("a","b")``): a formatter's spacing does not count, a word stays a word."""
    return _AROUND_PUNCT_RE.sub(r"\1", " ".join(line.split()))


def _item(mid: str, sep: str) -> str | None:
    """The item ``mid`` holds when it is one separator and one balanced item, else None."""
    if mid.startswith(sep):
        body = mid[len(sep):]
    elif mid.endswith(sep):
        body = mid[:-len(sep)]
    else:
        return None
    depth = 0
    for ch in body:
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if depth < 0 or (depth == 0 and (ch == "," or (sep == "|" and ch == "|"))):
            return None
    if depth or not body or len(body) > 80 or not body.strip("\"'`"):
        return None
    return body


def _dropped(old: str, new: str) -> str | None:
    """The item ``old`` (compacted) loses to become ``new``, when that is all the edit does."""
    d = len(old) - len(new)
    if d <= 1 or d > 82 or len(old) > _LONGEST:
        return None
    p = 0
    while p < len(new) and old[p] == new[p]:
        p += 1
    if old[p + d:] != new[p:]:
        return None  # more than one cut
    # The cut may slide left while the characters it passes repeat (``[".","/"]`` → ``["."]``: ``,"/"`` or ``","/``):
    # the one that is a separator and a whole item is the item dropped.
    for i in range(p, max(-1, p - d - 1), -1):
        if i < p and old[i] != old[i + d]:
            break
        if not _in_a_call(old, i):
            for sep in (",", "|"):
                if found := _item(old[i:i + d], sep):
                    return found
            # an item between two separators, the trailing one kept (``("exe", "dll")`` → ``("exe",)``)
            if i and old[i - 1] in ",|" and i + d < len(old) and old[i + d] in ",|)]}" and (found := _item("," + old[i:i + d], ",")):
                return found
    return None


def _in_a_call(line: str, at: int) -> bool:
    """Whether position ``at`` of ``line`` stands among a call's arguments (``check(a, b)``), not a list's items."""
    depth = 0
    for j in range(at - 1, -1, -1):
        ch = line[j]
        if ch in _CLOSE:
            depth += 1
        elif ch in _OPEN:
            if depth == 0:
                word = re.search(r"[\w$]*$", line[:j]).group()  # type: ignore[union-attr]
                return ch == "(" and j > 0 and (line[j - 1] in ")]?!>" or bool(word) and word not in _KEYWORDS)
            depth -= 1
    return False


# ``x in (a, b)`` made ``x == a`` (round 86: blind 123's pelican, ``word in (os.curdir, os.pardir)`` → ``word ==
# os.curdir``: ``..`` is served): the test kept for one of its values, the other no longer matches.
_IN_TWO_RE = re.compile(r"(?P<x>[\w.\[\]'\"]+)\s+(?P<neg>not\s+)?in\s*[(\[{](?P<a>[^(),\[\]{}]+),(?P<b>[^(),\[\]{}]+),?\s*[)\]}]")


def _kept_one(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds: dict[str, tuple[str, str]] = {}
    for line in removed[:_MOST]:
        for m in _IN_TWO_RE.finditer(line) if len(line) <= _LONGEST and " in" in line and _MATCHING_RE.search(line) else ():
            op = "!=" if m.group("neg") else "=="
            for kept, gone in ((m.group("a"), m.group("b")), (m.group("b"), m.group("a"))):
                olds["".join((line[:m.start()] + f"{m.group('x')} {op} {kept.strip()}" + line[m.end():]).split())] = (gone.strip(), line)
    for line in added[:_MOST] if olds else ():
        if (was := olds.get("".join(line.split()))) is not None:
            return f"drops an alternative from a check or case ({was[0]} no longer matches): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


def alternative_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops an alternative from a check or case (<item> no longer matches): <the new line>" when a line that matches values (a case label, a
    condition, a membership test) comes back the same less one item of its list."""
    if (kept := _kept_one(added, removed)) is not None:
        return kept
    olds: dict[str, list[str]] = {}
    for line in removed[:_MOST]:
        if len(line) <= _LONGEST and ("," in line or "|" in line) and _MATCHING_RE.search(line) and not _COMMENT_RE.match(line):
            # Keyed by both ends: the item dropped may stand in the first six characters (round 77: blind 108's glob,
            # ``'?' | '*' | '[' | ']' =>`` made ``'?' | '[' | ']' =>``) or in the last.
            olds.setdefault(_compact(line)[:6], []).append(line)
            olds.setdefault("\0" + _compact(line)[-6:], []).append(line)
    if not olds:
        return None
    for line in added[:_MOST]:
        if len(line) > _LONGEST or _COMMENT_RE.match(line):
            continue
        new = _compact(line)
        for old in [*olds.get(new[:6], ())[:20], *olds.get("\0" + new[-6:], ())[:20]]:
            item = _dropped(_compact(old), new)
            if item:
                # The new line quoted (the view's window opens at the row a reason quotes): the item said first.
                return f"drops an alternative from a check or case ({item} no longer matches): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


# ----- a refusing or redacting pattern's alternatives cut
_GROUP_RE = re.compile(r"\((?:\?:)?(?P<alts>[^()|\[\]'\"]+(?:\|[^()|\[\]'\"]+)+)\)")
_REFUSES_RE = re.compile(r"(?i)\bdeny\b|\breturn\s+40[134]\b|\bforbid|\bredact|\bfilter\w*\s*\(|\bscrub|\[(?:REMOVED|FILTERED|REDACTED|MASKED)\]|\.drop\(\)|\bdisable_function\b|"
                         r"\bdisallow|\ball\s+denied|\bblock(?:ed)?_?(?:list|paths?|patterns?)\b")


_CLASS_RE = re.compile(r"\[(?P<alts>[^\[\]^][^\[\]]*)\]")
_ONE_RE = re.compile(r"\((?:\?:)?(?P<one>[^()|]+)\)")


def _class_chars(body: str) -> list[str]:
    """A character class's members, an escape (``\\n``, ``\\\\n``) one member."""
    return re.findall(r"\\+.|.", body)


def _members(line: str, *, one: bool = False) -> Iterator[tuple[re.Match[str], list[str], bool]]:
    """Each alternation (``(a|b)``) and character class (``[ab]``) of the line with its members and whether it is a class;
    ``one``: a group of one alternative too (what an alternation may be cut to)."""
    for m in _GROUP_RE.finditer(line):
        yield m, m["alts"].split("|"), False
    for m in _CLASS_RE.finditer(line):
        yield m, _class_chars(m["alts"]), True
    for m in _ONE_RE.finditer(line) if one else ():
        yield m, [m["one"]], False


def refusal_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"narrows what a refusal or a redaction matches (…)" for a pair whose alternation lost items, else None."""
    olds: dict[tuple[str, str], list[str]] = {}
    for line in removed[:_MOST]:
        if len(line) <= _LONGEST and _REFUSES_RE.search(line):
            for m, members, _ in _members(line):
                olds[(_compact(line[:m.start()]), _compact(line[m.end():]))] = members
    for new in added[:_MOST] if olds else ():
        for m, members, is_class in _members(new, one=True) if len(new) <= _LONGEST else ():
            was = olds.get((_compact(new[:m.start()]), _compact(new[m.end():])))
            # (a class's members read one by one: ``[a-z]`` → ``[a-y]`` re-ranges, it is no character taken out)
            if was is not None and (gone := [a for a in was if a not in members]) and (not is_class or len(was) > len(members)):
                return f"narrows what a refusal or a redaction matches ({(' ' if is_class else ', ').join(gone)[:40]} no longer): {window(new, m.start(), m.end(), _QUOTE)}"
    return None
