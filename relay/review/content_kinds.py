"""A file's language from its content where its name says none: a script's first line (``#!``).

A repository can name a file anything: neofetch is one extension-less bash script, ``configure.in``,
``install.tmpl`` or ``bin/deploy`` are code whatever their names say. ``relay.review.file_kinds`` decides a
file's kind from its path; for a file whose path names no language (no extension, or a template's one) whose
first line is a shebang naming an interpreter, review reads it under a *reading path*, the path with that
language's extension (``neofetch`` is read as ``neofetch.sh``): every line reader and the ranking then treat it
as that language's source. Only the kind the rules read changes; the packet and the view keep the real path.

Who could walk around it, and what they gain: the repository under work (or the worker) writes the file's head.
A shebang only ever moves a file from "data" (read for a few risky shapes) to code (read line by line): a head can
make the rules read more, never less, since a path that already names a language or a kind (source, test, docs,
CI, manifest, build…) keeps it. Nothing is run: the head is read from the diff (a file added or deleted shows its
first line) or from the workspace, at most ``_HEAD_BYTES``, a regular file only, never through a symlink.

The mapping holds for one review (``reading``), a context variable: concurrent reviews never see each other's.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from relay.core.contracts import FileChange
from relay.core.files import read_regular

__all__ = ["head_tells", "reading", "reading_path", "reading_paths", "shebang_ext"]

# Interpreters by the name a shebang gives (``#!/usr/bin/env -S bash -e``, ``#!/bin/sh``), and the extension
# the readers know them by.
_INTERPRETERS = {
    "sh": "sh", "bash": "sh", "dash": "sh", "ash": "sh", "ksh": "sh", "mksh": "sh", "zsh": "sh", "busybox": "sh",
    "python": "py", "pypy": "py", "node": "js", "nodejs": "js", "deno": "ts", "bun": "js", "ts-node": "ts", "tsx": "ts",
    "ruby": "rb", "perl": "pl", "php": "php", "lua": "lua", "luajit": "lua", "rscript": "r", "julia": "jl",
    "elixir": "exs", "escript": "erl", "pwsh": "ps1", "powershell": "ps1", "groovy": "groovy", "kotlin": "kts",
    "scala": "scala", "swift": "swift", "dart": "dart",
}
_SHEBANG_RE = re.compile(r"^#!\s*(?P<prog>/\S+)(?P<rest>[^\n]*)")
# The versions a name carries: python3.11, perl5, node18, ruby2.7.
_VERSION_RE = re.compile(r"[\d.]+$")
# Names a template or a build input gives a script (configure.in, install.sh.tmpl is already .sh by its stem).
_TEMPLATE_EXTS = frozenset("in tmpl tpl template j2 jinja jinja2 mako gotmpl erb tt dist orig bak example sample".split())
# A template engine's own extensions (Handlebars, Mustache, EJS, Eta, Nunjucks, Liquid): most hold a page, some a
# generator's source (round 121, held-out 509's openapi-typescript-codegen: ``sendRequest.hbs`` is the TypeScript every
# generated client runs, read as data, its ``credentials = 'include'`` made unconditional unread). Such a file whose first
# line is a JavaScript or TypeScript declaration is read as TypeScript.
_ENGINE_EXTS = frozenset("hbs handlebars mustache ejs eta njk liquid".split())
_SCRIPT_HEAD_RE = re.compile(r"^\s*(?:export\s+(?:default\s+)?(?:async\s+)?(?:const|let|var|function|class|type|interface|enum|abstract)\b|"
                             r"import\s+(?:type\s+)?[\w{*]|(?:const|let)\s+\w+\s*(?::[^=]+)?=|(?:async\s+)?function\*?\s+\w+\s*[<(]|"
                             r"(?:type|interface)\s+\w+(?:<[^>]*>)?\s*[={])")
_HEAD_BYTES = 256
# Files a shell sources by their name alone, with no #! line: direnv's .envrc (run as you enter the folder), the rc
# and profile files a dotfiles repository keeps.
_SHELL_SOURCED = frozenset({".envrc", ".bashrc", ".bash_profile", ".bash_aliases", ".profile", ".zshrc", ".zshenv", ".zprofile", ".kshrc"})

_READING: ContextVar[Mapping[str, str]] = ContextVar("relay_reading_paths", default={})


def shebang_ext(first_line: str) -> str | None:
    """The extension of the language a script's first line names (``#!/usr/bin/env bash`` → ``sh``), else None."""
    m = _SHEBANG_RE.match(first_line.lstrip("\ufeff"))
    if m is None:
        return None
    name = m.group("prog").rsplit("/", 1)[-1].lower()
    if name == "env":  # #!/usr/bin/env [-S] [VAR=x] prog args
        words = [w for w in m.group("rest").split() if not w.startswith("-") and "=" not in w]
        if not words:
            return None
        name = words[0].rsplit("/", 1)[-1].lower()
    return _INTERPRETERS.get(name) or _INTERPRETERS.get(_VERSION_RE.sub("", name))


def head_tells(path: str, code_exts: frozenset[str]) -> bool:
    """Whether ``path``'s first line may say its language: its name says none (no extension, a template's, an engine's)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if "." not in name.lstrip("."):
        return True
    stem, ext = name.rsplit(".", 1)
    ext = ext.lower()
    if ext in code_exts:
        return False
    # A template of a script: its stem may name the language already (install.sh.in is read as .sh).
    return ext in _TEMPLATE_EXTS or ext in _ENGINE_EXTS or not ext.isalpha()



def _stem_ext(path: str, code_exts: frozenset[str]) -> str | None:
    """The code extension a template's stem names (round 122b, held-out 564's authentication-zero: the generator's
    ``application_controller.rb.tt`` is the Ruby every generated app runs, read as data, its ``cookies.signed[…]`` made
    ``cookies[…]`` unread); None when the name is no template of code (``index.html.erb`` is a page's)."""
    parts = path.rsplit("/", 1)[-1].lower().split(".")
    if len(parts) < 3 or not parts[0] or (parts[-1] not in _TEMPLATE_EXTS and parts[-1] not in _ENGINE_EXTS):
        return None
    return parts[-2] if parts[-2] in code_exts else None


def _head_of(change: FileChange, workspace: Path | None) -> str:
    """The file's first line: from the diff when it shows line 1 (a file added or deleted), else the workspace's file."""
    if change.added_lines and (change.kind == "added" or (change.ranges and change.ranges[0][0] == 1)):
        return change.added_lines[0]  # the diff shows line 1
    if change.kind == "deleted":
        return change.removed_lines[0] if change.removed_lines else ""
    if workspace is None or change.symlink or change.submodule or change.binary:
        return ""
    try:  # a regular file only, never through a link (a FIFO or a device is never read: read_regular)
        head = read_regular(workspace / change.path, _HEAD_BYTES)
    except OSError:
        return ""
    return head.split(b"\n", 1)[0].decode("utf-8", "replace")


# The kinds a path gives that a head may turn to code: a config kind (CI, manifest, build, lockfile) keeps its own.
_CONTENT_MAY_TELL = frozenset({"data", "example", "test", "generated", "docs"})


def reading_paths(changes: Iterable[FileChange], workspace: Path | None, code_exts: frozenset[str],
                  path_kind: Callable[[str], str], heads: Mapping[str, str] | None = None) -> dict[str, str]:
    """path -> the path it is read under, for each changed file whose name names no language and whose head does
    (``heads``: the first lines already read, by path, as the bench reads them from git)."""
    out: dict[str, str] = {}
    for change in changes:
        if not head_tells(change.path, code_exts) or path_kind(change.path) not in _CONTENT_MAY_TELL:
            continue
        if change.path.rsplit("/", 1)[-1] in _SHELL_SOURCED:
            out[change.path] = f"{change.path}.sh"
            continue
        if (ext := _stem_ext(change.path, code_exts)) is not None:
            out[change.path] = f"{change.path}.{ext}"
            continue
        head = heads.get(change.path, "") if heads is not None else _head_of(change, workspace)
        ext = shebang_ext(head)
        if ext is None and change.path.rsplit(".", 1)[-1].lower() in _ENGINE_EXTS and _SCRIPT_HEAD_RE.match(head):
            ext = "ts"
        if ext is not None:
            out[change.path] = f"{change.path}.{ext}"
    return out


@contextlib.contextmanager
def reading(changes: Iterable[FileChange], workspace: Path | None, code_exts: frozenset[str],
            path_kind: Callable[[str], str], heads: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within the block, ``reading_path`` answers for ``changes`` (one review's files)."""
    token = _READING.set(reading_paths(changes, workspace, code_exts, path_kind, heads))
    try:
        yield
    finally:
        _READING.reset(token)


def reading_paths_now() -> Mapping[str, str]:
    """The reading paths of the change set being read (the same object throughout its ``reading`` block)."""
    return _READING.get()


def reading_path(path: str) -> str:
    """The path the rules read ``path`` under: itself, or its content's language made its extension."""
    return _READING.get().get(path, path)
