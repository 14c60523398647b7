"""``detail="diff"``: the review read — the packet's review targets at the lines they name, in a small budget.

The leader has the packet (files, line ranges, risks); before it accepts a run it reads the
hunks the packet points at. This view gives exactly those, and first: for each review target
in the packet's order (riskiest first), the changed lines of each range its ``lines`` names,
with one line of context (``relay.review.range_hunks``), under a ``## FILE lines LINES`` label
that repeats the packet's own words. It stops within ``max_chars`` (``DEFAULT_VIEW_CHARS`` when
the call names none) and ends saying what it left out and how to read more: a larger
``max_chars`` (the figure that shows every target's lines, and the one that shows the whole
change), the patch file, or the targets it could not show, by file and lines.

How the budget is spent: first each target's most telling hunk (the hunk whose own assessment by
the ranking, ``relay.review.risk.assess``, comes closest to the file's risk and reasons, then the
one that changes most), one risk at a time from the highest, the room split among the targets of a
risk by water-filling with the riskiest target weighing double; a hunk bigger than its share shows
a window of it, around the row the ranking finds most telling. Then the targets' other hunks, in
target and line order; then, with room left, the rest of the change: the ranges past the three a
target names, then the files that are not targets, in the packet's risk order. The riskiest target
is never dropped for the others: when even a window of its hunk does not fit, it keeps its label and
says so. A file shown in part says ``(shown: k of n hunks)`` on its label; a deleted, binary or
renamed-only file is shown by its label alone. The patch on disk (``relay.observe.run_patch``) stays
whole: it is the change, in path order, as ``git apply`` wants it. Credentials are masked as in every
other view (``relay.core.redact``); the file keeps them (0600).

``gravity-relay runs diff`` prints these same characters (it calls ``antigravity_get_result``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from relay.core.contracts import FileChange, ReviewTarget, RunRecord, Status
from relay.core.redact import redact
from relay.observe.run_patch import CUT, NOT_IN_PATCH, Section, split_patch
from relay.review.packet import MAX_TARGETS, format_lines, merge_ranges, rank_changes, review_target
from relay.review.range_hunks import CONTEXT, RangeHunk, cut_hunks, parse_lines, window
from relay.review.telling import read_alone, telling_order

__all__ = ["diff_view", "DEFAULT_VIEW_CHARS", "view_labels"]

# The default budget of the view, in characters. Measured (bench/bench_review_read.py, 85 real commits of
# 10 projects): the packet plus this view come to 2,952 bytes at the median commit (3,779 for those that
# change five files or more), and the labelled riskiest file's hunks are in it for every labelled commit.
DEFAULT_VIEW_CHARS = 2_500

# Room kept for the closing note (what was left out, how to read more, the patch's path), and the length
# of its shortest form, which the riskiest target may take the rest of.
_TAIL_ROOM = 420
_SHORT_TAIL = 32
# The header's "not in this patch" / "cut" lines: at most this many, each cut to this length.
_HEADER_NOTES = 3
_NOTE_LINE = 400
# Left-out targets the closing note names by file and lines; the rest it counts.
_NAMES = 3
# The first pass: a share smaller than this (characters) is too small for a useful window, and a window
# shows at least this many rows (the riskiest target's: one); room is kept for a lower risk's telling hunk
# this small (label included) while higher ones are cut; "(shown: k of n hunks)" on a label costs this.
_MIN_SHARE = 400
_MIN_ROWS = 3
_SMALL = 360
_NOTE_COST = 28
_RISKS = ("high", "medium", "low")
_LABEL = re.compile(r"^## (?P<file>.+) lines (?P<lines>[0-9][0-9,\-]*(?: \+\d+ more)?)(?: \(.*\))?$")
_RANGE = re.compile(r"(\d+)(?:-(\d+))?")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


@dataclass
class _Item:
    """One file as the view shows it: a review target, the rest of a target, or another file."""

    label: str  # "## FILE lines LINES\n" (or "## FILE (what it is)\n" when it has no lines)
    hunks: list[RangeHunk] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # each hunk as shown (masked)
    telling: int = 0
    target: bool = True
    path: str = ""
    lines: str = ""
    risk: str = "low"
    change: FileChange | None = None


def _named_ranges(lines: str) -> list[tuple[int, int]]:
    """The ranges a target's ``lines`` text names: ``"10-28,40 +2 more"`` -> ``[(10, 28), (40, 40)]``."""
    head = lines.split(" +", 1)[0]
    return [(int(a), int(b or a)) for a, b in _RANGE.findall(head)]


def _span(r: tuple[int, int]) -> str:
    return f"{r[0]}" if r[0] == r[1] else f"{r[0]}-{r[1]}"


def _telling(change: FileChange | None, path: str, hunks: list[RangeHunk]) -> int:
    """The hunk the ranking would call most telling (``relay.review.telling``)."""
    return telling_order(change, path, hunks)[0] if hunks else 0


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

    def path_of(self, name: str) -> str:
        # The packet keeps the end of a very long path behind "…".
        if name in self.sections or name in self.changes or not name.startswith("…"):
            return name
        tail = name[1:]
        return next((p for p in [*self.sections, *self.changes] if p.endswith(tail)), name)

    def item(self, path: str, label_file: str, lines: str, ranges: list[tuple[int, int]] | None, *, target: bool,
             line_chars: int, suffix: str = "") -> _Item:
        sections = self.sections.get(path, [])
        change = self.changes.get(path)
        texts = [_text(h) for s in sections if s.binary is None for h in s.hunks]
        hunks = cut_hunks(texts, ranges, line_chars=line_chars) if (lines or ranges is None) and texts else []
        if lines and texts and not hunks:
            # The patch and the observation cut the change differently (it cannot happen when both are git's):
            # show the file's hunks rather than nothing.
            hunks = cut_hunks(texts, None, line_chars=line_chars)
        if hunks:
            facts = _facts(sections[0]) if sections and target else ""
            label = f"## {label_file} lines {lines}{f' ({facts})' if facts else ''}{suffix}\n"
        else:
            label = f"## {label_file} ({_about(sections[0] if sections else None, change, self.not_in_patch)}){suffix}\n"
        return _Item(label=redact(label), hunks=hunks, texts=[redact(h.text) for h in hunks],
                     telling=_telling(change, path, hunks) if target else 0, target=target, path=path, lines=lines,
                     risk=change.risk if change is not None else "low", change=change)


def _targets(record: RunRecord) -> list[ReviewTarget]:
    packet = record.outcome.packet
    if packet is not None and packet.changes.review:
        return list(packet.changes.review)
    # No packet (a run whose relay died before it): the targets the packet would have named.
    return [review_target(c) for c in rank_changes(record.observation.changes)[:MAX_TARGETS]]


def _items(record: RunRecord, sections: list[Section], not_in_patch: bool, line_chars: int) -> tuple[list[_Item], list[_Item]]:
    """(the review targets, the rest of the change) as view items, each list in risk order."""
    patch = _Patch(record, sections, not_in_patch)
    targets = _targets(record)
    items: list[_Item] = []
    rest: list[_Item] = []
    seen: set[str] = set()
    for t in targets:
        path = patch.path_of(t.file)
        seen.add(path)
        named = _named_ranges(t.lines)
        items.append(patch.item(path, t.file, t.lines, named, target=True, line_chars=line_chars))
        items[-1].risk = t.risk  # the packet's word on it
        change = patch.changes.get(path)
        if named and change is not None:
            more = [r for r in merge_ranges(change.ranges) if not any(r[0] <= e and r[1] >= s for s, e in named)]
            if more:
                extra = patch.item(path, t.file, ",".join(map(_span, more)), more, target=False, line_chars=line_chars,
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
            item.label = redact(f"## {path} lines {','.join(_span((h.start, h.end)) for h in item.hunks)}\n")
        rest.append(item)
    return items, rest


@dataclass
class _Pick:
    """What the view shows: per item, the hunks chosen (a cut text for one too big to show whole), and
    the items shown by their label alone (a deleted or binary file)."""

    chosen: dict[int, list[int]] = field(default_factory=dict)
    order: list[tuple[int, int]] = field(default_factory=list)
    cut: dict[tuple[int, int], str] = field(default_factory=dict)
    labels: set[int] = field(default_factory=set)

    def shows(self, i: int) -> bool:
        return i in self.chosen or i in self.labels

    def take(self, i: int, h: int) -> None:
        self.chosen.setdefault(i, []).append(h)
        self.order.append((i, h))

    def take_label(self, i: int) -> None:
        self.labels.add(i)
        self.order.append((i, -1))

    def drop_last(self) -> None:
        i, h = self.order.pop()
        if h < 0:
            self.labels.discard(i)
            return
        self.chosen[i].remove(h)
        if not self.chosen[i]:
            del self.chosen[i]
        self.cut.pop((i, h), None)


def _fill(needs: dict[int, int], weights: dict[int, int], room: int) -> dict[int, int]:
    """Water-filling: each gets what it needs if that is under its weighted share of what is left, and the
    ones that need more split the rest by weight."""
    alloc = dict.fromkeys(needs, 0)
    active = set(needs)
    left = max(room, 0)
    while active:
        weight = sum(weights[i] for i in active)
        met = [i for i in active if needs[i] * weight <= left * weights[i]]
        if not met:
            for i in active:
                alloc[i] = left * weights[i] // weight
            break
        for i in met:
            alloc[i] = needs[i]
            left -= needs[i]
            active.discard(i)
    return alloc


def _shown(label: str, item: _Item, shown: list[int]) -> str:
    """A file's label, saying how many of its hunks are shown when not all are."""
    if len(shown) >= len(item.hunks):
        return label
    return f"{label[:-1]} (shown: {len(shown)} of {len(item.hunks)} hunks)\n"


def _render_items(items: list[_Item], pick: _Pick) -> list[str]:
    out: list[str] = []
    for i, item in enumerate(items):
        if not pick.shows(i):
            continue
        shown = sorted(pick.chosen.get(i, []))
        out.append(_shown(item.label, item, shown))
        out.extend(pick.cut.get((i, h), item.texts[h]) for h in shown)
    return out


def _alone(change: FileChange | None, path: str, added: tuple[str, ...], removed: tuple[str, ...]) -> tuple[int, int]:
    """How the ranking reads these lines alone: (their risk, how many of the file's reasons they give)."""
    return read_alone(change, path, added, removed)


# A hunk too big for its room shows a window of it; the rows read to find where the window goes are bounded.
_WINDOW_SCAN = 400


def _telling_row(change: FileChange | None, path: str, lines: list) -> int | None:
    """The first changed row the ranking finds most telling read alone, if any row tells more than the path."""
    base = _alone(change, path, (), ())
    best: tuple[tuple[int, int], int] | None = None
    for i, ln in enumerate(lines[:_WINDOW_SCAN]):
        if ln.sign not in "+-":
            continue
        body = (ln.text[1:-1],)
        score = _alone(change, path, body if ln.sign == "+" else (), body if ln.sign == "-" else ())
        if score > base and (best is None or score > best[0]):
            best = (score, i)
    return None if best is None else best[1]


def _cut_text(change: FileChange | None, path: str, text: str, room: int, line_chars: int, least: int) -> str | None:
    """A window of a hunk too big for ``room``: from just before the row the ranking finds most telling (else
    its first added row, else its top), as many rows as fit, with its own ``@@`` counts and a line saying the rest is in the patch;
    None when fewer than ``least`` rows fit."""
    lines = parse_lines(text)
    total = len(lines)
    row = _telling_row(change, path, lines)
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
    end = first
    used = 0
    while end < total and used + sizes[end] <= budget:
        used += sizes[end]
        end += 1
    while first > 0 and used + sizes[first - 1] <= budget:
        first -= 1
        used += sizes[first]
    if end - first < max(least, 1):
        return None
    shown = window(text, first, end, line_chars=line_chars)
    while len(shown) + len(note) + 8 > room and end - first > max(least, 1):
        end -= 1
        shown = window(text, first, end, line_chars=line_chars)
    if len(shown) + len(note) + 8 > room:
        return None
    return shown + note.format(end - first)


def diff_view(record: RunRecord, status: Status, patch: bytes | None, patch_path: str,
              max_chars: int | None = None) -> tuple[dict[str, Any], str]:
    """(structured content, text block): the review read of a run, within ``max_chars`` (default
    ``DEFAULT_VIEW_CHARS``). ``status`` is the run's status as every view reads it (RUNNING while its relay lives)."""
    budget = DEFAULT_VIEW_CHARS if max_chars is None else max_chars
    run_id = record.run_id
    if patch is None:
        if status is Status.RUNNING:
            text = f"# run {run_id} has not finished: its patch is written once its changes are observed\n"
        elif not record.observation.changes:
            text = f"# run {run_id} changed no files: there is no patch\n"
        else:
            text = (f"# run {run_id} has no patch ({len(record.observation.changes)} files changed): it ran before patches were "
                    f"kept, its changes came from the worker's report only, or patches are off "
                    f"(GRAVITY_RELAY_PATCH_MAX_SIZE=0); detail=\"full\" lists the files\n")
        text = text[:budget]
        return {"run_id": run_id, "status": status.value, "diff": text}, text
    text = _review_read(record, patch, patch_path, budget)
    return {"run_id": run_id, "status": status.value, "diff": text}, text


def _review_read(record: RunRecord, patch: bytes, patch_path: str, budget: int) -> str:
    header, sections = split_patch(patch)
    notes = [_text(line) for line in header if line.startswith(NOT_IN_PATCH) or line.startswith(CUT)]
    line_chars = max(300, budget // 8)
    items, rest = _items(record, sections, bool(notes), line_chars)
    every = [*items, *rest]
    n_targets = len(items)
    top = (f"# run {record.run_id}: {n_targets} review target{'' if n_targets == 1 else 's'}, riskiest first, at the "
           f"packet's lines ±1\n")
    if len(top) > budget // 4:
        top = "# review targets first\n"
    pieces_top = [top, *[redact(n[:_NOTE_LINE]) for n in notes[:_HEADER_NOTES]]]
    if sum(map(len, pieces_top)) > budget // 3:
        pieces_top = [top]
    head_len = sum(map(len, pieces_top))
    tail_room = min(_TAIL_ROOM, budget // 3)
    room = budget - head_len - tail_room

    pick = _Pick()
    used = 0

    def cost(i: int, text: str) -> int:
        """What showing one more hunk of item ``i`` costs: its text, the item's label if it is not shown yet,
        and room for the line saying the rest of the item is left out while some of it is."""
        item = every[i]
        shown = len(pick.chosen.get(i, []))
        note = _NOTE_COST if len(item.hunks) > 1 else 0
        if pick.shows(i):
            return len(text) - (note if shown + 1 == len(item.hunks) else 0)
        return len(item.label) + len(text) + note

    # First pass, one risk at a time from the highest: the targets of that risk that have no lines (deleted,
    # binary, renamed) by their labels, then each one's most telling hunk, the room split among them by
    # water-filling (a hunk that needs less than its share is shown whole and gives the rest back; the riskiest
    # target's share weighs double). Room is kept for the small telling hunks of lower risks (up to a quarter):
    # a window of a big hunk loses a few rows and every small target is seen. A hunk over its share shows a
    # window of it; a target whose share is too small for a useful window gives it back to the ones before it,
    # except the riskiest, which shows a window in whatever room there is rather than none.
    with_hunks = [i for i, item in enumerate(items) if item.hunks]
    riskiest = with_hunks[0] if with_hunks else -1
    needs = {i: cost(i, items[i].texts[items[i].telling]) for i in with_hunks}
    for n, risk in enumerate(_RISKS):
        for i, item in enumerate(items):
            if item.risk == risk and not item.hunks and used + len(item.label) <= room and i != riskiest:
                pick.take_label(i)
                used += len(item.label)
        level = [i for i in with_hunks if items[i].risk == risk]
        small = sum(needs[i] for i in with_hunks if items[i].risk in _RISKS[n + 1:] and needs[i] <= _SMALL)
        kept = min(small, (room - used) // 4)
        share = room - used - kept
        while True:
            alloc = _fill({i: needs[i] for i in level}, {i: 2 if i == riskiest else 1 for i in level}, share)
            tiny = [i for i in level if alloc[i] < min(needs[i], _MIN_SHARE) and i != riskiest]
            if not tiny:
                break
            level.remove(tiny[-1])
        for i in level:
            item, h = items[i], items[i].telling
            # The riskiest target may take the room kept for lower ones, and the closing note's down to its
            # shortest form, to be shown whole.
            grace = kept + tail_room - _SHORT_TAIL if i == riskiest else 0
            if needs[i] <= alloc[i] + grace:
                pick.take(i, h)
                used += needs[i]
                continue
            over = needs[i] - len(item.texts[h])
            cut = _cut_text(item.change, item.path, item.texts[h], alloc[i] - over, line_chars,
                            1 if i == riskiest else _MIN_ROWS)
            if cut is None and i == riskiest:
                cut = f"# … its most telling hunk ({item.hunks[h].line_count:,} lines) does not fit\n"
            if cut is None:
                continue
            pick.take(i, h)
            pick.cut[(i, h)] = cut
            used += over + len(cut)
    # Then a cut hunk shown whole where it now fits; the targets' other hunks; and, with room left, the rest
    # of the change: all in risk and line order.
    for (i, h), cut in list(pick.cut.items()):
        extra = len(every[i].texts[h]) - len(cut)
        if used + extra <= room:
            del pick.cut[(i, h)]
            used += extra
    for i, item in enumerate(every):
        for h in range(len(item.hunks)):
            if h in pick.chosen.get(i, []):
                continue
            c = cost(i, item.texts[h])
            if used + c <= room:
                pick.take(i, h)
                used += c

    def render() -> str | None:
        body = "".join(pieces_top) + "".join(_render_items(every, pick))
        tail = _tail(every, n_targets, pick, budget, head_len, patch_path, budget - len(body))
        return None if tail is None else body + tail

    text = render()
    # The labels' "shown: k of n hunks" were counted roughly above: give back what was taken last (never the
    # riskiest target's first hunk) until the whole answer, its closing note included, fits.
    while text is None and len(pick.order) > 1:
        pick.drop_last()
        text = render()
    if text is None:  # only when max_chars is below any useful size (the schema's floor is 200)
        whole = "".join(pieces_top) + "".join(_render_items(every, pick))
        text = whole[: max(budget - 2, 0)] + "…\n" if budget > 2 else whole[:budget]
    return text


def _tail(every: list[_Item], n_targets: int, pick: _Pick, budget: int, head_len: int, patch_path: str,
          room: int) -> str | None:
    """The closing note: what is left out and how to read it, in its longest form that fits ``room``; None
    when even the shortest does not."""
    size = [len(it.label) + sum(map(len, it.texts)) for it in every]
    whole_targets = head_len + sum(size[:n_targets]) + 160
    whole = whole_targets + sum(size[n_targets:])
    missing = [it for i, it in enumerate(every[:n_targets]) if not pick.shows(i)]
    partial = [it for i, it in enumerate(every[:n_targets]) if len(pick.chosen.get(i, [])) < len(it.hunks) and pick.shows(i)]
    files: set[str] = set()
    hunks = 0
    for i, it in enumerate(every[n_targets:], start=n_targets):
        left = len(it.hunks) - len(pick.chosen.get(i, []))
        if left or not pick.shows(i):
            files.add(it.path)
            hunks += left
    said: list[str] = []
    if missing:
        names = "; ".join(it.label[3:].rstrip() for it in missing[:_NAMES])
        more = f" (+{len(missing) - _NAMES} more)" if len(missing) > _NAMES else ""
        said.append(f"target{'' if len(missing) == 1 else 's'} {names}{more}")
    if partial:
        said.append(f"part of {len(partial)} target{'' if len(partial) == 1 else 's'} (said on each)")
    if files:
        said.append(f"{hunks:,} more hunk{'' if hunks == 1 else 's'} in {len(files)} file{'' if len(files) == 1 else 's'} "
                    "past the targets")
    if not said:
        for note in (f"# that is the whole change; the patch: {patch_path}\n", "# that is the whole change\n"):
            if len(note) <= room:
                return note
        return None
    asks = [f"max_chars={_round(whole_targets)} shows every target's lines" if missing or partial else "",
            f"max_chars={_round(whole)} the whole change" if files else ""]
    how = ", ".join(a for a in asks if a)
    for note in (f"# left out at max_chars={budget}: {'; '.join(said)}. More: {how}; the patch: {patch_path}\n",
                 f"# left out at max_chars={budget}: {'; '.join(said)}. More: {how}\n",
                 f"# more was left out: ask with max_chars={_round(whole)}, or read the patch file\n",
                 f"# more: max_chars={_round(whole)}\n"):
        if len(note) <= room:
            return note
    return None


def _round(n: int) -> int:
    return -(-n // 500) * 500


def view_labels(text: str) -> list[tuple[str, str, int]]:
    """(file, lines, hunks shown) for each ``## FILE lines LINES`` label of a view, in order: what a test or
    a bench reads back. A label of a file without lines is left out."""
    out: list[tuple[str, str, int]] = []
    for line in text.split("\n"):
        match = _LABEL.match(line)
        if match:
            out.append((match["file"], match["lines"], 0))
        elif line.startswith("@@ ") and out:
            file, lines, n = out[-1]
            out[-1] = (file, lines, n + 1)
    return out
