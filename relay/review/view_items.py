"""The run's change as the review read's items: each review target at the lines the packet names, then the
rest of the change (a target's ranges past the ones the packet names, the files that are not targets).

Each item carries its label (``## FILE lines LINES`` in the packet's own words, or ``## FILE (what it is)``
for a file with no lines to show: deleted, binary, renamed only), its hunks re-cut to those lines
(``relay.review.range_hunks``) and masked (``relay.core.redact``), and which hunk tells most
(``relay.review.telling``). How much of each the view shows is ``relay.review.view_budget``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from relay.core.contracts import FileChange, ReviewTarget, RunRecord
from relay.core.redact import redact
from relay.core.shown import harmless
from relay.observe.changes import HUNK_CHARS
from relay.observe.run_patch import Section
from relay.review.packet import MAX_TARGETS, format_lines, merge_ranges, rank_changes, review_target
from relay.review.range_hunks import RangeHunk, cut_hunks
from relay.review.telling import quoted_part, quoted_parts, small_part, telling_order

__all__ = ["Item", "view_items", "span"]

_RANGE = re.compile(r"(\d+)(?:-(\d+))?")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


@dataclass
class Item:
    """One file as the view shows it: a review target, the rest of a target, or another file."""

    label: str  # "## FILE lines LINES\n" (or "## FILE (what it is)\n" when it has no lines)
    hunks: list[RangeHunk] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # each hunk as shown (masked)
    telling: int = 0
    quoted: bool = False  # the telling hunk holds a line the file's reason quotes
    described: bool = False  # ... a line the description of a file no rule flagged quotes (an edit, not a finding)
    worded: bool = False  # ... a line a word reason quotes ("changes security-relevant code (escaping: …)")
    small: list[bool] = field(default_factory=list)  # each hunk: at most SMALL_LINES changed lines (a slip's size)
    also: list[int] = field(default_factory=list)  # other hunks holding a line the reason quotes (a second finding)
    target: bool = True
    path: str = ""
    lines: str = ""
    risk: str = "low"
    change: FileChange | None = None


def _named_ranges(lines: str) -> list[tuple[int, int]]:
    """The ranges a target's ``lines`` text names: ``"10-28,40 +2 more"`` -> ``[(10, 28), (40, 40)]``."""
    head = lines.split(" +", 1)[0]
    return [(int(a), int(b or a)) for a, b in _RANGE.findall(head)]


def span(r: tuple[int, int]) -> str:
    """A line range as a label writes it: ``12`` or ``12-20``."""
    return f"{r[0]}" if r[0] == r[1] else f"{r[0]}-{r[1]}"


def _facts(section: Section) -> str:
    """What a file's patch header says beside its lines: a rename, a mode change."""
    rows = _text(section.head).splitlines()[1:]
    said = [f"renamed from {ln[12:]}" for ln in rows if ln.startswith("rename from ")]
    old = [ln[9:] for ln in rows if ln.startswith("old mode ")]
    new = [ln[9:] for ln in rows if ln.startswith("new mode ")]
    if old and new:
        said.append(f"mode {old[0]} → {new[0]}")
    return "; ".join(said)[:200]


def _about(section: Section | None, change: FileChange | None, not_in_patch: bool) -> str:
    """What a file with no lines to show is, in a few words."""
    if section is None:
        return "not in the patch: its header says why" if not_in_patch else "no text change in the patch"
    if section.binary is not None:
        before, after = section.binary
        return f"binary, {after:,} bytes; before: {before:,} bytes"
    head = _text(section.head)
    if "\ndeleted file mode " in head:
        removed = sum(_text(h).count("\n-") for h in section.hunks)
        return f"deleted, {removed:,} lines; the patch holds them"
    facts = _facts(section)
    if facts:
        return facts
    if change is not None and change.kind == "type":
        return "file type changed"
    return "no text change"


class _Patch:
    """The run's patch, its sections found by path and the record's changes beside them."""

    def __init__(self, record: RunRecord, sections: list[Section], not_in_patch: bool) -> None:
        self.sections: dict[str, list[Section]] = {}
        for s in sections:
            self.sections.setdefault(s.path, []).append(s)
        self.changes = {c.path: c for c in record.observation.changes}
        self.not_in_patch = not_in_patch
        # The packet names files as shown (relay.core.shown: escapes, a backslash doubled): each back to its path.
        self.shown = {harmless(p): p for p in [*self.sections, *self.changes]}

    def path_of(self, name: str, *, shown: bool) -> str:
        """The path a target names (``shown``: as the packet shows it); the packet keeps the end of a very long path
        behind "…"."""
        if shown and name in self.shown:
            return self.shown[name]
        if (not shown and (name in self.sections or name in self.changes)) or not name.startswith("…"):
            return name
        tail = name[1:]
        return next((p for p in [*self.sections, *self.changes] if (harmless(p) if shown else p).endswith(tail)), name)

    def item(self, path: str, label_file: str, lines: str, ranges: list[tuple[int, int]] | None, *, target: bool,
             line_chars: int, suffix: str = "") -> Item:
        sections = self.sections.get(path, [])
        change = self.changes.get(path)
        texts = [_text(h) for s in sections if s.binary is None for h in s.hunks]
        # The hunks' lines as observation kept them for the readers (the text shown is cut apart, to line_chars): the ranking
        # reads each hunk alone as it read the file, and a minified bundle's line read whole cost it seconds (session 32).
        hunks = cut_hunks(texts, ranges, line_chars=line_chars, kept=HUNK_CHARS) if (lines or ranges is None) and texts else []
        if lines and texts and not hunks:
            # The patch and the observation cut the change differently (it cannot happen when both are git's):
            # show the file's hunks rather than nothing.
            hunks = cut_hunks(texts, None, line_chars=line_chars, kept=HUNK_CHARS)
        if hunks:
            facts = _facts(sections[0]) if sections and target else ""
            label = f"## {label_file} lines {lines}{f' ({facts})' if facts else ''}{suffix}\n"
        else:
            label = f"## {label_file} ({_about(sections[0] if sections else None, change, self.not_in_patch)}){suffix}\n"
        telling, quoted = (_telling(change, path, hunks) if target else (0, False))
        described = worded = False
        if target and hunks and not quoted and (told := quoted_part(change, hunks, described=True)) is not None:
            telling, quoted, described = told, True, True
        if target and hunks and not quoted and (told := quoted_part(change, hunks, any_reason=True)) is not None:
            # A word reason's quote ("changes security-relevant code (escaping: …)"): the hunk shown when the target's turn
            # comes (not before the other targets' quoted lines: a word quotes an ordinary line as often as a slip).
            telling, worded = told, True
        also = [h for h in quoted_parts(change, hunks) if h != telling] if target and quoted and not described else []
        return Item(label=redact(label), hunks=hunks, texts=[redact(h.text) for h in hunks], telling=telling, quoted=quoted,
                    described=described, worded=worded, also=also, small=[small_part(h) for h in hunks], target=target, path=path, lines=lines,
                    risk=change.risk if change is not None else "low", change=change)


def _telling(change: FileChange | None, path: str, hunks: list[RangeHunk]) -> tuple[int, bool]:
    """(a target's most telling hunk, whether it holds a line its reason quotes): of the hunks holding the line the file's
    first quoting reason quotes, the most telling (round 18 part B: the most telling hunk held a later reason's quote, a
    lifted limit, and the script injection the first reason quoted was left out of the view); else the ranking's most
    telling hunk."""
    if not hunks:
        return 0, False
    order = telling_order(change, path, hunks, small_first=True)
    quoted = quoted_part(change, [hunks[i] for i in order])
    if quoted is not None:
        return order[quoted], True
    return order[0], False


def _targets(record: RunRecord) -> tuple[list[ReviewTarget], bool]:
    """(the review targets, whether they name files as shown: the packet's do)."""
    packet = record.outcome.packet
    if packet is not None and packet.changes.review:
        return list(packet.changes.review), True
    # No packet (a run whose relay died before it): the targets the packet would have named.
    return [review_target(c) for c in rank_changes(record.observation.changes)[:MAX_TARGETS]], False


def view_items(record: RunRecord, sections: list[Section], not_in_patch: bool,
               line_chars: int) -> tuple[list[Item], list[Item]]:
    """(the review targets, the rest of the change) as view items, each list in risk order."""
    patch = _Patch(record, sections, not_in_patch)
    targets, shown = _targets(record)
    items: list[Item] = []
    rest: list[Item] = []
    seen: set[str] = set()
    for t in targets:
        path = patch.path_of(t.file, shown=shown)
        label = path if path in patch.shown.values() and not t.file.startswith("…") else t.file  # shown once, below
        seen.add(path)
        named = _named_ranges(t.lines)
        items.append(patch.item(path, label, t.lines, named, target=True, line_chars=line_chars))
        items[-1].risk = t.risk  # the packet's word on it
        change = patch.changes.get(path)
        if named and change is not None:
            more = [r for r in merge_ranges(change.ranges) if not any(r[0] <= e and r[1] >= s for s, e in named)]
            if more:
                extra = patch.item(path, label, ",".join(map(span, more)), more, target=False, line_chars=line_chars,
                                   suffix=" (past the packet's ranges)")
                if extra.hunks:
                    rest.append(extra)
    ranked = [c.path for c in rank_changes(record.observation.changes)]
    others = [p for p in ranked if p not in seen] + sorted(p for p in patch.sections if p not in seen and p not in ranked)
    for path in others:
        change = patch.changes.get(path)
        lines = format_lines(change.ranges, most=10_000) if change is not None and change.ranges else ""
        item = patch.item(path, path, lines, None, target=False, line_chars=line_chars)
        if item.hunks and not lines:
            item.label = redact(f"## {path} lines {','.join(span((h.start, h.end)) for h in item.hunks)}\n")
        rest.append(item)
    return items, rest
