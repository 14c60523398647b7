"""A worktree run's change applied in the line endings of the user's tree (issue 37, W11).

The run's trees hold git's form of each file: LF under ``core.autocrlf=true`` (git for Windows' default), while
the user's tree holds CRLF. Compared byte for byte, every file the run edited looked edited by the user as well,
and apply refused each as a conflict. Now a file of the user's whose every line ends in CRLF, where git's copy has
no CR, is compared in git's form and the result written back with CRLF (``in_git_form``, ``as_yours``); a file the
run adds is written as the user's git would check it out (``checkout_form``: ``git cat-file --filters`` with the
user's settings and attributes, reading no config of the repository's: ``relay.observe.configless``), when
``core.autocrlf`` is on. A file with mixed endings is compared as it is (its CRs are the user's edits).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from relay.observe.git import GitError, run_git
from relay.observe.private_repo import read_settings
from relay.observe.restore import Before

__all__ = ["in_git_form", "as_yours", "autocrlf", "checkout_form"]


def _crlf_only(data: bytes) -> bool:
    """A text file every line of which ends in CRLF (and no other CR)."""
    pairs = data.count(b"\r\n")
    return pairs > 0 and data.count(b"\n") == pairs and data.count(b"\r") == pairs and b"\0" not in data


def in_git_form(yours: Before | None, base: Before | None) -> tuple[Before | None, bool]:
    """(``yours`` as git holds it, whether it was CRLF): LF where every line of it ends CRLF and git's copy of the
    file before the run (``base``) has no CR; else as it is."""
    if yours is None or yours.kind != "file" or base is None or base.kind != "file" or b"\r" in base.data:
        return yours, False
    if not _crlf_only(yours.data):
        return yours, False
    return yours._replace(data=yours.data.replace(b"\r\n", b"\n")), True


def as_yours(result: Before | None, crlf: bool) -> Before | None:
    """The result to write, with CRLF again when the user's file had it (a result with a CR of its own, or a NUL,
    is written as it is: it is not git's LF form)."""
    if not crlf or result is None or result.kind != "file" or b"\r" in result.data or b"\0" in result.data:
        return result
    return result._replace(data=result.data.replace(b"\n", b"\r\n"))


def autocrlf(toplevel: Path) -> bool:
    """Whether the user's git checks text files out with CRLF (``core.autocrlf=true``, any config of theirs)."""
    try:
        return any(k == "core.autocrlf" and v.lower() in ("true", "yes", "on", "1") for k, v in read_settings(toplevel))
    except GitError:
        return False


def checkout_form(toplevel: Path, path: str, sha: str, env: Mapping[str, str] | None,
                  overrides: list[tuple[str, str]]) -> bytes | None:
    """What the user's git checks out for blob ``sha`` at ``path`` (line endings, attributes), no filter program
    run (``env``, ``overrides``: ``relay.observe.configless``'s); None when git cannot say."""
    try:
        return run_git(toplevel, "cat-file", ["--filters", f"--path={path}"], values=[sha], env=env, config=overrides)
    except GitError:
        return None
