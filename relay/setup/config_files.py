"""Reading and writing the clients' config files: what setup plans to write (``Plan``), and how it writes it.

Edits are structural and small: JSON files are decoded, the one entry set or removed and
written back in the file's own indentation; the Codex TOML's one table is edited by toml_edit.py.
A file is only ever replaced atomically, after a timestamped backup; a file that is a link, read-only,
not a regular file, too big, not UTF-8 or not plain JSON is refused with the reason.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import json
import os
import re
import shutil
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

from relay.core.files import write_atomic
from relay.setup.client_table import SERVER_NAME, ClientSpec
from relay.setup.toml_edit import SetupError, value_at

__all__ = [
    "Action", "Plan", "MAX_CONFIG_BYTES", "read_config", "load_json", "dump_json", "current_entry", "entry_label",
    "refused", "unwritable", "apply_plan",
]

Action = Literal["add", "update", "unchanged", "remove", "absent", "skip", "refuse"]


class Plan(Struct, kw_only=True):
    """What setup will do to one client's file (or did, once applied)."""

    client: str
    path: str
    action: Action
    message: str
    old_text: str | None = None  # None: the file does not exist
    new_text: str | None = None  # None: nothing to write
    backup: str | None = None
    warning: str = ""
    notes: list[str] = []  # what the entry does for headless use, said whenever it is written

    @property
    def writes(self) -> bool:
        return self.new_text is not None and self.new_text != self.old_text

    def diff(self) -> str:
        if not self.writes:
            return ""
        old = (self.old_text or "").splitlines(keepends=True)
        new = (self.new_text or "").splitlines(keepends=True)
        label = self.path
        lines = difflib.unified_diff(old, new, fromfile=f"{label} (now)" if self.old_text is not None else "/dev/null",
                                     tofile=f"{label} (after setup)")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _json_indent(text: str) -> str | int:
    for line in text.splitlines()[1:]:
        match = re.match(r"^([ \t]+)\S", line)
        if match:
            return match[1] if "\t" in match[1] else len(match[1])
    return 2


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            # json.loads keeps the last one: a rewrite would silently drop the other (issue 22)
            raise SetupError(f"it has the key {key!r} twice in one object (a rewrite would keep only one); "
                             "fix it first")
        seen[key] = value
    return seen


def load_json(text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise SetupError(
            f"it is not plain JSON ({exc.msg} at line {exc.lineno}; comments are not supported); "
            "add the entry by hand"
        ) from None
    if not isinstance(doc, dict):
        raise SetupError("its top level is not a JSON object; add the entry by hand")
    servers = doc.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise SetupError("its mcpServers is not an object; fix it first")
    return doc


def dump_json(doc: Mapping[str, Any], like: str | None) -> str:
    indent = _json_indent(like) if like and like.strip() else 2
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    text += "\n" if like is None or like.endswith("\n") or not like.strip() else ""
    return text.replace("\n", "\r\n") if like and "\r\n" in like else text  # CRLF files stay CRLF


MAX_CONFIG_BYTES = 4 * 1024 * 1024  # far above any client's config; a bigger file is not edited


def read_config(path: Path) -> str | None:
    """The config's text, None when there is none; SetupError saying why it cannot be edited. A FIFO is never
    waited on, a huge file never read whole (issue 22: hostile config files)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise SetupError("it is a directory") from None
    except OSError as exc:
        raise SetupError(f"it cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SetupError("it is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise SetupError("it is not a regular file (a FIFO, a socket or a device)")
        if info.st_size > MAX_CONFIG_BYTES:
            raise SetupError(f"it is {info.st_size:,} bytes, larger than any client config setup edits "
                             f"({MAX_CONFIG_BYTES:,}); add the entry by hand")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8-sig") if data.startswith(b"\xef\xbb\xbf") else data.decode("utf-8")
    except UnicodeDecodeError:
        raise SetupError("it is not UTF-8 text") from None


def current_entry(spec: ClientSpec, text: str | None) -> Any:
    if text is None:
        return None
    if spec.format == "toml":
        try:
            return value_at(tomllib.loads(text), ("mcp_servers", SERVER_NAME))
        except tomllib.TOMLDecodeError as exc:
            raise SetupError(f"it is not valid TOML ({exc}); fix it first") from None
    return (load_json(text).get("mcpServers") or {}).get(SERVER_NAME)


def entry_label(spec: ClientSpec) -> str:
    return f"[mcp_servers.{SERVER_NAME}]" if spec.format == "toml" else f"mcpServers.{SERVER_NAME}"


def refused(plan: Plan, exc: SetupError) -> Plan:
    plan.action, plan.message = "refuse", f"cannot edit {plan.path}: {exc}"
    return plan


def _backup_name(path: Path) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
        n += 1
    return candidate


def unwritable(path: Path) -> str | None:
    """Why setup must not replace the file at ``path`` (None: it may). Checked before any write, and for a dry
    run, so the user hears what was not done and why (issue 22): a symbolic link (replacing it would cut the
    link a dotfile manager made), a file its owner made read-only."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be examined ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return (f"it is a symbolic link (to {os.readlink(path)}); setup does not replace links: add the entry "
                "to the file it points to by hand")
    if os.name != "nt" and stat.S_ISREG(info.st_mode) and not info.st_mode & stat.S_IWUSR:
        return (f"it is read-only (mode {stat.S_IMODE(info.st_mode):04o}); setup leaves it so: make it writable, "
                "or add the entry by hand")
    return None


def apply_plan(plan: Plan, *, private: bool = False) -> Plan:
    """Write a plan's new text: backup first, then an atomic replace keeping the file's mode (and its byte
    order mark). ``private``: the text holds a secret (the HTTP token): the file and its backup are made
    owner-only whatever their mode was.

    Refuses when the file changed since the plan was made (a client rewrote it meanwhile), and when
    ``unwritable`` says so.
    """
    if not plan.writes:
        return plan
    path = Path(plan.path)
    why = unwritable(path)
    if why:
        raise SetupError(why)
    if read_config(path) != plan.old_text:
        raise SetupError(f"{path} changed while setup was running; run setup again")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o600
    data = (plan.new_text or "").encode("utf-8")
    if plan.old_text is not None:
        with open(path, "rb") as fh:
            if fh.read(3) == b"\xef\xbb\xbf":
                data = b"\xef\xbb\xbf" + data  # the file's BOM stays: the client wrote it so
        backup = _backup_name(path)
        shutil.copy2(path, backup)
        plan.backup = str(backup)
        mode = path.stat().st_mode & 0o7777
        if private and mode & 0o077:
            os.chmod(backup, mode & 0o700)
            plan.warning = "; ".join(filter(None, [plan.warning, f"made owner-only (was {mode:04o}): it now holds "
                                                   "the relay's token"]))
    if private:
        mode &= 0o700
    write_atomic(path, data, mode)
    return plan
