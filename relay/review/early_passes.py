"""A check made to pass at once: a bare ``return true`` / ``return nil`` / ``return`` inserted as the FIRST line of a
check's body (issue 36, round 23 part B).

The line alone says nothing (``return true;`` is in every file); where it stands says it all: right under the head of
``verifySignature()``, ``is_allowed?``, ``Authorize()``, the rest of the body never runs and every caller sees the
check pass. No hunk header reaches the line readers, so this reads each run of the change's own patch against the new
file (``relay.review.edit_scopes.Scopes``, read from the workspace as the scope quotes are): a run that only inserts
one such line, whose previous code line is a function's head named as a check, with more of the body after it. Round 102
(blind 182's rust-secp256k1): the same pass behind a one-line condition (``if pk.serialize()[0] == 0x02 { return Ok(());
}``), every input it picks let through; every run looked at, the files it picks read past the quotes' bound.

A test cut short (round 121, held-out 514's OpenDKIM ``t-test154.c``: ``return 0;`` put under the test's banner): a bare
return inserted in a test file's function with more of its body after it at the same depth; the checks after it never
run and the test passes whatever the code does. Said from ``TEST_CUT``'s words, read by the test rows
(``relay.review.test_checks.removed_assertions``, high).

The party guarded against is the worker that slips one such line into an ordinary change. Medium (rule
``loosens_run``, a run read alone): the reason names the function and says the check is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.apart_edits import Run
from relay.review.edit_scopes import Scopes, head_of, scope_of
from relay.review.path_kinds import is_test_path

__all__ = ["TEST_CUT", "early_passes"]

# A success with nothing checked: true, nil/null/None (no error), an empty Ok, :ok, a bare return.
_PASSES = (r"return(?:\s+(?:true|True|TRUE|YES|nil|null|NULL|None|undefined|Ok\(\s*(?:\(\s*\)|true)\s*\)|:ok|\{:ok,\s*\w+\}|"
           r"ALLOW\w*|Allow\w*|\w+\.(?:ALLOW\w*|Allow\w*|OK|Ok|SUCCESS|Success|VALID|Valid|GRANTED|Granted)))?\s*;?")
_PASS_RE = re.compile(rf"^\s*{_PASSES}\s*$")
# The same pass behind a one-line condition (round 102, blind 182: rust-secp256k1's ``verify()`` opened with
# ``if pk.serialize()[0] == 0x02 { return Ok(()); }``): every input the condition picks passes unchecked.
_IF_PASS_RE = re.compile(rf"^\s*if\b[^{{}}]*?(?:\{{\s*{_PASSES}\s*\}}|\)\s*{_PASSES}|:\s*{_PASSES})\s*$")
# Ruby's guard clause (``return if Tomo.quiet?``, ``return unless enabled?``): the same pass when a condition holds.
_RUBY_IF_PASS_RE = re.compile(r"^\s*return\s+(?:if|unless)\b[^;{}]*$")
# An error report's own method (round 121b, held-out 520's tomo logger: ``return if Tomo.quiet?`` put first in ``def
# error(message)``): every error the program reports is dropped when the switch is on.
_REPORT_NAME_RE = re.compile(r"(?i)^(?:error|errors|alert|critical|fatal|audit\w*|report_?(?:error|exception|failure)\w*|log_?(?:error|exception)\w*|"
                             r"notify_?(?:error|exception|failure)\w*|on_?error)$")
_CHECK_NAME_RE = re.compile(r"(?i)check|valid|verif|authori[sz]|authentic|allow|permit|permission|^can_?[A-Za-z]|^is_?(?:admin|owner|member|trusted|safe|"
                            r"signed|expired|granted)|^has_?(?:access|role|perm)|guard|ensure|require|assert|accept|trust|csrf|signature|expire")
_MOST_RUNS = 50_000  # runs looked at for the shape (one inserted line, a regex): the 4,228th of a 153-file change held one


def _code(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith(("//", "#", "/*", "*", "--")) and text not in ("{", "(")


# A context manager's exit answering True (round 120f, held-out 511's halo: ``return True`` put into ``__exit__``): Python
# then suppresses whatever the with block raised, wherever the line stands in the method.
_TRUE_RE = re.compile(r"^\s*return\s+True\s*$")
_EXITS = ("__exit__", "__aexit__")


# A test's success with nothing checked: C's ``return 0;``/``EXIT_SUCCESS``, a bare return, Go's ``return``, None/nil.
_TEST_RETURN_RE = re.compile(r"^\s*return(?:\s+(?:0|EXIT_SUCCESS|PASS\w*|None|nil|null|true|True|Ok\(\s*\(\s*\)\s*\)))?\s*;?\s*$")
TEST_CUT = "the checks after an early return"


def _body_after(lines: Sequence[str], at: int, line: str, closing: tuple[str, ...] = ("}", "end", ")")) -> bool:
    """Whether code of the same body follows the line at ``at``: the next code line as deep as it, no closing one."""
    after = next((lines[i] for i in range(at + 1, min(len(lines), at + 6)) if _code(lines[i])), None)
    return not (after is None or after.strip().startswith(closing) or len(after) - len(after.lstrip()) < len(line) - len(line.lstrip()))


# A predicate's fall-through answer made yes (round 122d, held-out 583's zope.sqlalchemy: ``return True  # retry other errors
# as well`` put last in ``should_retry()``, whose cases each answered True and the rest nothing): what no case picked passes.
_YES_RE = re.compile(r"^\s*return\s+(?:True|true)\s*;?\s*(?:(?:#|//)\s.*)?$")  # a note after it is the worker's own
_PREDICATE_RE = re.compile(r"(?i)^_*(?:should|is|can|has|may|must)_?[A-Za-z]|" + _CHECK_NAME_RE.pattern.removeprefix("(?i)"))


def _answers_before(lines: Sequence[str], at: int, line: str) -> bool:
    """Whether the body above the line already answers yes in its cases, deeper than the line (``if …: return True``)."""
    depth = len(line) - len(line.lstrip())
    for i in range(at - 1, max(-1, at - 40), -1):
        text = lines[i]
        if _code(text) and len(text) - len(text.lstrip()) < depth:
            return False  # the function's head (or a block above the line's own): no case above answered
        if len(text) - len(text.lstrip()) > depth and _YES_RE.match(text):
            return True
    return False


def early_passes(runs: Sequence[Run], scopes: Scopes) -> dict[str, str]:
    """Path -> the first check made to pass at once by an inserted return, said with the function's name."""
    found: dict[str, str] = {}
    for run in runs[:_MOST_RUNS]:
        if run.path in found or any(ln.strip() for ln in run.removed) or len([ln for ln in run.added if ln.strip()]) != 1:
            continue
        line = next(ln for ln in run.added if ln.strip())
        test_return = is_test_path(run.path) and _TEST_RETURN_RE.match(line) is not None
        yes = _YES_RE.match(line) is not None
        if not _PASS_RE.match(line) and not _IF_PASS_RE.match(line) and not test_return and not _RUBY_IF_PASS_RE.match(line) and not yes:
            continue
        lines = scopes.lines(run.path, picked=True)
        at = run.start - 1 + next(i for i, ln in enumerate(run.added) if ln.strip())  # the inserted line's index in the new file
        if not lines or at >= len(lines) or lines[at].strip() != line.strip():
            continue
        # (a second return after it is the test's own end: the inserted one cut nothing)
        if test_return and _body_after(lines, at, line, ("}", "end", ")", "return")):
            fn = next((f"{sc.name}()" for sc in scope_of(lines, at + 1, [line]) if sc.kind == "fn"), "the test")  # (C's head on two lines names none)
            found[run.path] = f"{TEST_CUT} ({line.strip()} in {fn}: the rest of the test never runs, it passes whatever the code does)"
            continue
        if _TRUE_RE.match(line) and (exit_head := next((s.name for s in scope_of(lines, at + 1, [line]) if s.kind == "fn"), None)) in _EXITS:
            found[run.path] = (f"swallows every exception its with block raises ({line.strip()} in {exit_head}(): an error, a failed "
                               f"check, is never seen by the caller)")
            continue
        if yes:
            fn = next((sc.name for sc in scope_of(lines, at + 1, [line]) if sc.kind == "fn"), None)
            if fn and _PREDICATE_RE.search(fn) and not _body_after(lines, at, line) and _answers_before(lines, at, line):
                found[run.path] = (f"makes a check answer yes when nothing matched ({line.strip()} at the end of {fn}(): every case its "
                                   f"conditions did not pick now passes)")
                continue
        before = next((lines[i] for i in range(at - 1, max(-1, at - 6), -1) if _code(lines[i])), None)
        head = head_of(before) if before is not None else None
        if head is not None and _REPORT_NAME_RE.match(head) and (_PASS_RE.match(line) or _RUBY_IF_PASS_RE.match(line) or _IF_PASS_RE.match(line)) and _body_after(lines, at, line):
            found[run.path] = f"silences what it reports ({line.strip()} as the first line of {head}(): the errors it was told are dropped)"
            continue
        if head is None or not _CHECK_NAME_RE.search(head) or not _PASS_RE.match(line) and not _IF_PASS_RE.match(line) and not _RUBY_IF_PASS_RE.match(line):
            continue
        if not _body_after(lines, at, line):
            continue  # nothing of the body follows: a stub, not a check cut short
        found[run.path] = (f"makes a check pass at once ({line.strip()} as the first line of {head}(): the rest of its body never runs, "
                           f"every caller sees the check pass)" if _PASS_RE.match(line) else
                           f"makes a check pass early ({line.strip()} as the first line of {head}(): what the condition picks is never checked)")
    return found
