"""The Windows CI leg, imposed on this Linux machine: collection with the POSIX-only modules absent, every text
read and write naming its encoding, and the tests a Windows host runs passing under a non-UTF-8 default.

No Windows machine is reachable here; .github/workflows/test.yml runs the real legs (windows-latest,
macos-latest). What each test below imposes is one trait of those hosts, and it fails on the code before the fix.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SUBPROCESS_CALLS = {"run", "Popen", "check_output", "check_call", "call"}
# Calls of `x.open(...)` that are not a text file's open (their own signatures).
OTHER_OPENS = {"os", "gzip", "tarfile", "zipfile", "io", "tokenize", "webbrowser", "anyio"}


def _mode(node: ast.Call, position: int) -> ast.expr | None:
    return node.args[position] if len(node.args) > position else \
        next((k.value for k in node.keywords if k.arg == "mode"), None)


def text_io_without_encoding(source: str) -> list[str]:
    """Each open()/Path.open()/read_text()/write_text()/subprocess text=True that leaves the encoding to the
    platform's default (cp1252 on a Windows pipe or file, ASCII under LANG=C)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        keywords = {k.arg for k in node.keywords}
        if None in keywords or "encoding" in keywords:  # **kwargs: cannot tell; or named: fine
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name == "read_text" and not node.args or name == "write_text" and len(node.args) == 1:
            found.append(f"line {node.lineno}: {name}()")
        elif name == "open":
            if isinstance(func, ast.Name):
                mode, positional_encoding = _mode(node, 1), len(node.args) >= 4
            elif isinstance(func.value, ast.Name) and func.value.id in OTHER_OPENS:
                continue
            else:
                mode, positional_encoding = _mode(node, 0), len(node.args) >= 3
            if positional_encoding or isinstance(mode, ast.Constant) and "b" in str(mode.value) \
                    or mode is not None and not isinstance(mode, ast.Constant):
                continue
            found.append(f"line {node.lineno}: open()")
        elif name in SUBPROCESS_CALLS and any(
                k.arg in ("text", "universal_newlines") and not (isinstance(k.value, ast.Constant) and not k.value.value)
                for k in node.keywords):
            found.append(f"line {node.lineno}: {name}(text=True)")
    return found


def test_the_encoding_check_sees_each_form_of_a_default_encoding():
    source = ("open(p)\nopen(p, 'w')\nopen(p, 'rb')\nopen(p, encoding='utf-8')\np.read_text()\np.write_text(s)\n"
              "p.write_text(s, encoding='utf-8')\np.open('a')\np.open('wb')\nos.open(p, 1)\n"
              "subprocess.run(a, text=True)\nsubprocess.run(a, text=True, encoding='utf-8')\nsubprocess.run(a)\n")
    assert [f.split(": ")[1] for f in text_io_without_encoding(source)] == [
        "open()", "open()", "read_text()", "write_text()", "open()", "run(text=True)"]


def test_every_text_read_and_write_in_relay_tests_and_bench_names_its_encoding():
    # Broke: 441 sites in tests/ and bench/ and six in relay/isolate/pool.py (W9: a repository under
    # C:\Users\张三\ crashed the pool) read or wrote text in the platform's encoding; on windows-latest that is
    # cp1252, and test_layout, test_contracts, test_tools_snapshot... failed on their first non-Latin-1 character.
    wrong = {str(path.relative_to(ROOT)): sites for folder in ("relay", "tests", "bench")
             for path in sorted((ROOT / folder).rglob("*.py")) if (sites := text_io_without_encoding(
                 path.read_text(encoding="utf-8")))}
    assert wrong == {}, wrong


def _blocked_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GRAVITY_RELAY_TEST_RUN"))}
    env.update(PYTHONPATH=os.pathsep.join([str(TESTS / "windows_path"), str(ROOT)]),
               GRAVITY_RELAY_TEST_WINDOWS_PATH="1", GRAVITY_RELAY_TEST_BLOCK_POSIX_MODULES=str(ROOT) + os.sep, **extra)
    return env


def test_collection_ends_clean_with_the_posix_only_modules_and_group_calls_absent(tmp_path):
    # Broke: tests/test_fake_agy.py loads tests/fake_agy.py, whose `import fcntl` stopped the windows-latest leg at
    # collection, before its first test.
    got = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                          "--tier", "all", "--rootdir", str(ROOT), str(TESTS)], cwd=ROOT, env=_blocked_env(), capture_output=True,
                         text=True, encoding="utf-8", errors="replace", timeout=300, stdin=subprocess.DEVNULL)
    tail = got.stdout[-3000:] + got.stderr[-2000:]
    assert got.returncode == 0 and " error" not in got.stdout.rsplit("\n", 3)[-2], tail
    assert "tests collected" in got.stdout, tail
    # What the windows leg runs is there by name: a renamed process test would silently leave it.
    from conftest import WINDOWS_PROCESS_TESTS, WINDOWS_RUNNABLE

    ids = [line for line in got.stdout.splitlines() if "::" in line]
    assert all(any(f"::{name}[" in i and "windows-path" in i for i in ids) for name in WINDOWS_PROCESS_TESTS), ids
    assert all((TESTS / name).is_file() for name in WINDOWS_RUNNABLE)


def test_the_import_blocker_really_blocks_the_projects_imports(tmp_path):
    # The check above is only as good as its blocker: a project module that imports fcntl is refused.
    probe = TESTS / "windows_path" / "_blocked_probe_check.py"
    code = ("import sys; sys.path.insert(0, %r)\n"
            "try:\n    exec(compile('import fcntl', %r, 'exec'), {'__file__': %r})\n"
            "except ModuleNotFoundError as e:\n    print('blocked', e.name)\n") % (str(ROOT), str(probe), str(probe))
    got = subprocess.run([sys.executable, "-c", code], env=_blocked_env(), capture_output=True, text=True,
                         encoding="utf-8", timeout=60, stdin=subprocess.DEVNULL)
    assert got.stdout.strip() == "blocked fcntl", got


# The files a Windows host runs that read the repository's own texts (docs, snapshots, corpora): under an ASCII
# default encoding (LANG=C with UTF-8 mode and locale coercion off, stricter than cp1252) they pass only if every
# read names its encoding.
ASCII_RUN = ["tests/test_contracts.py", "tests/test_tools_snapshot.py", "tests/test_windows_places.py",
             "tests/test_settings.py"]


@pytest.mark.parametrize("mode", ["ascii"])
def test_the_windows_runnable_files_pass_under_a_non_utf8_default_encoding(mode):
    env = {k: v for k, v in _blocked_env().items() if not k.startswith(("LANG", "LC_", "PYTHONUTF8", "PYTHONIO"))}
    env.update(LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0")
    env.pop("GRAVITY_RELAY_TEST_BLOCK_POSIX_MODULES")
    got = subprocess.run([sys.executable, "-X", "utf8=0", "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                          "-x", *ASCII_RUN], cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8",
                         errors="replace", timeout=300, stdin=subprocess.DEVNULL)
    assert got.returncode == 0, got.stdout[-4000:] + got.stderr[-2000:]


def test_a_checkout_with_autocrlf_keeps_the_repositorys_bytes(tmp_path):
    # Windows runners set core.autocrlf=true: without .gitattributes every text file came out with CRLF, and the
    # captures, snapshots and docs the tests compare byte for byte differed from what they were recorded as.
    from conftest import git

    source = tmp_path / "source"
    source.mkdir()
    files = [".gitattributes", "tests/fixtures/agy-captures/help-1.1.12.real.txt", "tests/snapshots/tools_list.json",
             "docs/layout.md", "relay/agy/executable.py"]
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes((ROOT / name).read_bytes())
    git(source, "init", "-q")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "files")
    git(tmp_path, "-c", "core.autocrlf=true", "clone", "-q", str(source), str(tmp_path / "clone"))
    changed = [name for name in files if (tmp_path / "clone" / name).read_bytes() != (ROOT / name).read_bytes()]
    assert changed == []
