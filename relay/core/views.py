"""Derived views: a Struct built from the same-named fields of another, never copied field by field.

The plan is one Struct (``relay.call.policy.RunPlan``, which is also the run's enforced ``Limits``); what
the other steps keep or pass of it are views of it: the record's plan (``RecordPlan``), agy's invocation
(``AgyInvocation``), the limits a profile or a record sets. A field they declare is taken from the source by
name, so a profile option added to ``Profile`` and ``RunPlan`` reaches the record and the worker without
another line (tests/test_plan_views.py keeps it so).
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["view"]

S = TypeVar("S")


def _copied(value: Any) -> Any:
    """Lists and dicts copied: a view never shares a mutable value with its source."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def view(kind: type[S], source: object, **given: Any) -> S:
    """A ``kind`` from ``given`` and, for every other field of ``kind`` that ``source`` has, the source's value."""
    fields = kind.__struct_fields__  # type: ignore[attr-defined]
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {', '.join(unknown)}")
    values = {name: given[name] if name in given else _copied(getattr(source, name))
              for name in fields if name in given or hasattr(source, name)}
    return kind(**values)
