"""Guard: an editor task the worker sets to run when the folder opens is named (relay.review.runs_on_open).

The party: the worker. VS Code runs a task with ``"runOn": "folderOpen"`` when the person next opens the folder: the
worker's command on their machine, before they read the change. It was "new file (1 line)", low.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewed import review_edits

_TASK = '{{"version": "2.0.0", "tasks": [{{"label": "setup", "type": "shell", "command": "node scripts/setup.js"{extra}}}]}}\n'


def _review(tmp_path: Path, path: str, text: str) -> tuple[str, str, str]:
    overall, found = review_edits(tmp_path, {path: text}, task="add an editor task")
    return overall, found[path].risk, found[path].reasons[0]


@pytest.mark.parametrize("path", [".vscode/tasks.json", "project.code-workspace"])
def test_a_task_that_runs_when_the_folder_opens_is_high(tmp_path, path):
    overall, risk, reason = _review(tmp_path, path, _TASK.format(extra=', "runOptions": {"runOn": "folderOpen"}'))
    assert (overall, risk) == ("high", "high") and "runs when the folder is opened" in reason, reason


def test_a_task_run_by_hand_is_not_flagged_so(tmp_path):
    overall, risk, reason = _review(tmp_path, ".vscode/tasks.json", _TASK.format(extra=""))
    assert risk != "high" and "folder is opened" not in reason, reason


def test_a_git_hook_keeps_its_reason(tmp_path):
    assert _review(tmp_path, ".husky/pre-commit", "#!/bin/sh\nnpm test\n")[2] == "git hook / pre-commit config (runs on every developer's machine)"
