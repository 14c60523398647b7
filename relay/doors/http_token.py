"""The HTTP relay's bearer token: made once, kept in the data dir (mode 0600), compared in constant time.

Any process on the machine can open a loopback port; the token is what tells a leader the
operator registered (it can read the file, or its client config holds the token) from anything
else. ``setup --http`` reads the same file to register clients.
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from pathlib import Path

from relay.core.files import private_dir, read_secret

log = logging.getLogger("relay.doors.http_token")

__all__ = ["TOKEN_FILE", "TokenFileError", "token_path", "load_or_create_token", "read_token", "token_matches", "mask"]

TOKEN_FILE = "http-token"
_MAX_BYTES = 4096  # a token is 43 characters; a bigger file is not one


class TokenFileError(Exception):
    """The token file is something the relay will neither use nor replace (a folder, unreadable): ``str`` says
    what, and what to do."""


def token_path(data_dir: Path) -> Path:
    return data_dir / TOKEN_FILE


def _read(path: Path) -> tuple[str | None, str | None]:
    """(token, None) for a good token file; (None, None) when there is none (or it is empty); (None, why) when
    the file must be replaced. Like the confirm key (issue 22): a symbolic link is never followed (its target's
    text would become the token, and the chmod below would land on the target), a FIFO never waited on."""
    try:
        data, problem = read_secret(path, _MAX_BYTES, tighten=True)  # loosened by someone: the token is a password
    except IsADirectoryError:
        raise TokenFileError(f"the HTTP token {path} is a folder. Remove it; the relay makes a new token "
                             "(then `gravity-relay setup --http` gives clients the new token).") from None
    except OSError as exc:
        raise TokenFileError(f"cannot read the HTTP token {path}: {exc.strerror or exc}. Fix its permissions, "
                             "or remove it (the relay makes a new one; run `gravity-relay setup --http` again "
                             "to give clients the new token).") from None
    if data is None:
        return None, problem
    text = data.decode("utf-8", "replace").strip()
    if len(data) > _MAX_BYTES or any(ch.isspace() for ch in text):
        return None, "does not hold a token"
    return text or None, None


def read_token(data_dir: Path) -> str | None:
    """The token, or None when none was made yet, the file is empty, or it is not a file the relay trusts."""
    return _read(token_path(data_dir))[0]


def load_or_create_token(data_dir: Path) -> str:
    """The existing token, else a new one written with O_EXCL at mode 0600 (two starts cannot race); a suspect
    file (a symbolic link, a FIFO, another user's) is replaced. TokenFileError when it cannot be used at all."""
    path = token_path(data_dir)
    existing, problem = _read(path)
    if existing:
        return existing
    private_dir(data_dir)
    token = secrets.token_urlsafe(32)
    if problem is not None:
        log.warning("HTTP token %s %s: replaced with a new token (run `gravity-relay setup --http` again)",
                    path, problem)
        return _replace(path, token)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:  # another relay made it between our read and our open (or it was empty)
        again, problem = _read(path)
        return again or _replace(path, token)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    return token


def _replace(path: Path, token: str) -> str:
    from relay.core.files import write_atomic

    write_atomic(path, (token + "\n").encode(), mode=0o600)  # os.replace swaps the name: a link is not followed
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
