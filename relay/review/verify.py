"""Verification: run the profile's test commands in the workspace after the worker.

Their counts become the packet's ``tests`` marked ``measured``, so a leader
never has to trust the worker's claim when the profile can check it. Commands
come from the server-side profile (trusted configuration), run through the
shell in their own process group with a timeout.
"""

from __future__ import annotations

import os
import re

from relay.core.contracts import Tests, VerifyResult
from relay.core.process import run_capture, tail

__all__ = ["run_verification", "parse_counts", "tests_from_verification", "shell_command"]

# A runner's summary line names its counts: pytest "1 failed, 5 passed", jest "2 failed, 40 passed",
# cargo "7 passed; 0 failed", mocha "5 passing, 1 failing".
_PASSED = re.compile(r"(\d+)\s+(?:passed|passing)\b")
_FAILED = re.compile(r"(\d+)\s+(?:failed|failing|errors?)\b")


def parse_counts(output: str, exit_code: int | None) -> tuple[int, int]:
    """(passed, failed) from the last summary line of a test run; a command without one counts as one check."""
    for line in reversed(output.splitlines()[-80:]):
        passed = _PASSED.search(line)
        failed = _FAILED.search(line)
        if passed or failed:
            p = int(passed[1]) if passed else 0
            f = int(failed[1]) if failed else 0
            if exit_code not in (0, None) and f == 0:
                f = 1  # the runner failed without saying how: never report all-green
            return p, f
    return (1, 0) if exit_code == 0 else (0, 1)


def shell_command(command: str, windows: bool | None = None) -> list[str] | str:
    """How a profile's command reaches the shell. POSIX: ``/bin/sh -c COMMAND``. Windows: the command as one line
    for the shell (%ComSpec% ``/c "COMMAND"``, built by subprocess itself): never an argv quoted by list2cmdline,
    whose ``\\"`` cmd.exe does not read (``"C:\\…\\python.exe" run_tests.py`` became ``\\"C:\\…\\python.exe\\"``,
    not a program, and a passing suite was reported failing)."""
    if os.name == "nt" if windows is None else windows:
        return command
    return ["/bin/sh", "-c", command]


async def run_verification(commands: list[str], *, workspace: str, env: dict[str, str], timeout: float) -> list[VerifyResult]:
    results = []
    for command in commands:
        try:
            got = await run_capture(shell_command(command), timeout=timeout, cwd=workspace, env=env)
        except OSError as exc:
            results.append(VerifyResult(command=command, exit_code=None, failed=1, output_tail=f"could not start: {exc}"))
            continue
        output = got.stdout + ("\n" + got.stderr if got.stderr else "")
        passed, failed = parse_counts(output, got.exit_code)
        if got.timed_out:
            failed = max(failed, 1)
        results.append(
            VerifyResult(
                command=command,
                exit_code=got.exit_code,
                timed_out=got.timed_out,
                duration_ms=got.duration_ms,
                passed=passed,
                failed=failed,
                output_tail=tail(output.strip(), 4000),
            )
        )
    return results


def tests_from_verification(results: list[VerifyResult]) -> Tests:
    return Tests(
        passed=sum(r.passed for r in results),
        failed=sum(r.failed for r in results),
        source="measured",
    )

