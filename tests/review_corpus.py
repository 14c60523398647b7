"""A labelled corpus of change sets, built with real git, whose review targets are known.

Each ``Case`` commits a small repository, makes the edits that were in the workspace
*before* the run (the user's own), takes the relay's snapshot, makes the worker's edits,
then observes and reviews. The labels say what a reviewer must be shown (``must_target``,
``top``), what must never be blamed on the worker (``absent``), which file must outrank
which (``outranks``), and the risk a file must get (``risk``).

Also re-exports the git helpers the observation tests share (from git_repos).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from relay.observe.changes import ChangeSet, observe_changes
from relay.core.contracts import Changes, FileChange, WorkerReport
from relay.review.packet import build_review
from relay.observe.snapshot import take_snapshot
from git_repos import git, git_env, make_repo, write

__all__ = ["git", "git_env", "make_repo", "write", "Case", "CASES", "Outcome", "run_case"]


def _py(n: int, name: str = "value") -> str:
    return "".join(f"def {name}_{i}():\n    return {i}\n\n" for i in range(n))


def _nothing(root: Path) -> None:
    return None


@dataclass
class Case:
    name: str
    files: dict[str, str | bytes]
    work: Callable[[Path], None]
    before: Callable[[Path], None] = _nothing
    report: WorkerReport | None = None
    paths: tuple[str, ...] = ()
    must_target: tuple[str, ...] = ()
    top: str | None = None
    absent: tuple[str, ...] = ()
    outranks: tuple[tuple[str, str], ...] = ()
    risk: dict[str, str] = field(default_factory=dict)
    flags: tuple[str, ...] = ()  # substrings some flag must contain
    ranges: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


@dataclass
class Outcome:
    changeset: ChangeSet
    changes: Changes
    flags: list[str]
    assessed: list[FileChange]

    def target_files(self) -> list[str]:
        return [t.file for t in self.changes.review]

    def by_path(self, path: str) -> FileChange:
        return next(c for c in self.assessed if c.path == path)


def run_case(case: Case, root: Path) -> Outcome:
    make_repo(root, case.files)
    case.before(root)
    snap = take_snapshot(root)
    case.work(root)
    changeset = observe_changes(snap, root, reported=case.report.files_changed if case.report else [])
    changes, flags, assessed = build_review(changeset, report=case.report, paths=case.paths)
    return Outcome(changeset, changes, flags, assessed)


# --------------------------------------------------------------------------- the cases


def _forty_edits_and_a_deleted_test(root: Path) -> None:
    for i in range(40):
        path = root / f"src/mod_{i:02d}.py"
        path.write_text(path.read_text(encoding="utf-8") + f"\n# tidy {i}\n", encoding="utf-8")
    (root / "tests/test_core.py").unlink()


def _auth_and_readme(root: Path) -> None:
    (root / "README.md").write_text("# Project\n\nBetter words.\n", encoding="utf-8")
    path = root / "src/auth/session.py"
    path.write_text(path.read_text(encoding="utf-8").replace("return 0", "return 1"), encoding="utf-8")


def _append(rel: str, text: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        path = root / rel
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")

    return apply


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new), encoding="utf-8")

    return apply


def _both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        for step in steps:
            step(root)

    return apply


def _chmod_x(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        os.chmod(root / rel, 0o755)

    return apply


def _write(rel: str, content: str | bytes) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        write(root, rel, content)

    return apply


_TEST_FILE = "from app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(0, 0) == 0\n\n\ndef test_neg():\n    assert add(-1, 1) == 0\n"

CASES: tuple[Case, ...] = (
    Case(
        name="deleted test among 40 harmless edits",
        files={**{f"src/mod_{i:02d}.py": _py(3) for i in range(40)}, "tests/test_core.py": _TEST_FILE},
        work=_forty_edits_and_a_deleted_test,
        report=WorkerReport(summary="tidied", files_changed=[*(f"src/mod_{i:02d}.py" for i in range(40)), "tests/test_core.py"]),
        top="tests/test_core.py",
        must_target=("tests/test_core.py",),
        risk={"tests/test_core.py": "high", "src/mod_00.py": "low"},
    ),
    Case(
        name="edited auth module outranks a README tweak",
        files={"README.md": "# Project\n\nWords.\n", "src/auth/session.py": _py(5)},
        work=_auth_and_readme,
        report=WorkerReport(summary="x", files_changed=["README.md", "src/auth/session.py"]),
        top="src/auth/session.py",
        outranks=(("src/auth/session.py", "README.md"),),
        risk={"src/auth/session.py": "high", "README.md": "low"},
    ),
    Case(
        name="pre-existing dirty file is never blamed",
        files={"notes.txt": "mine\n", "src/app.py": _py(3)},
        before=_both(_append("notes.txt", "my own edit\n"), _write("scratch.txt", "untracked before\n")),
        work=_append("src/app.py", "\ndef extra():\n    return 9\n"),
        report=WorkerReport(summary="x", files_changed=["src/app.py"]),
        must_target=("src/app.py",),
        absent=("notes.txt", "scratch.txt"),
    ),
    Case(
        name="file dirty before and edited again shows only the worker's lines",
        files={"src/app.py": _py(10)},
        before=_replace("src/app.py", "return 2\n", "return 2  # user tweak\n"),
        work=_replace("src/app.py", "return 8\n", "return 80\n"),
        report=WorkerReport(summary="x", files_changed=["src/app.py"]),
        must_target=("src/app.py",),
        ranges={"src/app.py": [(26, 26)]},
    ),
    Case(
        name="skip marker added to a test outranks the feature edit",
        files={"app.py": "def add(a, b):\n    return a + b\n", "tests/test_app.py": _TEST_FILE},
        work=_both(
            _replace("app.py", "return a + b", "return a + b + 0"),
            _replace("tests/test_app.py", "def test_neg", "@pytest.mark.skip(reason='flaky')\ndef test_neg"),
        ),
        report=WorkerReport(summary="x", files_changed=["app.py", "tests/test_app.py"]),
        top="tests/test_app.py",
        risk={"tests/test_app.py": "high", "app.py": "low"},
    ),
    Case(
        name="removed assertions weaken a test",
        files={"app.py": "def add(a, b):\n    return a + b\n", "tests/test_app.py": _TEST_FILE},
        work=_replace("tests/test_app.py", "    assert add(0, 0) == 0\n", ""),
        report=WorkerReport(summary="x", files_changed=["tests/test_app.py"]),
        top="tests/test_app.py",
        risk={"tests/test_app.py": "high"},
    ),
    Case(
        name="lowered coverage threshold",
        files={"setup.cfg": "[coverage:report]\nfail_under = 90\n", "app.py": "x = 1\n"},
        work=_both(_replace("setup.cfg", "fail_under = 90", "fail_under = 70"), _replace("app.py", "x = 1", "x = 2")),
        report=WorkerReport(summary="x", files_changed=["setup.cfg", "app.py"]),
        top="setup.cfg",
        risk={"setup.cfg": "high"},
    ),
    Case(
        name="new dependency in package.json",
        files={"package.json": '{\n  "name": "web",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n', "src/index.js": "export {}\n"},
        work=_both(
            _replace("package.json", '"react": "^18.0.0"\n', '"react": "^18.0.0",\n    "left-pad": "^1.3.0"\n'),
            _append("src/index.js", "export const x = 1\n"),
        ),
        report=WorkerReport(summary="x", files_changed=["package.json", "src/index.js"]),
        top="package.json",
        risk={"package.json": "high", "src/index.js": "low"},
    ),
    Case(
        name="CI workflow edit is high risk",
        files={".github/workflows/ci.yml": "on: push\njobs: {}\n", "docs/guide.md": "guide\n"},
        work=_both(_append(".github/workflows/ci.yml", "# run more\n"), _append("docs/guide.md", "more\n")),
        report=WorkerReport(summary="x", files_changed=[".github/workflows/ci.yml", "docs/guide.md"]),
        top=".github/workflows/ci.yml",
        risk={".github/workflows/ci.yml": "high", "docs/guide.md": "low"},
    ),
    Case(
        name="new database migration",
        files={"app/models.py": "class User: pass\n"},
        work=_both(_write("app/migrations/0002_add_email.py", "operations = []\n"), _append("app/models.py", "email = None\n")),
        report=WorkerReport(summary="x", files_changed=["app/migrations/0002_add_email.py", "app/models.py"]),
        top="app/migrations/0002_add_email.py",
        risk={"app/migrations/0002_add_email.py": "high"},
    ),
    Case(
        name="file changed but not mentioned, file claimed but unchanged",
        files={"a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n"},
        work=_both(_replace("a.py", "a = 1", "a = 2"), _replace("b.py", "b = 1", "b = 2")),
        report=WorkerReport(summary="x", files_changed=["a.py", "c.py"]),
        top="b.py",
        risk={"b.py": "medium", "a.py": "low"},
        flags=("claimed but unchanged (1) c.py", "not in the worker's report (1) b.py"),
    ),
    Case(
        name="change outside the task's paths",
        files={"src/app.py": "x = 1\n", "scripts/deploy.sh": "echo deploy\n"},
        work=_both(_replace("src/app.py", "x = 1", "x = 2"), _append("scripts/deploy.sh", "echo again\n")),
        report=WorkerReport(summary="x", files_changed=["src/app.py", "scripts/deploy.sh"]),
        paths=("src/",),
        top="scripts/deploy.sh",
        risk={"scripts/deploy.sh": "medium", "src/app.py": "low"},
    ),
    Case(
        name="permission bits and a binary file",
        files={"tools/run.sh": "echo hi\n", "src/a.py": "a = 1\n"},
        work=_both(_chmod_x("tools/run.sh"), _write("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0rest"), _replace("src/a.py", "a = 1", "a = 2")),
        report=WorkerReport(summary="x", files_changed=["tools/run.sh", "assets/logo.png", "src/a.py"]),
        must_target=("tools/run.sh", "assets/logo.png"),
        outranks=(("tools/run.sh", "src/a.py"), ("assets/logo.png", "src/a.py")),
        risk={"tools/run.sh": "medium", "assets/logo.png": "medium", "src/a.py": "low"},
    ),
    Case(
        name="git-ignored .env edited by the worker",
        files={".gitignore": ".env\n", "app.py": "x = 1\n"},
        before=_write(".env", "TOKEN=old\n"),
        work=_both(_write(".env", "TOKEN=new\n"), _replace("app.py", "x = 1", "x = 2")),
        report=WorkerReport(summary="x", files_changed=["app.py", ".env"]),
        top=".env",
        risk={".env": "high"},
    ),
    Case(
        name="large hunk outranks a one-line edit",
        files={"src/big.py": "x = 0\n", "src/small.py": "y = 0\n"},
        work=_both(_append("src/big.py", _py(120, "gen")), _replace("src/small.py", "y = 0", "y = 1")),
        report=WorkerReport(summary="x", files_changed=["src/big.py", "src/small.py"]),
        top="src/big.py",
        risk={"src/big.py": "medium", "src/small.py": "low"},
    ),
    Case(
        name="plain move with an edit is one rename",
        files={"lib/old_name.py": _py(20)},
        work=lambda root: (
            (root / "lib/old_name.py").rename(root / "lib/new_name.py"),
            _append("lib/new_name.py", "\ndef added():\n    return 1\n")(root),
        ),
        report=WorkerReport(summary="x", files_changed=["lib/old_name.py", "lib/new_name.py"]),
        must_target=("lib/new_name.py",),
        absent=("lib/old_name.py",),
    ),
)
