"""What `agy models` lists, and what the list settles about a profile's model before any launch.

agy 1.3.0 runs a base model id (``gemini-3.8-flash``) only with ``--effort``; an id that names its level
(``gemini-3.8-flash-low``) runs without it; and since 1.2.17 ``--effort`` with an id `agy models` does not list
fails (agy-protocol.md §8.1). Whether an id is a base id is not said anywhere, so the relay decides only what
the list settles: an id the list does not name, with no effort while the list names its levels, or with an
effort. An id the list names is launched (agy itself then says if it needs an effort; classify reads that).
"""

from __future__ import annotations

import re

from relay.core.contracts import Status
from relay.core.errors import RelayError

__all__ = ["listed_models", "model_refusal", "effort_refusal", "LEVELS", "efforts_of"]

LEVELS = ("low", "medium", "high", "xhigh", "max")  # agy-protocol.md §7.4: 1.3.x's effort values
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]*")
_EFFORT_NEEDED_SINCE = (1, 3, 0)
_EFFORT_LISTED_SINCE = (1, 2, 17)
# The versions whose efforts the notes report (agy-protocol.md §8.1: nothing past 1.3.3): a later agy may take more.
_EFFORTS_KNOWN_BEFORE = (1, 4, 0)


def efforts_of(version: tuple[int, int, int] | None) -> tuple[str, ...]:
    """The --effort values agy takes by version (agy-protocol.md §1: low|medium|high, +max in 1.2.x; §7.4: 1.3.x adds
    xhigh); a model may take fewer (agy lists them per model). Unknown version: the newest set."""
    if version is not None and version < (1, 2, 0):
        return LEVELS[:3]
    if version is not None and version < _EFFORT_NEEDED_SINCE:
        return (*LEVELS[:3], "max")
    return LEVELS


def effort_refusal(effort: str | None, version: tuple[int, int, int] | None) -> RelayError | None:
    """CONFLICTING_OPTIONS, before any launch, for an effort this agy's version does not take (its efforts are known
    for every version up to 1.3.x, ``efforts_of``); None when it may (or the version is unknown or newer). Before,
    agy was started and refused it (exit 1) before any turn: a launch, an auth probe and a queue wait spent on it."""
    if not effort or version is None or version >= _EFFORTS_KNOWN_BEFORE:
        return None
    accepted = efforts_of(version)
    if effort in accepted:
        return None
    shown = ".".join(map(str, version))
    newer = ""
    if effort in LEVELS:
        since = "1.3.0" if effort == "xhigh" else "1.2.0"
        newer = f" `{effort}` is an effort of agy {since} and later: `agy update`, or pick one of those."
    return RelayError(
        Status.CONFLICTING_OPTIONS,
        f"effort {effort!r}: agy {shown} takes {', '.join(accepted)} (a model may take fewer), and refuses any other "
        "before any turn; nothing was launched",
        f"Set `effort` in the profile (or the call) to one of {', '.join(accepted)}, or leave it out for the model's "
        f"default.{newer}")


def listed_models(stdout: str) -> list[str]:
    """The ids of `agy models`' rows: ``slug<TAB>label`` or ``slug · description`` (agy-protocol.md §1, §6.1)."""
    out: list[str] = []
    for line in stdout.splitlines():
        first = line.strip().split("\t")[0].split(" · ")[0].strip()
        if first and " " not in first and _SLUG.fullmatch(first) and first not in out:
            out.append(first)
    return out


def _since(version: tuple[int, int, int] | None, since: tuple[int, int, int]) -> bool:
    return version is None or version >= since


def model_refusal(model: str | None, effort: str | None, listed: list[str] | None,
                  version: tuple[int, int, int] | None) -> RelayError | None:
    """CONFLICTING_OPTIONS when the listing settles that agy would refuse ``model``/``effort``; else None."""
    if not model or not listed or model in listed:
        return None
    if effort:
        if not _since(version, _EFFORT_LISTED_SINCE):
            return None
        return RelayError(
            Status.CONFLICTING_OPTIONS,
            f"effort {effort!r} with model {model!r}: `agy models` does not list {model}, and this agy refuses "
            f"--effort for such a model (\"--effort is not supported for model {model}\"); nothing was launched",
            f"Drop `effort` from the profile (or the call), or set the model to one `agy models` lists "
            f"(e.g. {', '.join(listed[:4])}).")
    levels = [m[len(model) + 1:] for m in listed if m.startswith(model + "-") and m[len(model) + 1:] in LEVELS]
    if not levels or not _since(version, _EFFORT_NEEDED_SINCE):
        return None
    return RelayError(
        Status.CONFLICTING_OPTIONS,
        f"model {model!r} is a base id with no effort: this agy runs it only with --effort (`agy models` lists "
        f"{', '.join(f'{model}-{lv}' for lv in levels)}, not {model}); nothing was launched",
        f"Set `effort` to one of {', '.join(levels)} in the profile (or the call), or set the model to an id that "
        f"names its level, e.g. `{model}-{levels[-1]}`.")
