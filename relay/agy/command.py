"""What the relay knows of agy's command line: where it is, which version, which argv.

``build_agy_argv`` is pure: given one ``AgyInvocation`` (the plan, the version, the prompt) it
returns the exact list, so every ordering rule of the protocol notes has a unit test. The
rules: absolute ``--add-dir``; ``--print=PROMPT`` binds the prompt to its flag
(``-p`` takes the *next* token whatever it is, so nothing may come between);
a flag is passed only if the detected version has it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import msgspec
from msgspec import Struct

from relay.agy.executable import BATCH_SUFFIXES, agy_command, batch_target, probe_folder, runnable
from relay.core.contracts import ExecutionMode, Status, WorkerReport
from relay.core.errors import RelayError, SpawnError
from relay.core.settings import Settings, agy_candidates

__all__ = [
    "AgyVersion",
    "MIN_VERSION",
    "FEATURES",
    "locate_agy",
    "parse_version",
    "supports",
    "feature_list",
    "build_agy_argv",
    "report_schema",
    "go_duration",
    "agy_fact",
    "VersionAnswer",
    "read_version",
    "too_old",
    "AgyInvocation",
    "safe_mode_flags",
]

AgyVersion = tuple[int, int, int]

# stream-json output and --json-schema arrived together in 1.1.8: below it the relay cannot observe a run.
# Not raised for #702 (1.1.8's `json` output once carried a raw newline inside `response`): the relay reads
# stream-json, one event per line, and no report says stream-json was affected (captured clean from 1.1.12).
MIN_VERSION: AgyVersion = (1, 1, 8)

# flag -> first version that has it (agy-protocol.md §1). Unknown version: assume all.
FEATURES: dict[str, AgyVersion] = {
    "--model": (1, 0, 5),
    "--mode": (1, 1, 0),
    "--effort": (1, 1, 5),
    "--output-format": (1, 1, 8),
    "--json-schema": (1, 1, 8),
    "--disable-slash-commands": (1, 1, 9),
    "--mode in print mode": (1, 1, 12),
    "denied_actions": (1, 1, 27),
    # agy's default request-review policy lets workspace edits through headless (measured on 1.2.14 and 1.3.x,
    # agy-protocol.md §7.1): from here a safe run passes no --mode at all.
    "default policy writes": (1, 2, 14),
}

_VERSION_RE = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def parse_version(text: str) -> AgyVersion | None:
    match = _VERSION_RE.search(text or "")
    if not match:
        return None
    return (int(match[1]), int(match[2]), int(match[3]))


def supports(version: AgyVersion | None, feature: str) -> bool:
    return version is None or version >= FEATURES[feature]


def feature_list(version: AgyVersion | None) -> list[str]:
    return [name for name in FEATURES if supports(version, name)]


def locate_agy(settings: Settings, environ: dict[str, str] | None = None) -> str:
    """The agy executable to run, or SPAWN_ERROR naming every path tried. A batch shim found (agy.cmd) stands for
    the .exe it runs, never for itself (relay/agy/executable.py)."""
    tried = agy_candidates(settings, environ)
    for candidate in tried:
        path = Path(candidate).expanduser()
        if runnable(path):
            return batch_target(str(path)) if path.suffix.lower() in BATCH_SUFFIXES else str(path)
    where = ", ".join(tried)
    if settings.agy_bin:
        path = Path(settings.agy_bin).expanduser()
        problem = "is not executable" if path.exists() else "does not exist"
        raise SpawnError(
            f"AGY_BIN={settings.agy_bin} {problem}",
            "Point AGY_BIN at the agy executable (`which agy`), or unset it to search PATH.",
        )
    raise SpawnError(
        f"agy was not found (tried: PATH, {where})",
        "Install the Antigravity CLI, or set AGY_BIN to its full path in the relay's MCP server env.",
    )


class VersionAnswer(Struct, frozen=True):
    """What `agy --version` said; exit_code None: no answer in time; said: its first line when no version."""

    version: AgyVersion | None
    exit_code: int | None = None
    said: str = ""

    @property
    def shown(self) -> str | None:
        return ".".join(map(str, self.version)) if self.version else None


# One probe per binary and process (serve's start-up, every run, the guide, doctor), keyed by path, mtime and
# size so an `agy update` is noticed. Only answers are kept: a probe that timed out is asked again.
_answers: dict[tuple[str, int, int], VersionAnswer] = {}


def _key(agy: str | None) -> tuple[str, int, int] | None:
    try:
        st = os.stat(agy or "")
    except OSError:
        return None
    return (agy, st.st_mtime_ns, st.st_size)


def _ask_version(agy: str, environ: dict[str, str] | None, timeout: float, data_dir: Path | None) -> VersionAnswer:
    """Like every agy launch: the worker's allowlisted environment, never the relay's (it can hold other
    tools' credentials), and the one guard of every spawn (``process.popen_held``: its own group, a spawn token,
    a subreaper or Job Object), so a helper it leaves, or a timeout, stops all it started. Raises OSError."""
    from relay.agy.env import build_worker_env
    from relay.core.process import popen_held

    env = build_worker_env(dict(os.environ if environ is None else environ), run_id="version-check")
    with probe_folder(data_dir) as folder, popen_held([*agy_command(agy), "--version"], cwd=folder, env=env,
                                              text=True) as (proc, _worker):
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            # agy, or a helper it started that holds its stdout: leaving the block stops them all and never
            # waits unbounded on the pipe.
            return VersionAnswer(None)
    version = parse_version(out) if proc.returncode == 0 else None
    said = "" if version else ((out or err or "").strip().splitlines() or [""])[0][:120]
    answer = VersionAnswer(version, proc.returncode, said)
    if (key := _key(agy)) is not None:
        _answers[key] = answer
    return answer


def read_version(agy: str, environ: dict[str, str] | None = None, timeout: float = 15.0, *,
                 data_dir: Path | None = None) -> VersionAnswer:
    """`agy --version`, asked once per binary (see ``_answers``), in a folder made for it (in ``data_dir``, the
    relay's, when given: ``executable.probe_folder``). Raises OSError when agy cannot start."""
    return _answers.get(_key(agy)) or _ask_version(agy, environ, timeout, data_dir)


def too_old(version: AgyVersion | None) -> RelayError | None:
    """AGY_TOO_OLD for a version below MIN_VERSION; None when it will do (or is unknown)."""
    if version is None or version >= MIN_VERSION:
        return None
    return RelayError(Status.AGY_TOO_OLD, f"agy {'.'.join(map(str, version))} is too old: the relay needs "
                      f"{'.'.join(map(str, MIN_VERSION))} or newer (stream-json output and --json-schema)",
                      "Run `agy update`.")


def agy_fact(settings: Settings, timeout: float = 3.0, environ: dict[str, str] | None = None
             ) -> tuple[str | None, str | None]:
    """(path, version) of the agy the relay would run; None where unknown."""
    try:
        path = locate_agy(settings, dict(os.environ if environ is None else environ))
    except RelayError:
        return None, None
    try:
        return path, read_version(path, environ, timeout, data_dir=settings.data_dir).shown
    except OSError:
        return path, None


def go_duration(seconds: float) -> str:
    """agy's --print-timeout wants a Go duration, never a bare number."""
    return f"{max(1, int(round(seconds)))}s"


@functools.cache
def report_schema() -> str:
    """The --json-schema for the worker's report: the WorkerReport Struct, inlined to a plain object root."""
    generated = msgspec.json.schema(WorkerReport)
    name = generated["$ref"].rsplit("/", 1)[-1]
    schema = dict(generated["$defs"][name])
    schema.pop("title", None)
    schema["additionalProperties"] = False
    return msgspec.json.encode(schema).decode()


class AgyInvocation(Struct, kw_only=True, frozen=True):
    """One worker launch, as the relay decided it (built from the RunPlan by orchestrate)."""

    agy: str
    version: AgyVersion | None
    workspace: str
    prompt: str
    timeout_seconds: float
    execution_mode: ExecutionMode | None = None
    sandbox: bool = False
    skip_permissions: bool = False  # the legacy flag: read only when no execution_mode is set
    model: str | None = None
    effort: str | None = None
    agent: str | None = None
    conversation_id: str | None = None
    extra_dirs: tuple[str, ...] = ()
    log_file: str | None = None
    schema: str | None = None


def safe_mode_flags(version: AgyVersion | None, sandbox: bool = False) -> list[str]:
    """A safe run's permission flags (agy-protocol.md §7.1).

    1.2.14+ (and an unknown version, read as current): none. agy's default request-review policy lets
    edits inside the workspace through and blocks shell, web and MCP calls; `--mode accept-edits` is no
    headless write grant (measured on 1.1.13). Older agy keeps `--mode accept-edits`: nobody measured the
    default policy there, accept-edits is the mode agy documents for edits, and `doctor --write-probe`
    shows whether it writes; a denied edit answers PERMISSION_DENIED saying so.
    """
    mode = [] if supports(version, "default policy writes") else ["--mode", "accept-edits"]
    return [*mode, *(["--sandbox"] if sandbox else [])]


def _permission_flags(inv: AgyInvocation) -> list[str]:
    """The mode decides: trusted auto-approves every tool; safe (and the default) lets agy's own policy
    approve workspace edits (commands still need a rule in agy's settings) and is sandboxed when asked."""
    trusted = inv.skip_permissions if inv.execution_mode is None else inv.execution_mode is ExecutionMode.TRUSTED
    if trusted:
        return ["--dangerously-skip-permissions"]
    return safe_mode_flags(inv.version, inv.sandbox)


def build_agy_argv(inv: AgyInvocation) -> list[str]:
    if not os.path.isabs(inv.workspace):
        raise ValueError(f"--add-dir needs an absolute path, got {inv.workspace!r}")
    argv = [*agy_command(inv.agy), "--output-format", "stream-json"]
    if supports(inv.version, "--json-schema") and inv.schema:
        argv += ["--json-schema", inv.schema]
    for directory in (inv.workspace, *inv.extra_dirs):
        argv += ["--add-dir", directory]
    if inv.conversation_id:
        argv += ["--conversation", inv.conversation_id]
    argv += _permission_flags(inv)
    if inv.model and supports(inv.version, "--model"):
        argv += ["--model", inv.model]
    if inv.effort and supports(inv.version, "--effort"):
        argv += ["--effort", inv.effort]
    if inv.agent:
        argv += ["--agent", inv.agent]
    if supports(inv.version, "--disable-slash-commands"):
        argv.append("--disable-slash-commands")
    argv += ["--print-timeout", go_duration(inv.timeout_seconds)]
    if inv.log_file:
        argv += ["--log-file", inv.log_file]
    # Last, and bound to its flag: a prompt that starts with "-" stays a prompt.
    argv.append(f"--print={inv.prompt}")
    return argv
