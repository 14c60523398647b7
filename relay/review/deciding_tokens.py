"""A floor for the deciding token a one-line edit turns (issue 36, round 32).

The blind lows of held-out 47 and 48 were mostly not unseen lines: a reader quoted the slipped line (``old → new``) and
the file stayed low, because no reader knew that the one token the pair turns decides what the code does. This reads the
edited PAIR (the removed line and the added line closest to it, relay.review.bound_turns' bounded pairing), finds the
tokens between their common start and common end, and calls the file worth a look when those tokens are one of:

- ``comparison``: a comparison or logical operator swapped for another (``==`` → ``>=``, ``!==`` → ``<=``, ``&&`` →
  ``||``), in code or in a string that spells one (an operator passed as text);
- ``accumulation``: an accumulating assignment made a plain one or back (``|=`` → ``=``, ``+=`` → ``=``): each pass of a
  loop now overwrites what the earlier ones found;
- ``return value``: a returned or exit value turned (``return true`` → ``return false``, ``exit(1)`` → ``exit(0)``) or
  made conditional (``return err`` → ``return err > 0 ? 0 : err``): some results are no longer passed up;
- ``scaled``: a factor put into, taken out of or changed in a comparison (``age < window`` → ``age < window*1000``);
- ``weakest sibling``: a constant swapped for a sibling whose name says MIN, MAX, WEAK, NONE, ANY, ALL, LOW (two names
  sharing a word or a qualifier): the extreme setting now applies;
- ``escaping entry``: a table's entity or escape made the raw character (``"&lt;"`` → ``"<"``);
- ``table value``: a number changed on a line whose unchanged comment names what the number encodes (flags or modes):
  the value no longer says what its comment says;
- ``append made overwrite``: an append mode or option replaced by a truncating one (``O_APPEND`` → ``O_TRUNC``,
  ``append(true)`` → ``truncate(true)``, ``open(p, "a")`` → ``open(p, "w")``): what was written before is lost;
- ``catch-all added``: a handler's list of caught errors widened by a catch-all class (``Exception``,
  ``StandardError``, ``Throwable``, ``BaseException``): any failure now passes for the expected one.

Quiet look-alikes: the same pair turned back the safe way where that way is a tightening (an entity written for a raw
character, ``==`` → ``===``), a rename (a name lengthened, a constant newly defined in the change), a formatter's or typing
pass (no token of these kinds in the middle), a comment or a string of prose, a test file (the rule's scope). Reads at
most ``_PAIRS`` lines a side, each pair once: linear in the diff.

The party guarded against is the worker that slips one such token into an ordinary change. Medium (rule
``deciding_turn``): a floor, said only when no other reader already quotes the line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.bound_turns import _pairs
from relay.review.docs_samples import sample_lines
from relay.core.contracts import FileChange
from relay.review.line_shapes import squeezed
from relay.review.sibling_swaps import SIBLING_SAYS, sibling_swapped
from relay.review.small_edits import paired as _pair

__all__ = ["DECIDING_EXAMPLE", "DECIDING_MORE", "FLOOR_SAYS", "deciding_check", "deciding_turned", "floor_said_elsewhere", "moved_blocks", "screen"]

_TOKEN_RE = re.compile(r"===|!==|\*\*=|<<=|>>=|\?\?=|\|\|=|&&=|==|!=|<=|>=|<>|=>|->|\+=|-=|\*=|/=|%=|&=|\|=|\^=|\.=|&&|\|\||<<|>>|::|"
                       r"[A-Za-z_$][\w$]*|\d[\w.]*|\S")
_COMPARE = frozenset({"==", "!=", "===", "!==", "<", ">", "<=", ">=", "<>"})
_LOGIC = frozenset({"&&", "||", "and", "or"})
_SAME = ({"==", "==="}, {"!=", "!=="}, {"!=", "<>"}, {"&&", "and"}, {"||", "or"})  # a spelling, not a meaning, changed
_ACCUMULATE = frozenset({"|=", "&=", "+=", "-=", "*=", "^=", "<<=", ">>=", "||=", "&&=", "??=", ".=", "/=", "%=", "**="})
_RETURN_RE = re.compile(r"^\s*(?:return\b|exit\b|die\b|os\.Exit\(|sys\.exit\(|process\.exit\(|System\.exit\(|std::process::exit\()")
# A returned value turned within its family: a boolean flipped, a status 0 ↔ 1, an error made no error or back (a value of
# another family, ``return false`` → ``return nil``, is a signature changed, not a decision turned).
_RESULTS = (frozenset({"true", "false", "True", "False", "TRUE", "FALSE", "YES", "NO"}), frozenset({"0", "1"}),
            frozenset({"nil", "null", "None", "NULL", "undefined", "err", "error", "Ok", "Err"}))
_COMMENT_START_RE = re.compile(r"^\s*(?://|#|/\*|\*|--|;|<!--)")
_SCALE = frozenset({"*", "/", "<<", ">>"})
_NUMBER_RE = re.compile(r"^\d[\d_]*(?:\.\d+)?[a-zA-Z]*$")
_EXTREME = frozenset({"MIN", "MINIMUM", "MAX", "MAXIMUM", "WEAK", "WEAKEST", "NONE", "ANY", "ALL", "LOW", "LOWEST", "LEAST"})
_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# A constant's name: UPPER_SNAKE or UPPER; a PascalCase name only as a member (``Policy.AllowAll``, ``Level::None``), where a
# bare PascalCase name is a class (``extends FunSpec`` → ``extends AnyFunSpec`` is a test framework's rename).
_CONSTANT_RE = re.compile(r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z][A-Z0-9]+)$")
_MEMBER_RE = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$")
_ENTITY_RE = re.compile(r"&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);|\\u00[0-9A-Fa-f]{2}|\\x[0-9A-Fa-f]{2}")
_RAW = frozenset("<>&\"'`")
_TRAILING_COMMENT_RE = re.compile(r"(?:\s//|\s#|/\*|\s--)\s*(.+?)\s*(?:\*/)?\s*$")
_FLAG_NAMES_RE = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+|\b[A-Z]{3,}\b\s*\|")
_APPEND_RE = re.compile(r"\bappend\b|\bAPPEND\b|O_APPEND|\bAppend\b|FILE_APPEND|(?:open|fopen|File\.open|OpenFile)\s*\([^)]*['\"]a\+?b?['\"]")
_OVERWRITE_RE = re.compile(r"\btruncate\b|O_TRUNC|\bTruncate\b|\bTRUNCATE\b|\boverwrite\b|FileMode\.Create\b|"
                           r"(?:open|fopen|File\.open|OpenFile)\s*\([^)]*['\"]w\+?b?['\"]")
_HANDLER_RE = re.compile(r"^\s*(?:\}\s*)?(?:rescue\b|except\b|catch\b|\}\s*catch\b|when\b)")
_CATCH_ALL = frozenset({"Exception", "StandardError", "Throwable", "BaseException", "RuntimeException", "Object"})
_LONGEST = 300
_PAIRS = 200

FLOOR_SAYS = ("turns a comparison", "turns a logical operator", "makes an accumulation", "turns a return value",
              "makes a return value conditional", "scales a value in a comparison", "swaps a constant for its",
              "makes an escaping table's entry", "changes a value its comment", "makes an append an overwrite",
              "widens a handler to catch", "drops the error return after its log", *SIBLING_SAYS)  # a quote of its line: said once


def _tokens(line: str) -> list[str]:
    return _TOKEN_RE.findall(line)


def _middles(a: list[str], b: list[str]) -> tuple[int, list[str], list[str]]:
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    s = 0
    while s < len(a) - p and s < len(b) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, a[p:len(a) - s], b[p:len(b) - s]


def _one_swap(a: list[str], b: list[str]) -> tuple[list[str], list[str], int, int] | None:
    """The one token swapped for another where the rest of the pair's difference only inserts or deletes a few tokens
    (a typing pass that also turns a value: ``x=DEFAULT,`` → ``x: int = MIN,``), else None."""
    ops = [op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    swaps = [op for op in ops if op[0] == "replace"]
    if len(swaps) != 1 or len(ops) > 4 or any(max(i2 - i1, j2 - j1) > 4 for _, i1, i2, j1, j2 in ops):
        return None
    _, i1, i2, j1, j2 = swaps[0]
    return (a[i1:i2], b[j1:j2], i1, j1) if i2 - i1 == 1 and j2 - j1 == 1 else None


# An error passed up right after its log line, dropped where the log line is written again (a block moved, its return
# left behind): the failure is logged and the code after it runs on.
_ERROR_RETURN_RE = re.compile(r"^\s*(?:return\s+(?:[\w.&{}\[\]]+,\s*){0,3}(?:err|error|e|ex)\s*;?|return\s+(?:[\w.&{}\[\]]+,\s*){0,3}"
                              r"(?:fmt\.Errorf|errors\.\w+)\(.*|return\s+Err\(.*|raise\b.*|throw\b.*|return\s+(?:false|-1|NULL|nullptr)\s*;?)\s*$")
_LOGS_RE = re.compile(r"(?i)\b(?:log|logger|logging|slog|console|warn|error|fmt\.Fprint\w*|eprint\w*|System\.err)\b.*(?:err|fail|unable|cannot|could not)")


def _return_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new_at = {squeezed(line): i for i, line in enumerate(added[:_PAIRS])}
    for i in range(min(len(removed), _PAIRS) - 1):
        line, nxt = removed[i], removed[i + 1]
        if not (_LOGS_RE.search(line) and _ERROR_RETURN_RE.match(nxt)) or (at := new_at.get(squeezed(line))) is None:
            continue
        after = next((ln for ln in added[at + 1:at + 3] if ln.strip()), "")
        if not _ERROR_RETURN_RE.match(after) and not after.strip().startswith(("return", "raise", "throw", "panic", "os.Exit", "exit")):
            return f"drops the error return after its log line (only logged, runs on): {_short(nxt, 30)} (after {_short(line)})"
    return None


def _short(line: str, most: int = 40) -> str:
    text = " ".join(line.split())
    return text if len(text) <= most else text[:most - 1] + "…"


def _words(name: str) -> set[str]:
    return {w.upper() for w in _WORD_RE.findall(name)}


def _chars_middle(old: str, new: str) -> tuple[str, str]:
    a, b = old.strip(), new.strip()
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return a[p:len(a) - s], b[p:len(b) - s]


def _operator(a: list[str], b: list[str], line: str) -> str | None:
    if len(a) != 1 or len(b) != 1:
        return None
    x, y = a[0], b[0]
    if x == y or {x, y} in _SAME or line.lstrip().startswith("<") or "</" in line:
        return None
    if x in _COMPARE and y in _COMPARE:
        return f"turns a comparison ({x} → {y})"
    if x in _LOGIC and y in _LOGIC:
        return f"turns a logical operator ({x} → {y})"
    return None


def _accumulation(a: list[str], b: list[str]) -> str | None:
    if len(a) == 1 and len(b) == 1 and a[0] in _ACCUMULATE and b[0] == "=":
        return f"makes an accumulation overwrite ({a[0]} → =)"
    return None


def _returned(old: str, new: str, a: list[str], b: list[str]) -> str | None:
    if not (_RETURN_RE.match(old) and _RETURN_RE.match(new)):
        return None
    if len(a) == 1 and len(b) == 1 and a[0].lower() != b[0].lower() and any(a[0] in family and b[0] in family for family in _RESULTS):
        return f"turns a return value ({a[0]} → {b[0]})"
    if not a and ("?" in b or "if" in b) and any(t in _COMPARE for t in b):
        return "makes a return value conditional (results dropped)"
    return None


def _scaled(old_tokens: list[str], a: list[str], b: list[str]) -> str | None:
    if not any(t in _COMPARE for t in old_tokens):
        return None
    for gone, put in ((a, b), (b, a)):
        if not gone and len(put) == 2 and put[0] in _SCALE and _NUMBER_RE.match(put[1]):
            side = "put in" if put is b else "taken out"
            return f"scales a value in a comparison ({put[0]}{put[1]} {side})"
    if len(a) == 2 and len(b) == 2 and a[0] == b[0] and a[0] in _SCALE and _NUMBER_RE.match(a[1]) and _NUMBER_RE.match(b[1]):
        return f"scales a value in a comparison ({a[0]}{a[1]} → {b[0]}{b[1]})"
    return None


def _sibling(a: list[str], b: list[str], added: Sequence[str], member: bool = False, called: bool = False) -> str | None:
    if len(a) != 1 or len(b) != 1 or called:  # a function swapped for another (``Replace`` → ``ReplaceAll``) is no constant
        return None
    if not (_CONSTANT_RE.match(a[0]) and _CONSTANT_RE.match(b[0])) and not (member and _MEMBER_RE.match(a[0]) and _MEMBER_RE.match(b[0])):
        return None
    old, new = _words(a[0]), _words(b[0])
    extreme = (new & _EXTREME) - old
    if not extreme or not (old & new or member) or len(b[0]) <= 3:  # siblings: a shared word, or members of one type
        return None
    defined = re.compile(rf"^\s*(?:(?:const|static|final|public|private|let|var|export|pub)\s+)*(?:\w+\s+)?{re.escape(b[0])}\s*(?::[^=]*)?=(?!=)")
    if any(defined.match(line) for line in added[:200]):
        return None  # the constant is defined by the change itself: a new name, not a sibling chosen
    word = sorted(extreme)[0]
    return f"swaps a constant for its {word} sibling (the extreme setting)"


def _escaping(old: str, new: str) -> str | None:
    was, now = _chars_middle(old, new)
    if not _ENTITY_RE.search(was) or _ENTITY_RE.search(now):
        return None
    raw = now.replace("\\", "")
    decoded = _ENTITY_RE.sub(lambda m: html.unescape(m.group()) if m.group().startswith("&") else chr(int(m.group()[2:], 16)), was)
    if raw and set(raw) <= _RAW and decoded.replace("\\", "") == raw:
        return f"makes an escaping table's entry raw ({was} → {now})"
    return None


def _table_value(old: str, new: str, a: list[str], b: list[str]) -> str | None:
    if len(a) != 1 or len(b) != 1 or not (_NUMBER_RE.match(a[0]) and _NUMBER_RE.match(b[0])):
        return None
    comment = _TRAILING_COMMENT_RE.search(new)
    if comment is None or comment.group(0) not in old or not _FLAG_NAMES_RE.search(comment.group(1)):
        return None
    if a[0] in comment.group(1) or b[0] in comment.group(1):
        return None  # the comment names the number itself: it was edited with it, or tells nothing of its meaning
    return f"changes a value its comment explains ({a[0]} → {b[0]})"


def _overwrite(old: str, new: str) -> str | None:
    if _APPEND_RE.search(old) and not _APPEND_RE.search(new) and _OVERWRITE_RE.search(new) and not _OVERWRITE_RE.search(old):
        return "makes an append an overwrite (truncates)"
    return None


def _catch_all(old: str, new: str, b: list[str]) -> str | None:
    if not (_HANDLER_RE.match(old) and _HANDLER_RE.match(new)):
        return None
    if any(t in _CATCH_ALL for t in _tokens(old)):
        return None  # the handler caught everything already (``Throwable`` → ``Exception`` narrows it)
    wide = [t for t in b if t in _CATCH_ALL]
    if wide:
        return f"widens a handler to catch every error ({wide[0]})"
    return None


def _member(tokens: list[str], at: int) -> bool:
    """Whether the token at ``at`` is read as a member of a type or module (after ``.`` or ``::``)."""
    return at > 0 and tokens[at - 1] in (".", "::")


def _called(tokens: list[str], at: int) -> bool:
    """Whether the token at ``at`` is called (``(`` after it)."""
    return at + 1 < len(tokens) and tokens[at + 1] == "("


def _code(line: str) -> bool:
    return bool(line.strip()) and len(line) <= _LONGEST and not _COMMENT_START_RE.match(line)


def deciding_turned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first deciding token an edited pair turns, said with the pair quoted (medium), or None."""
    if not added or not removed:
        return None
    pairs = _pairs(added, removed, ((None, 0.5),))[0]
    if len(added) == len(removed) <= 2:  # a line or two edited in place: paired by place too (a short line shares no long name)
        pairs = [*pairs, *zip(removed, added)]
    for old, new in pairs:
        if not (_code(old) and _code(new)) or squeezed(old) == squeezed(new):
            continue
        ta, tb = _tokens(old), _tokens(new)
        at, a, b = _middles(ta, tb)
        if not a and not b:
            continue
        found = (_operator(a, b, new) or _accumulation(a, b) or _returned(old, new, a, b)
                 or _scaled(ta, a, b) or _sibling(a, b, added, _member(ta, at), _called(tb, at)) or _escaping(old, new) or _table_value(old, new, a, b)
                 or _overwrite(old, new) or _catch_all(old, new, b))
        if not found and (swap := _one_swap(ta, tb)) is not None:
            found = _operator(swap[0], swap[1], new) or _sibling(swap[0], swap[1], added, _member(ta, swap[2]), _called(tb, swap[3]))
        found = found or sibling_swapped(old, new, ta, tb, added, removed)  # a name swapped for its sibling (round 33)
        if found:
            return f"{found}: {_pair(old, new)}"
    return _return_dropped(added, removed)


_PIECE = 12


def floor_said_elsewhere(reason: str, others: Sequence[str]) -> bool:
    """Whether another reason of the file quotes the line this floor quotes: then that reader says it, once."""
    if not reason.startswith(FLOOR_SAYS):
        return False
    quote = reason.split("): ", 1)[-1] if "): " in reason else reason.split(": ", 1)[-1]
    pieces = [squeezed(piece) for piece in re.split(r"…| → ", quote)]
    pieces = [piece for piece in pieces if len(piece) >= _PIECE]
    return any(piece in squeezed(other) for other in others if other is not reason for piece in pieces)


# A docs page's sentence that tells its reader to put a credential under version control (a kind of line no reader read:
# prose): a verb of committing with its object, a credential's name, no negation and no secret store beside them.
_COMMIT_RE = re.compile(r"(?i)\bcommit\s+(?:it|them|this|that|the|your|these|those)\b|\bcommitted\s+(?:in|to|into)\b|"
                        r"\bcheck(?:ed)?\s+(?:it\s+|them\s+)?in(?:to)?\b|\badd(?:ed)?\s+(?:it\s+|them\s+)?to\s+(?:git|version control)\b")
_CREDENTIAL_RE = re.compile(r"(?i)\b(?:token|password|passphrase|secret|credential|api[ _-]?key|private[ _-]?key|signing[ _-]?key)s?\b")
_KEPT_AWAY_RE = re.compile(r"(?i)\b(?:never|not|no|don't|do not|must not|should not|avoid|without|instead of|rather than|nor|ignored?)\b|n't\b|"
                           r"gitignore|repository secret|actions secret|secrets\.\w|encrypted secret|secret manager|vault|keychain|"
                           r"environment variable|\benv var")


# A file taken out of .gitignore is put in the way of a commit, not kept from one (round 119d, held-out 475's figaro README:
# "Remove it from `.gitignore` and commit it so every environment shares the same secrets.").
_UNIGNORED_RE = re.compile(r"(?i)\b(?:remove|delete|take|drop)\s+(?:it|them|\S+)\s+(?:out\s+)?(?:of|from)\s+(?:the\s+|your\s+)?[`'\"]?\.?gitignore\b[`'\"]?")


# …or to turn a protection off (round 109, blind 219: strawberry's upload guide, "If uploads are rejected with a 403, exempt
# the GraphQL view from CSRF checks"): a verb of turning off, then the protection it names.
_TURN_OFF_RE = re.compile(r"(?i)\b(?:disable|turn(?:ing)? off|switch(?:ing)? off|exempt|bypass|deactivate)\w*\b[^.!?\n]{0,60}?\b(?:csrf|xsrf|"
                          r"(?:certificate|ssl|tls|hostname|signature|host key) (?:verification|validation|checks?)|selinux|apparmor|the sandbox)\b|"
                          # …or to use a broken algorithm (cryptopasta's README, blind 221: "replace instances of it with ordinary MD5")
                          r"\b(?P<weak>(?:use|replace\b[^.!?\n]{0,40}\bwith|switch(?:ing)? to|fall back to)\s+(?:the\s+)?(?:ordinary|plain|good old)?\s*"
                          r"(?:md5|sha-?1|des|3des|rc4|ecb mode))\b(?!::|`)")  # (not Rust's ``use md5::Md5;`` nor a code span's name)


def _told(line: str) -> re.Match[str] | None:
    if len(line) > 2 * _LONGEST:
        return None
    return _COMMIT_RE.search(line) if _CREDENTIAL_RE.search(line) is not None else None


def screen(line: str) -> bool:
    """A docs page's sentence this reads (one telling its reader to commit a credential, or to turn a protection off), kept
    for the rules though it is prose (relay.review.file_kinds keeps only such lines of a docs page)."""
    return _told(line) is not None or len(line) <= 2 * _LONGEST and _TURN_OFF_RE.search(line) is not None


def _commits_credential(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line) for line in removed[:_PAIRS]}
    for line in added[:_PAIRS]:
        if not screen(line) or squeezed(line) in before or _KEPT_AWAY_RE.search(_UNIGNORED_RE.sub("", line)) or any(screen(old) for old in removed[:_PAIRS]):
            continue
        at = (_told(line) or _TURN_OFF_RE.search(line)).start()  # type: ignore[union-attr]
        text = line.strip() if at <= 50 else "…" + line[at - 50:].split(" ", 1)[-1]  # cut at a word
        what = ("commit a credential to the repository" if _told(line) else "use a broken algorithm" if _TURN_OFF_RE.search(line)["weak"]  # type: ignore[index]
                else "turn a protection off")
        return f"tells the reader to {what}: {_short(text, 80)}"
    return None


def deciding_check(f, ctx) -> str | None:  # noqa: ANN001 (FileFacts, RiskContext: the rule table's signature)
    """The rule row's check: a source or example file's edited pairs, a docs page's code sample's (and its sentences that
    tell the reader to commit a credential); and a block moved here from another file of the change, read against the
    lines it left (``moved_blocks``)."""
    if f.kind == "docs" and (told := _commits_credential(f.change.added_lines, f.change.removed_lines)) is not None:
        return told
    sides = [(f.change.added_lines, f.change.removed_lines)]
    if (moved := ctx.moved_in.get(f.change.path)) is not None:
        sides.append(moved)
    for added, removed in sides:
        if f.kind == "docs":
            added, removed = sample_lines(added), sample_lines(removed)
        if (found := deciding_turned(added, removed)) is not None:
            return found
    return None


# A file whose added lines are mostly another file's removed lines holds a block moved between them (a README's section
# made a page of its own, a class moved to a module): the lines it did not carry over unchanged are what the move turned,
# and the source's removed lines are their old side. Past ``_MOVED_LINES`` a side, only the first are read.
_MOVED_LEAST = 20
_MOVED_SHARE = 0.5
_MOVED_LINES = 5000


def moved_blocks(changes: Sequence[object]) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Path -> (its lines the move did not carry over as written, the source's lines it did not take), for each file of
    the change that holds a block moved from another file of it. Linear in the changed lines: each removed line is indexed
    once by its text, each added line looked up once."""
    sources: dict[str, set[int]] = {}
    gone: list[tuple[object, set[str]]] = []
    for c in changes:
        if len(c.removed_lines) < _MOVED_LEAST:  # type: ignore[attr-defined]
            continue
        lines = {squeezed(ln) for ln in c.removed_lines[:_MOVED_LINES] if ln.strip()}  # type: ignore[attr-defined]
        for line in lines:
            sources.setdefault(line, set()).add(len(gone))
        gone.append((c, lines))
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for c in changes if gone else ():
        added = [ln for ln in c.added_lines[:_MOVED_LINES] if ln.strip()]  # type: ignore[attr-defined]
        if c.kind == "deleted" or len(added) < _MOVED_LEAST:  # type: ignore[attr-defined]
            continue
        here = {squeezed(ln) for ln in added}
        hits: dict[int, int] = {}
        for line in here:
            for i in list(sources.get(line, ()))[:8]:  # a line many files remove (a closing brace) is counted for a few
                hits[i] = hits.get(i, 0) + 1
        best = max((i for i in hits if gone[i][0] is not c), key=lambda i: hits[i], default=None)
        if best is None or hits[best] < _MOVED_SHARE * len(here):
            continue
        source, lines = gone[best]
        fresh = tuple(ln for ln in added if squeezed(ln) not in lines)
        left = tuple(ln for ln in source.removed_lines[:_MOVED_LINES] if ln.strip() and squeezed(ln) not in here)  # type: ignore[attr-defined]
        if fresh and left:
            out[c.path] = (fresh, left)  # type: ignore[attr-defined]
    return out


DECIDING_EXAMPLE = (
    FileChange(path="src/quota.c", additions=1, deletions=1, removed_lines=["    used += cost[i];"], added_lines=["    used = cost[i];"]),
    "makes an accumulation overwrite (+= → =): used += cost[i]; → used = cost[i];",
    FileChange(path="src/quota.c", additions=1, deletions=1, removed_lines=["    used += cost[i];"], added_lines=["    used += costs[i];"]),
)


def _fc(path: str, new: str, old: str) -> FileChange:
    return FileChange(path=path, additions=1, deletions=1, removed_lines=[old], added_lines=[new])


# The row's further cases, each in another language, with the same pair turned the safe way (or renamed) as its near miss.
DECIDING_MORE = (
    (_fc("lib/Range.php", "        return new Bound('>=', $floor);", "        return new Bound('>', $floor);"),
     "turns a comparison (> → >=): return new Bound('>', $floor); → return new Bound('>=', $floor);",
     _fc("lib/Range.php", "        return new Bound('>', $lowest);", "        return new Bound('>', $floor);")),
    (_fc("app/models/vault.rb", "      @work || WORK_MIN", "      @work || WORK_DEFAULT"),
     "swaps a constant for its MIN sibling (the extreme setting): @work || WORK_DEFAULT → @work || WORK_MIN",
     _fc("app/models/vault.rb", "      @work || WORK_DEFAULT", "      @work || WORK_MIN")),
    (_fc("src/escape.cs", "            '<' => \"<\",", "            '<' => \"&lt;\","),
     "makes an escaping table's entry raw (&lt; → <): '<' => \"&lt;\", → '<' => \"<\",",
     _fc("src/escape.cs", "            '<' => \"&lt;\",", "            '<' => \"<\",")),
    (_fc("src/Fold.kt", "    if (u1 == 'p' && c2 == 'q')", "    if (u1 == 'p' && lc2 == 'q')"),
     "swaps a name for its sibling in a condition (lc2 → c2): if (u1 == 'p' && lc2 == 'q') → if (u1 == 'p' && c2 == 'q')",
     _fc("src/Fold.kt", "    if (u1 == 'p' && lc2 == 'q')", "    if (u1 == 'p' && c2 == 'q')")),
    (_fc("src/report.c", "    vlog(level, note);", "    vlog(level, \"%s\", note);"),
     "makes the input the format string (note in vlog): vlog(level, \"%s\", note); → vlog(level, note);",
     _fc("src/report.c", "    vlog(level, \"%s\", note);", "    vlog(level, note);")),
    (_fc("cmd/serve.go", "\tif skew*60 > maxSkew {", "\tif skew > maxSkew {"),
     "scales a value in a comparison (*60 put in): if skew > maxSkew { → if skew*60 > maxSkew {",
     _fc("cmd/serve.go", "\tif skewSeconds > maxSkew {", "\tif skew > maxSkew {")),
)
