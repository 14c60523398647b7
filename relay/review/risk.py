"""Rank one observed change: high, medium or low, with reasons a reviewer understands.

``assess`` works out a file's facts once (``relay.review.facts``), runs every row of the rule table
(``relay.review.rules.RULES``) whose scope admits the file, drops the rules that a fired rule outranks,
and writes the decision on the change: ``risk`` (the highest left; ``low`` when none), ``reasons``
(notes first, then highest risk first, in table order; at most three) and ``rules`` (the names of the
rules behind them). ``rank_changes`` orders files by those decisions alone. ``assess_all`` adds what
only the whole change set shows (``relay.review.facts.change_context``).
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Iterable, Sequence

import msgspec

from relay.core.contracts import FileChange, Risk
from relay.review.file_kinds import file_kind, is_manifest, kind_rank
from relay.review.checks import lines
from relay.review.dependencies import dep_names, existing_dependencies, moved_dependencies
from relay.review.version_moves import moved_versions
from relay.review.lead_order import repeated, strength
from relay.review.new_logic import unjudged_logic
from relay.review.low_change_floor import quoted_turns
from relay.review.leading_lines import LEADING_RULE, WORD_RULES, apart_tells_as_much, quoted_elsewhere
from relay.review.line_shapes import squeezed
from relay.review.quiet_turns import said_by_another
from relay.review.quote_pieces import quoted_pieces
from relay.review.deciding_tokens import floor_said_elsewhere
from relay.review.facts import LARGE_HUNK_LINES, FileFacts, RiskContext, carried_cores, change_context, security_notes, security_test_names
from relay.review.rules import RULE_BY_NAME, RULES, Rule
from relay.review.review_budget import not_read_reason, over_budget

_log = logging.getLogger(__name__)
STRICT_ENV = "GRAVITY_RELAY_REVIEW_STRICT"  # set: a row's failure raises (the test suite's setting), unset: it is said on the file

__all__ = [
    "LARGE_HUNK_LINES",
    "RULES",
    "RiskContext",
    "Rule",
    "assess",
    "assess_all",
    "existing_dependencies",
    "leads",
    "max_risk",
    "moved_dependencies",
    "rank_changes",
    "risk_rank",
    "rule_fires",
    "security_notes",
    "security_test_names",
]

_MAX_REASONS = 3
_MAX_REASON_CHARS = 120
# Past this many files of one kind flagged by the same rule, more of them tell the reviewer nothing new.
_REPEATS = 2

_RANK: dict[str, int] = {"low": 0, "medium": 1, "high": 2}
# Where a rule's reason stands among a file's reasons: a note (how the change was seen) first.
_PLACE: dict[Risk | None, int] = {None: 3, "high": 2, "medium": 1, "low": 0}
# A changed line read as risky is quoted ahead of reasons from words, paths or size, even when it is only worth a look:
# the reviewer reads the line first, whatever else made the file high.
# Among a file's high reasons, a line read generically (worth a look) comes after the family readers' findings and the
# other high reasons, and, with reasons from words or size, before them (table order).
# A reason that reads what a changed line means comes before one that matches a word on the commit's own lines, a path
# word or a size: the edit apart from the change (relay.review.apart_edits), the slipped line's usual shape, is quoted
# before them, so its quote survives the packet's cut of the reason and the word reasons are cut instead (round 14: the
# word reasons named the commit's own lines, `escaping/execution: ReportAllKeysAsEscapeCodes`, `regular expression`, while
# the quote apart of the slipped line, after them, was cut; the packet shortens a later word reason's opening,
# relay.review.packet.joined_reasons, so a word reason that quotes the plant still shows its quote).
_LATER = {"edit_apart": 2, "note_apart": 2, "edits_security_line": 1, "deciding_turn": 1, "weakens_more": 1, "security_tokens": 3, "auth_path": 3, "huge_change": 3}
_LINE_RULES = frozenset({"unsafe_value", "dangerous_call", "removes_guard", "weakens_check", "loosens_check", "loosens_run", "switches_off",
                         "edits_security_line", "downgrades_dependency", "turned_line", "turned_check"})
# An edit apart from the change (relay.review.apart_edits) is quoted with the lines read generically, the note too (not
# first, as notes are), after every high reason (``_LATER`` 2: a high finding's reason is never pushed past the packet's
# cut by a quote, held-out 2's sidekiq); it does not rank its file with the high ones as a risky line does: it is where
# the line stands, not what it does, that sets it apart.
# What a turned check now lets through (round 27, ``consequence_note``) stands with the line readers too: after the ones
# that name the line's kind (table order), before words, paths and sizes.
_QUOTED_NOTES = {"note_apart": 2, "edit_apart": 2, "consequence_note": 2}
# A limit lifted costs availability; a line that runs what someone else wrote, or lets it in, costs the machine. Among a
# file's high line reasons the limit is quoted after the others (round 18 part B: a CI file's "removes a size or rate
# limit" on the commit's own `php -d memory_limit=-1` led, and the script injection beside it was cut from the packet).
# A folder put under the shared /tmp costs a local user's race; a download piped into a shell beside it runs a stranger's
# code on every build: quoted after it too (round 75: blind 106's magic_enum Dockerfile had led with its /tmp prefix).
_AVAILABILITY_ONLY = ("removes a size or rate limit", "puts a tool's home under the shared /tmp", "moves a folder from the user's home to the shared /tmp")
# A changed line judged by its direction (``weakens_more``: an anchor dropped, a comparison turned) is a line read as
# risky too: quoted after the line rules' own findings (``_LATER``), never after a word, path or kind reason (round 19: a validator's added
# `throw … 'token too long'` led as "security code (limits/overflow: …)" and the anchors it dropped were cut).
# The deciding-token floor (relay.review.deciding_tokens, round 32) quotes its line as they do: with them, after their
# findings (``_LATER``), before words, paths and sizes, so the 120-character reasons and the packet's cut keep its quote.
# A command line a CI or script reader names (round 35) is quoted with them, ahead of "CI configuration"; it ranks as the
# file's risk says (a flag in a CI step is the project's own business more often than a line read as risky is).
_READS_LINE = _LINE_RULES | {"weakens_more", "deciding_turn", "command_line"}
# The readers worth a look that say what one changed line turns (an option turned on, a state, a named value, a package's
# setting) are quoted with the line readers too, whatever their risk, never after a word, a path or a size (round 41: a
# medium "turns withCredentials on" stood behind a high "security code (redirects: …)" and the packet's cut lost it; a
# unit conversion on an expiry stood behind a path word and a note). They rank their files as lead_order.QUOTED says.
_TURNS_WORTH_A_LOOK = frozenset({"any_turn_look", "state_turn", "named_turn", "weakens_package"})  # after the line rules' own
_PLACED_AS_LINE = _READS_LINE | _TURNS_WORTH_A_LOOK


_TURNED = frozenset({"turned_line", "turned_check"})
# The readers that name what a line does (not a word, path, size, an edit quoted apart or a generic token read): one of
# them quoting the line says it already.
# A note of what a turn lets through is no such reader: it says the consequence, not the line's kind (held-out 39: "shows
# the input it used to mask" led and the redaction dropped went unsaid).
_FAMILY = (_READS_LINE - _TURNED - {"edit_apart", "note_apart", "edits_security_line", "deciding_turn"}) | {"weakens_value", "turns_down", "weakens_edit",
                                                                                           "deletes_failure_exit", "state_turn"}
_QUOTE_CHARS = 24  # of a turned line's quote, enough to know the same line in another reader's reason


def _named_elsewhere(reason: str, others: list[str]) -> bool:
    quote = "".join(reason.split(": ", 1)[-1].split())[:_QUOTE_CHARS].rstrip("…")
    return bool(quote) and any(quote in "".join(other.split()) for other in others)


def risk_rank(risk: Risk) -> int:
    return _RANK[risk]


def max_risk(risks: Iterable[Risk]) -> Risk | None:
    best: Risk | None = None
    for risk in risks:
        if best is None or _RANK[risk] > _RANK[best]:
            best = risk
    return best


def _fires(rule: Rule, facts: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's reason for this file when its scope admits it and its check matches, else None. A check that fails (a
    reader's bug on a line the worker wrote: held-out 418 stopped the whole review with StopIteration) costs its row, not
    the review: the file says it was not read by that row, and the leader reads it by hand (strict under the tests)."""
    if not rule.scope.admits(facts):
        return None
    try:
        found = rule.check(facts, ctx)
    except Exception as exc:  # noqa: BLE001 - one row's bug must not blank the packet; said on the file, logged
        if os.environ.get(STRICT_ENV):
            raise
        _log.warning("review row %s failed on %s: %r", rule.name, facts.change.path, exc)
        return f"not read by the row {rule.name} (the relay failed there: {type(exc).__name__}): read this change yourself"[:_MAX_REASON_CHARS]
    if not found:
        return None
    detail = found if isinstance(found, str) else ""
    if "{detail}" in rule.reason:
        return rule.reason.format(detail=detail)[:_MAX_REASON_CHARS]
    return (f"{rule.reason} ({detail})" if detail else rule.reason)[:_MAX_REASON_CHARS]


def rule_fires(rule: Rule, change: FileChange, ctx: RiskContext) -> str | None:
    """One row alone on one change (no precedence): its reason, or None. For benches and tests."""
    return _fires(rule, FileFacts(change), ctx)


def _describe(f: FileFacts, ctx: RiskContext) -> str:
    """The reason for a change no rule flagged: what kind of edit it is, in one phrase; a small edit quoted
    (``relay.review.small_edits``: its size alone tells the reviewer nothing)."""
    c = f.change
    if f.mechanical:
        return f"mechanical: {f.mechanical}"[:_MAX_REASON_CHARS]
    if c.kind == "deleted":
        return f"deleted ({lines(c.deletions)})"
    if c.kind == "modified" and f.only_version:
        return "version bump"
    if f.same_meaning:
        return f"{f.same_meaning} (+{c.additions}/-{c.deletions})"
    if c.kind == "mode":
        return f"permission bits changed ({c.mode_before} → {c.mode_after})"
    if c.kind == "added":
        return f"new file ({lines(c.additions)})" if not c.binary else "new file"
    if c.kind == "renamed":
        return f"renamed from {c.old_path}"[:_MAX_REASON_CHARS] + (f" (+{c.additions}/-{c.deletions})" if c.additions or c.deletions else "")
    said = ctx.small_edits.get(c.path, "") if c.kind == "modified" else ""
    quote = f", {said}" if said.startswith("notably ") else f": {said}" if said else ""
    if f.kind in ("test", "docs", "example", "generated"):
        return f"{f.kind} edited (+{c.additions}/-{c.deletions}){quote}"
    return f"edit (+{c.additions}/-{c.deletions}){quote}"


def _line_read(fired: list[tuple[int, Rule, str]]) -> bool:
    silenced = {name for _, rule, _ in fired for name in rule.outranks}
    return any(rule.name not in WORD_RULES and rule.name not in silenced for _, rule, _ in fired)


_WATCHED_LINES = 40  # a smaller file is read whole once begun: its rules cost little


_APART = frozenset({"edit_apart", "note_apart"})


def _apart_first(kept: list) -> list:
    """The edit apart from the change is quoted before the leading line when both stand and it tells as much (round 37):
    the leading line is the file's most telling line, often in the work asked for; the edit apart is where a slipped line
    stands (blind 59: go-chi/cors's own ``b == '.'`` led and the ``&&`` → ``||`` slipped apart, as telling, was cut from the
    packet's reason)."""
    lead = next((i for i, hit in enumerate(kept) if hit[3].name == LEADING_RULE), None)
    apart = next((i for i, hit in enumerate(kept) if hit[3].name in _APART), None)
    if lead is None or apart is None or apart < lead or not apart_tells_as_much(kept[apart][4], kept[lead][4]):
        return kept
    moved = list(kept)
    moved.insert(lead, moved.pop(apart))
    return moved


def assess(change: FileChange, ctx: RiskContext) -> FileChange:
    """Return a copy of ``change`` with ``risk``, ``reasons`` and ``rules`` decided by ``RULES``."""
    facts = FileFacts(change, complete=change.path not in ctx.partial)
    # Past the review's CPU budget (relay.review.review_budget), checked between rules on a file of some size, the
    # rules left are not asked; the file says so, and is not low.
    watch = len(change.added_lines) + len(change.removed_lines) > _WATCHED_LINES
    fired, cut = [], over_budget()
    for order, rule in enumerate(RULES):
        if cut or (watch and (cut := over_budget())):
            break
        # The leading line (the table's last row) is looked for only where no line reader fired: it would be dropped.
        if rule.name == LEADING_RULE and _line_read(fired):
            continue
        if (reason := _fires(rule, facts, ctx)) is not None:
            fired.append((order, rule, reason))
    silenced = {name for _, rule, _ in fired for name in rule.outranks}
    carried = _carried(fired, change.added_lines, ctx.removed) if len(fired) > 1 and ctx.removed else set()
    # A reason quoting a carried line goes after the new lines' reasons of its place; a note (placed first) steps back to the
    # line readers' place to do so, never behind a word's, a path's or a kind's reason.
    kept = sorted(((-_QUOTED_NOTES.get(rule.name, max(place := _PLACE[rule.risk], 2 if rule.name in _PLACED_AS_LINE else 0))
                    + (order in carried and place == _PLACE[None]),
                    _LATER.get(rule.name, rule.name in _TURNS_WORTH_A_LOOK) + (reason.startswith(_AVAILABILITY_ONLY) and rule.risk == "high")
                    + (order in carried), order, rule, reason)
                   for order, rule, reason in fired if rule.name not in silenced),
                  key=lambda hit: hit[:3])
    # Two readers that say the same of the same line (a run's reading and the file's: "fails open …: throw err → return
    # null") are one reason: the first kept.
    said: set[str] = set()
    kept = [hit for hit in kept if not (hit[4] in said or said.add(hit[4]))]
    # A quiet turn (relay.review.quiet_turns, round 31) an older reader already says of the same line is said once, by it.
    # The deciding-token floor is no older reader: it gives way (below), never another reader to it.
    kept = [hit for hit in kept if not said_by_another(hit[4], [h[4] for h in kept if h is not hit and h[3].name != "deciding_turn"])]
    # The deciding-token floor says a line only where no other reason of the file quotes it (round 32).
    # Only a reason that raises the file says it for the floor: a riskless quote of the line (an edit apart, at low) gives
    # way to the floor instead (round 33: a sibling swap quoted apart at low stayed low).
    kept = [hit for hit in kept if not floor_said_elsewhere(hit[4], [h[4] for h in kept if h is not hit and h[3].risk is not None])]
    kept = [hit for hit in kept if hit[3].risk is not None or not any(
        h[3].name == "deciding_turn" and floor_said_elsewhere(h[4], [hit[4]]) for h in kept)]
    # A turned line another line reader already names (relay.review.turned_lines) is said once, by the family reader.
    kept = [hit for hit in kept if hit[3].name not in _TURNED or not _named_elsewhere(hit[4], [h[4] for h in kept if h[3].name in _FAMILY])]
    # The changed line that tells most (relay.review.leading_lines) leads only where the other reasons say a kind, a path, a
    # size or a word (round 30: "dependency manifest" for hard-coded publish credentials), and is said once.
    kept = [hit for hit in kept if hit[3].name != LEADING_RULE or not any(
        h[3].name not in WORD_RULES or _named_elsewhere(hit[4], [h[4]]) for h in kept if h is not hit) and not quoted_elsewhere(
        hit[4], [h[4] for h in kept if h is not hit])]
    kept = _apart_first(kept)
    risk = max_risk(rule.risk for _, _, _, rule, _ in kept if rule.risk is not None) or "low"
    if risk == "low" and ctx.small_edits.get(change.path):
        # A low file's small edit is quoted by its description, with the scope it stands in (relay.review.small_edits).
        kept = [hit for hit in kept if hit[3].name != LEADING_RULE]
    reasons = [reason for _, _, _, _, reason in kept]
    if cut:
        return msgspec.structs.replace(change, risk=max_risk((risk, "medium")), reasons=[*reasons[:_MAX_REASONS - 1], not_read_reason()],
                                       rules=[*(rule.name for _, _, _, rule, _ in kept), "unread_line"])
    if risk == "low":
        # A small edit is quoted when nothing else the reasons say quotes it already (an edit apart).
        reasons.append(_describe(facts, ctx if not reasons else RiskContext()))
    return msgspec.structs.replace(change, risk=risk, reasons=reasons[:_MAX_REASONS], rules=[rule.name for _, _, _, rule, _ in kept])


_CARRIED_SCAN = 4000  # added lines searched for a reason's quoted line
_CARRIED_LEAST = 12  # a shorter line (``}``, ``return nil``) is carried by every change


def _carried(fired: list, added: Sequence[str], removed: frozenset[str]) -> set[int]:
    """The rules (by order) whose reason quotes a line the change removed somewhere, whole, and writes again here: carried
    over, not new. Said after a reason of its rank that quotes a new line (session 38: blind 85's python-fire moved
    pytest's `addopts = --ignore=…` from setup.cfg into pyproject.toml, and its "skips tests" led the file's reasons; the
    dependency over plain http slipped beside it was cut from the packet as the second finding)."""
    lines = [squeezed(line) for line in added[:_CARRIED_SCAN] if line.strip()]
    out: set[int] = set()
    for order, _, reason in fired:
        pieces = [p for p in quoted_pieces(reason) if len(p) >= _CARRIED_LEAST]
        quoted = next((line for piece in pieces[:2] for line in lines if piece in line), None)
        core = carried_cores(quoted)[0] if quoted is not None else ""
        if len(core) >= _CARRIED_LEAST and core in removed:
            out.add(order)
    return out


def assess_all(changes: Iterable[FileChange], ctx: RiskContext) -> list[FileChange]:
    """``assess`` every change of one change set, with what only the whole set shows (a
    dependency removed from one manifest and added to another is moved, not new)."""
    changes = list(changes)
    ctx = change_context(changes, ctx, moved_dependencies(changes))
    if declared := frozenset(n for c in changes if c.kind != "deleted" and is_manifest(c.path) for n in dep_names(c.path, c.added_lines) - dep_names(c.path, c.removed_lines)):
        ctx = msgspec.structs.replace(ctx, added_deps=declared)
    if versions := moved_versions(changes):
        ctx = msgspec.structs.replace(ctx, moved_versions=versions)
    # Read in the order that keeps the review's CPU budget (relay.review.review_budget) for what matters: code before
    # prose and generated output, small edits before big ones. In the change's own order a worker could put a pile of
    # slow-to-read files ahead of the one line it slipped in, and that line would be left "not read line by line".
    twins = moved_twins(changes)
    read = {id(change): _as_moved(assess(twins.get(id(change), change), ctx), change) for change in sorted(changes, key=_reading_order)}
    # A change no file of which is above low for a changed line (only for what it is, at most: a manifest, a CI file), whose
    # low files' reasons quote a code line it turned or edited apart (relay.review.low_change_floor): those files are read
    # again with their quote, worth a look.
    quotes = quoted_turns(list(read.values()), ctx.apart_quiet, ctx.task_names)
    # In such a change, a low source file that adds deciding lines no rule judged is worth a look too (relay.review.new_logic).
    logic = unjudged_logic(read.values(), quotes)
    if quotes or logic:
        again = msgspec.structs.replace(ctx, low_change_quotes=quotes, new_logic=logic)
        read |= {id(change): _as_moved(assess(twins.get(id(change), change), again), change) for change in changes
                 if change.path in quotes or change.path in logic}
    return [read[id(change)] for change in changes]


def moved_twins(changes: list[FileChange]) -> dict[int, FileChange]:
    """A new file whose name is that of exactly one file the change deletes (a class moved to another package and edited on
    the way, too changed for git to call it a rename), read against the deleted file's lines: what the move changed is
    read as an edit is, not the whole file as new (a ``new SecureRandom()`` made ``new Random()`` in the moved copy)."""
    gone: dict[str, list[FileChange]] = {}
    for c in changes:
        if c.kind == "deleted" and c.removed_lines:
            gone.setdefault(c.path.rsplit("/", 1)[-1], []).append(c)
    if not gone:
        return {}
    made = [(c, c.path.rsplit("/", 1)[-1]) for c in changes if c.kind == "added" and c.added_lines]
    counts = Counter(name for _, name in made)  # counted once: a change of thousands of new files stays linear
    return {id(c): msgspec.structs.replace(c, removed_lines=gone[name][0].removed_lines) for c, name in made
            if len(gone.get(name, ())) == 1 and counts[name] == 1}


def _as_moved(assessed: FileChange, change: FileChange) -> FileChange:
    """The new file as observed (its own lines), with what reading it against its twin found."""
    return assessed if assessed.removed_lines is change.removed_lines else msgspec.structs.replace(assessed, removed_lines=change.removed_lines)


_READ_LAST = frozenset({"docs", "generated", "example"})


def _reading_order(change: FileChange) -> tuple[bool, int, str]:
    return file_kind(change.path) in _READ_LAST, len(change.added_lines) + len(change.removed_lines), change.path


# --------------------------------------------------------------------------- the review order


def leads(change: FileChange) -> bool:
    """A rule that fired on the file puts it first among the files of its risk."""
    return any(RULE_BY_NAME[name].leads for name in change.rules if name in RULE_BY_NAME)


def _top_rule(change: FileChange) -> str:
    return next((name for name in change.rules if name in RULE_BY_NAME and RULE_BY_NAME[name].risk is not None), "")


# Rules that make a file high for its words, its path or its size alone: a changed line read as risky (even only worth a
# look) tells more than they do, so a file such a line sets apart ranks with the high files and first among those of its
# kind (a large commit's many files high for "token" or "escape" must not push the one edited check out of the targets).
_WORDS_OR_SIZE = frozenset({"security_tokens", "auth_path", "huge_change", "large_hunk"})


# An edited pair apart from the change judged worth a look (relay.review.apart_edits: a comparison, switch, clause or
# constant turned, beside work it shares no name with) is a changed line read as risky for the order too: quoted and
# judged, it tells more than a path word or a size (round 15: a state check skipped when absent, a lock window's
# comparison turned, ranked 5th behind files high for "session" or "auth" in their path alone). A statement only removed
# apart is not (dead code a commit drops reads so: Polly's unused constant). Its risk stays: it is ranked, not raised.
_EDITED_APART = "edit apart from the change"


# An edit judged worth a look by its direction (``weakens_more``) silences the edit-apart quote of the same lines: it
# reads the line as risky, so it sets its file apart as the quote did (round 17: a lock window's comparison named
# "inverts a comparison" fell from 1st to 5th behind files high for "auth" in their path).
_JUDGED_EDIT = "weakens_more"


def _line_found(change: FileChange, said_alike: frozenset[str] = frozenset()) -> bool:
    # A line the commit reads alike in several files (relay.review.lead_order.repeated) is its own pattern: it sets no file apart.
    reasons = dict(zip(change.rules, change.reasons))
    return any((name in _LINE_RULES or name == _JUDGED_EDIT) and reasons.get(name) not in said_alike for name in change.rules) or (
        "edit_apart" in change.rules and any(reason.startswith(_EDITED_APART) and reason not in said_alike for reason in change.reasons))


def _high_for_words(change: FileChange) -> bool:
    """High, and no rule but words or size decided it high."""
    return change.risk == "high" and not any(
        RULE_BY_NAME[name].risk == "high" and name not in _WORDS_OR_SIZE for name in change.rules if name in RULE_BY_NAME)


def _looks(change: FileChange, said_alike: frozenset[str] = frozenset()) -> bool:
    """A file a changed line read as risky sets apart: worth a look for it, or high for words beside it."""
    return _line_found(change, said_alike) and (change.risk == "medium" or _high_for_words(change))


def _key(change: FileChange, said_alike: frozenset[str] = frozenset()) -> tuple[int, int, bool, bool, int, bool, int, str]:
    """Highest risk first (a file a line sets apart ranks with the high ones); then how strongly its own findings set it
    apart (``relay.review.lead_order``: a dangerous line named, a line read generically, a line quoted, words or paths,
    size), a file the commit says nothing of alike of others before one it does (its pattern), a leading rule, the kind,
    the files a line sets apart ahead of the rest, the biggest change."""
    looks = _looks(change, said_alike)
    return (-2 if looks else -risk_rank(change.risk), strength(change, said_alike),
            any(reason in said_alike for reason in change.reasons), not leads(change), kind_rank(change.path), not looks,
            -(change.additions + change.deletions), change.path)


def _first_said(change: FileChange) -> str:
    # A repeat is told by its rules' first reason: the leading line quoted before it is a note, not a finding.
    return change.reasons[1] if change.rules[:1] == [LEADING_RULE] and len(change.reasons) > 1 else change.reasons[0]


def rank_changes(files: Sequence[FileChange]) -> list[FileChange]:
    """Highest risk first (a file a changed line read as risky sets apart ranks with the high ones, ahead of the others of
    its kind: ``_key``); within a risk, by how strongly the file's own findings set it apart (``relay.review.lead_order``:
    a dangerous line named or the change's purpose named, then a line read generically, then words, paths or kinds, then
    size alone), then a file a leading rule fired on (the change's security note or the task's security fix names it)
    first, then by kind (source, config, data, tests,
    examples, docs: ``relay.review.file_kinds.KIND_ORDER``), then the biggest change first; then by path.

    Past the first ``_REPEATS`` files of one kind flagged by the same rule (a release's ten workflow
    files, each "CI configuration"), more of them tell the reviewer nothing new: they go after the
    rest, so the targets still reach the source a release fixed. Their risk stays. One whose first reason no other file
    says (a line of its own quoted) is not a repeat: it tells something new (round 28: twelve example manifests each
    "renames a dependency to a look-alike: a-b → a/b", and the one renaming to another name went past the targets)."""
    said_alike = repeated(files)
    ordered = sorted(files, key=lambda change: _key(change, said_alike))
    said: Counter[str] = Counter(_first_said(change) for change in ordered if change.reasons)
    seen: Counter[tuple[str, str, str]] = Counter()
    head: list[FileChange] = []
    repeats: list[FileChange] = []
    for change in ordered:
        kind = file_kind(change.path)
        top = _top_rule(change)
        if kind != "source" and change.risk != "low" and top:
            key = (kind, change.risk, top)
            seen[key] += 1
            if seen[key] > _REPEATS and (not change.reasons or said[_first_said(change)] > 1):
                repeats.append(change)
                continue
        head.append(change)
    return head + repeats
