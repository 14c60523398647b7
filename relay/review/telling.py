"""Where the ranking's finding sits in a file's change: its most telling ranges and hunk, and a window of a
hunk too big to show whole, placed around its most telling row.

A file's risk and reasons are decided on all its changed lines (``relay.review.risk.assess``). To point a
reviewer at the right place, each part of it (a range, a hunk, a row) is read alone by the same rules: the
part whose own reading comes closest to the file's (its risk, then how many of the file's reasons it gives
again) is the most telling, then the one that changes most, then the first. The packet names a file's most
telling ranges first (``relay.review.packet``); the review read (``relay.review.diff_view``) shows each
target's most telling hunk first and windows a big hunk around its most telling row; the view decides how
much room each gets (``relay.review.view_budget``).
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Protocol

from relay.core.contracts import FileChange
from relay.core.redact import redact
from relay.review.content_kinds import reading_paths_now
from relay.review.file_kinds import read_changes
from relay.review.guard_reading import removed_guard
from relay.review.lead_order import CLASSIC, GENERIC, QUOTED
from relay.review.leading_lines import parts_read
from relay.review.line_shapes import READ_LINES, squeezed
from relay.review.quote_pieces import QUOTE_LEAST, check_pieces, quoted_pieces
from relay.review.quote_pieces import described_pieces as _described
from relay.review.range_hunks import CONTEXT, RangeHunk, parse_lines, window
from relay.review.review_budget import over_budget
from relay.review.risk import RiskContext, assess, risk_rank
from relay.review.risky_lines import dangerous_call, risky_screen, unsafe_value

__all__ = ["Part", "SMALL_LINES", "cut_window", "holds_risky_line", "quoted_part", "quoted_parts", "read_alone", "read_quotes", "worded_quotes", "small_part", "telling_hunk",
           "telling_order"]

# A hunk too big for its room shows a window of it; the rows read to find where the window goes are bounded.
_WINDOW_SCAN = 400
# Each part is read alone on at most this many of its changed lines a side (fewer when a file has many
# parts, down to the least): a file's parts together may hold thousands of lines (a generated table),
# and a part that tells shows it in its first lines.
_PART_LINES = 100
_PART_LEAST = 20


class Part(Protocol):
    """A part of a file's change: the range it covers in the new file and its changed lines."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def added(self) -> Sequence[str]: ...

    @property
    def removed(self) -> Sequence[str]: ...


def _stem(reason: str) -> str:
    # "changes security-relevant code (paths: realpath)" and "...: (limits: n)" give the same reason.
    return reason.split(" (", 1)[0].split(":", 1)[0]


# The rows that read one risky line (relay.review.risky_lines, relay.review.guard_reading): the part that holds the
# line such a row named is the most telling part of its file, whatever else the file's other parts say.
LINE_RULES = frozenset({"unsafe_value", "dangerous_call", "removes_guard", "lookalike_dependency", "skips_security_test", "replaced_dependency",
                        "removes_guard_dependency", "weakens_check", "loosens_check", "loosens_run", "switches_off",
                        "edits_security_line", "downgrades_dependency", "edit_apart", "note_apart", "weakens_edit", "weakens_more",
                        # an edited pair's finding (relay.review.slipped_lines, dropped_bounds, lets_through) quotes its line too
                        "turns_down", "turned_line", "turned_check", "command_line",
                        # the changed line quoted when the other reasons say only a kind (relay.review.leading_lines)
                        "leading_line",
                        # the same quotes raised by the low change's floor (round 35: held-out 44's Base64 decode, raised, left the view)
                        "low_change_apart", "low_change_quote"}) | (
    # the readers that quote the line they read as worth a look (relay.review.lead_order.QUOTED, but the check lines quoted in
    # parentheses) and the line readers of a failure exit, a skip marker, a deciding token (session 33: a token's period
    # multiplied, a decapsulation's result discarded, a CA arm granted, each ranked first and named, were not in the view:
    # the view went to another hunk, or a window of the right one to a word reason's line)
    QUOTED - {"input_check", "length_guard"}) | {"deletes_failure_exit", "skip_marker", "deciding_turn"}
# The rows that read a line generically (relay.review.line_edits, a version moved down): worth a look, named after the family readers.
GENERIC_RULES = frozenset({"edits_security_line", "downgrades_dependency"})


def read_alone(change: FileChange | None, path: str, added: Sequence[str], removed: Sequence[str],
               span: tuple[int, int] | None = None) -> tuple[int, int, int]:
    """How the ranking reads these lines alone (the lines its rules read of them, as in the whole
    file's reading): (whether they give again a risky line the file's reasons name, their risk, how many
    of the file's reasons they give again)."""
    kind = change.kind if change is not None and change.kind in ("added", "modified", "renamed") else "modified"
    risk, rules, mine = _part_read(path, kind, tuple(added), tuple(removed), span)
    stems = {_stem(r) for r in change.reasons} if change is not None else set()
    # The part holding a line a line rule of the file named goes first, whatever its own risk read alone (a word elsewhere
    # in the file, high alone, must not push the quoted line out of the view); a line read generically counts only in a
    # file where no family reader named a line.
    named = {rule for rule in change.rules if rule in LINE_RULES} if change is not None else set()
    if named - GENERIC_RULES:
        named -= GENERIC_RULES
    lines = int(bool(named & rules))
    # The part that holds the very line such a reason quotes goes before one that only reads the same way alone: a line
    # whose finding needs the file around it (an attribute deleted, a pair edited across hunks) still leads the view.
    # The part holding the quoted line's new side before one holding only its old side (round 30: a block the change moved
    # away held the old line of a turned default, and its big hunk took the view from the hunk that turned it).
    if named and change is not None and (held := _holds_quote(change, named, added, removed)):
        lines = 1 + held
    return lines, risk_rank(risk), len(stems & mine)


# A part's reading alone, kept for the change set being read: the same part is read again and again (each view's order
# reads every part; a big hunk's window reads each of its rows alone, once in each view that shows the hunk: half the
# readings of a review of big hunks were repeats). It depends on the lines, path, kind and span, and on the change set's
# reading paths (relay.review.content_kinds: the table is that set's, its mapping held so its identity stays its own);
# never kept or taken once the review's CPU budget is spent (a reading past it is cut: relay.review.review_budget).
_PARTS_READ: list = [({}, {})]
_PARTS_KEPT = 20_000


def _part_read(path: str, kind: str, added: tuple[str, ...], removed: tuple[str, ...],
               span: tuple[int, int] | None) -> tuple[str, frozenset[str], frozenset[str]]:
    """(risk, rules, reason stems) of these lines read alone by the ranking, as in the whole file's reading."""
    now = reading_paths_now()
    held, table = _PARTS_READ[0]
    if held is not now or len(table) > _PARTS_KEPT:
        table = {}
        _PARTS_READ[0] = (now, table)
    key = (path, kind, added, removed, span)
    if (known := table.get(key)) is not None and not over_budget():
        return known
    ranges = [span] if span is not None else [(1, max(len(added), 1))]
    [part], partial = read_changes([FileChange(path=path, kind=kind, additions=len(added), deletions=len(removed), ranges=ranges,
                                               added_lines=list(added), removed_lines=list(removed))])
    with parts_read():
        found = assess(part, RiskContext(partial=partial))
    read = (found.risk, frozenset(found.rules), frozenset(_stem(r) for r in found.reasons))
    if not over_budget():
        table[key] = read
    return read


# The rows that quote the one check line they read in parentheses: "changes an input check (LINE)", "removes a length check
# (LINE)". Not a line rule (a refactor's own edited checks trip them as often): a file's second read line, after its line
# rules' quotes (round 27 part C: held-out 35's jwtauth, a dangerous value quoted first, the dropped clause of a token check
# quoted by "changes an input check (…)" in a 40-line hunk three hunks below, never shown).
CHECK_RULES = frozenset({"input_check", "length_guard"})
# A classic row's quote of an edited pair, "… (was OLD)", is a read of its shape (relay.review.lead_order).
_PAIR_READ = " (was "


def _kind(rule: str, reason: str) -> int:
    """What a reader's quoted line is, for the order of a file's read lines (``relay.review.lead_order``'s kinds): a line
    dangerous in itself (0), a line read by its shape (1: a deleted guard, an inverted or loosened check), an edit apart or
    another line rule's (2), an edit apart only noted (3), a check line quoted in parentheses (4)."""
    if rule in CLASSIC and _PAIR_READ not in reason:
        return 0
    if rule in CLASSIC or rule in GENERIC:
        return 1
    return 4 if rule in CHECK_RULES else 3 if rule == "note_apart" else 2


def _short_pairs(change: FileChange, named: set[str]) -> list[tuple[str, str]]:
    """The edits a reason quotes as "OLD → NEW" with both sides too short to place by a piece (``false → true``, ``0 → 1``):
    placed by whole lines instead, the old one removed and the new one added in one part."""
    pairs = []
    for reason, rule in zip(change.reasons, change.rules):
        if rule not in named or ": " not in reason:
            continue
        sides = redact(reason).split(": ", 1)[1].split(" (was ", 1)[0].split(" → ")
        if len(sides) == 2 and all("…" not in side and 0 < len(side.strip()) < QUOTE_LEAST for side in sides):
            pairs.append((squeezed(sides[0]), squeezed(sides[1])))
    return pairs


def _holds_pair(removed: Sequence[str], added: Sequence[str], pairs: list[tuple[str, str]]) -> str | None:
    """The new side of a short pair these lines turn (a removed line that is its old side, an added one its new side)."""
    if not pairs:
        return None
    old, new = {squeezed(line) for line in removed}, {squeezed(line) for line in added}
    return next((b for a, b in pairs if a in old and b in new), None)


def _groups(change: FileChange, named: set[str], *, checks: bool = False, any_reason: bool = False) -> list[list[str]]:
    """The pieces each reason of a ``named`` rule quotes, one list a reason, the riskiest reader's kind first (in the
    file's order among equals); ``checks``: the check lines quoted in parentheses too, last; ``any_reason``: a reason that
    quotes its line in parentheses alone ("adds a skip/focus marker (markTestSkipped()") quotes it too (round 32: a
    skipped escaping test ranked 2nd and its one-line hunk never reached the view)."""
    rows = [(1 if any_reason and rule in CHECK_RULES else _kind(rule, reason), n, quoted_pieces(reason) or (check_pieces(reason) if any_reason else [])
             if rule not in CHECK_RULES else check_pieces(reason))  # any_reason: a check's line before a word's (round 87: OWASP's `> m + 1`)
            for n, (reason, rule) in enumerate(zip(change.reasons, change.rules))
            if rule in named or (checks and rule in CHECK_RULES)]
    return [pieces for _, _, pieces in sorted(rows) if pieces]


def _pieces(change: FileChange, named: set[str], *, checks: bool = False) -> list[str]:
    return [piece for group in _groups(change, named, checks=checks) for piece in group]


def read_quotes(change: FileChange | None) -> list[str]:
    """Every piece of a line the file's reasons read, its line rules' (riskiest kind first) then its checks': where a
    window of a second read hunk goes (``relay.review.view_budget``)."""
    if change is None:
        return []
    named = {rule for rule in change.rules if rule in LINE_RULES}
    if named - GENERIC_RULES:
        named -= GENERIC_RULES
    return _pieces(change, named, checks=True)


def worded_quotes(change: FileChange | None) -> list[str]:
    """Every piece of a line any of the file's reasons quotes, a word reason's and one quoted in parentheses too: where a
    window of a word reason's big hunk goes (``relay.review.view_budget``)."""
    return [] if change is None else _pieces_any(change)


def _pieces_any(change: FileChange) -> list[str]:
    return [piece for group in _groups(change, set(change.rules), any_reason=True) for piece in group]


def _holds_quote(change: FileChange, named: set[str], added: Sequence[str], removed: Sequence[str]) -> int:
    """Whether these changed lines hold a line that a line rule of the file quotes in its reason: 2 among the added lines,
    1 among the removed ones only, 0 not."""
    pieces = _pieces(change, named)
    if not pieces:
        return 0
    # Joined without a break: a reason quotes a statement written over two lines as one ("if x.nil? raise E…").
    new = "".join(squeezed(line) for line in added)
    if any(piece in new for piece in pieces):
        return 2
    text = "".join(squeezed(line) for line in (*added, *removed))
    return int(any(piece in text for piece in pieces))


def _quoted_row(change: FileChange, lines: list, *, any_reason: bool = False) -> int | None:
    """The first changed row holding the line a line rule of the file quotes (a window of a big hunk goes there);
    ``any_reason``: a line any of its reasons quotes (a secret's, a word reason's)."""
    named = set(change.rules) if any_reason else {rule for rule in change.rules if rule in LINE_RULES}
    # The line the packet's reason names first is the one the leader is told to read: its window comes first, a generic
    # reader's too (round 42: "inverts a comparison in a security line", the slipped line, led the reason and the window
    # went to the edit apart quoted after it, 400 rows away).
    lead = quoted_pieces(change.reasons[0]) if not any_reason and change.rules and change.rules[0] in named else []
    if named - GENERIC_RULES and not any_reason:
        named -= GENERIC_RULES
    groups = ([lead] if lead else []) + _groups(change, named, any_reason=any_reason) + ([_described(change)] if any_reason else [])
    row = _row_of(lines, groups)
    if row is None and (turned := _holds_pair([ln.text[1:-1] for ln in lines if ln.sign == "-"],
                                              [ln.text[1:-1] for ln in lines if ln.sign == "+"], _short_pairs(change, named))):
        row = next(i for i, ln in enumerate(lines) if ln.sign == "+" and squeezed(ln.text[1:-1]) == turned)
    return row


def _quoted_above(change: FileChange | None, lines: list, row: int) -> int | None:
    """The first changed row above ``row`` holding a line one of the file's reasons quotes (in parentheses too: a workflow's
    `contents: write` its credentials reason quotes, above the curl line its leading line quotes, Password4j)."""
    if change is None:
        return None
    found = [at for group in _groups(change, set(change.rules), any_reason=True) if (at := _row_of(lines[:row], [group])) is not None]
    return min(found, default=None)


def _quoted_below(change: FileChange | None, lines: list, row: int) -> int | None:
    """The first changed row below ``row`` holding a line another of the file's reasons quotes."""
    if change is None:
        return None
    found = [row + 1 + at for group in _groups(change, set(change.rules), any_reason=True)
             if (at := _row_of(lines[row + 1:], [group])) is not None]
    return min(found, default=None)


def _row_of(lines: list, groups: list[list[str]]) -> int | None:
    """The first changed row (added ones first) holding a piece of the first group that any row holds (a file's riskiest
    read line before its first one: round 27 part C)."""
    rows = [squeezed(ln.text[1:-1]) for ln in lines]
    # An added row before a removed one: a hunk the commit rewrote whole holds the old check a screen above the new one,
    # and a reason quoting a condition's core matches both (the line the change leaves is the one to show).
    for pieces, sign in ((pieces, sign) for pieces in groups for sign in "+-"):
        for i, ln in enumerate(lines):
            if ln.sign != sign or not pieces:
                continue
            # The quote starts on this row: it stands in this row and the next two (a reason joins a condition written over
            # several rows), not in the next two alone.
            here, after = "".join(rows[i:i + 3]), "".join(rows[i + 1:i + 3])
            if any(piece in here and piece not in after for piece in pieces):
                return i if sign == "+" else _as_left(lines, rows, i)
    return None


_ALIKE_ROWS = 0.6


def _as_left(lines: list, rows: list[str], at: int) -> int:
    """The row to open a window at for removed row ``at``: the added row that most likely replaced it (code moved within
    the hunk and turned there; a reason cut at its length keeps only the old side of its ``old → new`` quote), so the view
    shows the line as the change leaves it; else ``at``. Near rows too (blind 149's html-pipeline: an eight-row window
    showed the old ``host == test`` and stopped above the ``host.end_with?(test)`` replacing it; it grows up to the old)."""
    best, most = None, _ALIKE_ROWS
    for j, ln in enumerate(lines):
        if ln.sign != "+":
            continue
        m = SequenceMatcher(None, rows[at], rows[j], autojunk=False)
        if m.real_quick_ratio() > most and m.quick_ratio() > most and (q := m.ratio()) > most:
            best, most = j, q
    return at if best is None else best


# A part of at most this many changed lines (blank ones left out) is small: what a slipped line looks like.
SMALL_LINES = 3


def small_part(part: Part) -> bool:
    """Whether a part changes at most ``SMALL_LINES`` lines that are not blank."""
    return sum(1 for ln in (*part.added, *part.removed) if ln.strip()) <= SMALL_LINES


def telling_order(change: FileChange | None, path: str, parts: Sequence[Part], *, small_first: bool = False) -> list[int]:
    """The indices of ``parts``, most telling first: read alone nearest the file's own reading (the line a
    reason quotes, risk, then reasons in common), then the one that changes most, then in the order given.
    ``small_first`` (the view's first hunk): among parts that read alike, the small ones first, in the order
    given (a slipped line is small; a big hunk shown first would push it out of the view)."""
    if len(parts) < 2:
        return list(range(len(parts)))

    # All the parts together are read on about as many lines as the whole file's reading (READ_LINES a side).
    most = min(_PART_LINES, max(_PART_LEAST, READ_LINES // len(parts)))

    def score(i: int) -> tuple[tuple[int, int, int], bool, int, int]:
        p = parts[i]
        added, removed = p.added[:most], p.removed[:most]
        small = small_first and small_part(p)
        return (read_alone(change, path, added, removed, (p.start, p.end)), small,
                0 if small else len(p.added) + len(p.removed), -i)

    return sorted(range(len(parts)), key=score, reverse=True)


def quoted_part(change: FileChange | None, parts: Sequence[Part], *, described: bool = False,
                any_reason: bool = False) -> int | None:
    """The first of ``parts`` holding a line a line rule of the file quotes in its reason, if any: the part the leader is
    told about. (A word reason's quote, "changes security-relevant code (auth: …)", is only the first line holding the
    word: the parts read alone decide among those.) ``described``: the edit a low file's description quotes instead."""
    if change is None or not parts:
        return None
    named = set(change.rules) if any_reason else {rule for rule in change.rules if rule in LINE_RULES}
    if named - GENERIC_RULES and not any_reason:
        named -= GENERIC_RULES
    # The reasons one at a time, the riskiest reader's kind first, then in the file's order: the part the first one quotes
    # before a later one's (round 18 part B: a CI file's script injection led its reasons while the view went to the hunk
    # of the limit quoted after it; round 27 part C: a dangerous line before an import edit apart or an input check).
    texts = ["".join(squeezed(line) for line in (*p.added, *p.removed)) for p in parts]
    groups = [_described(change)] if described else _groups(change, named, any_reason=any_reason)
    for pieces in groups:
        for i, text in enumerate(texts):
            if pieces and any(piece in text for piece in pieces):
                return i
    # A one-token line turned ("turns false into true in enabled(): false → true"): the part that removes the one and adds
    # the other (round 32: the view showed a window of another hunk, the quote too short to place by a piece).
    pairs = [] if described else _short_pairs(change, named)
    return next((i for i, p in enumerate(parts) if _holds_pair(p.removed, p.added, pairs)), None)


def quoted_parts(change: FileChange | None, parts: Sequence[Part]) -> list[int]:
    """Every one of ``parts`` holding a piece of a line the file's line rules quote, in the reasons' order: a reason
    that names two findings (a guard deleted, and the check's verdict discarded a few hunks above) quotes two parts."""
    if change is None or not parts:
        return []
    named = {rule for rule in change.rules if rule in LINE_RULES}
    if named - GENERIC_RULES:
        named -= GENERIC_RULES
    texts = ["".join(squeezed(line) for line in (*p.added, *p.removed)) for p in parts]
    found: list[int] = []
    for piece in _pieces(change, named, checks=True):
        at = next((i for i, text in enumerate(texts) if piece in text), None)
        if at is not None and at not in found:
            found.append(at)
    return found


def quoted_first(change: FileChange, path: str, parts: Sequence[Part]) -> list[int]:
    """``telling_order``, with the part the file's first line-quoting reason quotes put first: the range ``lines`` names
    first is the line the reason leads with (round 19: a crypto file's renamed signature, a big hunk read as more telling,
    was named before the one-line hunk that turns TLS verification off, which its reason quotes); else the part a low file's
    description quotes (session 33: date-fns's `notably removed: if (!step) return [];` stood in its fourth range, past the
    three `lines` names, and the view never showed it)."""
    order = telling_order(change, path, parts)
    quoted = quoted_part(change, parts)
    if quoted is None:
        quoted = quoted_part(change, parts, described=True)
    return order if quoted is None else [quoted, *(i for i in order if i != quoted)]


def telling_hunk(change: FileChange | None, path: str, hunks: list[RangeHunk]) -> int:
    """The hunk the view shows first (``telling_order``'s first, small ones first among equals)."""
    return telling_order(change, path, hunks, small_first=True)[0] if hunks else 0


def _alone(change: FileChange | None, path: str, added: tuple[str, ...], removed: tuple[str, ...]) -> tuple[int, int, int]:
    return read_alone(change, path, added, removed)


def _risky_row(lines: list) -> int | None:
    """The first changed row that is a risky line read alone (a value turned the unsafe way, a dangerous call, a
    check deleted), anywhere in the hunk: cheap enough to read every row, so a line deep in a big hunk is found."""
    for i, ln in enumerate(lines):
        if ln.sign not in "+-":
            continue
        text = ln.text[1:-1]
        if ln.sign == "+":
            if risky_screen(text) and (unsafe_value([text], []) or dangerous_call([text], [])):
                return i
        elif removed_guard([], [text]) or (risky_screen(text) and unsafe_value([], [text])):
            return i
    return None


def holds_risky_line(text: str) -> bool:
    """Whether a hunk's text holds a changed line risky read alone (a dangerous value or call, a check deleted): a second
    such line in a file whose reason quotes only the first (a reader names one line a file)."""
    return _risky_row(parse_lines(text)) is not None


def _telling_row(change: FileChange | None, path: str, lines: list, quotes: Sequence[str] = ()) -> int | None:
    """The first changed row holding one of ``quotes`` (a second read line's window), else the first the ranking finds most
    telling read alone, if any row tells more than the path."""
    if quotes and (at := _row_of(lines, [list(quotes)])) is not None:
        return at
    if change is not None and LINE_RULES.intersection(change.rules):
        risky = _quoted_row(change, lines)
        risky = _risky_row(lines) if risky is None else risky
        if risky is not None:
            return risky
    if change is not None and (quoted := _quoted_row(change, lines, any_reason=True)) is not None:
        return quoted
    base = _alone(change, path, (), ())
    best: tuple[tuple[int, int, int], int] | None = None
    for i, ln in enumerate(lines[:_WINDOW_SCAN]):
        if ln.sign not in "+-":
            continue
        body = (ln.text[1:-1],)
        score = _alone(change, path, body if ln.sign == "+" else (), body if ln.sign == "-" else ())
        if score > base and (best is None or score > best[0]):
            best = (score, i)
    return None if best is None else best[1]


def cut_window(change: FileChange | None, path: str, text: str, room: int, line_chars: int, least: int,
               quotes: Sequence[str] = (), *, below: bool = True) -> str | None:
    """A window of a hunk too big for ``room``: from just before the row the ranking finds most telling (else
    its first added row, else its top), as many rows as fit, with its own ``@@`` counts and a line saying the rest is in the patch;
    None when fewer than ``least`` rows fit."""
    lines = parse_lines(text)
    total = len(lines)
    row = _telling_row(change, path, lines, quotes)
    where = "around the ranking's finding"
    if row is None:
        # Nothing tells more than the rest: what the worker wrote (the first added line) says most.
        row = next((i for i, ln in enumerate(lines) if ln.sign == "+"), None)
        where = "from its first added line"
    if row is None or row <= CONTEXT:
        where = "from its top"
    note = f"# … {{}} of this hunk's {total:,} lines, {where}\n"
    sizes = [len(ln.text) if len(ln.text) <= line_chars + 1 else line_chars + 24 for ln in lines]
    budget = room - len(note) - 8 - 40  # 8: the count's digits; 40: the @@ line
    first = max((row or 0) - CONTEXT, 0)
    # Another line the file's reasons quote, above this one in the hunk, opens the window when both fit: a reason that names
    # two lines is read whole (session 33: pigz's forced-overwrite flag, quoted second, stood a dozen rows above the clause
    # the first reason quoted, and the window grew down from that one).
    above = _quoted_above(change, lines, row) if row is not None else None
    if above is not None and sum(sizes[max(above - CONTEXT, 0):row + CONTEXT + 1]) <= budget:
        first = max(above - CONTEXT, 0)
    # Another quoted line far below, past what a window from here reaches, shows as a window of its own (its rows ±1) when
    # both fit: a reason that names two lines of a new file is read whole (blind 85: csurf's new CI workflow, its old
    # `strict-ssl false` quoted first and the `curl … | bash` slipped in 50 rows below it, second).
    below = _quoted_below(change, lines, row) if row is not None and below else None
    second = (max(below - CONTEXT, 0), min(below + CONTEXT + 1, total)) if below is not None else (total, total)
    spare = budget - sum(sizes[second[0]:second[1]]) - 40
    if below is None or sum(sizes[first:second[1]]) <= budget or spare < sum(sizes[first:row + CONTEXT + 1]):
        second, spare = (total, total), budget
    end = first
    used = 0
    while end < second[0] and used + sizes[end] <= spare:
        used += sizes[end]
        end += 1
    while first > 0 and used + sizes[first - 1] <= spare:
        first -= 1
        used += sizes[first]
    if end - first < max(least, 1):
        return None
    if end >= second[0]:
        second = (end, max(end, second[1]))
    if second[0] < second[1]:
        note = note.replace("finding", "findings")
    def shown_rows() -> str:
        return window(text, first, end, line_chars=line_chars) + window(text, *second, line_chars=line_chars)
    shown = shown_rows()
    while len(shown) + len(note) + 8 > room and end - first > max(least, 1):
        end -= 1
        shown = shown_rows()
    if len(shown) + len(note) + 8 > room:
        return None
    return shown + note.format(end - first + second[1] - second[0])
