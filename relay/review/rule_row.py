"""The shape of one row of the ranking's rule table (``relay.review.rules``): where a rule applies, what it decides, and the
examples ``tests/test_rules.py`` runs. Kept apart from the table so the table holds rows only."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from relay.core.contracts import FileChange, Risk
from relay.review.facts import FileFacts, RiskContext

__all__ = ["Example", "Rule", "Scope", "fc"]


class Scope(NamedTuple):
    """Where a rule applies; an empty tuple means "any"."""

    kinds: tuple[str, ...] = ()  # file kinds (relay.review.file_kinds.FileKind)
    not_kinds: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()  # kinds of change (FileChange.kind)
    not_changes: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()  # facts that must hold (FACTS), in the order they are worked out
    unless: tuple[str, ...] = ()  # facts that must not hold

    def admits(self, f: FileFacts) -> bool:
        # Plain loops, cheapest test first: every row asks this of every file.
        change = f.change.kind
        if (self.changes and change not in self.changes) or change in self.not_changes:
            return False
        if (self.kinds and f.kind not in self.kinds) or (self.not_kinds and f.kind in self.not_kinds):
            return False
        for fact in self.needs:
            if not getattr(f, fact):
                return False
        for fact in self.unless:
            if getattr(f, fact):
                return False
        return True


class Example(NamedTuple):
    """A change the rule fires on, the reason ``assess`` then gives for it, and a near miss."""

    fires: FileChange
    reason: str
    near_miss: FileChange
    ctx: RiskContext = RiskContext()


class Rule(NamedTuple):
    name: str
    risk: Risk | None
    reason: str
    check: Callable[[FileFacts, RiskContext], bool | str | None]
    example: Example
    scope: Scope = Scope()
    outranks: tuple[str, ...] = ()
    leads: bool = False
    more: tuple[Example, ...] = ()  # further cases it fires on, where the example alone cannot show each outranked rule firing


def fc(path: str, **kw: object) -> FileChange:
    """A FileChange for a row's example, its fields by name."""
    return FileChange(path=path, **kw)  # type: ignore[arg-type]
