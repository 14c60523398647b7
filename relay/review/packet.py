"""The review section of the packet: what changed, ranked by risk, and where the claims differ.

``build_review`` assesses every observed change and orders them by the rule table's decisions
(``relay.review.risk``: risk, a file the fix's note or task names, the file's kind, size; repeats of
one rule after the rest), keeps at most ``MAX_TARGETS`` review targets and ``MAX_FILES`` file names,
and compares the worker's report with what was observed. ``fit_packet`` then enforces the
hard byte budget on the whole serialized packet. Whatever is cut is said in
``Changes.truncated``, with where to find the rest; nothing is dropped silently.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from relay.observe.changes import HUNK_CHARS, ChangeSet
from relay.observe.patch import split_patch
from relay.core.contracts import Changes, FileChange, Packet, ReviewTarget, WorkerReport
from relay.core.places import folds_case
from relay.core.redact import redact_obj
from relay.review.content_kinds import reading
from relay.review.sample_code import own_names
from relay.review.manifest_fields import manifest_metadata
from relay.review.file_kinds import CODE_EXTS, path_kind, read_changes
from relay.review.report_claims import claimed_paths, claims_flags, cut_path, cut_text, tests_from_report  # tests_from_report: named here for its readers
from relay.review.range_hunks import RangeHunk, cut_hunks
from relay.review.review_budget import review_budget
from relay.review.risk import RiskContext, assess_all, existing_dependencies, max_risk, rank_changes
from relay.review.task_reading import code_names, task_security
from relay.review.apart_edits import runs_of_patch
from relay.review.odd_edits import apart_and_odd_edits, quiet_apart
from relay.review.early_passes import early_passes
from relay.review.read_leaks import secrets_handed_back
from relay.review.edit_scopes import Scopes, scoped_apart, scoped_runs, scoped_small_edits, workspace_texts
from relay.review.refusal_lists import dropped_refusals
from relay.review.quote_pieces import describes_a_line
from relay.review.telling import LINE_RULES, quoted_first
from relay.review.workflows import read_workflows

__all__ = [
    "build_review",
    "claims_flags",
    "tests_from_report",
    "fit_packet",
    "format_lines",
    "merge_ranges",
    "review_target",
    "rank_changes",
    "PACKET_BUDGET_BYTES",
    "MAX_TARGETS",
    "MAX_FILES",
    "FULL_HINT",
]

# The hard cap on the serialized packet. A typical run's packet is 600-1,500 bytes; the cap
# leaves room for a long summary while keeping the packet ~500 tokens.
PACKET_BUDGET_BYTES = 2_000
MAX_TARGETS = 8
MAX_FILES = 12
FULL_HINT = 'antigravity_get_result(detail="full") has everything'

_MERGE_GAP = 5
_MAX_TARGET_RANGES = 3
_REASON_CHARS = 110
# The riskiest target's reason while the packet has room: its second finding too, each quote whole (round 66: pyoidc's
# redirect check made a prefix match, safety's expiry comparison turned, said after the commit's own finding, were cut
# from a 110-character reason). Past the budget it is said in the usual form first (fit_packet).
_TOP_REASON_CHARS = 220


def merge_ranges(ranges: Sequence[tuple[int, int]], *, gap: int = _MERGE_GAP) -> list[tuple[int, int]]:
    """``[(10, 20), (24, 28), (40, 44)]`` -> ``[(10, 28), (40, 44)]``: hunks ``gap`` lines apart or closer, one range."""
    merged: list[list[int]] = []
    for start, end in sorted(ranges):
        if merged and start - merged[-1][1] <= gap + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def format_lines(ranges: Sequence[tuple[int, int]], *, gap: int = _MERGE_GAP, most: int = _MAX_TARGET_RANGES,
                 first: Sequence[int] = ()) -> str:
    """``[(10, 20), (24, 28), (40, 44)]`` -> ``"10-28,40-44"``: nearby hunks merged, few ranges shown.

    ``first``: the merged ranges' indices in the order to name them (the most telling first); the
    rest follow in line order. The review read (``relay.review.diff_view``) shows exactly the ranges
    this text names."""
    merged = merge_ranges(ranges, gap=gap)
    order = [*dict.fromkeys(i for i in first if 0 <= i < len(merged)), *range(len(merged))]
    named = [merged[i] for i in dict.fromkeys(order)]
    parts = [f"{s}" if s == e else f"{s}-{e}" for s, e in named[:most]]
    text = ",".join(parts)
    if len(merged) > most:
        text += f" +{len(merged) - most} more"
    return text


# A word reason's opening, said shorter when a file's reasons together pass the cut: its quote tells more than its opening.
_SHORTER = (("changes security-relevant code (", "security code ("),)
# A finding's gloss says in words what its quote shows ("inverts a comparison (> → <: the check now passes what it
# refused): …"): a reason short of room loses the gloss before the quote, so the line it names stays (round 43: a
# hostname check's turned line was cut from the packet behind its gloss). Only a gloss after a token, before the quote.
_GLOSS_RE = re.compile(r"(\([^():]{1,40}): [^()]{8,}?\)(?=: )")


def cut_reason(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, its findings' glosses dropped first."""
    if len(text) > limit:
        text = _GLOSS_RE.sub(r"\1)", text)
    return cut_text(text, limit)


_STUB = 24


# Where each joined reason's first finding ends (the packet's budget cuts the findings after it first, fit_packet):
# the text alone cannot say it (a quote of code holds "; " too). Bounded: a relay process reviews many runs.
_FIRST_ENDS: OrderedDict[str, int] = OrderedDict()
_FIRST_KEPT = 4096


def _remember_first(text: str, end: int) -> str:
    if end < len(text):
        _FIRST_ENDS[text] = end
        _FIRST_ENDS.move_to_end(text)
        while len(_FIRST_ENDS) > _FIRST_KEPT:
            _FIRST_ENDS.popitem(last=False)
    return text


def first_finding(reason: str) -> str:
    """A target's reason cut to its first finding (``"…; …"`` says more was found), when the packet knows where it ends."""
    end = _FIRST_ENDS.get(reason)
    return reason if end is None else reason[:end] + "; …"


def joined_reasons(reasons: Sequence[str], limit: int = _REASON_CHARS) -> str:
    """A file's reasons as one text of at most ``limit`` characters: when they do not fit, a word reason's opening is
    said shorter first (a quote after it, of the slipped line or the commit's own, keeps the room), then the text is cut."""
    text = "; ".join(reasons)
    if len(text) <= limit:
        return _remember_first(text, len(reasons[0]) if reasons else len(text))
    said = list(reasons)
    for long, short in _SHORTER:
        said = [r.replace(long, short) for r in said]
    text = "; ".join(said)
    if len(text) <= limit:
        return _remember_first(text, len(said[0]))
    said = [_GLOSS_RE.sub(r"\1)", r) for r in said]
    text = "; ".join(said)
    if len(text) <= limit:
        return _remember_first(text, len(said[0]))
    # A later reason cut to a stub says nothing: the reasons before it end the text, and "…" says there is more.
    at = 0
    for n, reason in enumerate(said):
        if n and limit - at < _STUB:
            return _remember_first(text[:at] + "…", len(said[0]))
        at += len(reason) + 2
        if at > limit:
            break
    return _remember_first(cut_text(text, limit), len(said[0]))


def review_target(change: FileChange, first: Sequence[int] = (), *, top: bool = False) -> ReviewTarget:
    """The packet's review target for one ranked change (``first``: see ``format_lines``; ``top``: the riskiest one, its
    reason given the room for a second finding, its usual form remembered for fit_packet)."""
    lines = "" if change.kind == "deleted" or change.binary else format_lines(change.ranges, first=first)
    reason = joined_reasons(change.reasons)
    if top and (longer := joined_reasons(change.reasons, _TOP_REASON_CHARS)) != reason:
        _USUAL_FORMS[longer] = reason
        _USUAL_FORMS.move_to_end(longer)
        while len(_USUAL_FORMS) > _FIRST_KEPT:
            _USUAL_FORMS.popitem(last=False)
        reason = longer
    return ReviewTarget(file=cut_path(change.path), lines=lines, risk=change.risk, reason=reason)


# The riskiest target's longer reason → its usual form (bounded as _FIRST_ENDS is).
_USUAL_FORMS: OrderedDict[str, str] = OrderedDict()


def build_review(
    changeset: ChangeSet, *, report: WorkerReport | None, paths: Sequence[str] = (), workspace: Path | None = None,
    task: str = "",
) -> tuple[Changes, list[str], list[FileChange]]:
    """The packet's ``changes`` section, the claims-vs-diff flags, and every assessed change.

    ``workspace``, when given, lets a manifest the change adds be read against the project's
    other manifests (``existing_dependencies``); nothing is read otherwise. ``task`` is what the
    leader asked for: when it names a security fix, the source edits are ranked as that fix. A script named without
    a language is read as its first line says (``relay.review.content_kinds``)."""
    with reading(changeset.files, workspace if changeset.source != "report" else None, CODE_EXTS, path_kind), review_budget():
        return _build_review(changeset, report=report, paths=paths, workspace=workspace, task=task)


def _build_review(changeset: ChangeSet, *, report: WorkerReport | None, paths: Sequence[str], workspace: Path | None,
                  task: str) -> tuple[Changes, list[str], list[FileChange]]:
    claimed = claimed_paths(changeset.files, report) if report is not None and changeset.source != "report" else None
    read = workspace is not None and changeset.source != "report"
    known = existing_dependencies(workspace, changeset.files) if read else frozenset()
    own = own_names(workspace, changeset.files) if read else frozenset()
    metadata = manifest_metadata(changeset.files, workspace_texts(workspace)) if read else {}
    workflows, triggers, on_prs = read_workflows(workspace, changeset.files) if read else ({}, {}, frozenset())
    named, task_words = task_security(task)
    read, partial = read_changes(changeset.files)
    wanted = tuple(p for p in paths if p and p.strip())
    ctx = RiskContext(claimed=claimed, paths=wanted, fold_case=bool(wanted) and workspace is not None and folds_case(workspace),
                      known_deps=known, own_names=own, manifest_metadata=metadata,
                      task_security=named, task_words=task_words, task_names=code_names(task), outside=dict(changeset.outside),
                      escapes=dict(changeset.escapes), above=dict(changeset.above), workspace_gone=changeset.workspace_gone, ci_credentials=workflows,
                      ci_triggers=triggers, ci_on_prs=on_prs, git_dir=dict(changeset.git_dir), runs_next=dict(changeset.runs_next),
                      unobserved={c.path: changeset.outside.get(c.path, "the worker's own report")
                                  for c in changeset.files if c.path not in changeset.git_dir} if changeset.unobserved else {},
                      partial=partial, **_apart(changeset, task, workspace))
    assessed = assess_all(read, ctx)
    ranked = rank_changes(assessed)
    targets = [review_target(c, first, top=not n) for n, (c, first) in enumerate(zip(ranked[:MAX_TARGETS], _telling_first(changeset, ranked[:MAX_TARGETS])))]
    changes = Changes(
        count=len(ranked),
        files=[cut_path(c.path) for c in ranked[:MAX_FILES]],
        risk=max_risk(c.risk for c in ranked),
        review=targets,
        source=changeset.source,
    )
    if changeset.unobserved:  # whatever the files say, what was not looked at is not low risk
        changes.risk = "high"
    if len(ranked) > MAX_FILES:
        changes.truncated = f"{MAX_FILES} of {len(ranked)} files listed (in review order); {FULL_HINT}."
    flags = claims_flags(assessed, report, source=changeset.source, note=changeset.note, changeset=changeset)
    return changes, flags, sorted(assessed, key=lambda c: c.path)


def _apart(changeset: ChangeSet, task: str, workspace: Path | None = None) -> dict[str, Any]:
    """The small edits apart from the rest of the change, read from the change's own patch: path -> its reason; each quote
    says the scope its run stands in (``relay.review.edit_scopes``: the new files read from the workspace)."""
    if not changeset.patch or changeset.unobserved:
        return {}
    runs = runs_of_patch(changeset.patch)
    quoted, worth = apart_and_odd_edits(runs, task)  # round 12: the odd edits that keep a change from being called low
    scopes = Scopes(workspace_texts(workspace if changeset.source != "report" else None))
    small = scoped_small_edits(runs, scopes)
    # A small change of two runs, one of them quoted apart (no more than a note): the small edit's quote says both
    # (express-openid-connect's schema quoted the commit's own field added, not the ``.not('none')`` removed beside it).
    # Counted once for all paths (counting each path's runs anew was 25 million comparisons for a 5,000-file change).
    edited = Counter(r.path for r in runs if r.added or r.removed)
    both = {p for p, said in small.items() if not said.startswith("notably ") and edited[p] > 1}
    quoted = {p: a for p, a in quoted.items() if p not in both or p in worth}
    # round 23: a check's body cut short by a return first; round 120f: a secret put into what a read answers
    looser = early_passes(runs, scopes) | secrets_handed_back(runs, scopes) | scoped_runs(runs, scopes)
    quiet = frozenset(p for p, found in quoted.items() if quiet_apart(found))
    return {"apart": scoped_apart(quoted, scopes), "apart_worth": scoped_apart(worth, scopes), "looser_runs": looser, "small_edits": small,
            "apart_quiet": quiet, "dropped_refusals": dropped_refusals(runs, scopes)}


def _telling_first(changeset: ChangeSet, targets: Sequence[FileChange]) -> list[list[int]]:
    """For each target, its merged ranges most telling first (``relay.review.telling``) when it has
    more than the packet names, or more than one and a risky line among them, so the ranges it names are the ones that tell most (a release's fix
    in its seventh hunk is named, not left in "+7 more"); else none (line order). A low-risk file
    keeps line order (no part of it told the ranking anything) unless it has an edit apart quoted, or its description quotes
    an edit (its range is named first, as a reason's quote is). Read from the change's own patch:
    the hunks each range holds."""
    order: list[list[int]] = [[] for _ in targets]
    # A file a risky line made high names that line's range first however few ranges it has.
    many = [i for i, c in enumerate(targets) if (c.risk != "low" or "note_apart" in c.rules or describes_a_line(c))
            and c.kind != "deleted" and not c.binary
            and len(merge_ranges(c.ranges)) > (1 if LINE_RULES.intersection(c.rules) else _MAX_TARGET_RANGES)]
    if not many or not changeset.patch:
        return order
    wanted = {targets[i].path for i in many}
    texts: dict[str, list[str]] = {}
    for section in split_patch(changeset.patch)[1]:
        if section.path in wanted and section.binary is None:
            texts.setdefault(section.path, []).extend(h.decode("utf-8", "replace") for h in section.hunks)
    for i in many:
        change = targets[i]
        merged = merge_ranges(change.ranges)
        lines: list[tuple[list[str], list[str]]] = [([], []) for _ in merged]
        at = 0
        # Each run of changed lines, once, into the merged range that holds it (both in line order); its lines as
        # observation kept them, so a part is read alone as the whole file was (not a minified line read whole).
        for run in cut_hunks(texts.get(change.path, []), None, context=0, text=False, kept=HUNK_CHARS):
            while at < len(merged) and merged[at][1] < run.start:
                at += 1
            if at < len(merged) and run.end >= merged[at][0]:
                lines[at][0].extend(run.added)
                lines[at][1].extend(run.removed)
        if any(a or r for a, r in lines):
            parts = [RangeHunk(start, end, "", tuple(a), tuple(r)) for (start, end), (a, r) in zip(merged, lines)]
            order[i] = quoted_first(change, change.path, parts)
    return order


# --------------------------------------------------------------------------- budget


def _size(packet: Packet) -> int:
    return len(msgspec.json.encode(packet))


def _sentence(base: str | None, cut: list[str], budget: int, *, short: bool = False) -> str:
    if short:
        return f"cut to {budget:,} bytes; {FULL_HINT}."
    head = base.split(";")[0] + ". " if base else ""
    return cut_text(f"{head}Cut to fit {budget:,} bytes: {', '.join(cut)}; {FULL_HINT}.", 400)


def _redacted(packet: Packet) -> Packet:
    """The packet with credential shapes masked (relay.redact); the record keeps the raw report."""
    raw = msgspec.to_builtins(packet)
    masked = redact_obj(raw)
    return packet if masked == raw else msgspec.convert(masked, Packet)


def fit_packet(packet: Packet, budget: int = PACKET_BUDGET_BYTES) -> Packet:
    """Return ``packet``, credentials masked, cut to at most ``budget`` serialized bytes, saying what was cut.

    Cuts go from what a reviewer misses least to what they miss most, checking the size
    after each: lists capped at their maxima; then long text trimmed (summary, flags,
    reasons); file names no target names (a bare name tells less than a target's lines,
    risk and reason); review targets dropped from the lowest risk up to the top three; the
    rest of the file names; summary and flags cut further; targets down to the top one;
    then everything that is left to cut.
    ``Changes.truncated`` names each cut and where the full record is. The input packet
    is not modified.
    """
    packet = _redacted(packet)
    if _size(packet) <= budget:
        return packet
    base = packet.changes.truncated
    changes = msgspec.structs.replace(packet.changes, review=list(packet.changes.review), files=list(packet.changes.files))
    p = msgspec.structs.replace(packet, changes=changes, flags=list(packet.flags))
    cut: dict[str, str] = {}  # what -> how it reads in the sentence, in first-cut order
    counts = {"targets": max(len(changes.review) - MAX_TARGETS, 0), "files": max(len(changes.files) - MAX_FILES, 0)}
    del changes.review[MAX_TARGETS:]
    del changes.files[MAX_FILES:]

    def fits() -> bool:
        for key, noun in (("targets", "review target"), ("files", "file name")):
            if counts[key]:
                plural = "s" if counts[key] > 1 else ""
                cut[key] = f"dropped {counts[key]} {noun}{plural}" + (" (lowest risk first)" if key == "targets" else "")
        changes.truncated = _sentence(base, list(cut.values()), budget)
        return _size(p) <= budget

    def trim_text(summary: int, flag: int, reason: int) -> bool:
        if len(p.summary) > summary:
            p.summary = cut_text(p.summary, summary) if summary else ""
            cut.setdefault("summary", "shortened the summary")
        if any(len(f) > flag for f in p.flags):
            p.flags = [cut_text(f, flag) for f in p.flags]
            cut.setdefault("flags", "shortened flags")
        if any(len(t.reason) > reason or len(t.file) > 100 for t in changes.review):
            changes.review = [msgspec.structs.replace(t, reason=cut_reason(t.reason, reason), file=cut_path(t.file, 100)) for t in changes.review]
            cut.setdefault("reasons", "shortened reasons")
        changes.files = [cut_path(f, 100) for f in changes.files]
        return fits()

    def top_usual() -> bool:
        # The riskiest target's longer reason gives its room back first, before any other reason is cut.
        if changes.review and (usual := _USUAL_FORMS.get(changes.review[0].reason)) is not None:
            changes.review[0] = msgspec.structs.replace(changes.review[0], reason=usual)
        return fits()

    def first_findings() -> bool:
        # A big change's reasons keep each target's first finding whole before any is cut: the findings after it go first.
        if any(first_finding(t.reason) != t.reason for t in changes.review):
            changes.review = [msgspec.structs.replace(t, reason=first_finding(t.reason)) for t in changes.review]
            cut.setdefault("reasons", "shortened reasons")
        return trim_text(400, 140, _REASON_CHARS)

    def lower_first() -> bool:
        # Then the reasons of the targets past the top three are cut before the top three's: room goes in rank order.
        top, rest = changes.review[:3], changes.review[3:]
        if rest and any(len(t.reason) > 50 for t in rest):
            changes.review = top + [msgspec.structs.replace(t, reason=cut_reason(t.reason, 50)) for t in rest]
            cut.setdefault("reasons", "shortened reasons")
        # ... and the file names no target names (the next cut after the reasons' anyway) before the top three's reasons.
        return fits() or drop_files(keep_named=True)

    def drop_targets(keep: int) -> bool:
        while len(changes.review) > keep:
            changes.review.pop()
            counts["targets"] += 1
            if fits():
                return True
        return fits()

    def drop_files(keep_named: bool) -> bool:
        named = {t.file for t in changes.review}
        for i in range(len(changes.files) - 1, -1, -1):
            if keep_named and changes.files[i] in named:
                continue
            del changes.files[i]
            counts["files"] += 1
            if fits():
                return True
        return fits()

    steps = (
        lambda: fits(),
        lambda: top_usual(),
        lambda: first_findings(),
        lambda: lower_first(),
        lambda: trim_text(400, 140, 70),
        lambda: drop_files(keep_named=True),
        lambda: drop_targets(3),
        lambda: drop_files(keep_named=False),
        lambda: trim_text(120, 80, 50),
        lambda: drop_flags(2),
        lambda: drop_targets(1),
        lambda: trim_text(0, 60, 40),
        lambda: drop_flags(0),
        lambda: shorten_error(),
        lambda: drop_targets(0),
    )

    def drop_flags(keep: int) -> bool:
        if len(p.flags) > keep:
            del p.flags[keep:]
            cut.setdefault("dropped_flags", "dropped flags")
        return fits()

    def shorten_error() -> bool:
        if p.error is not None:
            p.error = msgspec.structs.replace(p.error, message=cut_text(p.error.message, 200), hint=cut_text(p.error.hint, 200))
            cut.setdefault("error", "shortened the error")
        return fits()

    for step in steps:
        if step():
            return p
    changes.truncated = _sentence(base, [], budget, short=True)
    return p
