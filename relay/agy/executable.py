"""What runs as agy: a binary as it is, a Python script with the relay's own interpreter, never a batch file.

A Python script (``AGY_BIN=…\\agy.py``): Windows runs no script by its first line and the relay writes no .exe shim,
so a wrapper (the demo's worker, the tests' fake, a user's own) is started as ``sys.executable SCRIPT ARGS``, on
every platform alike.

A batch file (``agy.cmd``, ``agy.bat``: npm and hand-made shims): CreateProcess hands it to cmd.exe, which reads the
command line again — a prompt is cut at its first newline and ``%VAR%``, ``&``, ``|``, ``^`` in it are cmd's
(the "BatBadBut" class of flaws). No prompt may ever reach one. The ``.exe`` the shim calls (or an ``agy.exe``
beside it) is run instead; when there is none, the relay refuses and says which file to point AGY_BIN at.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from relay.core.errors import SpawnError
from relay.core.files import own_folder, private_dir

__all__ = ["BATCH_SUFFIXES", "agy_command", "batch_target", "probe_folder", "runnable"]

BATCH_SUFFIXES = (".cmd", ".bat")
# A quoted or bare word ending in .exe in a shim's text: `"%~dp0\agy.exe" %*`, `"%dp0%\..\agy\bin\agy.exe"`.
_EXE_WORD = re.compile(r'"([^"\r\n]+?\.exe)"|([^\s"]+?\.exe)\b', re.IGNORECASE)


def _suffix(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def runnable(path: Path) -> bool:
    """Can this file be agy: an executable file, a Python script (run with this interpreter) or a batch shim
    (resolved to its .exe)."""
    return path.is_file() and (_suffix(str(path)) in (".py", *BATCH_SUFFIXES) or os.access(path, os.X_OK))


def agy_command(agy: str) -> list[str]:
    """The command's first words for this agy (the arguments follow)."""
    if _suffix(agy) == ".py":
        return [sys.executable, agy]
    if _suffix(agy) in BATCH_SUFFIXES:  # locate_agy resolves these; a path from elsewhere is refused here too
        return [batch_target(agy)]
    return [agy]


@contextmanager
def probe_folder(data_dir: Path | None = None) -> Iterator[str]:
    """An empty folder made for one agy probe (`agy --version`, `agy models`) to run in, removed after it.

    agy ≥ 1.3 loads a workspace's `.agents/` MCP servers and hooks with no trust gate (agy-protocol.md §8.4), and
    which folder a subcommand reads them from is not reported: its cwd is the likely one. The relay's own cwd is
    usually the project its client works on, and a workspace's agy configuration is checked only in the worker
    slot, after these probes: so neither is ever a probe's cwd (party: the repository under work). mkdtemp makes
    the folder the relay's alone (0700) and new, so nobody has put anything in it.

    It is made in the relay's data dir (``probes/``, owner-only) when the caller names it, not in the shared temp
    folder: there another local process (another user) may have planted ``/tmp/.agents/``, and whether agy looks
    for ``.agents/`` in the folders above its cwd is not reported (party: another local process). Without a data dir
    (a caller outside a relay), or when it cannot be written, the temp folder as before.
    """
    parent = None
    if data_dir is not None:
        try:
            parent = str(own_folder(private_dir(Path(data_dir)) / "probes"))
        except OSError:
            parent = None
    with tempfile.TemporaryDirectory(prefix="agy-probe-" if parent else "gravity-relay-agy-probe-", dir=parent,
                                     ignore_cleanup_errors=True) as folder:
        yield folder


def batch_target(batch: str) -> str:
    """The ``.exe`` a batch shim runs (its text names it, ``%~dp0``/``%dp0%`` being the shim's folder), or the
    ``agy.exe`` beside it; SPAWN_ERROR when neither exists."""
    folder = os.path.dirname(os.path.abspath(batch))
    try:
        with open(batch, "rb") as f:
            text = f.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        text = ""
    here = folder + os.sep
    for match in _EXE_WORD.finditer(text):
        word = (match[1] or match[2]).replace("%~dp0", here).replace("%dp0%", here)
        if "%" in word:
            continue  # another variable: not something the relay can resolve honestly
        candidate = Path(word if os.path.isabs(word) else os.path.join(folder, word))
        if candidate.is_file():
            return str(candidate.resolve())
    beside = Path(folder) / (Path(batch).stem + ".exe")
    if beside.is_file():
        return str(beside)
    raise SpawnError(
        f"agy at {batch} is a batch file and names no agy .exe: cmd.exe would read the prompt again (cut at its "
        f"first line; %VAR%, &, | and ^ in it interpreted), so the relay never runs one",
        r"Point AGY_BIN at agy.exe itself (the installer puts it at %LOCALAPPDATA%\agy\bin\agy.exe).",
    )
