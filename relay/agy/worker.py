"""Run one agy attempt: spawn, stream, watch, stop.

agy runs in its own process group with stdin on /dev/null and the sanitized
environment. Its stdout (NDJSON) goes byte for byte to the run's transcript and
through the StreamReader; stderr and agy's log file are watched for the lines
that settle an attempt early (a login prompt nobody will answer). On timeout,
early stop or cancellation the whole group is killed; the relay never waits
forever for EOF after agy itself exited.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import anyio

from relay.agy.classify import AuthWatch, Outcome
from relay.core.process import kill_group, settle, tail
from relay.agy.stream import LineSplitter, StreamReader
from relay.agy.transcript import BoundedTranscript

__all__ = ["run_worker", "TextTail"]

log = logging.getLogger("relay.agy.worker")

# After a sign-out line agy has nothing left to save, and 1.2.14 then blocks for a pasted code ignoring
# SIGTERM (agy-protocol.md §6.4): SIGKILL follows soon, so the call never waits for the run timeout.
_STOP_GRACE = 1.0
# stderr and agy's log are only watched for short marker lines; a longer one is skipped, not buffered.
_MAX_TEXT_LINE = 256 * 1024


class TextTail:
    """Keeps the last ``limit`` characters of a growing text, and hands out whole lines (bounded)."""

    def __init__(self, limit: int = 64_000) -> None:
        self.limit = limit
        self.text = ""
        self._lines = LineSplitter(_MAX_TEXT_LINE)

    def feed(self, chunk: bytes) -> list[str]:
        decoded = [line.decode("utf-8", "replace") for line in self._lines.feed(chunk)]
        if decoded:
            self.text = tail(self.text + "\n".join(decoded[-200:]) + "\n", self.limit)
        return decoded

    def finish(self) -> list[str]:
        rest = [line.decode("utf-8", "replace") for line in self._lines.finish()]
        if rest:
            self.text = tail(self.text + rest[0], self.limit)
        return rest


async def run_worker(
    argv: list[str],
    *,
    cwd: str,
    env: dict[str, str],
    timeout: float,
    transcript: Path,
    log_file: Path | None,
    reader: StreamReader,
    on_spawn: Callable[[int], None] | None = None,
    kill_grace: float = 3.0,
    transcript_max_bytes: int = 20 * 1024 * 1024,
    notes: list[str] | None = None,
) -> Outcome:
    """Run agy to its end, its timeout, or an early-stop line. Raises OSError if it cannot start.

    ``notes`` receives what the packet should say about the output itself (a cut transcript,
    skipped over-long lines, a transcript that could not be written).
    """
    started = time.monotonic()
    log.info("spawn agy argv=%s", [a if len(a) < 200 else a[:200] + "…" for a in argv])
    proc = await anyio.open_process(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    pgid = proc.pid  # start_new_session makes the child its own group leader
    if on_spawn:
        on_spawn(pgid)

    watch = AuthWatch()
    stderr = TextTail()
    agy_log = TextTail()
    stopped: list = []
    finished = anyio.Event()
    streams_done = anyio.Event()
    open_streams = [2]

    def stream_closed() -> None:
        open_streams[0] -= 1
        if open_streams[0] == 0:
            streams_done.set()

    def judge(lines: list[str]) -> None:
        for line in lines:
            verdict = watch.feed(line)
            if verdict is not None and not stopped:
                log.info("early stop (%s) on: %s", verdict.value, line[:160])
                stopped.append(verdict)
                finished.set()

    sink = BoundedTranscript(transcript, transcript_max_bytes)
    splitter = LineSplitter()

    def take(lines: list[bytes]) -> None:
        for line in lines:
            reader.feed(line)
            if not line.lstrip()[:1] == b"{":
                # Text on stdout (an OAuth prompt printed to the terminal) can settle the run too.
                judge([line[:4096].decode("utf-8", "replace")])

    async def read_stdout() -> None:
        try:
            async for chunk in proc.stdout:
                sink.write(chunk)
                take(splitter.feed(chunk))
            take(splitter.finish())
        finally:
            stream_closed()

    async def read_stderr() -> None:
        try:
            async for chunk in proc.stderr:
                judge(stderr.feed(chunk))
            judge(stderr.finish())
        finally:
            stream_closed()

    position = [0]

    def read_log(rounds: int = 1) -> None:
        """Read what agy's log gained, a bounded piece at a time (a flooding log must not fill memory)."""
        if log_file is None:
            return
        for _ in range(rounds):
            try:
                with log_file.open("rb") as fh:
                    fh.seek(position[0])
                    chunk = fh.read(4 * 1024 * 1024)
            except OSError:
                return
            position[0] += len(chunk)
            if not chunk:
                return
            judge(agy_log.feed(chunk))

    async def watch_log() -> None:
        while True:
            read_log()
            await anyio.sleep(0.2)

    async def wait_exit() -> None:
        await proc.wait()
        finished.set()

    timed_out = False
    try:
        with anyio.move_on_after(timeout) as scope:
            async with anyio.create_task_group() as tg:
                tg.start_soon(read_stdout)
                tg.start_soon(read_stderr)
                tg.start_soon(watch_log)
                tg.start_soon(wait_exit)
                await finished.wait()
                if stopped:
                    await kill_group(pgid, min(kill_grace, _STOP_GRACE))
                await settle(tg, streams_done)
        timed_out = scope.cancelled_caught
    finally:
        with anyio.CancelScope(shield=True):
            # Also reaps helpers (agy's language server) left in the group after a normal exit.
            await kill_group(pgid, kill_grace)
            if proc.returncode is None:
                with anyio.move_on_after(kill_grace + 2):
                    await proc.wait()
            await proc.aclose()
            sink.close()
            read_log(rounds=64)
            judge(agy_log.finish())
            if notes is not None:
                if sink.note():
                    notes.append(sink.note())
                if splitter.skipped_lines:
                    notes.append(f"{splitter.skipped_lines} stdout line(s) longer than {splitter.max_line // (1024 * 1024)} MB "
                                 f"({splitter.skipped_bytes} bytes) were skipped, not parsed")
                if reader.text_cut:
                    notes.append(f"the worker's streamed text was cut: its first {reader.text_cut} characters are not kept")

    log.info("agy exited %s after %.1fs", proc.returncode, time.monotonic() - started)
    return Outcome(
        exit_code=proc.returncode,
        relay_timeout=timed_out and not stopped,
        stopped_for=(watch.status or stopped[0]) if stopped else None,
        stop_kind=watch.kind if stopped else "",
        stop_line=watch.line if stopped else "",
        stdout_lines=reader.lines,
        json_lines=reader.json_lines,
        bad_lines=reader.bad_lines,
        results=reader.results,
        envelope=reader.envelope,
        result_raw=reader.result,
        response=reader.response,
        conversation_id=reader.conversation_id,
        stderr=stderr.text,
        log=agy_log.text,
    )
