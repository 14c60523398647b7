"""The lines and events that stop a worker while it runs, before it changes anything.

``RunWatch`` adds two stops to the sign-in ones of ``auth_reading.AuthWatch`` (agy-protocol.md §7):

- a continue into a conversation agy does not know: agy 1.3.x prints
  `warning: conversation "<id>" not found` (stderr; `Warning: … not found.` on stdout in text
  mode) about 1.7 s before its init event, then runs the feedback in a new conversation
  without its context and edits files. The relay stops it on that line (NOT_FOUND); comparing
  the ids afterwards stays the backstop (orchestrate adds a flag).
- a safe run that agy reports under a policy a safe call did not ask for (``init.permission_mode``
  ``always-proceed`` or ``proceed-in-sandbox``): agy's own settings.json can set it without the flag.
  The init event arrives before any tool step, so the stop costs nothing.

Both are read off the worker's argv (``--conversation ID``; no ``--dangerously-skip-permissions``),
so the worker, doctor's write probe and the run path share one rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from relay.agy.auth_reading import AuthWatch
from relay.core.contracts import Status

__all__ = ["RunWatch", "AUTO_APPROVE_MODES", "MODE_SEEN"]

# The policies a safe run is stopped under (agy-protocol.md §7.1, §8.3), with what each was seen to do: the stop's
# message says that, not more. always-proceed approves every tool unasked (--dangerously-skip-permissions reports
# it). proceed-in-sandbox lets tools proceed inside agy's sandbox, which is no containment (1.1.19, auto-approved:
# a write outside --add-dir, `id` and a web request went through); on 1.3.3 with --sandbox commands were still
# denied in -p, and what else it lets through is not measured: a policy nobody vouched for, so a safe run is still
# stopped. request-review and strict are what safe means; a value agy adds later is let through (the stream reader
# treats unknowns as unknown).
MODE_SEEN = {
    "always-proceed": "every tool approved unasked, commands included",
    "proceed-in-sandbox": ("tools let through inside agy's sandbox without review, and agy's sandbox is no "
                           "containment; on agy 1.3.3 commands were still denied in print mode, what else it lets "
                           "through is not measured"),
}
AUTO_APPROVE_MODES = frozenset(MODE_SEEN)
_NOT_FOUND = re.compile(r'warning: conversation "([^"]+)" not found', re.IGNORECASE)


def _flag_value(argv: Sequence[str], flag: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


class RunWatch(AuthWatch):
    def __init__(self, argv: Sequence[str] = ()) -> None:
        super().__init__()
        prompt_at = next((i for i, a in enumerate(argv) if a.startswith("--print=")), None)
        flags = list(argv[:prompt_at])  # never read the prompt as a flag
        # A print-mode argv the relay built (build_agy_argv binds the prompt last as --print=) without auto-approval;
        # any other command (a test's script) is not judged.
        self.safe = prompt_at is not None and "--dangerously-skip-permissions" not in flags
        self.conversation = _flag_value(flags, "--conversation")
        self.agent = _flag_value(flags, "--agent")
        self.effort = _flag_value(flags, "--effort")
        self.permission_mode: str | None = None

    def feed(self, line: str) -> Status | None:
        if self.conversation:
            match = _NOT_FOUND.search(line)
            if match:
                return self._stop("conversation_not_found", match[0], Status.NOT_FOUND)
        return super().feed(line)

    def feed_event(self, event: dict[str, Any]) -> Status | None:
        """An init event that contradicts the call's mode stops the run."""
        if event.get("event") != "init":
            return None
        init = event.get("init")
        mode = init.get("permission_mode") if isinstance(init, dict) else None
        if not isinstance(mode, str):
            return None
        self.permission_mode = mode
        if self.safe and mode in AUTO_APPROVE_MODES:
            return self._stop("always_proceed", mode, Status.CONFLICTING_OPTIONS)
        return None

    def _stop(self, kind: str, line: str, status: Status) -> Status:
        if self.status is None:
            self.kind, self.line, self.status = kind, line.strip()[:300], status
        return status
