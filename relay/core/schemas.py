"""JSON schemas clients see, generated from the same Structs the code decodes with.

References are inlined and ``X | None`` is published as ``X`` (an omitted
field is the None), which keeps ``tools/list`` small and readable by clients
that do not follow ``$ref``. ``additionalProperties`` is left open on purpose:
legacy fields are accepted but unpublished, and a client that validates before
sending must not block them; the relay ignores unknown names (and records them).
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["input_schema", "struct_schema"]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = dict(defs[node["$ref"].rsplit("/", 1)[-1]])
            merged = {**_inline(target, defs), **{k: v for k, v in node.items() if k != "$ref"}}
            return _inline(merged, defs)
        out = {k: _inline(v, defs) for k, v in node.items() if k != "title"}
        any_of = out.get("anyOf")
        if isinstance(any_of, list) and len(any_of) == 2 and {"type": "null"} in any_of:
            (kept,) = [branch for branch in any_of if branch != {"type": "null"}]
            out.pop("anyOf")
            if out.get("default", 0) is None:
                out.pop("default")
            out = {**kept, **out}
        return out
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def struct_schema(struct: type) -> dict[str, Any]:
    """The struct's schema with every reference inlined (root is a plain object)."""
    generated = msgspec.json.schema(struct)
    defs = generated.pop("$defs", {})
    return _inline(generated, defs)


def input_schema(struct: type) -> dict[str, Any]:
    schema = struct_schema(struct)
    schema.pop("additionalProperties", None)
    schema.pop("description", None)
    if schema.get("required") == []:  # the same meaning as no list; every session pays for the bytes
        schema.pop("required")
    return schema
