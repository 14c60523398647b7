"""The relay's errors: a small tree, each class with a fixed status code, hint and retryable.

    RelayError(status, message, hint, retryable=False)   any refusal before (or instead of) a worker run
     ├── InvalidInput       INVALID_INPUT    (also: msgspec.ValidationError, mapped)
     ├── InvalidWorkspace   INVALID_WORKSPACE
     ├── NotFound           NOT_FOUND
     ├── Busy               BUSY             retryable
     ├── SpawnError         SPAWN_ERROR      (agy could not be started)
     ├── StorageError       STORAGE_ERROR    (also: OSError, mapped)
     └── InternalError      MCP_ERROR        (anything else: a relay bug, logged with its traceback)

Foreign errors are mapped at one boundary, ``as_relay_error``; ``error_object`` is the one error shape
both doors answer with. Worker outcomes are not exceptions: the classifier turns them into a Status.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from relay.core.contracts import ErrorInfo, Status, explain

__all__ = ["RelayError", "InvalidInput", "InvalidWorkspace", "NotFound", "Busy", "WAIT_FOR_IT", "SpawnError",
           "StorageError", "InternalError", "as_relay_error", "error_object"]


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
        return f"{type(self).__name__}({self.status.value}, {self.message!r})"


class _Fixed(RelayError):
    code: ClassVar[Status]
    default_hint: ClassVar[str] = ""
    default_retryable: ClassVar[bool] = False

    def __init__(self, message: str, hint: str = "", *, retryable: bool | None = None) -> None:
        super().__init__(self.code, message, hint or self.default_hint,
                         retryable=self.default_retryable if retryable is None else retryable)


class InvalidInput(_Fixed):
    code = Status.INVALID_INPUT
    default_hint = "Fix the argument named in the message and call again."


class InvalidWorkspace(_Fixed):
    code = Status.INVALID_WORKSPACE


class NotFound(_Fixed):
    code = Status.NOT_FOUND


class Busy(_Fixed):
    code = Status.BUSY
    default_retryable = True


# What a call on a run still running is told (continue, apply): how to wait for it and how to stop it, by the tools'
# names; "wait for its packet" alone left a model to guess, and to call again at once.
WAIT_FOR_IT = ("Wait for its packet with antigravity_get_result (this run_id, wait_seconds up to your client's time "
               "limit), or stop it with antigravity_cancel; then {then}.")


class SpawnError(_Fixed):
    code = Status.SPAWN_ERROR
    default_hint = "Check that AGY_BIN points at an executable agy (`gravity-relay doctor`)."


class StorageError(_Fixed):
    code = Status.STORAGE_ERROR
    default_hint = ("Free disk space or fix permissions under the relay's data dir (GRAVITY_RELAY_DATA_DIR; "
                    "`gravity-relay doctor` checks it), then call again.")


class InternalError(_Fixed):
    code = Status.MCP_ERROR
    default_hint = "This is a relay bug; the relay's stderr log has the traceback. Please report it."


def as_relay_error(exc: BaseException, where: str) -> RelayError:
    """Any exception as a RelayError: ours as they are, known foreign ones mapped, the rest a relay bug."""
    if isinstance(exc, RelayError):
        return exc
    if isinstance(exc, OSError):
        path = f" {exc.filename}" if exc.filename else ""
        return StorageError(f"{where}: the relay could not read or write{path}: {exc.strerror or exc}")
    if isinstance(exc, msgspec.ValidationError):
        return InvalidInput(f"{where}: {explain(exc)}")
    return InternalError(f"internal error in {where}: {type(exc).__name__}: {exc}")


def error_object(exc: BaseException, where: str) -> dict[str, Any]:
    """The error shape every door answers with: ``{"ok": false, "status", "error"}``."""
    error = as_relay_error(exc, where)
    return {"ok": False, "status": error.status.value, "error": msgspec.to_builtins(error.info())}
