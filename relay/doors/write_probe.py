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
import msgspec

from relay.agy import command as agy_cli
from relay.agy.classify import classify
from relay.core.contracts import ExecutionMode, Status
from relay.core.errors import RelayError
from relay.core.settings import Settings
from relay.agy.stream import StreamReader
from relay.agy.worker import run_worker
from relay.agy.env import build_worker_env

__all__ = ["PROBE_FILE", "PROBE_TIMEOUT", "WriteProbe", "probe_safe_write", "run_write_probe"]

PROBE_FILE = "gravity-relay-write-probe.txt"
PROBE_TIMEOUT = 180.0
_PROMPT = (f"Create a file named {PROBE_FILE} in the current project containing the single line: ok\n"
           "Do nothing else: no commands, no other files.")


class WriteProbe(msgspec.Struct, kw_only=True, frozen=True):
    """What the probe saw: whether the file appeared, and the relay's verdict on agy's run (doctor judges it).

    ``not_run`` says why no turn was spent (no agy, agy would not start); ``hint`` is then the fix, if any.
    """

    wrote: bool = False
    status: Status | None = None
    message: str = ""
    hint: str = ""
    agy: str = "this agy"  # how the answer names the agy it asked ("agy 1.2.17")
    under: str = "agy's default policy (no --mode flag)"  # the permission flags safe mode gave it
    not_run: str | None = None


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
    return WriteProbe(wrote=wrote, status=verdict.status, message=verdict.message, hint=verdict.hint)


def run_write_probe(settings: Settings, environ: Mapping[str, str], *, timeout: float = PROBE_TIMEOUT) -> WriteProbe:
    """Locate this machine's agy and probe it (``doctor --write-probe`` turns the answer into its check)."""
    try:
        agy = agy_cli.locate_agy(settings, dict(environ))
    except RelayError as exc:
        return WriteProbe(not_run=exc.message, hint=exc.hint)
    try:
        answer = agy_cli.read_version(agy, dict(environ), 3.0,
                                       data_dir=settings.data_dir if settings.data_dir.is_dir() else None)
        got = anyio.run(lambda: probe_safe_write(agy, answer.version, environ, timeout=timeout))
    except OSError as exc:
        return WriteProbe(not_run=f"{agy} could not start: {exc}")
    mode = agy_cli.safe_mode_flags(answer.version)
    return msgspec.structs.replace(got, agy=f"agy {answer.shown}" if answer.shown else "this agy",
                                   **({"under": f"`{' '.join(mode)}`"} if mode else {}))
