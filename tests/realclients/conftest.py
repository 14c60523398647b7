"""Opt-in gate and end-of-session figures for the real-client tests."""

from __future__ import annotations

from .figures import table


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    lines = table()
    if lines:
        terminalreporter.write_sep("-", "bytes each real client handed its model (tool result)")
        for line in lines:
            terminalreporter.write_line(line)
