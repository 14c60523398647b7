"""Idempotency keys: which run an ``antigravity_execute`` key started, shared by every relay process of a data dir.

A client retries a call whose answer it lost (a dropped HTTP stream, a restart); with the same key the
retry must answer the run the first call started, never start a second worker. The mapping lives in
``<data dir>/keys/``, one file per key, so every relay process that shares the data dir (several editor
windows, an HTTP relay, the shell's ``execute``) sees it:

- the file's name is a digest of the key (the key itself never becomes a path), and the key is checked
  against ``KEY_PATTERN`` before anything else;
- a claim is decided and written under one file lock (``keys/.lock``), written atomically (0600), and read
  back only as a small regular file (no link followed, no FIFO waited on);
- a claim holds for ``WINDOW_SECONDS`` (24 h); after that the key is free again;
- whoever writes the data dir is a party: the claim is only a pointer. The run it names is answered only
  when that run's own record says it was started with this key (``relay.call.once`` checks), so an edited
  claim cannot make the relay answer another run, of another workspace.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from pathlib import Path

import msgspec
from filelock import Timeout

from relay.core.contracts import ProcessStamp, Status
from relay.core.errors import InvalidInput, RelayError
from relay.core.files import is_link, own_folder, private_dir, read_regular, write_atomic
from relay.core.locks import own_lock
from relay.core.identity import own_stamp, owner_alive
from relay.runs.store import check_run_id

__all__ = ["KEY_PATTERN", "WINDOW_SECONDS", "KeyClaim", "KeyBook", "check_key"]

log = logging.getLogger("relay.runs.keys")

# Printable ASCII without spaces or slashes: a UUID, a request id, "task-42:retry". Checked with fullmatch.
KEY_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}"
WINDOW_SECONDS = 24 * 3600  # docs/tools.md, "A call answered once"
_CLAIM_BYTES = 4096  # a claim is ~300 bytes; more is never read
_LOCK_SECONDS = 10.0
_PRUNE_EVERY = 64  # claims between two sweeps of expired files

_KEY = re.compile(KEY_PATTERN)


class KeyClaim(msgspec.Struct, kw_only=True):
    """One key's claim: the run it started, when, and the relay process that claimed it."""

    key: str
    run_id: str
    claimed_at: float  # seconds since the epoch (shared by processes, unlike a monotonic clock)
    relay_pid: int
    relay_stamp: ProcessStamp | None = None

    def expired(self, now: float | None = None) -> bool:
        return (now if now is not None else time.time()) - self.claimed_at > WINDOW_SECONDS

    def owner_alive(self) -> bool:
        """Whether the relay process that claimed the key still runs (identity checked, never the pid alone)."""
        return owner_alive(self.relay_pid, self.relay_stamp)


_decoder = msgspec.json.Decoder(KeyClaim)


def check_key(key: str) -> str:
    """The key, or an InvalidInput naming what is accepted (before the key is used for anything)."""
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        shown = key[:40] + "…" if isinstance(key, str) and len(key) > 40 else key
        raise InvalidInput(f"idempotency_key {shown!r} is not accepted: use 1-128 characters of letters, digits and "
                           ". _ : @ + = - (starting with a letter or digit)",
                           "Send a fresh id per task, such as a UUID, and repeat it exactly when you retry that call.")
    return key


class KeyBook:
    """The claims of one data dir (``<data dir>/keys``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._claims = 0

    def path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(check_key(key).encode('ascii')).hexdigest()[:40]}.json"

    def read(self, key: str) -> KeyClaim | None:
        """The key's claim, None when there is none or it expired; a file that is not a claim of this key is
        refused (RelayError): it was written outside the relay, and answering from it could name any run."""
        path = self.path(key)
        try:
            data = read_regular(path, limit=_CLAIM_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _tampered(path, f"cannot be read as a claim ({exc.strerror or exc})") from None
        try:
            if len(data) > _CLAIM_BYTES:
                raise msgspec.DecodeError("larger than a claim")
            claim = _decoder.decode(data)
            check_run_id(claim.run_id)
        except (msgspec.DecodeError, RelayError) as exc:
            raise _tampered(path, f"is not a claim the relay wrote ({getattr(exc, 'message', exc)})") from None
        if claim.key != key:
            raise _tampered(path, "holds the claim of another key")
        return None if claim.expired() else claim

    def claim(self, key: str, run_id: str, *, replacing: str | None = None) -> KeyClaim | None:
        """Claim ``key`` for ``run_id``: None when it is now ours, else the standing claim (fresh, not expired).

        ``replacing``: the run id of a standing claim the caller found free (its run never reached its
        worker, or its relay died before recording it); it is replaced only if the claim still names it, so
        two processes that both found it free cannot both take it."""
        # The keys' folder is the relay's own (the data dir is input, docs/security.md): a link planted in its place had
        # the claims and the lock written into the folder it led to, that folder made owner-only, and the sweep below
        # delete every .json file of yours there older than the window. The link alone is removed.
        own_folder(private_dir(self.folder.parent) / self.folder.name)
        lock = own_lock(self.folder / ".lock")
        try:
            with lock.acquire(timeout=_LOCK_SECONDS):
                standing = self.read(key)
                if standing is not None and standing.run_id != replacing:
                    return standing
                write_atomic(self.path(key), msgspec.json.encode(KeyClaim(
                    key=key, run_id=run_id, claimed_at=time.time(), relay_pid=os.getpid(), relay_stamp=own_stamp())))
                self._claims += 1
                if self._claims % _PRUNE_EVERY == 1:
                    self._prune()
        except Timeout:
            raise RelayError(Status.BUSY, f"the idempotency keys' lock {self.folder / '.lock'} stayed held for "
                             f"{_LOCK_SECONDS:g} s", "Call again in a moment; if it persists, check for a stuck "
                             "gravity-relay process.", retryable=True) from None
        return None

    def _prune(self) -> None:
        """Remove expired claims (their files' age: a claim is written once and replaced whole)."""
        cutoff = time.time() - WINDOW_SECONDS
        if is_link(self.folder):
            return  # planted since ``claim`` made it the relay's own: never swept through
        for path in self.folder.glob("*.json"):
            try:
                if path.is_file() and not path.is_symlink() and path.stat().st_mtime < cutoff:
                    path.unlink()
            except OSError as exc:
                log.debug("could not prune %s: %s", path, exc)


def _tampered(path: Path, why: str) -> RelayError:
    return RelayError(Status.STORAGE_ERROR, f"the idempotency claim {path} {why}; nothing was started",
                      f"Remove {path} and call again, or send a new idempotency_key; check what else writes "
                      f"{path.parent.parent}.")
