"""What the run left, inside the folders no look enters (the ignored folders git folds into one entry, the dependency
and virtualenv folders the walk outside git skips), where code runs the next time the person works there.

git lists nothing of ``.venv/``, ``node_modules/`` or ``vendor/`` once they are ignored, so a worker that rewrote
``.venv/bin/activate``, ``node_modules/.bin/jest``, a package's ``package.json`` (a ``postinstall``) or dropped a
``.pth`` into site-packages planted a program the person runs next, and the packet said nothing. The places watched
(``runs_when``, listed beside the run and stat-ed one by one after it) are those that run without being imported by
name: a folder's programs (``bin``, ``.bin``, ``Scripts``), the activate scripts, a virtualenv's ``pyvenv.cfg``,
``.pth`` files and ``sitecustomize``/``usercustomize`` of a site-packages (Python reads ``.pth`` files in its site
folders only), a ``package.json`` that carries scripts; and each installed package's entry, what its first import
runs: a package's ``__init__.py`` and a module at the top of a site-packages, a package's ``index.js`` in
``node_modules``. A package's other modules (``package_module``: ``.py``, ``.pyc``, native extensions, ``.js``) are
looked at in the folders the run changed (a module added, renamed or replaced beside the others changes its folder),
at most MODULES_READ_MAX of them per look; one rewritten in place (no folder changes) is found through the listing
taken beside the run (relay.observe.ignored_walk), which lists the modules too, at most its MODULES_LISTED_MAX, each
stat-ed after the run; past that bound, or where there is no listing (a run shorter than the listing, recovery), such
a module goes unnamed, and past the bound the packet says so.

Such a file counts as written in the run when its change time falls in it (the worker can set a file's mtime back,
never its ctime). A symlink the run made there that points out of the repository (``node_modules/x -> ~/.ssh``) is
named with its target, never followed: its target is resolved as text and by the names on the way, nothing is opened.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat

from relay.core.records import FileChange

__all__ = ["runs_when", "package_module", "in_packages", "CODE_SUFFIXES", "planted", "link_out", "list_plants", "PLANTS_SHOWN", "MODULES_READ_MAX"]

PLANTS_SHOWN = 200  # findings kept per run; past it one more entry says how many were left
_BIN = frozenset({"bin", ".bin", "Scripts"})
_SITE = frozenset({"site-packages", "dist-packages"})
_MANIFEST_MAX = 1 << 20  # a package.json read to see whether it carries scripts, at most
_PACKAGES = frozenset({"site-packages", "dist-packages", "node_modules"})  # where installed packages live
CODE_SUFFIXES = (".py", ".pyc", ".so", ".pyd", ".js", ".cjs", ".mjs", ".node")  # what an import or a require loads
_ENTRY_JS = frozenset({"index.js", "index.cjs", "index.mjs"})
MODULES_READ_MAX = 20_000  # package modules stat-ed per look (in the folders the run changed); past it, said


def _inside(folder: str) -> list[str] | None:
    """The path of ``folder`` below the last folder of installed packages it is in (``[]``: that folder itself);
    None when it is in none."""
    parts = folder.replace("\\", "/").split("/")
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in _PACKAGES:
            return parts[i + 1:]
    return None


def runs_when(folder: str, name: str) -> str | None:
    """Whether a file ``name`` in ``folder`` is a place that runs, and when (None: not one of those watched)."""
    parent = os.path.basename(folder)
    if name == "activate" or name.startswith("activate.") or name == "Activate.ps1":
        return "an activate script (runs in your shell when you activate the virtualenv)"
    if parent in _BIN:
        return f"a program in {parent}/ (runs when called by name: you, a script, npm)"
    if name == "pyvenv.cfg":
        return "a virtualenv's config (names the Python it runs)"
    if parent in _SITE and (name.endswith(".pth") or name in ("sitecustomize.py", "usercustomize.py")):
        return f"{'a .pth file' if name.endswith('.pth') else name} in {parent} (runs at every start of that Python)"
    if name == "package.json":
        return "a package manifest with scripts (npm runs them at the next install)"
    if name == "__init__.py" and os.path.basename(os.path.dirname(folder)) in _SITE:
        return f"a package's __init__.py in {os.path.basename(os.path.dirname(folder))} (runs at its every import)"
    if parent in _SITE and name.endswith(".py"):
        return f"a module at the top of {parent} (runs at its every import)"
    if name in _ENTRY_JS and (below := _inside(folder)) is not None and parent != "node_modules" \
            and len(below) == (2 if below[:1] and below[0].startswith("@") else 1):
        return "a package's entry module in node_modules (runs at its every require)"
    return None


def in_packages(folder: str) -> bool:
    """Whether ``folder`` is inside a folder of installed packages (a site-packages, a node_modules)."""
    return _inside(folder) is not None


def package_module(folder: str, name: str) -> str | None:
    """Whether a file ``name`` in ``folder`` is code of an installed package (a site-packages' or a node_modules'),
    loaded when it is imported; None otherwise."""
    if not name.endswith(CODE_SUFFIXES) or _inside(folder) is None:
        return None
    return "a module of an installed package (runs when it is imported)"


def _has_scripts(path: str) -> bool:
    """Whether a package.json carries scripts; True when it cannot be read as one (a FIFO, a link: never opened)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return True
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        data = os.read(fd, _MANIFEST_MAX + 1)
    except OSError:
        return True
    finally:
        os.close(fd)
    with contextlib.suppress(ValueError):
        doc = json.loads(data)
        return not isinstance(doc, dict) or bool(doc.get("scripts"))
    return True


def planted(folder: str, name: str, since: int, *, modules: bool = False) -> str | None:
    """What a file of a folder that was there before the run says, when it is a place that runs (``runs_when``; with
    ``modules``, a package's module too) and its change time falls in the run (``since``: the run's start, wall
    clock ns); None otherwise."""
    said = runs_when(folder, name) or (package_module(folder, name) if modules else None)
    if said is None:
        return None
    path = os.path.join(folder, name)
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if st.st_ctime_ns < since or stat.S_ISDIR(st.st_mode):
        return None
    if name == "package.json" and os.path.basename(folder) not in _BIN and not _has_scripts(path):
        return None
    return f"written where code runs next, in a folder git ignores: {said}"


def link_out(folder: str, name: str, root: str, since: int) -> str | None:
    """A symlink the run made in ``folder`` (its own change time in the run) that points out of ``root`` (the
    repository): what to say, naming its target; None otherwise. Never followed: read with readlink, resolved by name."""
    path = os.path.join(folder, name)
    try:
        if os.lstat(path).st_ctime_ns < since:
            return None
        target = os.readlink(path)
    except OSError:
        return None
    ways = [(os.path.normpath(root), os.path.normpath(os.path.join(folder, target)))]
    with contextlib.suppress(OSError, RuntimeError):  # by the names on the way: a link there resolved, nothing opened
        ways.append((os.path.realpath(root), os.path.realpath(path)))
    if all(p == top or p.startswith(top.rstrip(os.sep) + os.sep) for top, p in ways):
        return None
    return f"a symlink to {target}, out of the repository, made in a folder git ignores (not followed)"


def list_plants(files: list[FileChange], plants: dict[str, str]) -> tuple[dict[str, str], str | None]:
    """``plants`` (shown path -> what) added to ``files`` (listed, not diffed; kind "modified" when not listed yet):
    the ones kept (past PLANTS_SHOWN, the first by name) and the note counting the rest (None: none left)."""
    listed = {c.path for c in files}
    kept = dict(sorted(plants.items())[:PLANTS_SHOWN])
    files += [FileChange(path=path) for path in kept if path not in listed]
    files.sort(key=lambda c: c.path)
    more = len(plants) - len(kept)
    return kept, (f"{more:,} more files written where code runs next in folders git ignores, not listed" if more else None)
