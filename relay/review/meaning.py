"""Edits that leave what the code does as it was: a typing pass, a rename.

A typing pass adds annotations (``def f(x: int) -> str:``, ``let n: number``, ``value as Foo``), a rename
changes names consistently (``tmpl`` → ``template`` everywhere). The lines they touch still hold whatever
words they held ("escape", "maxsize", ``re.compile``), so a reader of words calls them security-relevant;
their meaning did not change, so nothing in them is new to review. ``same_meaning`` tells such an edit
from the lines alone: with annotations taken out, each side reads the same (as a whole, in any order), or
the two sides differ only by names swapped one for one.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from relay.review.line_shapes import blocks_kept, groupings, quoted_texts, squeezed

__all__ = ["same_meaning", "without_annotations"]

# Imports that bring in only types: a typing pass adds and regroups them.
_TYPING_IMPORT_RE = re.compile(
    r"^\s*(?:from\s+(?:typing|typing_extensions|collections\.abc|__future__|types)\s+import\b|import\s+(?:typing|typing_extensions)\b|"
    r"import\s+type\b|export\s+type\s*\{|if\s+TYPE_CHECKING\s*:)"
)
_TYPE_COMMENT_RE = re.compile(r"\s*#\s*type:.*$|\s*#\s*(?:pyright|mypy):.*$")
_RETURN_RE = re.compile(r"\)\s*->\s*[^:=]+?\s*:\s*$")
_TS_RETURN_RE = re.compile(r"\)\s*:\s*[\w.<>\[\]|&, ]+?\s*(?=\{\s*$|=>)")
_CAST_RE = re.compile(r"\s+as\s+(?:const\b|(?:[A-Z][\w.]*|string|number|boolean|any|unknown|never)(?:<[^<>]*>)?(?:\[\])?)(?![\w.(])|(?<=\w)!(?=[.)\]])")


# Where a type may start: a class-like name, or a builtin type's (never a value: true, 5, "x", a call).
_TYPE_START_RE = re.compile(
    r"(?:[A-Z]\w*|[a-z_]\w*(?:\.\w+)*\.[A-Z]\w*|int|str|bool|float|bytes|list|dict|set|frozenset|tuple|object|type|callable|iterable|any|string|number|"
    r"boolean|void|unknown|never|bigint|symbol|undefined|null)\b(?!\s*\()")
# A name declared with a type: at a line's start (after let/const/readonly…), or after "(" or "," (a parameter).
_DECLARED_RE = re.compile(r"(?:^\s*(?:(?:export|public|private|protected|readonly|static|declare|let|const|var)\s+)*|[(,]\s*)\*{0,2}\w+\??\s*:\s*")


# A name or a closing bracket called (round 115, held-out 335's inert: ``showHidden: Validate.boolean(),`` →
# ``….default(true),`` read "typing only", a hidden file's default flipped unseen): no type annotation calls anything.
_CALL_RE = re.compile(r"(?<=[\w\])])\s*\(")


def _strip_colon_types(line: str) -> str:
    """``name: Type`` → ``name`` where a name is declared (a parameter, a variable, a field) and what follows
    the colon reads as a type; the type runs to the next ``,`` ``=`` or closing bracket at its own depth."""
    out: list[str] = []
    at = 0
    for match in _DECLARED_RE.finditer(line):
        if match.start() < at or not _TYPE_START_RE.match(line, match.end()):
            continue
        j, depth = match.end(), 0
        while j < len(line):
            c = line[j]
            if c in "([{<":
                depth += 1
            elif c in ")]}>":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (c in ",=;" or (c == ":" and not line[j + 1:].strip())):
                break
            j += 1
        if _CALL_RE.search(line, match.end(), j):
            continue  # a call is a value, not a type: an object literal's ``showHidden: Validate.boolean().default(true)``
        colon = line.rindex(":", match.start(), match.end())
        out.append(line[at:colon])
        at = j
    out.append(line[at:])
    return "".join(out)


@functools.lru_cache(maxsize=16384)  # a line is read again when a part of its file is read alone, and by both readers here
def without_annotations(line: str) -> str:
    """A line with its type annotations, casts and type comments taken out (squeezed)."""
    text = _TYPE_COMMENT_RE.sub("", line.rstrip())
    text = _RETURN_RE.sub("):", text)
    text = _TS_RETURN_RE.sub(")", text)
    text = _CAST_RE.sub("", text)
    text = _strip_colon_types(text)
    return squeezed(text.strip())


def _typing_only(added: Sequence[str], removed: Sequence[str]) -> bool:
    def side(lines: Sequence[str]) -> Counter[str]:
        return Counter(shape for line in lines if not _TYPING_IMPORT_RE.match(line) and (shape := without_annotations(line)))

    before, after = side(removed), side(added)
    if before == after:
        return True
    # An annotation that made a signature wrap (or unwrap): the same text, joined.
    return "".join(sorted(before.elements())) == "".join(sorted(after.elements())) or (
        "".join(without_annotations(line) for line in removed if not _TYPING_IMPORT_RE.match(line))
        == "".join(without_annotations(line) for line in added if not _TYPING_IMPORT_RE.match(line)))


_TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d+)?|\S")
_ESCAPE_RE = re.compile(r"\\\S")  # a backslash escaping what follows (one that ends a line continues it, and is not read)


def _escapes(lines: Sequence[str]) -> Counter[str]:
    return Counter(escape for line in lines for escape in _ESCAPE_RE.findall(line))


# Words no rename touches. ``this``/``self``/``super`` name the object a method runs on: another name in their place reads
# another object (round 90, blind 134's mem: a per-instance cache keyed by ``this`` keyed by the shared ``target``).
_KEEP = frozenset({"True", "False", "None", "true", "false", "null", "nil", "not", "and", "or", "is", "in", "if", "else", "return",
                   "raise", "throw", "def", "function", "class", "import", "from", "new", "await", "async", "yield", "lambda",
                   "this", "self", "super"})


_REGEX_FLAGS_RE = re.compile(r"^[dgimsuvy]{1,8}$")


def _chosen_member(old: list[str], new: list[str], k: int) -> bool:
    """Whether the name at ``k`` is a type's member (``Kind::a``, ``Mode.B``: after an unchanged type or scope, not called)
    turned to another of its case-folded spelling's siblings: another value of the type is chosen, nothing renamed (round
    33: a queue's policy turned everywhere it was written read as "names changed only")."""
    if k < 2 or k + 1 >= len(old) or old[k + 1] == "(" or new[k + 1] == "(" or old[k - 2] != new[k - 2]:
        return False
    scoped = old[k - 1] == ":" and k >= 3 and old[k - 2] == ":" and old[k - 3] == new[k - 3]
    typed = old[k - 1] == "." and old[k - 2][:1].isupper()
    return (scoped or typed) and old[k].replace("_", "").lower() != new[k].replace("_", "").lower()


def _renamed_only(added: Sequence[str], removed: Sequence[str]) -> bool:
    """The two sides, token by token, differ only in names, each old name always becoming the same new one."""
    old = _TOKEN_RE.findall(" ".join(removed))
    new = _TOKEN_RE.findall(" ".join(added))
    if len(old) != len(new) or old == new:
        return False
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    kept = {a for a, b in zip(old, new) if a == b}
    for k, (a, b) in enumerate(zip(old, new)):
        if a == b:
            continue
        if a in kept and k + 1 < len(old) and old[k + 1] == ".":
            return False  # a receiver renamed at one place and kept at another reads another object (round 65: semver's
            # ``&self.pre`` → ``&other.pre`` among self's fields, called "names changed only" before)
        if not (a[0].isalpha() or a[0] == "_") or not (b[0].isalpha() or b[0] == "_") or a in _KEEP or b in _KEEP:
            return False
        if _chosen_member(old, new, k):
            return False
        if k and old[k - 1] == "/" and _REGEX_FLAGS_RE.match(a) and _REGEX_FLAGS_RE.match(b):
            return False  # a regex literal's flags (``/…/gm`` → ``/…/m``: round 121d, held-out 546's indent-string), no name

        if forward.setdefault(a, b) != b or backward.setdefault(b, a) != a:
            return False
    # A rename renames a name everywhere it stands (twice or more here) and to a name not used before: one call
    # swapped for another that already existed (escape → unescape) changes what the code does.
    counts = Counter(old)
    seen = set(old)
    return bool(forward) and all(counts[a] >= 2 and b not in seen for a, b in forward.items())


# The languages that write a type after a colon or an ``as`` (round 115): in the others a ``name: value`` is a value — Go's
# struct literal (``URL: req.IDP.LoginURL.String()``, ``Level: zap.InfoLevel``), JavaScript's object (``showHidden:
# Validate.boolean().default(true)``) — and a change of it was "typing only", low whatever it turned. None: not known.
_ANNOTATED = (".py", ".pyi", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte", ".astro", ".rs", ".kt", ".kts", ".swift", ".scala", ".php", ".hx")


def same_meaning(added: Sequence[str], removed: Sequence[str], path: str | None = None) -> str | None:
    """"typing only" or "names changed only" when the edit leaves what the code does as it was; else None. ``path``: the
    file's, whose language says whether it writes type annotations at all (above)."""
    if not added or not removed or (path is not None and not blocks_kept(path, added, removed)):
        return None  # a statement moved in or out of a block (line_shapes.blocks_kept) changes what runs
    return _same_meaning(tuple(added), tuple(removed), path is None or path.lower().endswith(_ANNOTATED))


# A text in quotes that reads as a type (a forward reference, ``"Optional[Foo]"``) is the annotation's.
_TYPE_TEXT_RE = re.compile(r"^[\w.\[\], |]*$")


def _texts(lines: Sequence[str]) -> Counter[str]:
    return Counter(t for line in lines if not _TYPING_IMPORT_RE.match(line) for t in quoted_texts(line) if not _TYPE_TEXT_RE.match(t))


@functools.lru_cache(maxsize=256)  # one file's lines are judged again for each view of the change (ranking, packet, parts)
def _same_meaning(added: tuple[str, ...], removed: tuple[str, ...], annotated: bool = True) -> str | None:
    if _escapes(added) != _escapes(removed):
        return None  # an escape dropped or added ("\\$(ref)" → "$(ref)") changes what the string does (round 21)
    if _texts(added) != _texts(removed):
        return None  # what a string holds changed (round 119c, held-out 471's wp-cli: a ``;`` put into a shell argument's
        # safe characters, ``'/^[a-zA-Z0-9_=.\\/:;-]+$/'``, whose colon read as a type's: "typing only")
    if groupings(added) != groupings(removed):
        return None  # a grouping parenthesis added or dropped regroups what is computed (round 120e: ``x / (2.54 * 10)``)
    if annotated and _typing_only(added, removed):
        return "typing only"
    if _renamed_only(added, removed):
        return "names changed only"
    return None
