"""A workspace outside git, walked: every file outside dependency folders, virtualenvs, caches and build output."""

from __future__ import annotations

import errno
import os

__all__ = ["walk_tree", "files_under", "SKIP_DIRS", "TooManyFiles"]

# Folders a tree walk never enters: VCS data, dependencies, virtualenvs, caches, build output.
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".jj", "node_modules", "bower_components", "jspm_packages", ".venv", "venv",
        ".virtualenv", "virtualenv", "env.bak", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".hypothesis", ".tox", ".nox", ".eggs", "build", "dist", "target", "out", ".next", ".nuxt", ".svelte-kit",
        ".parcel-cache", ".turbo", ".cache", ".gradle", ".idea", ".vs", ".terraform", "coverage", "htmlcov",
        ".angular", ".expo", ".dart_tool", "Pods", "DerivedData", ".stack-work", "_build", ".bundle", ".direnv",
        ".pnpm-store", ".yarn",
    }
)


class TooManyFiles(Exception):
    """The workspace tree is larger than a snapshot may walk."""


def walk_tree(workspace: str, *, limit: int, unread: list[str] | None = None, keep: set[str] | frozenset = frozenset(),
              skipped: list[str] | None = None) -> list[str]:
    """Every file under ``workspace`` outside ``SKIP_DIRS`` and virtualenvs, by relative path; TooManyFiles past
    ``limit``. A folder it may not open is skipped and added to ``unread`` (``sub/``: relay.observe.unreadable); a
    folder of ``keep`` is walked whatever its name or content; one skipped by them is added to ``skipped``
    (``sub/``; never ``.git``: relay.observe.git_dir watches it)."""
    found: list[str] = []
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        abs_dir = os.path.join(workspace, rel_dir) if rel_dir else workspace
        try:
            with os.scandir(abs_dir) as it:
                items = list(it)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM) and rel_dir and unread is not None:
                unread.append(rel_dir + "/")
            elif exc.errno not in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                raise
            continue
        for item in items:
            rel = f"{rel_dir}/{item.name}" if rel_dir else item.name
            try:
                is_dir = item.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if rel not in keep and (item.name in SKIP_DIRS or os.path.exists(os.path.join(item.path, "pyvenv.cfg"))):
                    if skipped is not None and item.name != ".git":
                        skipped.append(rel + "/")
                    continue
                stack.append(rel)
                continue
            if len(found) >= limit:
                raise TooManyFiles(f"more than {limit:,} files outside skipped folders")
            found.append(rel)
    return found


def files_under(root: str, folders: list[str], *, limit: int) -> list[str]:
    """Every file and link under ``folders`` (``a/b/``, relative to ``root``), relative to ``root``: what a rule the
    worker wrote into a ``.gitignore`` hides (nothing skipped but ``.git`` and nested repositories, which git would not
    add); TooManyFiles past ``limit``."""
    found: list[str] = []
    stack = [f.rstrip("/") for f in folders]
    while stack:
        rel_dir = stack.pop()
        with os.scandir(os.path.join(root, rel_dir)) as it:
            items = list(it)
        if any(item.name == ".git" for item in items):
            continue  # a nested repository: git adds none of its files (relay.observe.made_git_dirs looks at it)
        for item in items:
            if item.name == ".git":
                continue
            if item.is_dir(follow_symlinks=False):
                stack.append(f"{rel_dir}/{item.name}")
            elif len(found) >= limit:
                raise TooManyFiles(f"the folders a new ignore rule hides hold more than {limit:,} files")
            else:
                found.append(f"{rel_dir}/{item.name}")
    return found
