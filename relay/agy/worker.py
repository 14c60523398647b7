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
import time
from collections.abc import Callable
from pathlib import Path

import anyio
from anyio.abc import Process

from relay.agy.classify import Outcome
from relay.core.contracts import Status
from relay.core.files import open_regular
from relay.core.process import settle, spawned, start_drains, stop_spawned, tail, worker_of
from relay.agy.stream import LineSplitter, StreamReader
from relay.agy.transcript import BoundedTranscript
from relay.agy.watch import RunWatch

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


class _Attempt:
    """What one attempt has seen so far: the transcript, the stream, the watched texts, an early stop."""

    def __init__(self, reader: StreamReader, transcript: Path, transcript_max_bytes: int, log_file: Path | None,
                 watch: RunWatch) -> None:
        self.reader = reader
        self.sink = BoundedTranscript(transcript, transcript_max_bytes)
        self.splitter = LineSplitter()
        self.watch = watch
        self.stderr = TextTail()
        self.agy_log = TextTail()
        self.log_file = log_file
        self.log_position = 0
        self.stopped_for: Status | None = None
        self.finished = anyio.Event()  # agy exited, or a line settled the attempt

    def judge(self, lines: list[str]) -> None:
        for line in lines:
            self._stop(self.watch.feed(line), line)

    def _stop(self, verdict: Status | None, line: str) -> None:
        if verdict is not None and self.stopped_for is None:
            log.info("early stop (%s) on: %s", verdict.value, line[:160])
            self.stopped_for = verdict
            self.finished.set()

    def take_stdout(self, chunk: bytes) -> None:
        self.sink.write(chunk)
        for line in self.splitter.feed(chunk) if chunk else self.splitter.finish():
            event = self.reader.feed(line)
            if event is not None and event.get("event") == "init":
                self._stop(self.watch.feed_event(event), "init event")
            if not line.lstrip()[:1] == b"{":
                # Text on stdout (an OAuth prompt printed to the terminal) can settle the run too.
                self.judge([line[:4096].decode("utf-8", "replace")])

    def take_stderr(self, chunk: bytes) -> None:
        self.judge(self.stderr.feed(chunk) if chunk else self.stderr.finish())

    def read_log(self, rounds: int = 1) -> None:
        """Read what agy's log gained, a bounded piece at a time (a flooding log must not fill memory)."""
        if self.log_file is None:
            return
        for _ in range(rounds):
            try:  # open_regular: a link or a FIFO put in the log's place during the run is never followed or waited on
                with open_regular(self.log_file) as fh:
                    fh.seek(self.log_position)
                    chunk = fh.read(4 * 1024 * 1024)
            except OSError:
                return
            self.log_position += len(chunk)
            if not chunk:
                return
            self.judge(self.agy_log.feed(chunk))

    async def wait_exit(self, proc: Process) -> None:
        await proc.wait()
        self.finished.set()

    async def watch_log(self) -> None:
        while True:
            self.read_log()
            await anyio.sleep(0.2)

    def finish(self, notes: list[str] | None) -> None:
        """After the group is gone: close the transcript, read the rest of the log, say what was cut."""
        self.sink.close()
        self.read_log(rounds=64)
        self.judge(self.agy_log.finish())
        if notes is None:
            return
        if self.sink.note():
            notes.append(self.sink.note())
        if self.splitter.skipped_lines:
            notes.append(f"{self.splitter.skipped_lines} stdout line(s) longer than {self.splitter.max_line // (1024 * 1024)} MB "
                         f"({self.splitter.skipped_bytes} bytes) were skipped, not parsed")
        if self.reader.text_cut:
            notes.append(f"the worker's streamed text was cut: its first {self.reader.text_cut} characters are not kept")


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
    attempt: _Attempt | None = None
    try:
        async with spawned(argv, cwd=cwd, env=env, grace=kill_grace) as proc:
            if on_spawn:
                on_spawn(worker_of(proc).leader)  # agy's pid: on POSIX also its process group id
            attempt = _Attempt(reader, transcript, transcript_max_bytes, log_file, RunWatch(argv))
            with anyio.move_on_after(timeout) as scope:
                async with anyio.create_task_group() as tg:
                    drained = await start_drains(tg, [(proc.stdout, attempt.take_stdout), (proc.stderr, attempt.take_stderr)])
                    tg.start_soon(attempt.watch_log)
                    tg.start_soon(attempt.wait_exit, proc)
                    await attempt.finished.wait()
                    if attempt.stopped_for is not None:
                        await stop_spawned(proc, min(kill_grace, _STOP_GRACE))
                    await settle(tg, drained)
    finally:
        if attempt is not None:
            attempt.finish(notes)

    log.info("agy exited %s after %.1fs", proc.returncode, time.monotonic() - started)
    stopped = attempt.stopped_for is not None
    watch = attempt.watch
    return Outcome(
        exit_code=proc.returncode, relay_timeout=scope.cancelled_caught and not stopped,
        stopped_for=(watch.status or attempt.stopped_for) if stopped else None,
        stop_kind=watch.kind if stopped else "", stop_line=watch.line if stopped else "",
        stdout_lines=reader.lines, json_lines=reader.json_lines, bad_lines=reader.bad_lines, results=reader.results,
        envelope=reader.envelope, result_raw=reader.result, response=reader.response,
        conversation_id=reader.conversation_id, stderr=attempt.stderr.text, log=attempt.agy_log.text,
        model=_init_model(reader.init),
        refusals=list(reader.refusals), refused_total=reader.refused_total,
        error_steps=reader.error_steps, permission_checks=list(reader.permission_checks),
        subagents=dict(reader.subagents), offered_tools=reader.offered_tools, agent=watch.agent, effort=watch.effort,
    )


def _init_model(init: dict | None) -> str | None:
    model = (init or {}).get("model")
    return model if isinstance(model, str) and model.strip() else None
