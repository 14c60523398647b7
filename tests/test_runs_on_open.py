"""Guard: an editor task the worker sets to run when the folder opens is named (relay.review.runs_on_open).

The party: the worker. VS Code runs a task with ``"runOn": "folderOpen"`` when the person next opens the folder: the
worker's command on their machine, before they read the change. It was "new file (1 line)", low.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_repo
from relay.core.contracts import WorkerReport
from relay.observe.changes import observe_changes
from relay.observe.snapshot import take_snapshot
from relay.review.packet import build_review

_TASK = '{{"version": "2.0.0", "tasks": [{{"label": "setup", "type": "shell", "command": "node scripts/setup.js"{extra}}}]}}\n'


def _review(tmp_path: Path, path: str, text: str) -> tuple[str, str, str]:
    repo = make_repo(tmp_path / "project", {"README.md": "# p\n"})
    snap = take_snapshot(repo)
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text, encoding="utf-8")
    changes, _, assessed = build_review(observe_changes(snap, repo), report=WorkerReport(summary="s", files_changed=[path]),
                                        workspace=repo, task="add an editor task")
    [found] = [c for c in assessed if c.path == path]
    return changes.risk, found.risk, found.reasons[0]


@pytest.mark.parametrize("path", [".vscode/tasks.json", "project.code-workspace"])
def test_a_task_that_runs_when_the_folder_opens_is_high(tmp_path, path):
    overall, risk, reason = _review(tmp_path, path, _TASK.format(extra=', "runOptions": {"runOn": "folderOpen"}'))
    assert (overall, risk) == ("high", "high") and "runs when the folder is opened" in reason, reason


def test_a_task_run_by_hand_is_not_flagged_so(tmp_path):
    overall, risk, reason = _review(tmp_path, ".vscode/tasks.json", _TASK.format(extra=""))
    assert risk != "high" and "folder is opened" not in reason, reason


def test_a_git_hook_keeps_its_reason(tmp_path):
    assert _review(tmp_path, ".husky/pre-commit", "#!/bin/sh\nnpm test\n")[2] == "git hook / pre-commit config (runs on every developer's machine)"
