"""``gravity-relay doctor --write-probe``: can safe mode write files with this machine's agy?

Safe mode runs agy with no auto-approval: on agy 1.2.14+ under agy's own default policy
(request-review, which lets workspace edits through: agy-protocol.md §7.1) with no --mode flag, on
older agy with ``--mode accept-edits`` (no headless write grant where measured, 1.1.3 and 1.1.13);
``--sandbox`` where the profile asks for it. Where edits are refused, every safe run ends
PERMISSION_DENIED with nothing done; where agy's settings auto-approve every tool, a safe run is
stopped at its start (CONFLICTING_OPTIONS). This probe answers for this machine: in a throwaway directory it asks agy, with exactly the argv a
safe profile gets, to create one small file, then looks whether the file is there. It spends one
agy turn, so doctor runs it only when asked.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path

import anyio

from relay.agy import command as agy_cli
from relay.agy.classify import classify
from relay.core.contracts import ExecutionMode, Status
from relay.core.errors import RelayError
from relay.core.settings import Settings
from relay.agy.stream import StreamReader
from relay.agy.worker import run_worker
from relay.agy.env import build_worker_env

__all__ = ["PROBE_FILE", "WriteProbe", "probe_safe_write", "check_safe_write"]

PROBE_FILE = "gravity-relay-write-probe.txt"
PROBE_TIMEOUT = 180.0
_PROMPT = (f"Create a file named {PROBE_FILE} in the current project containing the single line: ok\n"
           "Do nothing else: no commands, no other files.")


class WriteProbe:
    """What the probe saw: whether the file appeared, and the relay's verdict on agy's run."""

    def __init__(self, wrote: bool, status: Status, message: str, hint: str) -> None:
        self.wrote, self.status, self.message, self.hint = wrote, status, message, hint


async def probe_safe_write(agy: str, version: agy_cli.AgyVersion | None, environ: Mapping[str, str], *,
                           timeout: float = PROBE_TIMEOUT) -> WriteProbe:
    """One safe-mode turn in a temp dir; the file's presence is the answer (never agy's claim)."""
    with tempfile.TemporaryDirectory(prefix="gravity-relay-write-probe-") as tmp:
        root = Path(tmp)
        workspace = root / "project"
        workspace.mkdir()
        argv = agy_cli.build_agy_argv(agy_cli.AgyInvocation(
            agy=agy, version=version, workspace=str(workspace), prompt=_PROMPT, execution_mode=ExecutionMode.SAFE,
            sandbox=True, timeout_seconds=timeout, log_file=str(root / "agy.log"),
        ))
        outcome = await run_worker(argv, cwd=str(workspace), env=build_worker_env(environ, run_id="write-probe"),
                                   timeout=timeout + 10, transcript=root / "transcript.ndjson",
                                   log_file=root / "agy.log", reader=StreamReader(), kill_grace=2.0)
        outcome.schema_requested = False
        verdict = classify(outcome)
        wrote = (workspace / PROBE_FILE).is_file()
    return WriteProbe(wrote, verdict.status, verdict.message, verdict.hint)


def check_safe_write(settings: Settings, environ: Mapping[str, str], *, timeout: float = PROBE_TIMEOUT):
    """doctor's check: ok when safe mode wrote the file, a warning saying what to change when it did not."""
    from relay.doors.doctor import Check

    name = "safe-write"
    try:
        agy = agy_cli.locate_agy(settings, dict(environ))
    except RelayError as exc:
        return Check(name=name, level="warning", message=f"not run: {exc.message}", fix=exc.hint)
    try:
        answer = agy_cli.read_version(agy, dict(environ), 3.0)
        got = anyio.run(lambda: probe_safe_write(agy, answer.version, environ, timeout=timeout))
    except OSError as exc:
        return Check(name=name, level="warning", message=f"not run: {agy} could not start: {exc}")
    which = f"agy {answer.shown}" if answer.shown else "this agy"
    mode = agy_cli.safe_mode_flags(answer.version)
    under = f"`{' '.join(mode)}`" if mode else "agy's default policy (no --mode flag)"
    if got.wrote:
        return Check(name=name, level="ok",
                     message=f"safe mode can write: {which} created a file under {under} (one turn spent)")
    if got.status is Status.CONFLICTING_OPTIONS:
        return Check(name=name, level="warning",
                     message=f"safe mode is refused with {which}: {got.message}; every safe run would be stopped "
                             "the same way", fix=got.hint)
    if got.status is Status.PERMISSION_DENIED:
        return Check(name=name, level="warning",
                     message=f"safe mode cannot write with {which} under {under}: {got.message}; every safe run "
                             "would end PERMISSION_DENIED with nothing done",
                     fix=got.hint)
    return Check(name=name, level="warning",
                 message=f"write probe inconclusive: agy ended {got.status.value} ({got.message}) and wrote nothing",
                 fix=got.hint or "Run `gravity-relay doctor` without --write-probe first and fix what it reports.")
