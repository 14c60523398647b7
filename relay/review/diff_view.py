"""``detail="diff"``: the review read — the packet's review targets at the lines they name, in a small budget.

The leader has the packet (files, line ranges, risks); before it accepts a run it reads the
hunks the packet points at. This view gives exactly those, and first: for each review target
in the packet's order (riskiest first), the changed lines of each range its ``lines`` names,
with one line of context (``relay.review.range_hunks``), under a ``## FILE lines LINES`` label
that repeats the packet's own words. It stops within ``max_chars`` (``DEFAULT_VIEW_CHARS`` when
the call names none) and ends saying what it left out and how to read more: a larger
``max_chars`` (the figure that shows every target's lines, and the one that shows the whole
change), the patch file, or the targets it could not show, by file and lines.

The items (each target, then the rest of the change) are ``relay.review.view_items``'s; how the
budget is spent on them (the targets' most telling hunks first, riskiest first; then their other
hunks; then the rest) is ``relay.review.view_budget``'s. A file shown in part says ``(shown: k of
n hunks)`` on its label; a deleted, binary or renamed-only file is shown by its label alone. The patch on disk (``relay.observe.run_patch``) stays
whole: it is the change, in path order, as ``git apply`` wants it. Credentials are masked as in every
other view (``relay.core.redact``); the file keeps them (0600).

``gravity-relay runs diff`` prints these same characters (it calls ``antigravity_get_result``).
"""

from __future__ import annotations

import re
from typing import Any

from relay.core.contracts import RunRecord, Status
from relay.core.redact import redact
from relay.observe.run_patch import CUT, NOT_IN_PATCH, split_patch
from relay.review.telling import LINE_RULES
from relay.review.view_budget import Pick, spend
from relay.review.view_items import Item, view_items

__all__ = ["diff_view", "DEFAULT_VIEW_CHARS", "view_labels"]

# The default budget of the view, in characters. Measured (bench/bench_review_read.py, 85 real commits of
# 10 projects): the packet plus this view come to 2,952 bytes at the median commit (3,779 for those that
# change five files or more), and the labelled riskiest file's hunks are in it for every labelled commit.
DEFAULT_VIEW_CHARS = 2_500

# Room kept for the closing note (what was left out, how to read more, the patch's path).
_TAIL_ROOM = 420
# The header's "not in this patch" / "cut" lines: at most this many, each cut to this length.
_HEADER_NOTES = 3
_NOTE_LINE = 400
# Left-out targets the closing note names by file and lines; the rest it counts.
_NAMES = 3
_LABEL = re.compile(r"^## (?P<file>.+) lines (?P<lines>[0-9][0-9,\-]*(?: \+\d+ more)?)(?: \(.*\))?$")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _shown(label: str, item: Item, shown: list[int]) -> str:
    """A file's label, saying how many of its hunks are shown when not all are."""
    if len(shown) >= len(item.hunks):
        return label
    return f"{label[:-1]} (shown: {len(shown)} of {len(item.hunks)} hunks)\n"


def _render_items(items: list[Item], pick: Pick) -> list[str]:
    out: list[str] = []
    for i, item in enumerate(items):
        if not pick.shows(i):
            continue
        shown = sorted(pick.chosen.get(i, []))
        lead = [item.telling] if item.target and item.telling in shown and (
            item.quoted or (item.change is not None and LINE_RULES.intersection(item.change.rules))) else []
        # The hunk with the line the reason quotes (the risky line that made the file high) comes first, as its range
        # does in the label; then the small hunks (a slipped line is small), then the big ones, each in line order.
        shown = [*lead, *sorted((h for h in shown if h not in lead), key=lambda h: not item.small[h])]
        out.append(_shown(item.label, item, shown))
        out.extend(pick.cut.get((i, h), item.texts[h]) for h in shown)
    return out


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
    items, rest = view_items(record, sections, bool(notes), line_chars)
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

    pick = spend(items, every, room, tail_room, line_chars)

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


def _tail(every: list[Item], n_targets: int, pick: Pick, budget: int, head_len: int, patch_path: str,
          room: int) -> str | None:
    """The closing note: what is left out and how to read it, in its longest form that fits ``room``; None
    when even the shortest does not."""
    size = [len(it.label) + sum(map(len, it.texts)) for it in every]
    whole_targets = head_len + sum(size[:n_targets]) + 160
    whole = whole_targets + sum(size[n_targets:])
    missing = [it for i, it in enumerate(every[:n_targets]) if not pick.shows(i)]
    # A target shown in part: some of its hunks left out, or one shown as a window (the window says so itself).
    partial = [it for i, it in enumerate(every[:n_targets]) if pick.shows(i) and (
        len(pick.chosen.get(i, [])) < len(it.hunks) or any((i, h) in pick.cut for h in pick.chosen.get(i, [])))]
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
