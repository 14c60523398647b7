"""A small edit apart from the rest of the change: the line a worker slips in beside the work it was asked to do.

Why it exists: the family readers (``relay.review.risky_lines`` and the others) know risky shapes; a line slipped into an
ordinary change is often risky only by what it means in its project (a pattern widened, an unknown value mapped to
Allow, a count capped). What gives it away is where it stands: one run of 1-3 changed lines of code that shares
(almost) no name with any other run of the change, nor with the leader's task. What counts as apart:

- a run of changed lines (``git diff -U0``'s hunk) of a source or example file, at most ``_MOST_LINES`` lines a side once
  blank lines, comments, imports, bare strings (docstrings, messages) and version strings are left out;
- that edits code (a value, a condition, a call, a return, a statement removed or moved), not formatting (the same squeezed,
  in the same order, at the same indentation where the language reads it);
- whose names (identifiers of three or more characters, keywords left out) occur in no other run of the change (both
  sides of every other run, every file) but for ``_SHARED_SHARE`` of them, and in none of the task's words;
- beside a rest of the change at least twice its size, and with at most ``_MOST_APART`` such runs in the change (a
  scatter of small edits has no one edit apart: quoting them all would be noise).

Such an edit is quoted (``old → new``, ``removed: …``) as a note that decides no risk; it is worth a look (medium) only
when it shares no name at all, could let more through (``weakens``) and stands beside ``_WORTH_REST`` changed lines or
more. The two settings were chosen on their cost on ordinary history and their gain on the planted sets
(``bench/bench_apart_edits.py``; bench/LEDGER.md, round 10 part A).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from relay.observe.changes import HUNK_CHARS
from relay.observe.patch import split_patch
from relay.review.docs_samples import sample_lines
from relay.review.file_kinds import file_kind, line_filter
from relay.review.line_shapes import IMPORT_RE, TRAILING_COMMENT_RE as _TRAILING_COMMENT_RE, squeezed
from relay.review.looser_checks import looser_check
from relay.review.range_hunks import cut_hunks
from relay.review.requirement_notes import requirement_note
from relay.review.small_edits import centred, cut, one
from relay.review.subtle_turns import rejection_in_run
from relay.review.guard_defaults import guard_turn
from relay.review.value_turns import value_turn

if TYPE_CHECKING:  # the check reads them; the facts module needs nothing of this one
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["Apart", "Run", "apart_edits", "apart_runs", "edit_apart", "looser_run", "looser_runs", "note_apart", "read_runs", "runs_of_patch", "same_code",
           "telling", "weakens"]

# A planted line is one to three lines; an edit of more is work, not a slip.
_MOST_LINES = 3
# Past this many apart runs the change is a scatter of small edits (a release, a sweep), not one edit apart.
_MOST_APART = 2
# The share of a run's names that may occur elsewhere in the change (a parameter's name used all over a file).
_SHARED_SHARE = 0.34
# The changed lines the rest of the change must hold: a slip hides in work; a change of two small edits is the work.
_LEAST_REST = 0
# The rest of the change an edit apart must stand beside to be worth a look (medium), not only quoted.
_WORTH_REST = 20
# The kinds of file whose lines are code a slipped line changes the meaning of.
_CODE_KINDS = frozenset({"source", "example"})

_NAME_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_STRING_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`")
# A line that is only a string (a docstring's line, a message continued) or only a version.
_BARE_STRING_RE = re.compile(r"""^\s*(?:[rbfuRBFU]{0,2}(?:\"\"\"|'''|\"|'|`)).*$""")
_VERSION_RE = re.compile(r"""(?i)version|\b\d+\.\d+\.\d+\b""")
# Words every language's code is made of: sharing them says nothing.
_KEYWORDS = frozenset("""
and any array assert async await begin bool boolean break byte case catch char class const continue def default defer delete
dict do double elif else elsif end ensure enum err error except export extends false fil final finally float fmt for foreach
from func function get go guard if impl import in instanceof int interface is isinstance len let list long loop map match
mod module mut new nil none not null object of or package pass priv private protected pub public raise readonly rescue
return self set static str string struct super switch this throw throws true try type typeof undefined unless until use
val var void when where while with yield string bytes len new make append nullptr auto inline virtual override
""".split())


@dataclass(frozen=True, slots=True)
class Run:
    """One run of changed lines of one file: where it stands in the new file and its lines (no sign)."""

    path: str
    start: int
    end: int
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Apart:
    """A run found apart from its change: the run, its code lines and the quote a reason gives of it."""

    run: Run
    quote: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


def runs_of_patch(patch: bytes) -> list[Run]:
    """Every run of changed lines of a patch (a run's range as ``relay.review.range_hunks`` counts it), its lines as
    observation keeps them (``relay.observe.kept_lines``)."""
    runs: list[Run] = []
    for section in split_patch(patch)[1]:
        if section.binary is not None:
            continue
        hunks = [h.decode("utf-8", "replace") for h in section.hunks]
        runs.extend(Run(section.path, h.start, h.end, h.added, h.removed)
                    for h in cut_hunks(hunks, None, context=0, text=False, kept=HUNK_CHARS))
    return runs


_TMP_PART_RE = re.compile(r"^\s*['\"](?:/tmp|/var/tmp|/dev/shm)/?['\"]\s*,?\s*$")


def _code(path: str, lines: Sequence[str], most: int | None = None) -> list[str]:
    """The lines that are code; with ``most``, the first ``most`` of them only (a caller that wants few stops reading)."""
    keep = line_filter(path)
    # A bare string is a docstring's or a list's line; one that names the shared temp folder is a path's part (round 76).
    code = (ln for ln in lines if keep(ln) and not IMPORT_RE.match(ln) and not (_BARE_STRING_RE.match(ln) and not _TMP_PART_RE.match(ln)) and not prose(ln)
            and not requirement_note(ln))  # a specification's note kept for its own reader (round 122) says, it does not do
    return list(code if most is None else itertools.islice(code, most))


# A line of prose inside a docstring or heredoc opened outside the run (an Elixir ``@moduledoc``'s "* `realm` - The realm
# to use"): words, four or more in a row that are not the code words a condition is written with, and none of the marks
# code is written with (a call, an assignment, a block, a comparison, a pipe, a variable).
_CODE_MARKS_RE = re.compile(r"[(){}\[\];=<>|&$]")
_PLAIN_WORD_RE = re.compile(r"[A-Za-z][a-z]*[,.:]?")
_CODE_WORDS = frozenset("if unless and or not return then else elif end do is in raise when while until def fn let var".split())


def prose(line: str) -> bool:
    """Whether a changed line reads as prose, not code (strings left out: a message's words are the code's)."""
    text = _STRING_RE.sub(" ", line)
    if _CODE_MARKS_RE.search(text):
        return False
    run = 0
    for word in text.split():
        run = run + 1 if _PLAIN_WORD_RE.fullmatch(word) and word.rstrip(",.:").lower() not in _CODE_WORDS else 0
        if run >= 4:
            return True
    return False


def _names(lines: Iterable[str]) -> set[str]:
    return {n.lower() for ln in lines for n in _NAME_RE.findall(_STRING_RE.sub(" ", ln)) if len(n) >= 3} - _KEYWORDS


# A run's spoken names and its code lines are asked for by each reading of the change's runs (apart, worth a look, odd,
# scoped: five or more per review, twice when a task is given): read once a run. Bounded: a review's runs, not a server's.
@functools.lru_cache(maxsize=4096)
def run_names(run: Run) -> frozenset[str]:
    """The names a run uses in its code (``_spoken``): what another run of the change shares with it."""
    return frozenset(_names(_spoken(run.path, (*run.added, *run.removed))))


# A line, or the end of one, that is a comment: it says a name, it does not use it. A preprocessor line is code.
_COMMENT_LINE_RE = re.compile(r"^\s*(?:#(?!(?:include|define|if|ifdef|ifndef|elif|else|endif|pragma|import|undef|region|endregion)\b|!|\[|\{)|//|/\*|\*|--\s|<!--|;;|'(?=\s))")
_DOC_QUOTES_RE = re.compile(r'"""|\'\'\'')


def _spoken(path: str, lines: Iterable[str]) -> list[str]:
    """The lines of a run whose names count as used by the change: code, not what the change only says. A comment, a
    docstring's prose, a docs file's text name what they like: a worker that mentions a slipped line's names there must
    not make the line part of the work (the party guarded against writes those too)."""
    if file_kind(path) == "docs":
        return []
    out: list[str] = []
    prose = False
    for line in lines:
        marks = len(_DOC_QUOTES_RE.findall(line))
        if prose or marks:
            prose = prose != (marks % 2 == 1)
            continue  # a docstring's lines (the opening and closing ones too): prose
        if _COMMENT_LINE_RE.match(line):
            continue
        out.append(_TRAILING_COMMENT_RE.sub("", _STRING_RE.sub('""', line)))
    return out


# Languages whose indentation is meaning: a line moved out of its block is an edit, not a formatter's run.
_INDENTED = (".py", ".pyi", ".pyw", ".yml", ".yaml", ".coffee", ".nim", ".haml", ".pug", ".sass", ".slim", ".fs", ".hs")


def _layout(path: str, lines: Sequence[str]) -> list[str]:
    """Lines as a formatter cannot change them, in their order (two statements swapped is an edit: a check moved after
    what it guards), with their indentation where the language reads it (a ``return`` moved out of its ``if``)."""
    indented = path.lower().endswith(_INDENTED)
    return [(ln[: len(ln) - len(ln.lstrip())].expandtabs(4) if indented else "") + squeezed(ln) for ln in lines]


_EMPTY_INTERFACE_RE = re.compile(r"\binterface\s*\{\s*\}")


def _plain(lines: Sequence[str]) -> list[str]:
    """Lines without a trailing comment, Go's empty interface said as ``any`` (the same type since Go 1.18)."""
    return [_EMPTY_INTERFACE_RE.sub("any", _TRAILING_COMMENT_RE.sub("", ln)) for ln in lines]


def same_code(path: str, added: Sequence[str], removed: Sequence[str]) -> bool:
    """Whether a small edit changes no code: a trailing comment added or edited (a linter's ``// @phpstan-ignore``), or
    Go's ``interface{}`` spelled ``any``; such an edit is never quoted as one apart (a sweep of them is still a sweep)."""
    return _layout(path, _plain(added)) == _layout(path, _plain(removed))


@functools.lru_cache(maxsize=4096)
def _candidate(run: Run) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The run's code lines (added, removed) when it is a small edit of code; None otherwise."""
    if file_kind(run.path) not in _CODE_KINDS or "version" in run.path.rsplit("/", 1)[-1].lower():
        return None  # not code, or a file that holds the version (paramiko's _version.py: a release moves it)
    if len(run.added) > _MOST_LINES + 2 or len(run.removed) > _MOST_LINES + 2:
        return None  # a bigger run whose code lines are few (a comment block and a line): written, not slipped
    added, removed = _code(run.path, run.added), _code(run.path, run.removed)
    if not (added or removed) or len(added) > _MOST_LINES or len(removed) > _MOST_LINES:
        return None
    if _layout(run.path, added) == _layout(run.path, removed):
        return None  # formatting
    if any(_VERSION_RE.search(ln) for ln in (*added, *removed)):
        return None
    return tuple(added), tuple(removed)


# How much of a line a reason quotes (relay.review.small_edits centres an edit on what changed).
_QUOTE_CHARS = 80
_QUOTE_OLD, _QUOTE_NEW = 34, 46


def _quote(added: Sequence[str], removed: Sequence[str]) -> str:
    """The reason: the edit quoted (``old → new``, ``removed: …``, ``added: …``), said to stand apart."""
    if added and removed:
        old, new = centred(one(removed), one(added))
        return f"edit apart from the change: {cut(old, _QUOTE_OLD)} → {cut(new, _QUOTE_NEW)}"
    if removed:
        return f"removed apart from the change: {cut(one(removed), _QUOTE_CHARS)}"
    return f"added apart from the change: {cut(one(added), _QUOTE_CHARS)}"


def edit_apart(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``edit_apart``'s check: this file's edit apart, worth a look, read with the whole change."""
    return ctx.apart_worth.get(f.change.path)


def note_apart(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``note_apart``'s check: this file's edit apart, quoted, read with the whole change."""
    return ctx.apart.get(f.change.path)


def apart_runs(runs: Sequence[Run], task: str = "", share: float | None = None, rest: int | None = None) -> list[Apart]:
    """Every run of a change that stands apart from the rest of it (see the module's doc), in the change's order."""
    if len(runs) < 2:
        return []
    names = [run_names(r) for r in runs]
    seen: dict[str, int] = {}
    for found in names:
        for n in found:
            seen[n] = seen.get(n, 0) + 1
    asked = _names([task]) if task else set()
    sizes = [sum(1 for ln in (*r.added, *r.removed) if ln.strip()) for r in runs]
    total = sum(sizes)
    least = _LEAST_REST if rest is None else rest
    out: list[Apart] = []
    for run, mine, size in zip(runs, names, sizes):
        if total - size < max(least, 2 * size):
            continue  # the rest is no bigger than the edit: the edit is the work
        code = _candidate(run)
        if code is None or same_code(run.path, *code):
            continue
        own = _names((*code[0], *code[1]))
        shared = sum(seen.get(n, 0) - (n in mine) > 0 for n in own)  # used by another run of the change
        if not own or shared > (_SHARED_SHARE if share is None else share) * len(own) or own & asked:
            continue
        out.append(Apart(run, _quote(*code), tuple(code[0]), tuple(code[1])))
    return out


def apart_edits(runs: Sequence[Run], task: str = "") -> tuple[dict[str, Apart], dict[str, Apart]]:
    """(the edits apart from the rest of the change, the few of them worth a look), by path (the first per file).

    The first are quoted, as a note that decides no risk: up to ``_MOST_APART`` runs sharing at most ``_SHARED_SHARE`` of
    their names (none when more: a scatter of small edits has no one edit apart). The second make their file medium:
    runs that share no name at all, that could let more through (``weakens``), in a change whose rest holds at least
    ``_WORTH_REST`` changed lines, at most ``_MOST_APART`` of them. bench/bench_apart_edits.py measures both settings'
    cost on ordinary history and gain on the planted sets (bench/LEDGER.md, round 10 part A)."""
    return (_by_path(apart_runs(runs, task), _MOST_APART),
            _by_path([a for a in apart_runs(runs, task, share=0.0, rest=_WORTH_REST) if weakens(a)], _MOST_APART))


def _by_path(found: list[Apart], most: int) -> dict[str, Apart]:
    """The edits to quote, one per file: the one that tells most by what it changes (the first of equals)."""
    out: dict[str, Apart] = {}
    for a in _most_telling(found, most):
        if a.run.path not in out or telling(a) > telling(out[a.run.path]):
            out[a.run.path] = a
    return out


# Past this many edits apart the change is a sweep (a release, a rename across files): none is quoted. Below it and past
# ``_MOST_APART``, a worker's decoys (two harmless edits beside the one that matters) must not hide the third: the most
# telling of them are quoted, by what they change.
_SCATTER = 6
# What an edit changes, most telling first: a statement removed, a comparison, condition or constant turned (``_TURNS_RE``),
# a call, a string; an edit that changes none of these (a name, formatting) tells least.
_TELLING_LEAST = 2
_CALL_RE = re.compile(r"[A-Za-z_$][\w$.]*\s*\(")


def telling(found: Apart) -> int:
    """How much an edit apart tells by what it changes (a line added: what it holds): 4 a statement removed, 3 a switch,
    number, comparison, negation, clause or verdict, 2 a call, 1 a string, 0 anything else (a name, formatting)."""
    if not found.added:
        return 4

    def counted(pattern: re.Pattern[str], lines: Sequence[str]) -> Counter[str]:
        return Counter(pattern.findall(" ".join(_STRING_RE.sub(" ", ln) for ln in lines)))
    if counted(_TURNS_RE, found.added) != counted(_TURNS_RE, found.removed):
        return 3
    if counted(_CALL_RE, found.added) != counted(_CALL_RE, found.removed):
        return 2
    return int(Counter(_STRING_RE.findall(" ".join(found.added))) != Counter(_STRING_RE.findall(" ".join(found.removed))))


def _most_telling(found: list[Apart], most: int) -> list[Apart]:
    """The edits apart to quote: all when at most ``most``; else, up to ``_SCATTER``, the ones (at most ``most``) that tell
    more by what they change (``telling``; at least ``_TELLING_LEAST``) than every other, in the change's order; none past it."""
    if len(found) <= most:
        return found
    if len(found) > _SCATTER:
        return []
    scores = [telling(a) for a in found]
    # The edits that tell more than the first left out: when a decoy tells as much as the slip, none stands out.
    bar = max(sorted(scores, reverse=True)[most] + 1, _TELLING_LEAST)
    return [a for a, score in zip(found, scores) if score >= bar]


# What an edit that lets more through changes: a literal switch, a number (hex or grouped with ``_`` too: blind 93's entities
# bound ``0x10_ff_ff`` → ``0x10_ff_ff_ff`` had counted as nothing), a comparison, a negation, a string's value.
_TURNS_RE = re.compile(r"(?i)\b(?:true|false|none|nil|null|undefined|yes|no|on|off)\b|\w*(?:allow|deny|permit|accept|reject|grant|skip)\w*|\b0[xX][\da-fA-F_]+\b|\b\d[\d_]*(?:\.\d+)?\b|[<>]=?|[!=]==?|\bnot\b|!(?!=)|&&|\|\||\band\b|\bor\b")


def weakens(found: Apart) -> bool:
    """Whether the edit could let more through: a statement removed, or a switch, number, comparison, negation,
    clause, verdict (allow, deny, skip…) or string changed (read by what changed, not by which way: the direction is the domain's)."""
    if not found.added:
        return True
    if not found.removed:
        return False
    tokens = lambda lines: Counter(_TURNS_RE.findall(" ".join(_STRING_RE.sub(" ", ln) for ln in lines)))  # noqa: E731
    strings = lambda lines: Counter(_STRING_RE.findall(" ".join(lines)))  # noqa: E731
    return tokens(found.added) != tokens(found.removed) or strings(found.added) != strings(found.removed)


# A run read alone holds at most this many lines of code a side: past it, a rewrite.
_RUN_LINES = 6
# A docs run's lines read for a sample's (a page rewritten is read no further: linear in the run, bounded).
_SAMPLE_SCAN = 40
# Files whose runs are not read for a turned value (relay.review.value_turns): pins, a tool's output, tests (a docs
# page's runs are read in their code samples' lines alone: relay.review.docs_samples).
_NOT_TURNED_KINDS = frozenset({"lockfile", "generated", "test"})


def looser_runs(runs: Sequence[Run]) -> dict[str, str]:
    """Path -> "what it does: the line" for the first run of changed code of each file read as a check edited to pass
    more often, read alone: a file's own reading pairs its whole lines and gives up on a big edit (a typing pass over the
    file, rq's job.py in held-out 12); its runs (``git diff -U0``'s hunks) still each hold one edit. A run of any file
    but docs, lockfiles, tests and generated output that turns a value (``relay.review.value_turns``: ``-z`` → ``-n``, a
    flag dropped from a set, a secret for an environment variable) says what turned, so an edit apart is never only a note."""
    return {path: said for path, (said, _) in read_runs(runs).items()}


def read_runs(runs: Sequence[Run]) -> dict[str, tuple[str, Apart | None]]:
    """``looser_runs``' findings, each with the run a turned value stands in (None for a looser check): its quote is said
    again with the scope the run stands in (``relay.review.edit_scopes.scoped_apart``)."""
    out: dict[str, tuple[str, Apart | None]] = {}
    for run in runs:
        kind = file_kind(run.path)
        if run.path in out or kind in _NOT_TURNED_KINDS:
            continue
        if kind == "docs":  # a sample is what people copy: its code is read, the page's sentences are not
            added, removed = sample_lines(run.added[:_SAMPLE_SCAN]), sample_lines(run.removed[:_SAMPLE_SCAN])
            if added and removed and len(added) <= _RUN_LINES and len(removed) <= _RUN_LINES and (turn := value_turn(added, removed)):
                out[run.path] = (f"{turn} (in a docs sample)", Apart(run, turn, tuple(added), tuple(removed)))
            continue
        if kind not in _CODE_KINDS:  # a script, a build or CI file, a setting: a value turned is read there too
            if len(run.added) <= _RUN_LINES and len(run.removed) <= _RUN_LINES and (turn := value_turn(run.added, run.removed)):
                out[run.path] = (turn, Apart(run, turn, run.added, run.removed))
            continue
        # At most one code line past the bound is read a side: a run of 100,000 lines is no run of six.
        added, removed = _code(run.path, run.added, _RUN_LINES + 1), _code(run.path, run.removed, _RUN_LINES + 1)
        if len(added) > _RUN_LINES or len(removed) > _RUN_LINES:
            continue
        if added and removed and (found := looser_check(added, removed)):
            out[run.path] = (found[0], None)
        elif turn := guard_turn(added, removed) or value_turn(added, removed):  # round 25: a guard-named key's turn says the key
            out[run.path] = (turn, Apart(run, turn, tuple(added), tuple(removed)))
        elif removed and (opened := rejection_in_run(added, removed)):
            out[run.path] = (opened, None)
    return out


def looser_run(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule ``loosens_run``'s check: a run of this file read alone as a check made looser, unless the file's own
    reading named a looser check already (one reason for one line)."""
    found = ctx.looser_runs.get(f.change.path)
    if found is None or (f.edited_check and found.split(":", 1)[0] in f.edited_check[0]):
        return None
    return found
