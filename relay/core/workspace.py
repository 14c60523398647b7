"""The one check of a workspace: what the relay accepts as the folder a worker edits, whoever names it.

A call names one (``relay.call.policy``), a profile names one (doctor), and a run record names the one its run
used: ``runs revert`` and ``runs apply`` write there later, and a record is input (whoever writes the data dir
writes it, issue 34), so they check it here again, against today's settings, before writing a byte.
"""

from __future__ import annotations

import os
from pathlib import Path

from relay.core.contracts import Status
from relay.core.errors import InvalidWorkspace, RelayError
from relay.core.places import is_absolute, on_windows, root_problem
from relay.core.settings import Settings

__all__ = ["validate_workspace", "recorded_workspace"]


def _is_root(path: Path) -> bool:
    return path.parent == path


def validate_workspace(raw: str | None, settings: Settings, *, within: str | None = None) -> str:
    """Return the workspace's real path, or refuse with INVALID_WORKSPACE and the fix."""
    if raw is not None and raw and not raw.strip():
        raise InvalidWorkspace(
            f"workspace {raw!r} is blank",
            "Pass the absolute path of the project folder, or leave `workspace` out to use the profile's.",
        )
    if not raw or not raw.strip():
        raise InvalidWorkspace(
            "no workspace: the call names none and its profile has none",
            "Pass `workspace` as an absolute path, or set `workspace` in a server profile "
            "(GRAVITY_RELAY_DEFAULT_PROFILE makes it the default).",
        )
    raw = os.path.expanduser(raw.strip())
    if not is_absolute(raw):
        raise InvalidWorkspace(
            f"workspace {raw!r} is not an absolute path",
            "Pass the full path of the project folder, e.g. "
            + (r"E:\projects\app." if on_windows() else "/home/me/project."),
        )
    path = Path(raw)
    if not path.is_dir():
        raise InvalidWorkspace(
            f"workspace {raw} does not exist or is not a directory",
            "Pass an existing project folder.",
        )
    real = path.resolve(strict=True)
    if _is_root(real):
        raise InvalidWorkspace(
            f"workspace {raw} is a filesystem root",
            "Point the worker at a project folder, never at / or a drive root.",
        )
    _refuse_relay_internals(real, raw, settings)
    if settings.allowed_roots:
        relative = [r for r in settings.allowed_roots if not is_absolute(r)]
        if relative:
            # Never resolved against the relay's cwd: that would allow whatever folder it started in.
            raise InvalidWorkspace(
                f"GRAVITY_RELAY_ALLOWED_ROOTS has a relative entry ({', '.join(map(repr, relative))}); no workspace "
                "is accepted until it is fixed",
                "Use absolute paths in GRAVITY_RELAY_ALLOWED_ROOTS (see `gravity-relay doctor`).",
            )
        drives = [r for r in settings.allowed_roots if root_problem(r) is not None]
        if drives:
            # `C:\` or `/` as a root allows every folder on the drive: the list would bound nothing.
            raise InvalidWorkspace(
                f"GRAVITY_RELAY_ALLOWED_ROOTS has a drive root ({', '.join(map(repr, drives))}), which would allow "
                "every folder on it; no workspace is accepted until it is fixed",
                "Name the project folders in GRAVITY_RELAY_ALLOWED_ROOTS instead (see `gravity-relay doctor`).",
            )
        roots = [Path(os.path.expanduser(r)).resolve() for r in settings.allowed_roots]
        if not any(_within(real, root) for root in roots):
            listed = "; ".join(str(r) for r in roots)
            raise InvalidWorkspace(
                f"workspace {real} is outside the allowed roots ({listed})",
                "Use a folder under GRAVITY_RELAY_ALLOWED_ROOTS, or add its root there in the relay's configuration.",
            )
    if within:
        if not is_absolute(within):
            raise RelayError(Status.INVALID_WORKSPACE, f"the profile's workspace {within!r} is not an absolute path",
                             "Give the profile's workspace as a full path.")
        bound = Path(os.path.expanduser(within.strip())).resolve()
        if not _within(real, bound):
            raise InvalidWorkspace(
                f"workspace {real} is outside its profile's workspace {bound}",
                "A call may narrow its profile's workspace to a sub-folder, never leave it; "
                "use another profile for another project.",
            )
    return str(real)


def _within(real: Path, root: Path) -> bool:
    """``real`` is ``root`` or under it. Spelled alike, or the same folder on disk: on a case-insensitive filesystem
    (APFS, NTFS) /Users/me/projects is /Users/me/Projects, and resolve() keeps the spelling it was given (macOS).
    ``real`` is resolved, so its parents are real folders, never links; a folder is the same by its inode."""
    if real == root or real.is_relative_to(root):
        return True
    try:
        wanted = os.stat(root)
    except OSError:
        return False
    for folder in (real, *real.parents):
        try:
            if os.path.samestat(os.stat(folder), wanted):
                return True
        except OSError:
            continue
    return False


def _refuse_relay_internals(real: Path, raw: str, settings: Settings) -> None:
    """The relay's own data dir (or a folder holding it), a git directory and a bare repository are never workspaces."""
    data = Path(os.path.expanduser(str(settings.data_dir))).resolve()
    if real == data or real.is_relative_to(data):
        raise InvalidWorkspace(
            f"workspace {raw} is the relay's data dir ({data}), where its run records live",
            "Point the worker at a project folder; the data dir is the relay's own (GRAVITY_RELAY_DATA_DIR).",
        )
    if data.is_relative_to(real) or _within(data, real):
        # The data dir is owner-only so that only the relay reads its records (credentials unmasked), its confirm
        # key and HTTP token, and writes them: a worker in a folder holding it could do both, in safe mode too.
        raise InvalidWorkspace(
            f"workspace {raw} holds the relay's data dir ({data}): a worker there could read and rewrite the run "
            "records, the confirm key and the HTTP token",
            "Point the worker at the project folder itself, or move the data dir out of it (GRAVITY_RELAY_DATA_DIR "
            "in the relay's environment).",
        )
    if ".git" in real.parts:
        project = Path(*real.parts[: real.parts.index(".git")])
        raise InvalidWorkspace(
            f"workspace {raw} is inside a git directory (.git)",
            f"Pass the project folder itself ({project}), not its .git.",
        )
    if (real / "HEAD").is_file() and (real / "objects").is_dir() and (real / "refs").is_dir():
        raise InvalidWorkspace(
            f"workspace {raw} is a bare git repository (no working tree to edit)",
            "Clone it (`git clone <bare> <folder>`) or add a worktree, and pass that folder.",
        )


def recorded_workspace(run_id: str, workspace: str, settings: Settings) -> str:
    """The workspace a run record names, checked as a call's would be before the relay writes there (revert,
    apply); refused naming the run, with nothing changed."""
    try:
        return validate_workspace(workspace, settings)
    except RelayError as exc:
        raise InvalidWorkspace(f"run {run_id}'s record names a workspace the relay does not accept: {exc.message}",
                               "Nothing was changed. A record is not edited by hand; if the settings changed since "
                               "the run (GRAVITY_RELAY_ALLOWED_ROOTS), run this where they allow that folder.") from None
