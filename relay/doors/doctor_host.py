"""What doctor adds for the host it runs on: a data dir other users may read (Windows), and a workspace git
refuses as another user's ("dubious ownership": a repository on an exFAT/FAT drive, or one another account made).

Both were silent before: on Windows the relay's owner-only modes (0600, O_NOFOLLOW) do nothing, so only a data dir
under the user's profile inherits an ACL that keeps other users out; and git's refusal made a repository read as
"not a repository", so its runs fell back to a file-tree snapshot without a word.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PureWindowsPath

from relay.core.places import on_windows, user_home
from relay.core.settings import Settings
from relay.doors.doctor_check import Check, ok, warn
from relay.observe.git import GitError, git_env, run_git

__all__ = ["check_data_dir_privacy", "check_git_ownership"]

# git's refusal: "fatal: detected dubious ownership in repository at …", its last line the safe.directory advice.
_DUBIOUS = ("dubious ownership", "safe.directory")


def check_data_dir_privacy(settings: Settings, environ: Mapping[str, str], platform: str | None = None) -> Check | None:
    """Windows only: a data dir outside the user's profile (``GRAVITY_RELAY_DATA_DIR=E:\\…``) is readable by whoever
    that drive's ACL lets in; the run records, transcripts and patches hold the code and the prompts."""
    if not on_windows(platform):
        return None
    home = user_home(environ, platform)
    folder = PureWindowsPath(str(settings.data_dir))
    if home and (folder == PureWindowsPath(home) or folder.is_relative_to(PureWindowsPath(home))):
        return ok("data dir access", f"{folder} is under your profile ({home}): its ACL keeps other users out")
    return warn("data dir access",
                f"{folder} is outside your profile ({home or 'unknown'}): on Windows the relay's owner-only file modes "
                "do nothing, so other users of this machine may read its run records, transcripts and patches",
                f'Keep GRAVITY_RELAY_DATA_DIR under %LOCALAPPDATA% (the default), or make the folder yours alone: '
                f'icacls "{folder}" /inheritance:r /grant:r "%USERNAME%:(OI)(CI)F"')


def check_git_ownership(workspaces: Mapping[str, str], environ: Mapping[str, str] | None = None) -> list[Check]:
    """Each profile's workspace that git refuses to read as another user's: the safe.directory line that fixes it."""
    checks = []
    for label, workspace in workspaces.items():
        try:
            run_git(Path(workspace), "rev-parse", ["--show-toplevel"], timeout=20, env=git_env(environ))
        except GitError as exc:
            if any(words in str(exc) for words in _DUBIOUS):
                checks.append(warn(
                    "git ownership",
                    f"{label}: git refuses {workspace} as another user's repository (\"dubious ownership\": a FAT/exFAT "
                    "drive, or a folder another account created), so its runs see no git history and fall back to "
                    "a file-tree snapshot",
                    f"If the repository is yours: git config --global --add safe.directory {Path(workspace).as_posix()}"))
    return checks
