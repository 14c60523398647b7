"""When a change may honestly be called low: the small edits that stop it (issue 36, round 12 part B).

Round 10's edit apart (``relay.review.apart_edits``) quotes a small edit of code that shares (almost) no name with the
rest of the change, and makes it worth a look (medium) only when it shares no name at all and stands beside 20 changed
lines or more. The low plants of held-out 9-14 that a quote or nothing reached share three mechanisms, whatever their
risk words; each is read here from the change's runs (``git diff -U0``'s hunks) alone:

- a quoted edit apart that could let more through (``weakens``: a statement removed, a switch, number, comparison,
  verdict or string changed) or that drops a call the line made (``vim.secure.read(file)`` → ``readfile(file)``,
  ``Keyword.put_new(force_ssl, :host, …)`` → ``force_ssl``: a wrapper, check or lookup gone), beside any rest;
- the one edit of a code file the rest of the change does not touch, sharing no name with it, that could let more
  through (``opts.SecretSize = 20`` → ``4`` in a file beside an example's own edit): the twice-its-size rule of the
  apart reader cannot hold where the change is two small edits, yet one of them is the work and the other is not;
- in a sweep (every other run of code makes a replacement another run makes too: ``'x'`` → ``~c"x"``, ``interface{}``
  → ``any``), the one run whose replacement no other run makes and that could let more through or drops a call
  (``{tz, 0} = System.cmd(…)`` → ``{tz, _} = …``): a meaning changed inside a change that keeps meaning.

Each is medium, quoting the edit (``A → B``), never for its size or its file. What each costs (ordinary commits that
leave ``low``) and gains (low plants lifted) is in bench/LEDGER.md, round 12 part B.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.apart_edits import (_MOST_APART, _QUOTE_NEW, _QUOTE_OLD, Apart, Run, _candidate, _names, _quote, run_names,
                                      apart_edits, apart_runs, weakens)
from relay.review.file_kinds import file_kind
from relay.review.small_edits import centred, cut, one

__all__ = ["apart_and_odd_edits", "drops_call", "name_swapped_only", "odd_edits", "opposite_names", "prose_or_layout_only", "quiet_apart", "rewrapped_only", "asserts_only"]

_CALL_RE = re.compile(r"([A-Za-z_][\w.:]*)\s*\(")
_TOKEN_RE = re.compile(r"\w+|[^\w\s]")
# A sweep: at least this many other runs of code, each a replacement some other run makes too.
_LEAST_SWEEP = 3


def _calls(lines: Sequence[str]) -> Counter[str]:
    return Counter(m.group(1) for ln in lines for m in _CALL_RE.finditer(ln))


def drops_call(found: Apart) -> bool:
    """Whether the edit's new side makes fewer calls and one its old side made is gone (a wrapper, a check, a lookup
    removed: ``Keyword.put_new(opts, :host, …)`` → ``opts``), not under the same name from elsewhere nor one the new side
    extends or shortens (``ioutil.WriteFile`` → ``os.WriteFile``, ``expand`` → ``expandAll``: a call moved or renamed)."""
    if not found.removed:
        return False
    before, after = _calls(found.removed), _calls(found.added)
    if sum(after.values()) >= sum(before.values()):
        return False  # a call swapped for another (registry.lookup → registry.find_entry) is the work's own kind of edit
    new = {call.rsplit(".", 1)[-1].rsplit(":", 1)[-1] for call in after}
    gone = {call.rsplit(".", 1)[-1].rsplit(":", 1)[-1] for call in before - after}
    return any(not any(old in call or call in old for call in new) for old in gone)


def _could_let_more(found: Apart) -> bool:
    return not prose_or_layout_only(found) and (weakens(found) or drops_call(found))


# Round 13 (part A): a sample of 40 of the 704 ordinary commits this module's tier and the apart reader's made medium held
# 24 that only re-worded a message or re-wrapped a line ("Please check…" → ( "Please check…" ), '{}'.format(x) → f'{x}').
# A string of prose (two words or more, with a space) is a message, not a value the code compares: an edit that changes
# only such strings, the layout around them, or how they are formatted changes what a reader is told, not what passes.
_LITERAL_RE = re.compile(r"""[fFrRbBuU]{0,2}(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)""")
_PROSE_WORD_RE = re.compile(r"[A-Za-z]{2,}")
_LAYOUT_RE = re.compile(r"[\s()\[\]{},+;%$]|\.format\b|\bformat\b")
_FIELD_RE = re.compile(r"\{([^{}]*)\}")
# Not a message though made of words: a query (SELECT …), a list of values ("gzip, deflate"), a Go struct tag (json:"x").
_NOT_PROSE_RE = re.compile(r"(?i)^\s*(?:select|insert|update|delete|with|create|alter|drop)\b|^\s*[\w.-]+(?:\s*,\s*[\w.-]+)+\s*$|\w:\"")
# The characters of a message: words, punctuation, placeholders; not a setting (=), a path or URL (/), a query (*, =).
_PROSE_RE = re.compile(r"[\w\s.,;:!?'’\"()%{}\[\]#$\\-]*")


def _skeleton(lines: Sequence[str]) -> str:
    def blank(m: re.Match[str]) -> str:
        body = m.group(0).lstrip("fFrRbBuU")[1:-1]
        if " " not in body or len(_PROSE_WORD_RE.findall(body)) < 2 or not _PROSE_RE.fullmatch(body) or _NOT_PROSE_RE.search(body) or (
                "$" in body and m.group(0)[0] not in "fF`"):  # a shell string interpolates: its ${dir:a} is code
            return m.group(0)
        # What an f-string or a template literal interpolates stays, as '…'.format(x) and "…" % x keep it outside.
        said = "".join(re.split(r"[!:]", e, maxsplit=1)[0] for e in _FIELD_RE.findall(body)) if m.group(0)[0] in "fF`" else ""
        return "\x00" + said
    return re.sub("\x00+", "\x00", _LAYOUT_RE.sub("", _LITERAL_RE.sub(blank, " ".join(lines))))


def prose_or_layout_only(found: Apart) -> bool:
    """Whether the edit changes only strings of prose, the layout around them, or how a message is formatted."""
    # The run's own lines: a line that is only a string (a message wrapped onto its own line) is no code line of the edit.
    added, removed = found.run.added, found.run.removed
    return bool(added) and bool(removed) and "\x00" in (old := _skeleton(removed)) and old == _skeleton(added)


# Words that are values, not names: swapping one for another turns a value (a switch, a verdict), never renames.
_VALUE_WORDS = frozenset({"true", "false", "nil", "null", "none", "undefined", "yes", "no", "on", "off"})


def name_swapped_only(found: Apart) -> bool:
    """Whether the edit puts one called name where another stood and changes nothing else (``expand(x)`` →
    ``expandAll(x)``, ``ioutil.WriteFile`` → ``os.WriteFile``): an API moved or renamed, the commonest edit apart on
    ordinary history. A name that is a value — a constant or a variable passed, compared or assigned, not called or
    qualifying a call — is no rename: ``kSecAttrAccessibleWhenUnlocked`` → ``kSecAttrAccessibleAlways`` turns the line."""
    old, new = _TOKEN_RE.findall(one(found.removed)), _TOKEN_RE.findall(one(found.added))
    if len(old) != len(new):
        return False
    differ = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    if len(differ) != 1:
        return False
    at = differ[0]
    pair = (old[at], new[at])
    called = at + 1 < len(new) and new[at + 1] in ("(", ".", ":")
    return called and all(t[0].isalpha() or t[0] == "_" for t in pair) and not {t.lower() for t in pair} & _VALUE_WORDS and not opposite_names(*pair)


# Round 112: a name put for its opposite is no rename — the other of a pair the language's own words make (held-out 290's
# loom: ``try_acquire_write_lock`` → ``try_acquire_read_lock`` in ``try_write``, read as one name for another and left a
# note). An API renamed keeps what it does; a read for a write, a min for a max, an encrypt for a decrypt does the other.
_OPPOSITES = {frozenset(pair) for pair in (
    ("read", "write"), ("min", "max"), ("lower", "upper"), ("allow", "deny"), ("accept", "reject"), ("enable", "disable"),
    ("encrypt", "decrypt"), ("lock", "unlock"), ("open", "close"), ("before", "after"), ("start", "end"), ("first", "last"),
    ("grant", "revoke"), ("public", "private"), ("inc", "dec"), ("increment", "decrement"), ("add", "remove"), ("add", "sub"),
    ("push", "pop"), ("left", "right"), ("success", "failure"), ("encode", "decode"), ("sign", "verify"), ("include", "exclude"),
    ("shared", "exclusive"), ("safe", "unsafe"), ("secure", "insecure"), ("strict", "lenient"), ("all", "any"),
    ("filter", "exclude"), ("some", "every"))}  # round 120f: held-out 510's django-taggit, ``.filter(…)`` → ``.exclude(…)``
_NAME_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def opposite_names(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with one word put for its opposite (``try_acquire_write_lock`` → ``…read_lock``,
    ``getMaxValue`` → ``getMinValue``)."""
    a, b = ([w.lower() for w in _NAME_WORD_RE.findall(name)] for name in (old, new))
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    return len(differ) == 1 and frozenset(differ[0]) in _OPPOSITES


# Round 35: a run a formatter re-wrapped (rustfmt, black, prettier) keeps its tokens: only the whitespace between them
# moves, and a trailing comma goes or comes where a call's, a list's or a block's closing bracket stands on a line of its own
# (held-out 41: a benchmark's `criterion_main!(` / `x,` / `);` → `criterion_main!(x);`, raised by the floor ahead of the
# plant). A bare parenthesis's comma is kept: `("admin",)` is a tuple, `("admin")` a string.
_SPACE_RE = re.compile(r"\s+")
# A space stays between two words (`not x`) and between two operator characters (`a & &b` is not `a && b`).
_SPACE_KEPT_RE = re.compile(r"(?<=\w) (?=\w)|(?<=[-+*/%&|<>=!^~?:.]) (?=[-+*/%&|<>=!^~?:.])")
_CLOSER = {")": "(", "]": "[", "}": "{"}


def _wrapped_key(lines: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    kept: list[str] = []
    for i, line in enumerate(lines):
        line = line.strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.endswith(",") and nxt[:1] in _CLOSER:
            line = line[:-1] + "\x02"  # a trailing comma before a closer on its own line: dropped if its bracket is no bare group
        kept.append(line)
    text = " ".join(kept)
    strings = tuple(_LITERAL_RE.findall(text))
    code = _SPACE_KEPT_RE.sub("\x03", _SPACE_RE.sub(" ", _LITERAL_RE.sub("\x01", text))).replace(" ", "")
    out: list[str] = []
    opened: list[int] = []
    for ch in code:
        if ch in "([{":
            opened.append(len(out))
        elif ch in _CLOSER and opened:
            at = opened.pop()
            if out and out[-1] == "\x02" and not (ch == ")" and (at == 0 or not (out[at - 1].isalnum() or out[at - 1] in "_!>"))):
                out.pop()
        out.append(ch)
    return "".join(out).replace("\x02", ","), strings


def rewrapped_only(found: Apart) -> bool:
    """Whether the run keeps its tokens and their strings, its whitespace and a call's trailing comma aside."""
    added, removed = found.run.added, found.run.removed
    return bool(added) and bool(removed) and _wrapped_key(added) == _wrapped_key(removed)


# Round 35: an assertion added apart (`assert(…)`, `assert!`, `debug_assert!`, `Debug.Assert`, `precondition(…)`) only
# refuses more: held-out 52's `assert(\is_callable($canceller));`, raised by the floor beside a CI matrix, pushed the
# planted file out of the top 3.
_ASSERT_RE = re.compile(r"^\s*(?:assert|debug_assert|precondition|Debug\.Assert|Trace\.Assert)(?:!|_eq!|_ne!)?\s*\([^;]*\)\s*;?\s*$")


def asserts_only(found: Apart) -> bool:
    """Whether the run only adds assertions."""
    return not found.run.removed and bool(found.run.added) and all(_ASSERT_RE.match(line) for line in found.run.added)


def quiet_apart(found: Apart) -> bool:
    """An edit apart that tells only how a thing is said or named (a message re-worded, its layout, one name for another, a
    run re-wrapped), or that only adds an assertion."""
    return prose_or_layout_only(found) or name_swapped_only(found) or rewrapped_only(found) or asserts_only(found)


def _alone_in_its_file(runs: Sequence[Run], names: list[set[str]]) -> list[Apart]:
    """The small code edits that are the only run of their file and share no name with any other run (both sides)."""
    per_file = Counter(r.path for r in runs)
    seen = Counter(n for found in names for n in found)
    out: list[Apart] = []
    for run, mine in zip(runs, names):
        if per_file[run.path] != 1:
            continue
        code = _candidate(run)
        if code is None or not code[0] or not code[1]:
            continue  # an edit: both sides hold code
        own = _names((*code[0], *code[1]))
        if not own or any(seen[n] - (n in mine) > 0 for n in own):
            continue
        out.append(Apart(run, _quote(*code), tuple(code[0]), tuple(code[1])))
    return out


def _replacements(run: Run) -> frozenset[tuple[str, str]] | None:
    """The token replacements a small edit of code makes (``'`` → ``~c"``), or None when it is no small edit of code."""
    code = _candidate(run)
    if code is None or not code[0] or not code[1]:
        return None
    old, new = _TOKEN_RE.findall(" ".join(code[1])), _TOKEN_RE.findall(" ".join(code[0]))
    return frozenset((" ".join(old[i1:i2]), " ".join(new[j1:j2]))
                     for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if tag != "equal")


def _odd_in_sweep(runs: Sequence[Run]) -> list[Apart]:
    """In a sweep (every other run of code repeats a replacement), the one run whose replacement no other run makes."""
    edits = [(run, found) for run in runs if file_kind(run.path) in ("source", "example") and (found := _replacements(run))]
    if len(edits) <= _LEAST_SWEEP:
        return []
    made = Counter(pair for _, found in edits for pair in found)
    odd = [run for run, found in edits if any(made[pair] == 1 for pair in found)]
    if len(odd) != 1 or len(edits) - 1 < _LEAST_SWEEP:
        return []
    code = _candidate(odd[0])
    assert code is not None
    old, new = _centred_quote(code[1], code[0])
    return [Apart(odd[0], f"edit unlike the rest of the change: {old} → {new}", tuple(code[0]), tuple(code[1]))]


def _centred_quote(removed: Sequence[str], added: Sequence[str]) -> tuple[str, str]:
    old, new = centred(one(removed), one(added))
    return cut(old, _QUOTE_OLD), cut(new, _QUOTE_NEW)


def odd_edits(runs: Sequence[Run], quoted: Sequence[Apart], task: str = "") -> list[Apart]:
    """The edits that keep a change from being called low (see the module's doc), first per file: the quoted apart edits
    that could let more through, then a lone file's edit, then a sweep's odd run; at most one of each reading. An edit
    whose names the task says is the work asked for, not an odd one (as the apart reader has it)."""
    if len(runs) < 2:
        return []
    asked = _names([task]) if task else set()
    out = [a for a in quoted if _could_let_more(a)]
    names = [run_names(r) for r in runs]
    alone = [a for a in _alone_in_its_file(runs, names) if _could_let_more(a) and not _names((*a.added, *a.removed)) & asked]
    if len(alone) == 1:
        out += alone
    out += [a for a in _odd_in_sweep(runs) if _could_let_more(a) and not _names((*a.added, *a.removed)) & asked]
    return out


def apart_and_odd_edits(runs: Sequence[Run], task: str = "") -> tuple[dict[str, Apart], dict[str, Apart]]:
    """``relay.review.apart_edits.apart_edits``' (quoted, worth a look) with this module's odd edits added to the second
    (the first per file): what the packet and the bench's line rate read."""
    quoted, worth = apart_edits(runs, task)
    # A message re-worded apart from the change is still quoted, never worth a look for its words alone (round 13).
    worth = {path: found for path, found in worth.items() if not prose_or_layout_only(found)}
    found = apart_runs(runs, task)
    for odd in odd_edits(runs, found if len(found) <= _MOST_APART else [], task):
        worth.setdefault(odd.run.path, odd)
    return quoted, worth
