"""Which changed GitHub Actions workflows run with the project's credentials.

A workflow that publishes a release, pushes a package or deploys runs with secrets the project
holds (``secrets.NPM_TOKEN``), with write permissions, with an OIDC token to publish (``id-token:
write``), or on ``pull_request_target`` (a fork's pull request with the base repository's secrets).
An edit there is what a reviewer must read first; an edit of a workflow that only builds and tests
is not. The changed lines alone rarely say which kind a workflow is (a version bump of
``actions/checkout`` touches both), so the file as the run left it is read: only changed workflow
files, a bounded number of bytes each, never through a symlink. What cannot be read is not known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from relay.core.contracts import FileChange
from relay.review.ci_lines import triggers_in
from relay.review.state_turns import runs_on_prs

__all__ = ["WORKFLOW_RE", "credentials_in", "read_workflows", "workflow_credentials"]

# The workflows GitHub runs; other CI systems keep their secrets in settings a file does not show.
WORKFLOW_RE = re.compile(r"(?:^|/)\.github/workflows/[^/]+\.ya?ml$", re.IGNORECASE)
_CREDENTIALS = (
    # A secret the project stored, not the per-run token (read-only unless a permission says otherwise).
    re.compile(r"\bsecrets\s*(?:\.\s*(?!GITHUB_TOKEN\b)[A-Za-z_][\w-]*|\[)", re.IGNORECASE),
    re.compile(r"^\s*(?:id-token|contents|packages|deployments|pages|actions|attestations)\s*:\s*write\b", re.MULTILINE),
    re.compile(r"^\s*permissions\s*:\s*write-all\b", re.MULTILINE),
    re.compile(r"\bpull_request_target\b"),
)
_MAX_FILES = 64
_MAX_BYTES = 256 * 1024


# A token for a service that only reads or reports (coverage, code analysis, chat, browser farms) cannot
# publish or push: a workflow holding only such a secret builds and tests (pyjwt's main.yml and its
# CODECOV_TOKEN came before the workflow that publishes to PyPI).
_REPORTING_SECRET_RE = re.compile(
    r"secrets\s*\.\s*\w*(?:CODECOV|COVERALLS|CODACY|CODECLIMATE|CC_TEST_REPORTER|SONAR|SLACK|DISCORD|GITTER|SNYK|DEEPSOURCE|"
    r"CODSPEED|BROWSERSTACK|SAUCE)\w*", re.IGNORECASE)


def credentials_in(text: str) -> str:
    """The first sign in a workflow's text that it runs with the project's credentials ("" if none);
    a secret of a reporting service is no such sign."""
    found = [m for pattern in _CREDENTIALS for m in pattern.finditer(text) if not _REPORTING_SECRET_RE.match(m.group(0) + text[m.end():m.end() + 40])]
    if not found:
        return ""
    return " ".join(min(found, key=lambda m: m.start()).group(0).split())[:40]


def workflow_credentials(workspace: Path, changes: Iterable[FileChange]) -> dict[str, str]:
    """For each changed (not deleted) workflow file that could be read: what credentials it runs with,
    "" when it runs with none. A workflow missing from the answer was not read (a symlink, too big,
    unreadable, past the bound): the rules then treat it as they always did."""
    return read_workflows(workspace, changes)[0]


def read_workflows(workspace: Path, changes: Iterable[FileChange]) -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """``workflow_credentials``' answer, for the same workflows the privileged trigger each runs on ("" for none:
    ``relay.review.ci_lines.triggers_in``), and those of them that run on pull requests, read in the one pass."""
    out: dict[str, str] = {}
    triggers: dict[str, str] = {}
    on_prs: set[str] = set()
    root = workspace.resolve()
    for change in changes:
        if len(out) >= _MAX_FILES:
            break
        if change.kind == "deleted" or change.symlink or not WORKFLOW_RE.search(change.path):
            continue
        path = root / change.path
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > _MAX_BYTES:
                continue
            if not path.resolve().is_relative_to(root):
                continue
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        out[change.path] = credentials_in(text)
        triggers[change.path] = triggers_in(text)
        if runs_on_prs(text):
            on_prs.add(change.path)
    return out, triggers, frozenset(on_prs)
