"""The relay's error type: one class, a stable status code, a message and the next step.

    RelayError(status, message, hint)
      raised by policy, store and the surface for refusals that happen before
      (or instead of) a worker run; the surface turns it into a failed packet.

Worker outcomes are not exceptions: the classifier turns them into a Status.
"""

from __future__ import annotations

from relay.core.contracts import ErrorInfo, Status

__all__ = ["RelayError"]


class RelayError(Exception):
    def __init__(self, status: Status, message: str, hint: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.hint = hint
        self.retryable = retryable

    def info(self) -> ErrorInfo:
        return ErrorInfo(code=self.status, message=self.message, hint=self.hint, retryable=self.retryable)

    def __repr__(self) -> str:
        return f"RelayError({self.status.value}, {self.message!r})"
