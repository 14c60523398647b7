"""How the review read spends its characters: which hunks of which items it shows, whole or as a window.

First each review target's most telling hunk (``relay.review.telling``), one risk at a time from the
highest (after a second quoted hunk of each of the first three targets: a reason that names two lines; the riskiest
target's as a window around its line when the hunk is big), the room split
among the targets of a risk by water-filling with the riskiest target weighing
double; a hunk bigger than its share shows a window of it, around the row the ranking finds most telling.
Then the targets' other hunks, in target and line order; then, with room left, the rest of the change: the
ranges past the three a target names, then the files that are not targets, in the packet's risk order. The
riskiest target is never dropped for the others: when even a window of its hunk does not fit, it keeps its
label and says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from relay.review.line_shapes import squeezed
from relay.review.telling import cut_window, holds_risky_line, read_quotes, worded_quotes
from relay.review.view_items import Item

__all__ = ["Pick", "spend"]

# The first pass: a share smaller than this (characters) is too small for a useful window, and a window
# shows at least this many rows (the riskiest target's: one); room is kept for a lower risk's telling hunk
# this small (label included) while higher ones are cut; "(shown: k of n hunks)" on a label costs this.
_MIN_SHARE = 400
_MIN_ROWS = 3
_SMALL = 360
_NOTE_COST = 28
_RISKS = ("high", "medium", "low")
# The length of the closing note's shortest form, which the riskiest target may take the rest of.
_SHORT_TAIL = 32
# A hunk of at most this many characters that changes at most SMALL_LINES lines is small: shown before big ones.
_SMALL_CHARS = 600
# The room a quoted line's window takes in the first pass (the riskiest target's: half the room if more).
_QUOTE_SHARE = 500
# The room a second or third target's second read line takes as a window of a big hunk.
_SECOND_SHARE = 300
# A small hunk starting at most this many lines below a quoted hunk is shown with it (the same function's body).
_FOLLOW_GAP = 12
# A hunk read row by row for a second risky line is at most this long (a bigger one is a rewrite's, shown by its window).
_RISKY_SCAN = 8_000
# A word reason's quoted hunk is shown in the first pass for this many first targets.
_WORDED_RANKS = 3


@dataclass
class Pick:
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


def _second_quotes(item: Item) -> tuple[str, ...]:
    """The pieces a second window is placed by: those the first shown hunk does not hold (session 38: csvkit's `+ 1`
    dropped, quoted second; a piece of the first reason's, ``_invalid_range``, stood on the new function's first row)."""
    hunk = item.hunks[item.telling]
    shown = "".join(squeezed(line) for line in (*hunk.added, *hunk.removed))
    quotes = read_quotes(item.change)
    return tuple(q for q in quotes if q not in shown) or tuple(quotes)


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


def spend(items: list[Item], every: list[Item], room: int, tail_room: int, line_chars: int) -> Pick:
    """The hunks shown of ``every`` item (the review targets ``items`` first, then the rest of the change)
    within ``room`` characters; ``tail_room`` is kept for the closing note, which the riskiest target may
    take down to its shortest form."""
    pick = Pick()
    used = 0
    placed: dict[tuple[int, int], tuple[str, ...]] = {}  # a window placed at a second read line stays there when widened

    def cost(i: int, text: str) -> int:
        """What showing one more hunk of item ``i`` costs: its text, the item's label if it is not shown yet,
        and room for the line saying the rest of the item is left out while some of it is."""
        item = every[i]
        shown = len(pick.chosen.get(i, []))
        note = _NOTE_COST if len(item.hunks) > 1 else 0
        if pick.shows(i):
            return len(text) - (note if shown + 1 == len(item.hunks) else 0)
        return len(item.label) + len(text) + note

    def small(item: Item, h: int) -> bool:
        return item.small[h] and len(item.texts[h]) <= _SMALL_CHARS

    def window(i: int, h: int, share: int, least: int, quotes: tuple[str, ...] = ()) -> bool:
        """Item ``i``'s hunk ``h`` as a window of at most ``share`` characters, label included (around a row holding one of
        ``quotes`` first)."""
        nonlocal used
        item = items[i]
        over = cost(i, item.texts[h]) - len(item.texts[h])
        # A second window for another quoted line far below is the first three targets' (a lower one's takes the room the
        # riskiest's small hunks are shown in: session 38, go-crypto's keywrap loop bound).
        cut = cut_window(item.change, item.path, item.texts[h], share - over, line_chars, least, quotes, below=i < _WORDED_RANKS)
        if cut is None:
            return False
        pick.take(i, h)
        pick.cut[(i, h)] = cut
        if quotes:
            placed[(i, h)] = quotes
        used += over + len(cut)
        return True

    def too_big(i: int, h: int) -> None:
        """The riskiest target is never dropped: when not even a window of its hunk fits, its label says so."""
        nonlocal used
        note = f"# … its most telling hunk ({items[i].hunks[h].line_count:,} lines) does not fit\n"
        used += cost(i, "") + len(note)
        pick.take(i, h)
        pick.cut[(i, h)] = note

    with_hunks = [i for i, item in enumerate(items) if item.hunks]
    riskiest = with_hunks[0] if with_hunks else -1
    # First, the hunk each target's reason quotes, in target order: the line the leader is told about is the one it must
    # see. A small one whole; a big one as a window around the quoted row (shown whole below if room is left), the
    # riskiest target's wider. A big hunk shown whole never crowds out another target's quoted line.
    # The edits quoted by a description (a low file no rule flagged: ``edit (+1/-1): in f(): A → B``) come after the riskiest
    # target's own small hunks: a lower file's quoted edit never displaces a slip in the riskiest file (ripgrep's escape.rs).
    def riskiest_small() -> None:
        nonlocal used
        if riskiest >= 0:
            item = items[riskiest]
            for h in dict.fromkeys([item.telling, *range(len(item.hunks))]):
                if small(item, h) and h not in pick.chosen.get(riskiest, []) and used + cost(riskiest, item.texts[h]) <= room:
                    used += cost(riskiest, item.texts[h])
                    pick.take(riskiest, h)

    def follow(i: int, h: int) -> None:
        """The small hunk right after a quoted one, a few lines below it, goes with it: the body of the function whose
        signature the reason quotes (spectre.console's ``Escape(string? markup)`` renamed in one hunk, its escape made a
        no-op in the next), the line that discards a check whose guard the reason quotes deleted."""
        nonlocal used
        item = items[i]
        nxt = h + 1
        if nxt >= len(item.hunks) or nxt in pick.chosen.get(i, []) or len(item.texts[nxt]) > _SMALL_CHARS:
            return
        if item.hunks[nxt].start - item.hunks[h].end > _FOLLOW_GAP:
            return
        c = cost(i, item.texts[nxt])
        if used + c <= room:
            pick.take(i, nxt)
            used += c

    # After the line rules' quotes, a word reason's quoted line of the first three targets (the ranking's top 3), when its
    # hunk is small enough to show whole in a quote's room: spectre.console's ``Escape(string? markup)`` at rank 2. Not a
    # window, not past rank 3: a word quotes an ordinary line as often as a slip, and the room it takes is a lower
    # target's (Sorcery's session timeout, rank 5, a path reason, in held-out 22).
    # A bigger one shows as a window around the quoted row, in a quote's room: the line the first three targets' reasons
    # quote comes before any other hunk (round 32: a connection filter's turned check, quoted by "changes an input check",
    # rank 3, sat in a 505-character hunk and the view showed a low file's hunk instead).
    worded = [i for i in with_hunks[:_WORDED_RANKS] if items[i].worded]
    quoted = [i for i in with_hunks[:_WORDED_RANKS] if (items[i].quoted and not items[i].described) or i in worded] + [
        i for i in with_hunks[_WORDED_RANKS:] if items[i].quoted and not items[i].described]
    described = [i for i in with_hunks if items[i].described]
    # The room a second finding's hunk of the first three targets will take (below) is kept from the riskiest's window.
    seconds = [(i, h) for i in with_hunks[:_WORDED_RANKS] if items[i].quoted for h in items[i].also[:1]]
    # A lower target's big second hunk keeps no room from the riskiest's window: it is shown in what is left.
    reserve = sum(min(len(items[i].texts[h]), _QUOTE_SHARE) for i, h in seconds
                  if small(items[i], h) or len(items[i].texts[h]) <= _QUOTE_SHARE or i == riskiest)
    def first_quote(i: int) -> None:
        nonlocal used
        if i < 0:
            riskiest_small()
            return
        item, h = items[i], items[i].telling
        need = cost(i, item.texts[h])
        if small(item, h) or need <= _QUOTE_SHARE:
            if used + need <= room:
                pick.take(i, h)
                used += need
                follow(i, h)
            return
        share = min(need, max(_QUOTE_SHARE, (room - used - reserve) // 2) if i == riskiest else _QUOTE_SHARE, room - used)
        quotes = tuple(worded_quotes(item.change)) if item.worded else ()
        # One row is enough here: it is the line the reason names (session 33: jline's turned connection filter, a 130-character
        # row in a third target's 505-character hunk, left no room for two more rows in a quote's share and was not shown; the
        # window widens into the room left at the end).
        if not window(i, h, share, 1, quotes) and i == riskiest:
            too_big(i, h)

    # A second finding's hunk of each of the first three targets (a reason that names two lines: a guard deleted and
    # the check's verdict discarded a few hunks above it), when small or under a quote's room: the line a leader is told about comes before any
    # other target's second hunk (round 21 part B: an 86-file commit showed the guard and not the discarded verdict).
    # The riskiest target's second read line in a big hunk shows as a window around it, in a quote's room (round 27 part C:
    # a token check's dropped clause, quoted second, sat in a 40-line hunk of the riskiest file and was never shown).
    def second_quote(i: int, h: int) -> None:
        nonlocal used
        need = cost(i, items[i].texts[h])
        if items[i].telling not in pick.chosen.get(i, []) or h in pick.chosen.get(i, []):
            return
        if small(items[i], h) or len(items[i].texts[h]) <= _QUOTE_SHARE:
            if used + need <= room:
                used += need
                pick.take(i, h)
        elif i == riskiest and room - used >= _QUOTE_SHARE:
            window(i, h, _QUOTE_SHARE, _MIN_ROWS, _second_quotes(items[i]))
        elif room - used >= _SECOND_SHARE:
            window(i, h, _SECOND_SHARE, 1, _second_quotes(items[i]))

    # The first three targets' quoted lines, then their second ones, then the lower targets' quoted lines (session 38: blind
    # 84's cosign, rank 2, its reason naming a guard deleted and a failure's check narrowed; the windows of two lower targets'
    # quoted hunks took the room and the narrowed check was not shown).
    order = [*quoted, -1, *described] if described else quoted
    top = [i for i in order if 0 <= i and i in with_hunks[:_WORDED_RANKS] and i not in described]
    for i in top:
        first_quote(i)
    for i, h in seconds:
        second_quote(i, h)
    for i in order:
        if i not in top:
            first_quote(i)
    # Then, one risk at a time from the highest, for the targets not shown yet: those that have no lines (deleted,
    # binary, renamed) by their labels, then each one's most telling hunk, the room split among them by water-filling
    # (a hunk that needs less than its share is shown whole and gives the rest back; the riskiest target's share weighs
    # double). Room is kept for the small hunks of the other targets (up to a quarter): a window of a big hunk loses a
    # few rows and every small edit is seen. A hunk over its share shows a window of it; a target whose share is too
    # small for a useful window gives it back to the ones before it, except the riskiest, which shows a window in
    # whatever room there is rather than none.
    needs = {i: cost(i, items[i].texts[items[i].telling]) for i in with_hunks if not pick.shows(i)}
    for n, risk in enumerate(_RISKS):
        for i, item in enumerate(items):
            if item.risk == risk and not item.hunks and used + len(item.label) <= room and i != riskiest:
                pick.take_label(i)
                used += len(item.label)
        level = [i for i in needs if items[i].risk == risk]
        later = [cost(i, items[i].texts[h]) for i in with_hunks for h in range(len(items[i].hunks))
                 if small(items[i], h) and h not in pick.chosen.get(i, []) and i not in level
                 and (i in needs or pick.shows(i))]
        kept = min(sum(later), (room - used) // 4)
        share = room - used - kept
        while True:
            alloc = _fill({i: needs[i] for i in level}, {i: 2 if i == riskiest else 1 for i in level}, share)
            tiny = [i for i in level if alloc[i] < min(needs[i], _MIN_SHARE) and i != riskiest]
            if not tiny:
                break
            # The last of them gives its share back, a big hunk before a small one (a big one is cut first).
            level.remove(next((i for i in reversed(tiny) if needs[i] > _SMALL), tiny[-1]))
        for i in level:
            item, h = items[i], items[i].telling
            # The riskiest target may take the closing note's room down to its shortest form to be shown whole, unless
            # other targets' small hunks wait for the room kept for them (a big file shown whole would leave them none).
            grace = tail_room - _SHORT_TAIL if i == riskiest and not kept else 0
            if needs[i] <= alloc[i] + grace:
                pick.take(i, h)
                used += needs[i]
                continue
            if window(i, h, alloc[i], 1 if i == riskiest else _MIN_ROWS) or i != riskiest:
                continue
            # The riskiest target is never left out: with too little room for a window, it takes the room kept for the
            # others and the closing note's down to its shortest form, whole if that is enough.
            if needs[i] <= alloc[i] + kept + tail_room - _SHORT_TAIL:
                pick.take(i, h)
                used += needs[i]
            elif not window(i, h, alloc[i] + kept + tail_room - _SHORT_TAIL, 1):
                too_big(i, h)
    # Then the first three targets' other hunks that hold a line risky read alone (a dangerous call or value, a check
    # deleted): a reader names one line a file, and a second one of the kind is the next the reviewer must see, before any
    # target's other small hunks (round 32: a second SQL statement built from text, in the top target, three hunks below
    # the quoted one, left out while a low file's renames were shown).
    # The target's ranges past the packet's three are read too (the item the view keeps for them, shown whole if it fits).
    for t in with_hunks[:_WORDED_RANKS]:
        if not pick.shows(t):
            continue
        past = [j for j in range(len(items), len(every)) if every[j].path == items[t].path]
        for i, h in [(i, h) for i in (t, *past) for h in range(len(every[i].hunks))]:
            if h in pick.chosen.get(i, []) or len(every[i].texts[h]) > _RISKY_SCAN or not holds_risky_line(every[i].texts[h]):
                continue
            c = cost(i, every[i].texts[h])
            if used + c <= room:
                pick.take(i, h)
                used += c
            elif i == t and room - used >= _QUOTE_SHARE:
                window(i, h, _QUOTE_SHARE, _MIN_ROWS)
    # Then each shown target's other small hunks (a slipped line is small), in target and line order; a cut hunk shown
    # whole where it now fits; the targets' other hunks; and, with room left, the rest of the change, its small hunks
    # first: all in risk and line order.
    for i, item in enumerate(items):
        if item.telling in pick.chosen.get(i, []) and (i, item.telling) not in pick.cut:
            follow(i, item.telling)
        for h in range(len(item.hunks)):
            if pick.shows(i) and small(item, h) and h not in pick.chosen.get(i, []):
                c = cost(i, item.texts[h])
                if used + c <= room:
                    pick.take(i, h)
                    used += c
    for (i, h), cut in list(pick.cut.items()):
        extra = len(every[i].texts[h]) - len(cut)
        if used + extra <= room:
            del pick.cut[(i, h)]
            used += extra
        elif room - used > _SMALL and not cut.startswith("# "):
            # A window widened into the room left (a quoted line's window was kept narrow for the others' hunks).
            wider = cut_window(every[i].change, every[i].path, every[i].texts[h], len(cut) + room - used, line_chars, 1,
                               placed.get((i, h), ()), below=i < _WORDED_RANKS)
            if wider is not None and len(cut) < len(wider) <= len(cut) + room - used:
                pick.cut[(i, h)] = wider
                used += len(wider) - len(cut)
    for part, first in ((range(len(items)), False), (range(len(items), len(every)), True), (range(len(items), len(every)), False)):
        for i in part:
            item = every[i]
            for h in range(len(item.hunks)):
                if h in pick.chosen.get(i, []) or (first and not small(item, h)):
                    continue
                c = cost(i, item.texts[h])
                if used + c <= room:
                    pick.take(i, h)
                    used += c
                elif i < len(items) and room - used >= _MIN_SHARE:
                    window(i, h, room - used, _MIN_ROWS)  # a target's big hunk is cut, not left out
    return pick
