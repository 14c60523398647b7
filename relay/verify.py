"""Verification: run the profile's test commands in the workspace after the worker.

Their counts become the packet's ``tests`` marked ``measured``, so a leader
never has to trust the worker's claim when the profile can check it. Commands
come from the server-side profile (trusted configuration), run through the
shell in their own process group with a timeout.
"""

from __future__ import annotations

import os
import re

from .contracts import Tests, VerifyResult
from .process import run_capture, tail

__all__ = ["run_verification", "parse_counts", "tests_from_verification"]

# (pattern, group of passed, group of failed) — the first that matches wins.
_COUNTERS = [
    re.compile(r"(?:(?P<failed>\d+) failed)?[, ]*(?:(?P<passed>\d+) passed)"),  # pytest: "1 failed, 5 passed"
    re.compile(r"Tests:\s+(?:(?P<failed>\d+) failed, )?(?:\d+ skipped, )?(?P<passed>\d+) passed"),  # jest
    re.compile(r"test result: \w+\. (?P<passed>\d+) passed; (?P<failed>\d+) failed"),  # cargo
    re.compile(r"(?P<passed>\d+) passing(?:.*?(?P<failed>\d+) failing)?", re.S),  # mocha
]


def parse_counts(output: str, exit_code: int | None) -> tuple[int, int]:
    """(passed, failed) from a test runner's summary; a command without one counts as one check."""
    passed = failed = 0
    found = False
    for line in output.splitlines()[-60:]:
        for pattern in _COUNTERS:
            match = pattern.search(line)
            if match and match.group("passed"):
                passed = int(match.group("passed"))
                failed = int(match.group("failed") or 0)
                found = True
                break
        if not found:
            m = re.search(r"(\d+) failed", line)
            if m and ("error" in line or "=" in line):
                failed, found = int(m[1]), True
    if not found:
        return (1, 0) if exit_code == 0 else (0, 1)
    if exit_code not in (0, None) and failed == 0:
        failed = 1  # the runner failed without saying how many: never report all-green
    return passed, failed


def _shell(command: str) -> list[str]:
    if os.name == "nt":
        return ["cmd.exe", "/c", command]
    return ["/bin/sh", "-c", command]


async def run_verification(commands: list[str], *, workspace: str, env: dict[str, str], timeout: float) -> list[VerifyResult]:
    results = []
    for command in commands:
        try:
            got = await run_capture(_shell(command), timeout=timeout, cwd=workspace, env=env)
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

