"""The run's transcript on disk, bounded: the head and the tail of what agy printed, the middle cut and said.

agy's stdout goes here byte for byte until the head budget is spent; after that only the last
``tail`` bytes are kept (in memory, trimmed as they come) and written after a marker line when the
attempt ends. Memory stays flat whatever agy prints. The head is written unbuffered, chunk by
chunk as agy prints it: a relay killed mid-run (SIGKILL, OOM) leaves every byte agy printed so far
on disk for whoever diagnoses the run, not just what a buffer had flushed. A write error (a full
disk) stops the transcript, not the run: the error is kept and reported in the packet's flags.
"""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path

from relay.core.files import create_private
__all__ = ["BoundedTranscript"]

log = logging.getLogger("relay.agy.transcript")


class BoundedTranscript:
    def __init__(self, path: Path, max_bytes: int) -> None:
        self.path = path
        self.head_limit = max_bytes // 2
        self.tail_limit = max_bytes - self.head_limit
        self.cut = 0
        self.error: str | None = None
        self._tail = bytearray()
        self._fh = None
        try:
            self._fh = os.fdopen(create_private(path), "ab", buffering=0)  # owner-only, like the record
            self.written = self._fh.tell()  # a retry appends: the budget counts the earlier attempt's bytes
        except OSError as exc:
            self._fail(exc)
            self.written = 0

    def _fail(self, exc: OSError) -> None:
        self.error = f"transcript {self.path} not fully written: {exc.strerror or exc}"
        log.error("%s", self.error)
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        self._tail = bytearray()

    def write(self, chunk: bytes) -> None:
        if self._fh is None:
            return
        room = self.head_limit - self.written
        try:
            if room > 0:
                part = chunk[:room]
                self._write_all(part)
                self.written += len(part)
                chunk = chunk[room:]
        except OSError as exc:
            self._fail(exc)
            return
        if chunk:
            self._tail += chunk
            if len(self._tail) > 2 * self.tail_limit:  # trim in batches: amortized linear
                drop = len(self._tail) - self.tail_limit
                del self._tail[:drop]
                self.cut += drop

    def close(self) -> None:
        if self._fh is None:
            return
        if len(self._tail) > self.tail_limit:
            drop = len(self._tail) - self.tail_limit
            del self._tail[:drop]
            self.cut += drop
        try:
            if self.cut:
                marker = {"gravity_relay": "transcript cut", "bytes_cut": self.cut,
                          "kept": f"the first {self.written} and the last {len(self._tail)} bytes",
                          "setting": "GRAVITY_RELAY_TRANSCRIPT_MAX_MB"}
                self._write_all(b"\n" + json.dumps(marker).encode() + b"\n")
            self._write_all(bytes(self._tail))
            self._fh.close()
        except OSError as exc:
            self._fail(exc)
            return
        self._fh = None
        self._tail = bytearray()

    def _write_all(self, data: bytes) -> None:
        # An unbuffered file may take part of a write (a signal, a nearly full disk): go on until all is written.
        view = memoryview(data)
        while view:
            done = self._fh.write(view)
            if not done:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = view[done:]

    def note(self) -> str | None:
        """What the packet should say about the transcript, if anything."""
        if self.error:
            return self.error
        if self.cut:
            return (f"agy printed more than the transcript keeps: {self.cut} bytes cut from the middle of "
                    f"{self.path.name} (GRAVITY_RELAY_TRANSCRIPT_MAX_MB)")
        return None
