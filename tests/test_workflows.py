"""relay.review.workflows: which changed GitHub workflows run with the project's credentials, read from the files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relay.core.contracts import FileChange
from relay.observe.changes import observe_changes
from relay.observe.snapshot import take_snapshot
from relay.review.packet import build_review
from relay.review.workflows import credentials_in, workflow_credentials
from review_corpus import make_repo

__all__: list[str] = []  # a test module exports nothing

_TEST = "on: [push, pull_request]\npermissions:\n  contents: read\njobs:\n  test:\n    steps:\n      - uses: actions/checkout@v3\n      - run: pytest\n        env:\n          TOKEN: ${{ secrets.GITHUB_TOKEN }}\n"
_PUBLISH = "on:\n  release:\njobs:\n  publish:\n    steps:\n      - uses: actions/checkout@v3\n      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (_PUBLISH, "secrets.NPM_TOKEN"),
        (_TEST, ""),  # the per-run token, read-only here, is not the project's credentials
        ("permissions:\n  id-token: write\n", "id-token: write"),  # trusted publishing to PyPI or npm
        ("permissions:\n  contents: write\n", "contents: write"),
        ("on:\n  pull_request_target:\n", "pull_request_target"),  # a fork's PR with the base repository's secrets
        ("key: ${{ secrets[matrix.name] }}\n", "secrets["),
        # A reporting service's token cannot publish (pyjwt's main.yml, kinds-1): the test workflow it is.
        ("      - uses: codecov/codecov-action@v4\n        with:\n          token: ${{ secrets.CODECOV_TOKEN }}\n", ""),
        ("  token: ${{ secrets.CODECOV_TOKEN }}\n  pypi: ${{ secrets.PYPI_API_TOKEN }}\n", "secrets.PYPI_API_TOKEN"),
    ],
)
def test_credentials_in_reads_what_a_workflow_runs_with(text: str, found: str) -> None:
    assert credentials_in(text) == found


def test_workflow_credentials_reads_changed_workflows_only_never_through_a_symlink(tmp_path: Path) -> None:
    flows = tmp_path / ".github" / "workflows"
    flows.mkdir(parents=True)
    (flows / "publish.yml").write_text(_PUBLISH, encoding="utf-8")
    (flows / "test.yml").write_text(_TEST, encoding="utf-8")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.yml"
    outside.write_text(_PUBLISH, encoding="utf-8")
    os.symlink(outside, flows / "linked.yml")
    (tmp_path / ".travis.yml").write_text("deploy:\n  api_key: $PYPI\n", encoding="utf-8")
    changes = [FileChange(path=p) for p in (".github/workflows/publish.yml", ".github/workflows/test.yml",
                                             ".github/workflows/linked.yml", ".travis.yml")]
    changes.append(FileChange(path=".github/workflows/gone.yml", kind="deleted"))
    assert workflow_credentials(tmp_path, changes) == {".github/workflows/publish.yml": "secrets.NPM_TOKEN", ".github/workflows/test.yml": ""}


def test_review_puts_the_workflow_that_publishes_first_and_test_workflows_at_medium(tmp_path: Path) -> None:
    # Regression (kinds-1's first run): "Bump actions/checkout" touched six of jekyll's workflows; all
    # were "CI configuration (runs with repository secrets)", high, and release.yml, which pushes the gem
    # with the project's key, came sixth, behind the test workflows.
    files = {".github/workflows/release.yml": _PUBLISH, **{f".github/workflows/t{i}.yml": _TEST + "\n" * i for i in range(5)}}
    root = make_repo(tmp_path / "repo", files)
    snap = take_snapshot(root)
    for path in files:
        (root / path).write_text((root / path).read_text(encoding="utf-8").replace("checkout@v3", "checkout@v4"), encoding="utf-8")
    changeset = observe_changes(snap, root)
    changes, _, assessed = build_review(changeset, report=None, workspace=root)
    assert changes.review[0].file == ".github/workflows/release.yml" and changes.review[0].risk == "high"
    assert {c.risk for c in assessed if c.path != ".github/workflows/release.yml"} == {"medium"}
    # Without the files to read (no workspace), what a workflow runs with is not known: high, as before.
    _, _, unread = build_review(changeset, report=None)
    assert {c.risk for c in unread} == {"high"}
