"""What runs on a developer's machine without being asked for: git hooks, and editor tasks run when the folder opens.

The party: the worker. A git hook or a pre-commit config runs at the next commit; a VS Code task with ``"runOn":
"folderOpen"`` (in ``.vscode/tasks.json`` or a ``*.code-workspace``) runs its command when the person next opens the
folder — the worker's command, on their machine, before they read a line of the change. It was "new file", low.
"""

from __future__ import annotations

import re

from relay.review.facts import FileFacts, RiskContext
from relay.review.file_kinds import HOOK_GLOBS, glob_any

__all__ = ["HOOKS", "runs_on_open"]

HOOKS = "git hook / pre-commit config (runs on every developer's machine)"
_TASK_FILES = (".vscode/tasks.json", "*.code-workspace")
_FOLDER_OPEN_RE = re.compile(r"[\"']?runOn[\"']?\s*:\s*[\"']folderOpen[\"']")


def runs_on_open(f: FileFacts, ctx: RiskContext) -> str | None:
    if glob_any(f.path, HOOK_GLOBS):
        return HOOKS
    if glob_any(f.path, _TASK_FILES) and any(_FOLDER_OPEN_RE.search(line) for line in f.change.added_lines):
        return "an editor task that runs when the folder is opened (VS Code runOn: folderOpen)"
    return None
