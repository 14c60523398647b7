"""The enforced limits of one run (issue 10): a profile's bound, narrowed by the call, never widened.

``paths`` (where the worker may change files), ``protected`` (patterns it must never
touch), ``max_files``, ``max_lines`` (added + removed, the whole change) and
``on_violation`` ("keep" or "revert"). A call narrows by naming stricter values; a value
that would widen the bound is refused with CONFLICTING_OPTIONS naming the bound:

* paths: every pattern the call names must lie within one of the bound's (``src/api``
  within ``src``); the call's list then replaces the bound's;
* protected: the call's patterns are added to the bound's (a call cannot remove one);
* max_files / max_lines: at most the bound's;
* on_violation: "revert" may replace "keep", not the reverse.

A continue's bound is its run's limits, tightened by the profile as it is now (see
``inherit``). Pattern rules: ``relay.core.path_globs``.
"""

from __future__ import annotations

from msgspec import Struct

from relay.core.contracts import OnViolation, Profile, RunRecord, Status
from relay.core.errors import InvalidInput, RelayError
from relay.core.path_globs import pattern_problem, pattern_within
from relay.core.views import view

__all__ = ["Limits", "AskedLimits", "asked_by", "profile_limits", "recorded_limits", "inherit", "narrow"]


class Limits(Struct, kw_only=True, frozen=True):
    paths: list[str] = []
    protected: list[str] = []
    max_files: int | None = None
    max_lines: int | None = None
    on_violation: OnViolation = "keep"


class AskedLimits(Struct, kw_only=True, frozen=True):
    """What one call asked for (None: what its bound says)."""

    paths: list[str] | None = None
    protected: list[str] | None = None
    max_files: int | None = None
    max_lines: int | None = None
    on_violation: OnViolation | None = None


def asked_by(args: object) -> AskedLimits:
    """The limits an ExecuteInput / ContinueInput names (its unpublished policy fields)."""
    return AskedLimits(**{key: getattr(args, key, None) for key in AskedLimits.__struct_fields__})


# A call's patterns, per list, at most, and the characters of each: every changed file is matched against every
# pattern at each check, and the matcher keeps 4,096 compiled ones (relay.core.path_globs); 100,000 patterns from the
# leader's model stalled the run's end for minutes a pass. A profile's are the operator's, not bounded here.
CALL_PATTERNS_MAX = 200
PATTERN_CHARS_MAX = 1_000


def _checked(patterns: list[str], key: str, whose: str) -> list[str]:
    if len(patterns) > CALL_PATTERNS_MAX:
        raise InvalidInput(f"{whose} {key} names {len(patterns):,} patterns; a call names at most "
                           f"{CALL_PATTERNS_MAX} {key} patterns",
                           f"Name folders rather than files (\"src/\" covers all under it), or put the list in a "
                           f"profile's {key}.")
    for pattern in patterns:
        if isinstance(pattern, str) and len(pattern) > PATTERN_CHARS_MAX:
            raise InvalidInput(f"{whose} {key} pattern {pattern[:60]!r}… has {len(pattern):,} characters; a pattern "
                               f"has at most {PATTERN_CHARS_MAX:,} characters", "Shorten it: name a folder or a glob.")
        problem = pattern_problem(pattern)
        if problem:
            raise InvalidInput(
                f"{whose} {key} pattern {pattern!r} {problem}",
                f"Write {key} as workspace-relative folders or globs, e.g. \"src/\", \".github/**\", \"*.lock\".",
            )
    return [p.strip() for p in patterns]


def profile_limits(profile: Profile, name: str | None) -> Limits:
    whose = f"profile {name!r}" if name else "the call's"
    return view(Limits, profile, paths=_checked(list(profile.paths), "paths", whose),
                protected=_checked(list(profile.protected), "protected", whose))


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def recorded_limits(run: RunRecord) -> Limits:
    """The limits a run ran under, as its record keeps them."""
    return view(Limits, run.plan, on_violation=run.plan.on_violation or "keep")


def inherit(run: Limits, profile: Limits) -> Limits:
    """A continue keeps its run's limits; a profile tightened since tightens them too (never loosens)."""
    return Limits(
        paths=list(run.paths) or list(profile.paths),
        protected=list(dict.fromkeys([*run.protected, *profile.protected])),
        max_files=_least(run.max_files, profile.max_files),
        max_lines=_least(run.max_lines, profile.max_lines),
        on_violation="revert" if "revert" in (run.on_violation, profile.on_violation) else "keep",
    )


def _widening(message: str, bound: str) -> RelayError:
    return RelayError(Status.CONFLICTING_OPTIONS, message,
                      f"A call may narrow {bound}, never widen it: drop the argument, or ask the relay's owner "
                      "to change the profile.")


def narrow(bound: Limits, asked: AskedLimits, whose: str) -> Limits:
    """The call's limits within ``bound``; widening is refused naming ``whose`` bound ("profile 'app'")."""
    paths = list(bound.paths)
    if asked.paths:
        wanted = _checked(asked.paths, "paths", "the call's")
        if bound.paths:
            outside = [p for p in wanted if not pattern_within(p, bound.paths)]
            if outside:
                raise _widening(f"paths {', '.join(map(repr, outside))} lie outside {whose}'s paths "
                                f"({', '.join(bound.paths)})", f"{whose}'s paths")
        paths = wanted
    protected = list(bound.protected)
    if asked.protected:
        protected = list(dict.fromkeys([*protected, *_checked(asked.protected, "protected", "the call's")]))
    counts: dict[str, int | None] = {}
    for key in ("max_files", "max_lines"):
        limit, wish = getattr(bound, key), getattr(asked, key)
        if wish is not None and limit is not None and wish > limit:
            raise _widening(f"{key} {wish} is above {whose}'s {key} {limit}", f"{whose}'s {key}")
        counts[key] = _least(limit, wish)
    on_violation = asked.on_violation or bound.on_violation
    if bound.on_violation == "revert" and on_violation == "keep":
        raise _widening(f"on_violation 'keep' would widen {whose}'s on_violation 'revert'", f"{whose}'s on_violation")
    return Limits(paths=paths, protected=protected, on_violation=on_violation, **counts)
