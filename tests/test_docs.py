"""The README is a first page and the reference lives in docs/, whole in both languages (issue 28).

What a user looks up must be there in English and in Chinese: every status the relay can answer, every
GRAVITY_RELAY_* variable the code reads, every CLI command. Counts and timings that go stale are kept
out of the pages unless a command named beside them prints them.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from relay.core.contracts import Status
from relay.doors.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ZH = DOCS / "zh"


def _pages(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def _all(folder: Path) -> str:
    return "\n".join(_pages(folder).values())


def _headings(text: str) -> list[str]:
    out, fence = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,4} ", line):
            out.append(line.split(" ", 1)[0])
    return out


def test_docs_have_the_same_pages_in_both_languages() -> None:
    en, zh = _pages(DOCS), _pages(ZH)
    assert en, "docs/ has no pages"
    assert sorted(en) == sorted(zh)


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_docs_page_has_the_same_sections_in_both_languages(page: str) -> None:
    en = (DOCS / page).read_text(encoding="utf-8")
    zh = (ZH / page).read_text(encoding="utf-8")
    assert _headings(en) == _headings(zh), f"{page}: the Chinese page's sections differ from the English one's"


@pytest.mark.parametrize("folder", [DOCS, ZH], ids=["en", "zh"])
def test_docs_name_every_status_the_relay_can_answer(folder: Path) -> None:
    text = (folder / "statuses.md").read_text(encoding="utf-8")
    missing = [s.value for s in Status if f"`{s.value}`" not in text]
    assert not missing, f"{folder / 'statuses.md'} does not document {missing}"


def _variables_the_code_reads() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "relay").rglob("*.py"):
        names |= set(re.findall(r"GRAVITY_RELAY_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    return names


@pytest.mark.parametrize("folder", [DOCS, ZH], ids=["en", "zh"])
def test_docs_name_every_variable_the_code_reads(folder: Path) -> None:
    variables = _variables_the_code_reads()
    assert "GRAVITY_RELAY_DATA_DIR" in variables  # the scan itself works
    text = _all(folder)
    missing = sorted(v for v in variables if v not in text)
    assert not missing, f"{folder} does not document {missing}"


def _commands() -> list[str]:
    found: list[str] = []

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:  # argparse keeps sub-commands only here
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append(f"{prefix}{name}".strip())
                    walk(sub, f"{prefix}{name} ")

    walk(build_parser(), "")
    return found


@pytest.mark.parametrize("folder", [DOCS, ZH], ids=["en", "zh"])
def test_docs_name_every_cli_command(folder: Path) -> None:
    commands = _commands()
    assert "runs diff" in commands and "setup" in commands  # the walk itself works
    text = (folder / "commands.md").read_text(encoding="utf-8")
    missing = [c for c in commands if f"gravity-relay {c}" not in text]
    assert not missing, f"{folder / 'commands.md'} does not document {missing}"


@pytest.mark.parametrize("readme", ["README.md", "README.zh.md"])
def test_readme_is_a_first_page(readme: str) -> None:
    text = (ROOT / readme).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 250, f"{readme} has {len(lines)} lines"
    head = "\n".join(lines[:120])
    for must in ("pip install", "gravity-relay demo", "gravity-relay setup", "gravity-relay doctor"):
        assert must in head, f"{readme}: {must!r} is not within its first 120 lines"
    assert "python -m pytest" in text
    folder = "docs/zh/" if readme.endswith(".zh.md") else "docs/"
    linked = set(re.findall(re.escape(folder) + r"([a-z0-9-]+\.md)", text))
    pages = {p.name for p in (ZH if folder == "docs/zh/" else DOCS).glob("*.md")}
    assert pages <= linked, f"{readme} does not link {sorted(pages - linked)}"


@pytest.mark.parametrize("folder", [ROOT, DOCS, ZH], ids=["readmes", "en", "zh"])
def test_no_stale_test_counts_in_the_pages(folder: Path) -> None:
    # "about 920 tests … three workers" went stale twice: the suite's size is what pytest prints, not prose.
    for page in folder.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"\b\d[\d,]* tests\b|\d[\d,]* 个测试", text), f"{page.name} states a test count"


@pytest.mark.parametrize("folder", [DOCS, ZH], ids=["en", "zh"])
def test_security_page_names_only_tests_that_exist(folder: Path) -> None:
    # docs/security.md proves each boundary by a test's name: a renamed or deleted test must not leave a line
    # that claims a proof nobody runs any more (issue 34, §4).
    text = (folder / "security.md").read_text(encoding="utf-8")
    named = re.findall(r"`(test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`", text)
    assert len(named) > 20  # the scan itself works
    missing = []
    for file, test in named:
        path = ROOT / "tests" / file
        if not path.is_file() or not re.search(rf"^(async )?def {test}\(", path.read_text(encoding="utf-8"), re.M):
            missing.append(f"{file}::{test}")
    assert not missing, f"{folder / 'security.md'} names tests that do not exist: {missing}"


# docs/agy-coverage.md's short names for the table tests, and the file each one's rows are named in
_COVERAGE_TABLES = {"R6": "test_agy_reality.py", "R7": "test_agy_1_3.py", "R8": "test_agy_1_3_3.py",
                    "RA": "test_agy_audit.py", "RF": "test_reliability.py"}


@pytest.mark.parametrize("folder", [DOCS, ZH], ids=["en", "zh"])
def test_agy_coverage_page_names_only_tests_and_rows_that_exist(folder: Path) -> None:
    # The page says where the tests meet each behaviour of real agy: a renamed test or a dropped row must not leave
    # a behaviour that reads as covered.
    text = (folder / "agy-coverage.md").read_text(encoding="utf-8")
    named = re.findall(r"`(test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`", text)
    rows = re.findall(r"\b(R6|R7|R8|RA|RF)`\[([a-z0-9_]+)\]`", text)
    assert len(named) > 30 and len(rows) > 40  # the scan itself works
    missing = []
    for file, test in named:
        path = ROOT / "tests" / file
        if not path.is_file() or not re.search(rf"^(async )?def {test}\(", path.read_text(encoding="utf-8"), re.M):
            missing.append(f"{file}::{test}")
    for table, row in rows:
        if f'"{row}"' not in (ROOT / "tests" / _COVERAGE_TABLES[table]).read_text(encoding="utf-8") and \
                f'"{row}"' not in (ROOT / "tests" / "fake_agy_harness.py").read_text(encoding="utf-8"):
            missing.append(f"{table}[{row}]")
    assert not missing, f"{folder / 'agy-coverage.md'} names tests or rows that do not exist: {missing}"


def test_no_tracked_text_file_carries_merge_conflict_markers():
    # Two merges this session committed `<<<<<<<`/`>>>>>>>` lines into docs/layout.md and nothing failed.
    import subprocess

    root = Path(__file__).resolve().parent.parent
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    marked = []
    for name in filter(None, files):
        path = root / name.decode("utf-8", "surrogateescape")
        if path.suffix not in {".py", ".md", ".toml", ".json", ".yml", ".yaml", ".txt", ".cfg"} or not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        if any(line.startswith(("<<<<<<< ", ">>>>>>> ")) for line in lines):
            marked.append(str(name, "utf-8"))
    assert marked == [], f"merge conflict markers committed in: {marked}"
