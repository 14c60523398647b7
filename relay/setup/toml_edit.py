"""The Codex config's TOML, edited with tomlkit: only the relay's table changes, every other byte stays.

``toml_set_table`` / ``toml_remove_table`` set or remove one table (``[mcp_servers.antigravity]``): a
table already there keeps its place, header comment, key order and formatting of the keys it keeps;
a new one goes at the end; a removed one hands its trailing comment lines to the table they introduce.
Before any text is returned it is re-parsed with ``tomllib`` and compared with what was intended
(only that table may differ); CRLF files stay CRLF. Anything else is a ``SetupError`` saying why.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

import tomlkit
import tomlkit.exceptions
from tomlkit.container import OutOfOrderTableProxy
from tomlkit.items import AoT, Comment, InlineTable, Table, Whitespace

__all__ = ["SetupError", "toml_set_table", "toml_remove_table", "toml_value", "value_at"]


class SetupError(Exception):
    """A registration that cannot be done safely; the message says what to do instead."""


def _newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def value_at(doc: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """The value at ``path`` in a parsed document, None where there is none."""
    node: Any = doc
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _with(doc: dict[str, Any], path: tuple[str, ...], value: Any | None) -> dict[str, Any]:
    """A copy of ``doc`` with ``path`` set to ``value`` (or removed, pruning emptied parents)."""
    out = copy.deepcopy(doc)
    parents = [out]
    node = out
    for part in path[:-1]:
        node = node.setdefault(part, {})
        parents.append(node)
    if value is None:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    for depth in range(len(path) - 1, 0, -1):
        if parents[depth] == {}:
            parents[depth - 1].pop(path[depth - 1], None)
    return out


def _prune_empty(doc: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    return _with(doc, path, value_at(doc, path))


def _toml_item(value: Any) -> Any:
    """A tomlkit value; tables become inline tables so the relay's entry stays one table."""
    if isinstance(value, Mapping):
        inline = tomlkit.inline_table()
        inline.update({k: _toml_item(v) for k, v in value.items()})
        return inline
    return tomlkit.item(value)


def _toml_table(entry: Mapping[str, Any]) -> Table:
    table = tomlkit.table()
    for key, value in entry.items():
        table.add(key, _toml_item(value))
    return table


def toml_value(value: Any) -> str:
    """One TOML value on one line, as tomlkit writes it (tables become inline tables)."""
    return _toml_item(value).as_string()


def _filler_start(body: list[tuple[Any, Any]]) -> int:
    """Index where a table's trailing blank and comment lines begin: those introduce whatever
    comes next ("# my other server" above ``[mcp_servers.other]``), so they are not the table's."""
    end = len(body)
    while end and body[end - 1][0] is None and isinstance(body[end - 1][1], (Whitespace, Comment)):
        end -= 1
    return end


def _rebuilt(current: Table, entry: Mapping[str, Any]) -> Table:
    """``entry`` as a table laid out like ``current``: its header comment, the keys it keeps in
    their place and formatting, comments between them, and its trailing comment lines."""
    table = tomlkit.table()
    table.trivia.indent = current.trivia.indent
    table.trivia.comment_ws = current.trivia.comment_ws
    table.trivia.comment = current.trivia.comment
    body = current.value.body
    cut = _filler_start(body)
    seen: set[str] = set()
    for key, item in body[:cut]:
        if key is None:
            table.add(item)
        elif key.key in entry and not isinstance(item, Table):
            value = entry[key.key]
            table.add(key, item if item.unwrap() == value else _toml_item(value))
            seen.add(key.key)
    for name, value in entry.items():
        if name not in seen:
            table.add(name, _toml_item(value))
    for _key, item in body[cut:]:
        table.add(item)
    return table


def _tables_in_order(container: Any) -> Iterable[Table]:
    """Every table of a document in the order they are written (super tables have no header)."""
    for _key, item in container.body:
        if isinstance(item, Table):
            if not item.is_super_table():
                yield item
            yield from _tables_in_order(item.value)


def _drop_table(doc: tomlkit.TOMLDocument, path: tuple[str, ...], current: Table) -> bool:
    """Remove the table; its trailing comment lines move to the header of the table they introduce.

    True when it was the document's last table."""
    body = current.value.body
    filler = [item for _key, item in body[_filler_start(body):]]
    while filler and isinstance(filler[0], Whitespace):
        filler.pop(0)  # the blank line that separated the table goes with it
    order = list(_tables_in_order(doc))
    mine = [t for t in order if t is current or any(t is s for s in _tables_in_order(current.value))]
    after = order[order.index(mine[-1]) + 1:] if mine else []
    if filler and after:
        after[0].trivia.indent = "".join(item.as_string() for item in filler) + after[0].trivia.indent
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    del parent[path[-1]]
    for depth in range(len(path) - 1, 0, -1):  # prune parents the removal emptied
        node: Any = doc
        for part in path[: depth - 1]:
            node = node[part]
        if not node[path[depth - 1]]:
            del node[path[depth - 1]]
    return not after


def _edit_toml(text: str, path: tuple[str, ...], entry: Mapping[str, Any] | None) -> str:
    """Set (or remove, when ``entry`` is None) the table at ``path``; every other line kept."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"it is not valid TOML ({exc}); fix it first") from None
    newline = _newline_of(text)
    try:
        doc = tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as exc:
        raise SetupError(f"it could not be read for editing ({exc}); edit it by hand") from None
    current = value_at(doc, path)
    if isinstance(current, AoT) or (current is not None and not isinstance(current, (Table, InlineTable,
                                                                                      OutOfOrderTableProxy))):
        raise SetupError(f"{'.'.join(path)} is written in a form setup does not edit (an array of tables or a "
                         "value); edit it by hand, or move it to its own table and run setup again")
    try:
        new = _tomlkit_edit(text, doc, path, entry, current, newline)
    except (ValueError, KeyError, TypeError, tomlkit.exceptions.TOMLKitError) as exc:
        raise SetupError(f"tomlkit could not make the edit ({type(exc).__name__}: {exc}); nothing was written, "
                         "edit it by hand") from None
    if newline == "\r\n":
        new = re.sub(r"(?<!\r)\n", "\r\n", new)  # tomlkit writes its own lines with \n

    # Proof before writing: the new text parses, and differs from the old one only at ``path``.
    try:
        after = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"editing it would produce invalid TOML ({exc}); nothing was written, edit it by hand") from None
    expected = _with(before, path, dict(entry) if entry is not None else None)
    if _prune_empty(after, path) != _prune_empty(expected, path):
        raise SetupError("the edit would change more than the relay's table; nothing was written, edit it by hand")
    return new


def _tomlkit_edit(text: str, doc: tomlkit.TOMLDocument, path: tuple[str, ...], entry: Mapping[str, Any] | None,
                  current: Any, newline: str) -> str:
    """The edited document's text (not yet proven)."""
    if entry is None:
        if current is None:
            return text
        last = False
        if isinstance(current, Table) and not current.is_super_table():
            last = _drop_table(doc, path, current)
        else:
            holder: Any = doc
            for part in path[:-1]:
                holder = holder[part]
            del holder[path[-1]]
        new = doc.as_string()
        if last and new.strip() and new.endswith(("\n\n", "\r\n\r\n")):
            new = new[: -len(newline)]  # the table was the file's last: take away the blank line before it
        return new
    if current is None:
        # A new table goes at the end, one blank line after the rest: every existing byte stays.
        fragment = tomlkit.document()
        node: Any = fragment
        for part in path[:-1]:
            node.add(part, tomlkit.table(is_super_table=True))
            node = node[part]
        node.add(path[-1], _toml_table(entry))
        new = text
        if new and not new.endswith(("\n", "\r")):
            new += newline
        if new.strip():
            new += newline
        new += fragment.as_string()
        try:
            tomllib.loads(new)
        except tomllib.TOMLDecodeError:
            # The parent is an inline table (or similar): let tomlkit place the table inside it.
            try:
                node = doc
                for part in path[:-1]:
                    if part not in node:
                        node.add(part, tomlkit.table(is_super_table=True))
                    node = node[part]
                node[path[-1]] = _toml_item(entry) if isinstance(node, InlineTable) else _toml_table(entry)
            except (ValueError, tomlkit.exceptions.TOMLKitError) as exc:
                raise SetupError(f"the relay's table cannot be placed there ({exc}); edit it by hand") from None
            new = doc.as_string()
        return new
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(current, InlineTable):
        for name in [k for k in current if k not in entry]:
            del current[name]
        for name, value in entry.items():
            if current.get(name) != value:
                current[name] = _toml_item(value)
    elif isinstance(current, Table):
        table = _rebuilt(current, entry)
        laid_out = len(table.value.body)
        parent[path[-1]] = table
        del table.value.body[laid_out:]  # tomlkit's "cosmetic" blank line: the layout is already the old one
    else:  # split over several places (sub-tables further down): tomlkit rewrites it whole
        del parent[path[-1]]
        parent[path[-1]] = _toml_table(entry)
    return doc.as_string()


def toml_set_table(text: str, path: tuple[str, ...], entry: Mapping[str, Any]) -> str:
    """``text`` with the table at ``path`` set to ``entry`` (added at the end if absent)."""
    return _edit_toml(text, path, entry)


def toml_remove_table(text: str, path: tuple[str, ...]) -> str:
    """``text`` without the table at ``path``; every other line kept."""
    return _edit_toml(text, path, None)
