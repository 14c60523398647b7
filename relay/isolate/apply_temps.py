"""The temp files apply (and a policy revert) writes in the user's tree, ledgered so that a killed one's are found and removed.

Apply writes each file as a temp file beside it, then renames it into place (a reader never sees half a
file). A ``kill -9`` between the two left the temp file in the user's tree for good (issue 34). So, before
its first write, an apply names every temp file it may create in a ledger in the data dir
(``<data dir>/applying/<token>.json``: its process stamp and the paths) and removes the ledger when done.
A ledger whose writer is gone (its pid dead, or reused by another process) is a killed apply: the next
apply and ``gravity-relay cleanup`` remove its temp files, and doctor names them until then.

A policy revert (``relay.observe.restore``, called through ``ledgered_temps``) writes its files the same way,
under the same ledger: a relay killed mid-revert leaves nothing doctor cannot name and cleanup cannot remove.

A ledger is input (whoever writes the data dir writes it): a path is removed only when its name is one this
module gives a temp file (``.gravity-relay-<16 hex>-<n>``) and it is a regular file, never a symlink or a folder.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

import msgspec

from relay.core import platform
from relay.core.contracts import ProcessStamp
from relay.core.files import is_link, own_folder, private_dir, read_regular, write_atomic

__all__ = ["LEDGER_DIR", "temp_names", "ledgered", "ledgered_temps", "sweep", "leftovers", "is_temp_name"]

log = logging.getLogger("relay.isolate.apply_temps")

LEDGER_DIR = "applying"
_TEMP = re.compile(r"\.gravity-relay-[0-9a-f]{16}-\d{1,9}")
_LEDGER_NAME = re.compile(r"[0-9a-f]{16}\.json")
_LEDGER_MAX = 4 << 20


class Ledger(msgspec.Struct, kw_only=True, omit_defaults=True):
    pid: int
    stamp: ProcessStamp | None = None
    temps: list[str] = []


def is_temp_name(name: str) -> bool:
    return _TEMP.fullmatch(name) is not None


def temp_names(targets: list[Path]) -> tuple[str, list[Path]]:
    """(this apply's token, one temp path beside each target): names no user file has by chance."""
    token = secrets.token_hex(8)
    return token, [target.parent / f".gravity-relay-{token}-{i}" for i, target in enumerate(targets)]


@contextlib.contextmanager
def ledgered(data_dir: Path | None, token: str, temps: list[Path]) -> Iterator[None]:
    """Name ``temps`` in a ledger for as long as the block writes them (no ledger without a data dir or temps)."""
    if data_dir is None or not temps:
        yield
        return
    # The ledgers' folder is the relay's own (the data dir is input): a link planted in its place had the folder it led
    # to made owner-only and the ledger written there. The link alone is removed.
    path = own_folder(private_dir(Path(data_dir)) / LEDGER_DIR) / f"{token}.json"
    write_atomic(path, msgspec.json.encode(Ledger(pid=os.getpid(), stamp=platform.own_stamp(),
                                                  temps=[str(t) for t in temps])))
    try:
        yield
    finally:
        # Reached on every exit but a kill: the apply's own error path removed its temp files already.
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def ledgered_temps(data_dir: Path | None, targets: list[Path]) -> Iterator[list[Path]]:
    """One temp path beside each of ``targets``, named in a ledger while the block writes them (``temp_names``,
    ``ledgered``): for a writer that needs no token of its own (a policy revert)."""
    token, temps = temp_names(targets)
    with ledgered(data_dir, token, temps):
        yield temps


def _ledgers(data_dir: Path) -> Iterator[tuple[Path, Ledger | None]]:
    """Each ledger of a writer that is gone (a killed apply), read; None for one that cannot be read."""
    folder = Path(data_dir) / LEDGER_DIR
    if not folder.is_dir() or is_link(folder):
        return  # a link is not the relay's ledgers' folder: nothing read or removed through it
    for path in sorted(folder.iterdir()):
        if not _LEDGER_NAME.fullmatch(path.name):
            continue
        try:
            ledger = msgspec.json.decode(read_regular(path, _LEDGER_MAX), type=Ledger)
        except (OSError, ValueError, msgspec.DecodeError, msgspec.ValidationError):
            yield path, None
            continue
        if platform.owner_alive(ledger.pid, ledger.stamp):
            continue  # an apply at work now, in this or another relay process
        yield path, ledger


def _left(ledger: Ledger) -> list[Path]:
    """The ledger's temp files still in the tree: regular files named as this module names them."""
    found = []
    for text in ledger.temps:
        path = Path(text)
        if not path.is_absolute() or not is_temp_name(path.name):
            continue
        try:
            if stat.S_ISREG(os.lstat(path).st_mode):
                found.append(path)
        except OSError:
            continue
    return found


def leftovers(data_dir: Path) -> list[str]:
    """The temp files killed applies (and policy reverts) left in users' trees (doctor)."""
    return [str(p) for _, ledger in _ledgers(data_dir) if ledger is not None for p in _left(ledger)]


def sweep(data_dir: Path) -> tuple[list[str], list[str]]:
    """Remove what killed applies left: their temp files, then their ledgers. (removed, errors)."""
    removed: list[str] = []
    errors: list[str] = []
    for path, ledger in _ledgers(data_dir):
        failed = False
        for temp in _left(ledger) if ledger is not None else []:
            try:
                temp.unlink()
                removed.append(str(temp))
            except FileNotFoundError:
                pass
            except OSError as exc:
                failed = True
                errors.append(f"{temp}: {exc.strerror or exc}")
        if not failed:
            path.unlink(missing_ok=True)
    if removed:
        log.info("removed %d temp file(s) a killed apply left: %s", len(removed), ", ".join(removed[:5]))
    return removed, errors
