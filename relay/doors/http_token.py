"""The HTTP relay's bearer token: made once, kept in the data dir (mode 0600), compared in constant time.

Any process on the machine can open a loopback port; the token is what tells a leader the
operator registered (it can read the file, or its client config holds the token) from anything
else. ``setup --http`` reads the same file to register clients.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

__all__ = ["TOKEN_FILE", "token_path", "load_or_create_token", "read_token", "token_matches", "mask"]

TOKEN_FILE = "http-token"


def token_path(data_dir: Path) -> Path:
    return data_dir / TOKEN_FILE


def read_token(data_dir: Path) -> str | None:
    """The token, or None when none was made yet (or the file is empty)."""
    try:
        text = token_path(data_dir).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return text or None


def load_or_create_token(data_dir: Path) -> str:
    """The existing token, else a new one written with O_EXCL at mode 0600 (two starts cannot race)."""
    existing = read_token(data_dir)
    path = token_path(data_dir)
    if existing:
        if os.name != "nt" and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)  # someone loosened it: the token is a password, keep it private
        return existing
    data_dir.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another relay made it between our read and our open (or it was empty)
        return read_token(data_dir) or _replace_empty(path, token)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    return token


def _replace_empty(path: Path, token: str) -> str:
    from relay.core.files import write_atomic

    write_atomic(path, (token + "\n").encode(), mode=0o600)
    return token


def token_matches(expected: str, authorization: bytes | None) -> bool:
    """Is ``authorization`` (the raw header) exactly ``Bearer <expected>``? Constant time in the token."""
    if not authorization:
        return False
    scheme, _, given = authorization.partition(b" ")
    if scheme.lower() != b"bearer":
        return False
    return hmac.compare_digest(given.strip(), expected.encode())


def mask(token: str) -> str:
    """What a dry run shows: enough to tell tokens apart, not enough to use one."""
    return token[:4] + "…" + f"({len(token)} chars)" if len(token) > 8 else "…"
