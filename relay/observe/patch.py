"""Reading a run's patch back: its header lines and per-file sections (git's own patch format).

Why it exists: the diff view (``relay.review.diff_view``) and ``runs revert`` (``relay.runs.patches``)
read the patch ``relay.observe.run_patch`` keeps; a section's names, hunks and binary sizes are
what they show and check. git writes the patch; nothing here writes one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Section", "split_patch", "quote_path", "unquote_path", "NOT_IN_PATCH", "CUT"]

# Header lines a revert refuses (the patch does not hold the whole run) and the view repeats.
NOT_IN_PATCH = b"# not in this patch: "
CUT = b"# cut: "
# The reason a folder where the run made a repository of its own (a `git init` in a new folder) is left out of the
# patch: `runs revert` removes such a folder whole (relay.runs.made_repos).
MADE_REPO = "a repository the run made in a new folder (its own .git), not diffed"


def quote_path(name: bytes) -> bytes:
    """A path as git writes it (``core.quotepath=off``): C-quoted only when it holds a quote, a
    backslash or a control character; bytes past ASCII stay as they are."""
    if not any(c < 0x20 or c in (0x22, 0x5C, 0x7F) for c in name):
        return name
    out = bytearray(b'"')
    escapes = {0x07: b"\\a", 0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n", 0x0B: b"\\v", 0x0C: b"\\f", 0x0D: b"\\r",
               0x22: b'\\"', 0x5C: b"\\\\"}
    for c in name:
        if c in escapes:
            out += escapes[c]
        elif c < 0x20 or c == 0x7F:
            out += b"\\%03o" % c
        else:
            out.append(c)
    out += b'"'
    return bytes(out)


def unquote_path(text: bytes) -> bytes:
    """The inverse of ``quote_path`` (and of git's own quoting, octal escapes included)."""
    if not (text.startswith(b'"') and text.endswith(b'"') and len(text) >= 2):
        return text
    body = text[1:-1]
    simple = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13,
              ord('"'): 0x22, ord("\\"): 0x5C}
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == 0x5C and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in simple:
                out.append(simple[nxt])
                i += 2
                continue
            if 0x30 <= nxt <= 0x37 and i + 3 < len(body) + 1:
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
        out.append(c)
        i += 1
    return bytes(out)


def _lines(data: bytes) -> list[bytes]:
    """Lines with their newline; a last line without one stays without (git's "\\ No newline")."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines



@dataclass(slots=True)
class Section:
    """One file's part of a patch: its header lines, its hunks (or binary payload), its path."""

    path: str
    old_path: str
    head: bytes
    hunks: list[bytes]
    binary: tuple[int, int] | None = None  # (bytes before, bytes after) of a binary file

    @property
    def data(self) -> bytes:
        return self.head + b"".join(self.hunks)


def _diff_names(line: bytes) -> tuple[bytes, bytes]:
    """The a/ and b/ names of a ``diff --git`` line whose two names are the same path."""
    rest = line[len(b"diff --git ") :].rstrip(b"\n")
    if rest.startswith(b'"'):
        end = 1
        while end < len(rest) and rest[end] != 0x22:
            end += 2 if rest[end] == 0x5C else 1
        a, b = rest[: end + 1], rest[end + 2 :]
        return unquote_path(a)[2:], unquote_path(b)[2:]
    half = (len(rest) - 1) // 2
    return rest[2:half], rest[half + 3 :]


def split_patch(data: bytes) -> tuple[list[bytes], list[Section]]:
    """(the header's lines, the file sections) of a patch written by ``build_run_patch``.

    Inside a section, a line starting ``@@ `` begins a hunk (content lines start with a space,
    ``+``, ``-`` or ``\\``), and ``diff --git`` at a line's start begins the next file (a
    base85 line holds no space).
    """
    header: list[bytes] = []
    sections: list[Section] = []
    cur_head: list[bytes] = []
    hunks: list[bytes] = []
    hunk: list[bytes] = []
    binary_sizes: list[int] = []
    in_binary = False

    def close() -> None:
        if not cur_head:
            return
        if hunk:
            hunks.append(b"".join(hunk))
        head = b"".join(cur_head)
        a, b = _diff_names(cur_head[0])
        old, new = a, b
        for line in cur_head[1:]:
            if line.startswith(b"rename from "):
                old = unquote_path(line[12:].rstrip(b"\n"))
            elif line.startswith(b"rename to "):
                new = unquote_path(line[10:].rstrip(b"\n"))
        binary = (binary_sizes[1], binary_sizes[0]) if len(binary_sizes) == 2 else None
        sections.append(Section(path=os.fsdecode(new), old_path=os.fsdecode(old), head=head, hunks=list(hunks), binary=binary))

    for line in _split_nl(data):
        if line.startswith(b"diff --git "):
            close()
            cur_head, hunks, hunk, binary_sizes, in_binary = [line], [], [], [], False
        elif not cur_head:
            header.append(line)
        elif in_binary:
            hunk.append(line)
            if line.startswith(b"literal ") or line.startswith(b"delta "):
                binary_sizes.append(int(line.split()[1]))
        elif line.startswith(b"@@ "):
            if hunk:
                hunks.append(b"".join(hunk))
            hunk = [line]
        elif line.startswith(b"GIT binary patch"):
            in_binary = True
            hunk = [line]
        elif hunk:
            hunk.append(line)
        else:
            cur_head.append(line)
    close()
    return header, sections


def _split_nl(data: bytes) -> list[bytes]:
    # bytes.splitlines also splits on \r, \x0b, \x0c...: content lines hold those, so split on \n only.
    return _lines(data)
