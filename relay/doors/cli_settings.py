"""What every operator command does first: the relay's INFO logs quieted, the settings read, and a setting
out of range said on stderr (the command then refuses to go on)."""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["quiet", "refuse_bad_settings", "settings_or_none"]


def quiet() -> None:
    """Operator commands print their own answer; the relay's INFO logs only on request."""
    if not os.environ.get("GRAVITY_RELAY_LOG_LEVEL"):
        logging.getLogger().setLevel(logging.WARNING)


def refuse_bad_settings(problems: list[str]) -> bool:
    """Say on stderr which environment values are out of range; True if there are any.

    A typo in a limit must stop the relay, not quietly become another limit (issue 13, item 2).
    """
    for problem in problems:
        print(f"gravity-relay: configuration error: {problem}", file=sys.stderr)
    if problems:
        print("gravity-relay: fix the variable in the relay's environment (the MCP client's server env); "
              "`gravity-relay doctor` lists every problem.", file=sys.stderr)
    return bool(problems)


def settings_or_none():
    """The settings, or None after saying on stderr what in the environment is wrong."""
    from relay.core.settings import load_settings

    try:
        settings = load_settings()
    except ValueError as exc:
        print(f"gravity-relay: configuration error: {exc}", file=sys.stderr)
        return None
    return None if refuse_bad_settings(settings.problems) else settings
