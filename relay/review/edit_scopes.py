"""Where a quoted edit stands: the name of its enclosing scope, said before the quote.

Why it exists: half the slipped lines no family names are domain meaning no word on the line gives away (``return true;
→ return false;``, a limit set to 0, a default turned on). Where the line stands says what it means: ``in
pkceRequired(): return true; → return false;``. Every quote of a small edit (``relay.review.small_edits``' whole-change
quote, ``relay.review.apart_edits``' edit apart, ``relay.review.odd_edits``' odd edit) says the name of the function,
method or class the run stands in; for a callable object's ``__call__``/``handle``/``invoke`` its class's name with it
(``FileAllowed.__call__()``), and for a line bound to a key or an assignment (an object literal's property, a config
schema's field) that key (``in idTokenSigningAlg: removed: .not('none')``).

And a low file whose change is bigger than a slip is no longer described by its size alone: when one of its runs edits
existing code and tells more by what it changes than every other run of the file (``relay.review.apart_edits.telling``:
a statement removed, a switch, number, comparison or verdict turned), that run is quoted with its scope (``edit (+7/-1),
notably in AddBuildOptions(): …"debug", bo.Debug, → …"debug", true,``).

The scope is found by scanning the new file back from the run to the nearest line of less indentation that heads a
function, method, class or binding (in any language: the scan and the heads come from round 12 part C's
``guarded_scopes``, branch lines12c); git's hunk header is not used (its default funcname picks the class line over an
indented method's, and a repository's attributes choose its driver). The new files are read from the workspace as
``relay.review.workflows`` reads a workflow: no symlink, inside the workspace, bounded; nothing the repository
configures runs. The quote decides nothing: no rule reads it; a scope takes room from the quote, never the reverse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar
from pathlib import Path

from relay.core.files import read_regular
from relay.review.apart_edits import Apart, Run, _candidate, _names, read_runs, same_code, telling
from relay.review.docs_samples import sample_lines
from relay.review.file_kinds import file_kind
from relay.review.small_edits import cut, quote_within

__all__ = ["Scopes", "head_of", "scope_of", "scoped_apart", "scoped_runs", "scoped_small_edits", "workspace_texts"]

T = TypeVar("T")
U = TypeVar("U")

# How far back a scope's head may stand from the edit.
_MOST_BACK = 400
# Files bigger than this are not read (a generated bundle); at most this many files read per change.
_MAX_BYTES = 1_000_000
_MAX_FILES = 60
_MAX_PICKED = 20
# A scope's name longer than this is cut (the quote keeps its room).
_MOST_NAME = 36

_CONTROL = frozenset("if for while switch catch elif else unless until return match when foreach using lock with do try".split())
# A scope's head, in any language: (kind, pattern); the name is the pattern's first group.
_HEAD_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fn", re.compile(r"^\s*(?:async\s+)?def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)")),  # Python, Ruby
    ("fn", re.compile(r"^\s*defp?\s+([a-z_]\w*[?!]?)")),  # Elixir
    ("class", re.compile(r"^\s*(?:(?:export|default|public|private|protected|internal|abstract|final|sealed|static|partial|open|data|pub)\s+)*"
                         r"(?:class|module|defmodule|trait|interface|struct|impl(?:<[^>]*>)?)\s+(?:[\w:.<>, ]+\s+for\s+)?([A-Za-z_][\w:.]*)")),
    ("fn", re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)")),  # Go
    ("fn", re.compile(r"^\s*(?:pub(?:\([\w ]+\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"\w+\"\s+)?fn\s+([A-Za-z_]\w*)")),  # Rust
    ("fn", re.compile(r"^\s*(?:[\w@]+\s+)*(?:func|fun)\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)")),  # Swift, Kotlin
    ("fn", re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)")),  # JS, PHP, Lua, shell
    ("fn", re.compile(r"^\s*(?:public|private|protected|static|final|abstract|\s)*function\s+&?([A-Za-z_]\w*)")),  # PHP methods
    ("fn", re.compile(r"^\s*(?:local\s+)?function\s+([\w.:]+)")),  # Lua
    ("fn", re.compile(r"^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::\s*[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)")),
    ("fn", re.compile(r"^\s*(?:[\w$.]+\.)?([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)")),  # obj.name = function
    ("fn", re.compile(r"^([A-Za-z_][\w-]*)\s*\(\)\s*\{")),  # shell
    # a brace method head: a return type or modifiers, a name, its parameters, maybe a brace (Java, C#, C, C++, TS)
    ("fn", re.compile(r"^\s*(?:[\w$<>\[\]?,.*&:]+\s+)+\*?&?([A-Za-z_$][\w$]*)\s*\([^;=]*\)\s*(?:const\s*)?(?:[:\-]>?\s*[\w<>\[\]?., |]+\s*)?"
                      r"(?:throws\s+[\w., ]+)?(?:where\s+.*)?\{?\s*$")),
    # a JS/TS class or object-literal method: a name, its parameters, a brace
    ("fn", re.compile(r"^\s*(?:(?:async|static|get|set|public|private|protected|override)\s+)*\*?([A-Za-z_$][\w$]*)\s*\([^;]*\)\s*(?::\s*[^={]+)?\{\s*$")),
)
# A line binding a name to what follows (an object literal's key, a schema's field, an assignment continued below).
_BINDING_RE = re.compile(r"^\s*(?:(?:export|const|let|var|final|static|readonly|pub|public|private|protected)\s+)*[\"']?([A-Za-z_$][\w$-]*)[\"']?\s*(?::(?!:)|=(?!=|>))\s*\S")
# A line that starts so is a statement, not a scope's head.
_STATEMENT_WORDS = frozenset("return new await throw else yield case echo print puts raise assert not and or go defer".split())
_CONSTANT_RE = re.compile(r"^\s*(?:(?:export|pub|public|private|static|final|const|let|var|readonly|define)\s+)*([A-Z][A-Z0-9_]{2,})\b\s*(?::[^=]+)?(?::=|=)")
# A scope whose name says only that it is called (a callable object's method): its class's name says what it does.
_CALLED = frozenset("__call__ call __invoke invoke handle perform execute run process apply".split())
# Kinds of file whose lines are prose, not code nested in scopes.
_PROSE_KINDS = frozenset({"docs", "data"})


@dataclass(frozen=True, slots=True)
class Scope:
    """One enclosing scope: its name and kind (``fn``, ``class``, ``key``: a binding)."""

    name: str
    kind: str


def _head(line: str, bindings: bool = False) -> Scope | None:
    first = line.split(None, 1)[0] if line.strip() else ""
    if first in _STATEMENT_WORDS or first.lower() in _CONTROL:
        return None
    for kind, rx in _HEAD_RES:
        m = rx.match(line)
        if m:
            name = re.split(r"[.:]+", m.group(1).rstrip(":."))[-1]
            if not name or name.lower() in _CONTROL:
                return None
            return Scope(name, kind)
    if bindings:
        m = _BINDING_RE.match(line)
        if m and m.group(1).lower() not in _CONTROL:
            return Scope(m.group(1), "key")
    return None


def head_of(line: str) -> str | None:
    """The name of the function or method a line heads, or None."""
    found = _head(line)
    return found.name if found is not None and found.kind == "fn" else None


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def scope_of(lines: Sequence[str], at: int, own: Sequence[str], added: bool = True) -> list[Scope]:
    """The scopes enclosing a run of the new file ``lines`` (innermost first, at most two): its added lines ``own`` start
    at line ``at`` (1-based), or, ``added`` False, its removed lines ``own`` stood after line ``at``. A binding (``key:``,
    ``name =``) counts only as the innermost scope: a function's name says more than a variable's it is assigned to."""
    code = [ln for ln in own if ln.strip()]
    cur = min((_indent(ln) for ln in code), default=0)
    i = min(at - 2 if added else at - 1, len(lines) - 1)
    stop = max(-1, i - _MOST_BACK)
    names: list[Scope] = []
    while i > stop and cur > 0:
        line = lines[i]
        i -= 1
        if not line.strip():
            continue
        ind = _indent(line)
        if ind >= cur:
            continue
        stripped = line.strip()
        if stripped[0] in "{})]" or stripped.startswith(("#", "//", "/*", "*", "--", "@", "end", "<")):
            continue  # a closing brace, a comment, a decorator or a tag: the scope's head is further up
        cur = ind
        found = _head(line, bindings=not names)
        if found:
            if found.kind == "key" and names:
                continue
            names.append(found)
            if len(names) == 2 or found.kind == "class":
                break
    return names


def _label(scopes: Sequence[Scope]) -> str:
    """How a quote says where it stands: ``pkceRequired()``, ``FileAllowed.__call__()``, ``Config``, ``idTokenSigningAlg``."""
    if not scopes:
        return ""
    inner = scopes[0]
    if inner.kind == "fn" and inner.name in _CALLED and len(scopes) > 1:
        name = f"{scopes[1].name}.{inner.name}()"
    else:
        name = f"{inner.name}()" if inner.kind == "fn" else inner.name
    return cut(name, _MOST_NAME)


class Scopes:
    """The scope label of each run, the new files read once each through ``text_of``."""

    def __init__(self, text_of: Callable[[str], str | None]) -> None:
        self._text_of = text_of
        self._files: dict[str, list[str] | None] = {}
        self._picked = 0

    def lines(self, path: str, picked: bool = False) -> list[str] | None:
        """The new file's lines (read once), or None when it is not read. ``picked``: a reader that asks only for the few
        runs its shape picked out (a check passed at once, a refusal list's entry) reads past the quotes' bound, within its
        own (round 102: rust-secp256k1's ``verify()`` was the 150th file of its change)."""
        if path not in self._files or (picked and self._files[path] is None and self._picked < _MAX_PICKED):
            reads = (path not in self._files and len(self._files) < _MAX_FILES) or (picked and self._picked < _MAX_PICKED)
            self._picked += int(picked and reads)
            text = self._text_of(path) if reads else None
            self._files[path] = text.splitlines() if text is not None else None
        return self._files[path]

    def label(self, run: Run) -> str:
        if file_kind(run.path) in _PROSE_KINDS:
            return ""  # a docs file's indentation is prose's ("Note: …" heads no scope)
        lines = self.lines(run.path)
        if not lines:
            return ""
        added = [ln for ln in run.added if ln.strip()]
        own = added or [ln for ln in run.removed if ln.strip()]
        for ln in own:  # the run edits a head or a constant itself: that is where it stands
            found = _head(ln)
            if found and found.kind != "key":
                return ""  # the quote shows the head already
            if _CONSTANT_RE.match(ln):
                return ""
        return _label(scope_of(lines, run.start, own, bool(added)))


# The room a quote's two sides take (old, new) and one side alone, as relay.review.apart_edits quotes them.
_OLD, _NEW, _ONE_SIDE = 34, 46, 80


def _body(added: Sequence[str], removed: Sequence[str], share: float, label: str = "", sides: tuple[str, str] = ("removed: ", "added: ")) -> str:
    """One run's edit quoted in ``share`` of a quote's room; a scope's label takes its room from the new side (read last, and
    the first a reason's cut takes anyway), never from the old side's view of what changed."""
    cost = len(label) + 5 if label else 0
    old_most = max(12, int(_OLD * share))
    new_most, side_most = max(16, int(_NEW * share) - cost), max(24, int(_ONE_SIDE * share) - cost)
    return quote_within(added, removed, old_most, new_most, side_most, sides)


def scoped_apart(found: Mapping[str, Apart], scopes: Scopes) -> dict[str, str]:
    """Path -> the edit apart's (or odd edit's) quote with its scope said: ``edit apart from the change in f(): A → B``."""
    out: dict[str, str] = {}
    for path, a in found.items():
        label = scopes.label(a.run)
        phrase, sep, _ = a.quote.partition(": ")
        if not label or not sep or not (a.added or a.removed):
            out[path] = a.quote
            continue
        out[path] = f"{phrase} in {label}: {_body(a.added, a.removed, 1.0, label, ('', ''))}"
    return out


def scoped_runs(runs: Sequence[Run], scopes: Scopes) -> dict[str, str]:
    """Path -> what a run read alone found (``apart_edits.read_runs``); a turned value's quote says the scope it stands in
    (``turns true into false in pkceRequired(): return true; → return false;``)."""
    found = read_runs(runs)
    turned = scoped_apart({p: a for p, (_, a) in found.items() if a is not None}, scopes)
    return {p: turned.get(p, said) for p, (said, _) in found.items()}


# A file's whole change is small when it is at most this many runs of at most this many changed lines (as
# relay.review.small_edits has it); past it, one run may still be quoted when it tells more than the others.
_MOST_RUNS = 2
_MOST_LINES = 3
# The least a run must tell (``apart_edits.telling``: 2 a call changed, 3 a switch or comparison turned, 4 a statement
# removed) to be quoted for a bigger change, and the most runs such a file may hold (past it the change is a sweep).
_LEAST_TELLING = 2
_MOST_BIG_RUNS = 12
_CODE_KINDS = frozenset({"source", "example"})


def scoped_small_edits(runs: Sequence[Run], scopes: Scopes) -> dict[str, str]:
    """Path -> the quote of its change with each run's scope said: the whole change when it is small (at most
    ``_MOST_RUNS`` runs holding ``_MOST_LINES`` changed lines), else (a code file) the one run that edits existing code and
    tells more than every other run of the file, said to be one of several (``notably in f(): A → B``)."""
    by_path: dict[str, list[Run]] = {}
    for run in runs:
        by_path.setdefault(run.path, []).append(run)
    out: dict[str, str] = {}
    for path, file_runs in by_path.items():
        edits = [(r, [ln for ln in r.added if ln.strip()], [ln for ln in r.removed if ln.strip()]) for r in file_runs]
        edits = [(r, a, d) for r, a, d in edits if a or d]
        if not edits:
            continue
        if len(edits) <= _MOST_RUNS and sum(len(a) + len(d) for _, a, d in edits) <= _MOST_LINES:
            parts = []
            for r, a, d in edits:
                label = scopes.label(r)
                parts.append((f"in {label}: " if label else "") + _body(a, d, 1.0 / len(edits), label))
            out[path] = "; ".join(parts)
            continue
        if file_kind(path) == "docs" and len(edits) <= _MOST_BIG_RUNS:
            if (sample := _telling_sample(r for r, _, _ in edits)) is not None:
                out[path] = "notably in a sample: " + _body(*sample, 1.0, "")
            continue
        if file_kind(path) not in _CODE_KINDS or len(edits) > _MOST_BIG_RUNS:
            continue
        told = []
        for r, _, _ in edits:
            r = _edited_head(r)
            code = _candidate(r)
            if code is None or not code[1] or same_code(r.path, *code):
                continue  # not a small edit of code, or new lines only (the work written, not code changed)
            told.append((telling(Apart(r, "", tuple(code[0]), tuple(code[1]))), r, code))
        if not told:
            continue
        if (alone := _standout(told, _LEAST_TELLING)) is None:
            continue  # nothing tells, or two runs tell alike: none stands out
        r, (a, d) = alone
        label = scopes.label(r)
        out[path] = "notably " + (f"in {label}: " if label else "") + _body(a, d, 1.0, label)
    return out


def _telling_sample(runs: Iterable[Run]) -> tuple[list[str], list[str]] | None:
    """The one run of a docs page's bigger change whose sample lines are edited in place and tell more than every other
    run's (a string counts: a sample's address or a package's name is what the reader copies), as (added, removed): the
    line a reader would have to find among the page's sentences (blind 95's libsodium.js README: ``const nonce =
    sodium.randombytes_buf(…)`` → ``new Uint8Array(…)`` stood among 24 changed lines, said as "docs edited")."""
    told: list[tuple[int, list[str], list[str]]] = []
    for run in runs:
        added, removed = sample_lines(run.added), sample_lines(run.removed)
        if not added or not removed or len(added) > _MOST_LINES or len(removed) > _MOST_LINES or added == removed:
            continue  # new or dropped samples (the page's work), or a block rewritten: not a line changed in place
        told.append((telling(Apart(run, "", tuple(added), tuple(removed))), added, removed))
    return _standout(told, 1)


def _standout(told: Sequence[tuple[int, T, U]], least: int) -> tuple[T, U] | None:
    """The one (run, lines) that tells more than every other, at least ``least``; None when none does or two tie."""
    best = max((score for score, _, _ in told), default=0)
    top = [(a, b) for score, a, b in told if score == best]
    return top[0] if best >= least and len(top) == 1 else None


def _edited_head(run: Run) -> Run:
    """A run that edits a line or two and then writes new code after them (``git diff`` joins the two when they touch:
    pyotp's ``return utils.strings_equal(…)`` → ``return str(otp) in …`` followed by a new method) read as the edit alone:
    its removed lines against as many added lines at its head (or tail), when those share most of their names."""
    removed = [ln for ln in run.removed if ln.strip()]
    if not removed or len(removed) > _MOST_LINES or len(run.added) <= len(run.removed) + 2:
        return run
    n = len(run.removed)
    for part, start in ((run.added[:n], run.start), (run.added[-n:], run.end - n + 1)):
        old, new = _names(removed), _names(part)
        if old and len(old & new) * 2 >= len(old | new) and part != tuple(run.removed):
            return Run(run.path, start, start + n - 1, tuple(part), run.removed)
    return run


def workspace_texts(workspace: Path | None) -> Callable[[str], str | None]:
    """A reader of the new files' texts in the workspace: None for a symlink, a file outside it, or one too big."""
    root = workspace.resolve() if workspace is not None else None

    def read(rel: str) -> str | None:
        if root is None:
            return None
        path = root / rel
        try:
            if not path.resolve().is_relative_to(root):
                return None
            data = read_regular(path, _MAX_BYTES + 1)  # a regular file only, never through a link, never a FIFO
        except (OSError, ValueError):
            return None
        if len(data) > _MAX_BYTES:
            return None
        return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")  # as read_text reads

    return read
