"""What the relay knows of agy's command line: where it is, which version, which argv.

``build_agy_argv`` is pure: given a plan, a version and a prompt it returns the
exact list, so every ordering rule of the protocol notes has a unit test. The
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

from relay.core.contracts import ExecutionMode, Status, WorkerReport
from relay.core.errors import RelayError
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
    "start_version_probe",
    "finish_version_probe",
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
    """The agy executable to run, or SPAWN_ERROR naming every path tried."""
    tried = agy_candidates(settings, environ)
    for candidate in tried:
        path = Path(candidate).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    where = ", ".join(tried)
    if settings.agy_bin:
        path = Path(settings.agy_bin).expanduser()
        problem = "is not executable" if path.exists() else "does not exist"
        raise RelayError(
            Status.SPAWN_ERROR,
            f"AGY_BIN={settings.agy_bin} {problem}",
            "Point AGY_BIN at the agy executable (`which agy`), or unset it to search PATH.",
        )
    raise RelayError(
        Status.SPAWN_ERROR,
        f"agy was not found (tried: PATH, {where})",
        "Install the Antigravity CLI, or set AGY_BIN to its full path in the relay's MCP server env.",
    )


def start_version_probe(settings: Settings, environ: dict[str, str] | None = None
                        ) -> tuple[str | None, subprocess.Popen | None]:
    """Start `agy --version` without waiting, so it runs while the server imports the SDK.

    Like every agy launch it gets the worker's allowlisted environment (with auto-update off), never
    the relay's own: the relay's environment can hold other tools' credentials.
    """
    from relay.agy.env import build_worker_env

    base = dict(os.environ if environ is None else environ)
    try:
        path = locate_agy(settings, base)
    except RelayError:
        return None, None
    try:
        proc = subprocess.Popen([path, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                                env=build_worker_env(base, run_id="version-check"))
    except OSError:
        return path, None
    return path, proc


def finish_version_probe(path: str | None, proc: subprocess.Popen | None, timeout: float = 3.0
                         ) -> tuple[str | None, str | None]:
    """(path, version) from a started probe; version None when agy did not say in time."""
    if proc is None:
        return path, None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return path, None
    version = parse_version(out) if proc.returncode == 0 else None
    return path, ".".join(map(str, version)) if version else None


def agy_fact(settings: Settings, timeout: float = 3.0, environ: dict[str, str] | None = None
             ) -> tuple[str | None, str | None]:
    """(path, version) of the agy the relay would run; None where unknown."""
    return finish_version_probe(*start_version_probe(settings, environ), timeout=timeout)


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


def build_agy_argv(
    *,
    agy: str,
    version: AgyVersion | None,
    workspace: str,
    prompt: str,
    execution_mode: ExecutionMode | None,
    sandbox: bool,
    skip_permissions: bool,
    timeout_seconds: float,
    model: str | None = None,
    effort: str | None = None,
    agent: str | None = None,
    conversation_id: str | None = None,
    extra_dirs: list[str] | None = None,
    log_file: str | None = None,
    schema: str | None = None,
) -> list[str]:
    if not os.path.isabs(workspace):
        raise ValueError(f"--add-dir needs an absolute path, got {workspace!r}")
    argv = [agy, "--output-format", "stream-json"]
    if supports(version, "--json-schema") and schema:
        argv += ["--json-schema", schema]
    argv += ["--add-dir", workspace]
    for extra in extra_dirs or []:
        argv += ["--add-dir", extra]
    if conversation_id:
        argv += ["--conversation", conversation_id]
    if skip_permissions:
        argv.append("--dangerously-skip-permissions")
    else:
        # Without auto-approval, accept-edits lets file edits through (commands still need a rule).
        argv += ["--mode", "accept-edits"]
    if sandbox:
        argv.append("--sandbox")
    if model and supports(version, "--model"):
        argv += ["--model", model]
    if effort and supports(version, "--effort"):
        argv += ["--effort", effort]
    if agent:
        argv += ["--agent", agent]
    if supports(version, "--disable-slash-commands"):
        argv.append("--disable-slash-commands")
    argv += ["--print-timeout", go_duration(timeout_seconds)]
    if log_file:
        argv += ["--log-file", log_file]
    # Last, and bound to its flag: a prompt that starts with "-" stays a prompt.
    argv.append(f"--print={prompt}")
    return argv
