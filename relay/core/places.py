"""Where things are, and what a path means, on each OS: Windows (drive letters, ``;`` lists,
``%LOCALAPPDATA%``), macOS (``~/Library``) and Linux.

Each rule takes the platform as an argument defaulting to this one, so tests check the Windows and
macOS rules on any machine with a Windows- or macOS-shaped environment (``PureWindowsPath``).
"""

from __future__ import annotations

import ntpath
import os
import posixpath
import sys
from collections.abc import Mapping
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

import platformdirs.macos
import platformdirs.unix
import platformdirs.windows

__all__ = ["on_windows", "pure", "user_home", "expand_user", "is_absolute", "is_drive_root", "split_roots", "root_problem",
           "agy_install_paths", "default_data_dir", "ROOTS_SEPARATORS", "folds_case"]

# GRAVITY_RELAY_ALLOWED_ROOTS: ';' everywhere (Windows' own list separator: `E:\projects;D:\workspace`);
# ',' too on POSIX. Never ':' — it is part of every Windows path (`E:`).
ROOTS_SEPARATORS = {"windows": ";", "posix": ";,"}


def on_windows(platform: str | None = None) -> bool:
    return (platform or sys.platform) == "win32"


def pure(text: str, platform: str | None = None) -> PurePath:
    """``text`` as a path of that platform (``E:\\projects`` is a drive path only on Windows)."""
    return PureWindowsPath(text) if on_windows(platform) else PurePosixPath(text)


def user_home(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """The user's home as that platform's programs see it: USERPROFILE on Windows (HOME only without it: Git
    Bash and MSYS set HOME to a home of their own, which Python, Node and the MCP clients do not read), HOME
    elsewhere; None when the environment names none."""
    env = os.environ if environ is None else environ
    home = (env.get("USERPROFILE") or env.get("HOME")) if on_windows(platform) else env.get("HOME")
    return home or None


def expand_user(text: str, platform: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``~`` expanded as that platform does: USERPROFILE on Windows, HOME elsewhere."""
    text = text.strip()
    if not (text == "~" or text.startswith(("~/", "~\\"))):
        return text  # ~user forms are left alone (and then not absolute)
    home = user_home(environ, platform)
    if not home:
        return os.path.expanduser(text) if not on_windows(platform) else text
    return str(pure(home, platform) / text[2:]) if len(text) > 1 else home


def is_absolute(text: str, platform: str | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """A full path there. On Windows that needs a drive and a root (``E:\\projects``) or a UNC share:
    ``\\projects`` (the current drive's) and ``E:projects`` (relative to E:'s current folder) are not."""
    return pure(expand_user(text, platform, environ), platform).is_absolute()


def is_drive_root(text: str, platform: str | None = None) -> bool:
    """``/``, ``C:\\``, ``\\\\server\\share\\``: a root that is every folder on its drive at once."""
    path = pure(text.strip(), platform)
    return path.is_absolute() and path.parent == path


def split_roots(raw: str, platform: str | None = None) -> list[str]:
    items = [raw or ""]
    for sep in ROOTS_SEPARATORS["windows" if on_windows(platform) else "posix"]:
        items = [part for item in items for part in item.split(sep)]
    return [item.strip() for item in items if item.strip()]


def root_problem(root: str, platform: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """Why an allowed-roots entry cannot be used; None when it can."""
    example = r"E:\projects;D:\workspace" if on_windows(platform) else "/home/me/src;/srv/work"
    if not is_absolute(root, platform, environ):
        return f"is not an absolute path: use full paths separated by ';', e.g. {example}"
    if is_drive_root(_resolved(expand_user(root, platform, environ), platform), platform):
        return f"is a drive root, which would allow every folder on it: name the project folders, e.g. {example}"
    return None


def _resolved(text: str, platform: str | None) -> str:
    """Where an absolute path leads: ``..`` taken away as that platform does, then, for this machine's own
    paths, symlinks followed. ``/usr/..`` and a link to ``/`` are ``/`` (issue 34): judged as written, they
    passed as roots and then allowed every folder once the workspace check resolved them."""
    windows = on_windows(platform)
    text = (ntpath if windows else posixpath).normpath(text.strip())
    if windows == (os.name == "nt"):  # a path of this OS: follow its links (a Windows-shaped test on POSIX cannot)
        text = os.path.realpath(text)
    return text


def agy_install_paths(environ: Mapping[str, str], platform: str | None = None) -> list[str]:
    """Where agy's installer puts it, after PATH: ``%LOCALAPPDATA%\\agy\\bin\\agy.exe`` on Windows;
    ``~/.local/bin/agy`` (and Homebrew's bin on macOS) elsewhere."""
    if on_windows(platform):
        local = environ.get("LOCALAPPDATA") or (
            str(PureWindowsPath(environ["USERPROFILE"]) / "AppData" / "Local") if environ.get("USERPROFILE") else None)
        return [str(PureWindowsPath(local) / "agy" / "bin" / "agy.exe")] if local else []
    home = environ.get("HOME") or str(Path.home())
    out = [str(PurePosixPath(home) / ".local" / "bin" / "agy")]
    if (platform or sys.platform) == "darwin":
        out += ["/opt/homebrew/bin/agy", "/usr/local/bin/agy"]
    else:
        out.append("/opt/homebrew/bin/agy")  # Linuxbrew users sometimes link it there too
    return out


def default_data_dir(platform: str | None = None) -> Path:
    """The relay's data dir (runs, queue, keys), per user, where the OS keeps app data (platformdirs):
    Linux ``~/.local/share/gravity-relay`` (XDG_DATA_HOME), macOS ``~/Library/Application Support/gravity-relay``,
    Windows ``%LOCALAPPDATA%\\gravity-relay`` (not roaming: run records are this machine's).

    Windows has no POSIX modes: there the folder is private because it lives in the user's profile,
    whose ACL grants only that user, SYSTEM and the administrators."""
    kind = platform or sys.platform
    cls = (platformdirs.windows.Windows if on_windows(kind)
           else platformdirs.macos.MacOS if kind == "darwin" else platformdirs.unix.Unix)
    return Path(cls(appname="gravity-relay", appauthor=False).user_data_dir)


def folds_case(folder: str | os.PathLike | None) -> bool:
    """Whether the filesystem holding ``folder`` compares names without case (NTFS, APFS and HFS+ by default; not
    ext4): the deepest part of its path that has letters, looked up with their case swapped, is the same folder.
    A path without letters, or one that cannot be read: the platform's usual answer (Windows and macOS fold)."""
    if folder:
        path = Path(folder)
        for candidate in (path, *path.parents):
            name = candidate.name
            if name and name.swapcase() != name:
                try:
                    return os.path.samefile(candidate, candidate.with_name(name.swapcase()))
                except OSError:
                    return not os.path.exists(candidate) and sys.platform in ("win32", "darwin")
    return sys.platform in ("win32", "darwin")
