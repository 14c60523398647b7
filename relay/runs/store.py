"""Run records on disk: ``<data dir>/runs/<run_id>.json`` plus the raw NDJSON transcript.

Writes are atomic (temp file, fsync, ``os.replace``) and private (0600), so a
reader in another relay process never sees half a record. A run id is checked
against the relay's own format before it is ever joined to a path.
"""

from __future__ import annotations

import datetime as _dt
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

import msgspec

from relay.core.files import own_folder, private_dir, read_regular, write_atomic, write_own
from relay.core.contracts import RunRecord, Status
from relay.core.errors import InvalidInput, NotFound, RelayError
from relay.runs.record_v1 import RunRecordV1, upgrade

__all__ = [
    "new_run_id",
    "check_run_id",
    "run_created",
    "RunStore",
    "now_iso", "iso_time",
    "RUN_ID_PATTERN",
    "decode_record",
]

# r20261129T213900-1a2b3c4d: sortable by creation time, 8 random hex digits against collisions.
# Matched with fullmatch: `$` would accept a trailing newline ("r…\n" named another file).
RUN_ID_PATTERN = re.compile(r"r\d{8}T\d{6}-[0-9a-f]{8}")

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(RunRecord)
_decoder_v1 = msgspec.json.Decoder(RunRecordV1)


class _Version(msgspec.Struct):
    schema_version: int = 1  # version 1 never wrote it (a default, omitted)


_version = msgspec.json.Decoder(_Version)
# Is-active reads only the state, so a record of an older or newer shape still answers.
_state_only = msgspec.json.Decoder(dict)


def decode_record(data: bytes) -> RunRecord:
    """A record file's bytes as today's RunRecord, whichever schema version wrote them (1: flat, upgraded)."""
    if _version.decode(data).schema_version <= 1:
        return upgrade(_decoder_v1.decode(data))
    return _decoder.decode(data)  # 2, or newer: the keys it knows (a newer relay only adds defaulted ones)


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def iso_time(text: str) -> _dt.datetime | None:
    """A time a record holds (``now_iso``'s form) as an aware datetime; None when it cannot be read."""
    try:
        return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def new_run_id() -> str:
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    return f"r{stamp}-{secrets.token_hex(4)}"


def run_created(run_id: str) -> _dt.datetime:
    """When the run was created, by its id (UTC, to the second)."""
    return _dt.datetime.strptime(check_run_id(run_id)[1:16], "%Y%m%dT%H%M%S").replace(tzinfo=_dt.timezone.utc)


def check_run_id(run_id: str) -> str:
    if not isinstance(run_id, str) or not RUN_ID_PATTERN.fullmatch(run_id):
        raise InvalidInput(
            f"run_id {str(run_id)[:80]!r} is not a Gravity Relay run id",
            "Pass the run_id exactly as a packet returned it (like r20261129T213900-1a2b3c4d); "
            "`gravity-relay runs list` shows recent ones.",
        )
    return run_id


class RunStore:
    """The runs folder of one data dir."""

    def __init__(self, runs_dir: Path) -> None:
        self.runs_dir = runs_dir

    def ensure(self) -> None:
        private_dir(self.runs_dir.parent)  # the data dir: owner-only, as its records are (issue 22)
        # The runs folder is the relay's own (the data dir is input, docs/security.md): a link planted in its place had
        # the folder it led to made owner-only and every record, transcript and patch written there. The link alone
        # is removed.
        own_folder(self.runs_dir)

    def record_path(self, run_id: str) -> Path:
        return self.runs_dir / f"{check_run_id(run_id)}.json"

    def transcript_path(self, run_id: str) -> Path:
        return self.runs_dir / f"{check_run_id(run_id)}.ndjson"

    def patch_path(self, run_id: str) -> Path:
        """The run's change as a git patch (relay.observe.run_patch); retention removes it with the record."""
        return self.runs_dir / f"{check_run_id(run_id)}.patch"

    def applied_patch_path(self, run_id: str) -> Path:
        """What `runs apply` of a chain of continues wrote (relay.isolate.trees.chain_patch), for `runs revert`;
        retention removes it with the record."""
        return self.runs_dir / f"{check_run_id(run_id)}.applied.patch"

    def trees_path(self, run_id: str) -> Path:
        """The run's before and after trees (private index, private objects: relay.observe.snapshot), kept so a
        run whose relay died is diffed and reverted exactly; retention removes them with the record."""
        return self.runs_dir / f"{check_run_id(run_id)}.trees"

    def read_patch(self, run_id: str) -> bytes | None:
        """The run's patch, or None when it has none (nothing changed, an older run, patches off)."""
        try:
            return read_regular(self.patch_path(run_id))
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise NotFound(f"patch {self.patch_path(run_id)} cannot be read: {exc.strerror or exc}",
                           "Fix its owner or permissions, or remove it.") from None

    def log_path(self, run_id: str, attempt: int = 1) -> Path:
        """agy's own log for one attempt (one file each: a retry must not read the last one's markers)."""
        return self.runs_dir / f"{check_run_id(run_id)}.agy-{attempt}.log"

    def write(self, record: RunRecord) -> None:
        self.ensure()
        write_atomic(self.record_path(record.run_id), _encoder.encode(record))

    def read(self, run_id: str) -> RunRecord:
        path = self.record_path(run_id)
        try:
            data = read_regular(path)
        except FileNotFoundError:
            raise NotFound(
                f"no run record {run_id} in {self.runs_dir}",
                "Check the run_id; records may have been removed by cleanup, or written under another "
                "GRAVITY_RELAY_DATA_DIR.",
            ) from None
        except OSError as exc:
            # A record left by `sudo` (root-owned 0600), a folder or a pipe in its place: the
            # views name it and go on, never a traceback (issue 13, item 14).
            raise NotFound(
                f"run record {path} cannot be read: {exc.strerror or exc}",
                "Fix its owner or permissions (a record written by `sudo gravity-relay` belongs to root: "
                "`sudo chown $USER` it), or remove it.",
            ) from None
        try:
            return decode_record(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise RelayError(
                Status.INVALID_JSON,
                f"run record {path} is unreadable: {exc}",
                "The file was damaged or written by an incompatible version; inspect or delete it.",
            ) from None

    def read_raw(self, run_id: str) -> bytes:
        self.read(run_id)  # validates and gives the NOT_FOUND answer
        try:
            return read_regular(self.record_path(run_id))
        except OSError as exc:  # replaced between the two reads
            raise NotFound(f"run record {self.record_path(run_id)} cannot be read: {exc.strerror or exc}",
                           "Remove it, or call again.") from None

    def run_files(self, run_id: str) -> list[Path]:
        """The files of a run (record, transcript, agy logs); a spilled prompt lives in the folder ``<run_id>.prompt/``."""
        check_run_id(run_id)
        return sorted(p for p in self.runs_dir.glob(f"{run_id}*") if _regular(p))

    # A marker per running run, so start-up finds leftovers without reading every record.
    def mark_active(self, run_id: str) -> None:
        # The folder and the marker are the relay's own: a link planted in place of either is replaced, never
        # written through (relay.core.files.own_folder).
        folder = own_folder(self.runs_dir / "active")
        write_own(folder / check_run_id(run_id), b"")

    def clear_active(self, run_id: str) -> None:
        try:
            (self.runs_dir / "active" / check_run_id(run_id)).unlink()
        except FileNotFoundError:
            pass

    def active_ids(self) -> list[str]:
        folder = self.runs_dir / "active"
        if not folder.is_dir():
            return []
        return sorted(p.name for p in folder.iterdir() if RUN_ID_PATTERN.fullmatch(p.name))

    def is_active(self, run_id: str) -> bool:
        """Still running by either sign: its active marker is there, or its record says ``running``."""
        if (self.runs_dir / "active" / check_run_id(run_id)).exists():
            return True
        try:
            return _state_only.decode(read_regular(self.record_path(run_id))).get("state") == "running"
        except (OSError, msgspec.DecodeError):
            return False  # no record, or none worth the name (a folder, a FIFO, damaged JSON)

    def entries_by_run(self) -> dict[str, list[Path]]:
        """Every entry of the runs folder that belongs to a run (record, transcript, agy logs, the
        spilled-prompt folder), by run id, sorted; a run whose record is gone is a run all the same."""
        runs: dict[str, list[Path]] = {}
        if not self.runs_dir.is_dir():
            return runs
        for path in self.runs_dir.iterdir():
            run_id = path.name.split(".", 1)[0]
            if RUN_ID_PATTERN.fullmatch(run_id):
                runs.setdefault(run_id, []).append(path)
        for paths in runs.values():
            paths.sort()
        return runs

    def iter_ids(self) -> Iterator[str]:
        """Run ids, newest first (the id starts with its creation time)."""
        if not self.runs_dir.is_dir():
            return
        ids = [p.stem for p in self.runs_dir.glob("r*.json") if RUN_ID_PATTERN.fullmatch(p.stem)]
        yield from sorted(ids, reverse=True)

    def iter_records(self) -> Iterator[RunRecord]:
        for run_id, record, _error in self.iter_readable():
            if record is not None:
                yield record

    def iter_readable(self) -> Iterator[tuple[str, RunRecord | None, RelayError | None]]:
        """(run_id, record, None) for each record, newest first; (run_id, None, why) for one that cannot be read.

        The one walk over the records: `runs list` and ``recent_runs`` (get_result without a run id) read it.
        """
        for run_id in self.iter_ids():
            try:
                yield run_id, self.read(run_id), None
            except RelayError as exc:
                yield run_id, None, exc


def _regular(path: Path) -> bool:
    """A regular file itself (lstat, as core.files.read_regular opens): a symbolic link planted in the runs
    folder is not the run's file, so it is never listed, measured, read or removed through."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False
