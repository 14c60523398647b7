"""Real git repositories in temp dirs, for every test and benchmark: the suite's one `make_repo`.

Plain module (no pytest), so conftest, the review corpus and the benchmark scripts share it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["git", "git_env", "make_repo", "write", "DEFAULT_FILES", "git_subcommand"]

DEFAULT_FILES = {"README.md": "# project\n", "src/app.py": "def main():\n    return 1\n"}

# What `git config` would write, without more git processes per repo (~200 repos a suite run). No
# maintenance: otherwise each commit starts a `git maintenance run --auto` process that finds nothing to do.
_CONFIG = "[user]\n\temail = dev@example.com\n\tname = Dev\n[commit]\n\tgpgsign = false\n" \
          "[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n"


def git_env() -> dict[str, str]:
    """A test git that ignores this machine's config (no global hooks, signing or templates of the user) and
    commits with a fixed identity, in clones too (a submodule's checkout has no config of ours)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_AUTHOR_NAME="Dev",
               GIT_AUTHOR_EMAIL="dev@example.com", GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com")
    return env


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, env=git_env(), capture_output=True, check=False)
    if proc.returncode:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "replace")


def git_subcommand(argv: list[str]) -> str | None:
    """The subcommand of a git argv (past git's own options and the values of -c and -C); None for another program
    (the counts of tests/test_git_calls_per_run.py and bench/bench_run_cost.py)."""
    if os.path.basename(argv[0]) != "git":
        return None
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
        elif arg in ("-c", "-C"):
            skip = True
        elif not arg.startswith("-"):
            return arg
    return "?"


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# Each repository (the default one, most tests' `repo`, and every other set of files and message) is made once per
# process by git and copied after: three git processes fewer a test (~11 ms of CPU each time; ~800 default repos and
# ~400 others a fast-tier run, a third of those the same files again: parametrized tests). Same commit, same bytes;
# the copy's index holds the template's stat data, which git treats as it treats any checkout whose files were
# touched. Small sets only: a big one (thousands of files, a test of its own) is made where it is asked for.
_TEMPLATE_FILES_MAX = 200
_TEMPLATES: dict[tuple, Path] = {}
_TEMPLATE_HOME: list[Path] = []


def _template(files: dict[str, str | bytes], message: str) -> Path:
    key = (tuple(files.items()), message)
    if key not in _TEMPLATES:
        if not _TEMPLATE_HOME:
            _TEMPLATE_HOME.append(Path(tempfile.mkdtemp(prefix="gravity-relay-test-repos-")))
            atexit.register(shutil.rmtree, _TEMPLATE_HOME[0], True)
        made = _make(_TEMPLATE_HOME[0] / str(len(_TEMPLATES)), files, message)
        # git init's samples (13 hooks that never run, and a description): copied into every repository made from
        # the template they were half of its 29 files, ~1 ms of CPU a copy (~1,200 a run). The hooks folder stays.
        for sample in [*(made / ".git" / "hooks").glob("*.sample"), made / ".git" / "description"]:
            sample.unlink(missing_ok=True)
        _TEMPLATES[key] = made
    return _TEMPLATES[key]


def make_repo(path: Path, files: dict[str, str | bytes] | None = None, *, message: str = "initial") -> Path:
    """`git init -b main` in ``path`` with a local identity, ``files`` committed (default: a README and
    src/app.py; ``{}``: no commit, an unborn branch)."""
    files = DEFAULT_FILES if files is None else files
    if len(files) <= _TEMPLATE_FILES_MAX and not (path.exists() and any(path.iterdir())):
        shutil.copytree(_template(files, message), path, symlinks=True, dirs_exist_ok=True)
        return path
    return _make(path, files, message)


def _make(path: Path, files: dict[str, str | bytes], message: str) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    with (path / ".git" / "config").open("a", encoding="utf-8") as config:
        config.write(_CONFIG)
    if len(files) > 200:
        # The same commit, by one `git fast-import` (one pack, not a loose object a file) and one checkout that
        # writes the files: a third of the time of `add -A` for thousands of files.
        stream = bytearray()
        for mark, content in enumerate(files.values(), 1):
            data = content if isinstance(content, bytes) else content.encode()
            stream += b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data)
        text = message.encode()
        stream += b"commit refs/heads/main\ncommitter Dev <dev@example.com> 0 +0000\ndata %d\n%s\n" % (len(text), text)
        stream += b"".join(b"M 100644 :%d %s\n" % (mark, name.encode()) for mark, name in enumerate(files, 1))
        subprocess.run(["git", "fast-import", "--quiet"], cwd=path, env=git_env(), input=bytes(stream), check=True,
                       capture_output=True)
        git(path, "checkout", "-q", "-f", "main")
        return path
    for name, content in files.items():
        write(path, name, content)
    if files:
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", message)
    return path
