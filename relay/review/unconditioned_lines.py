"""A setting's condition taken away: the line that set it under an ``if`` now sets it always (issue 36, round 121).

Held-out 509's openapi-typescript-codegen: ``if (config.WITH_CREDENTIALS) { request.credentials = config.CREDENTIALS; }``
became ``request.credentials = 'include';``: every generated client now sends the user's cookies to whatever it calls, the
switch that kept them home ignored. No line of the new side says so alone (``credentials = 'include'`` is in every fetch
helper); the pair does: an ``if`` removed, the assignment it guarded written again one level out, to the same target.

Read on an edited file's lines, in any brace or offside language: a removed ``if`` head whose next removed lines assign a
target, and an added line assigning that same target less indented than it stood, the ``if`` written nowhere on the new
side. Only targets named for what they grant or send are read (credentials, cookies, tokens, trust, origins, permissions,
a debug or skip switch): a safe setting made unconditional (``secure = True``) names none of them, nor a refusal's value
(pac4j's ``action = unauthorized(…)`` taken out of its ``if``: held-out 512, read first as a grant by its value's word).

The party guarded against is the worker that slips the change into an ordinary refactor; worth a look (the reviewer
judges whether the switch was meant to go).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import indent_width, squeezed

__all__ = ["unconditioned"]

_MOST = 400
_LONG = 160
_IF_RE = re.compile(r"^\s*(?:\}\s*)?(?:else\s*)?if\b\s*\(?.+?(?:\)\s*\{|:|\{|\bthen)\s*$")
_ASSIGN_RE = re.compile(r"^\s*(?P<target>[A-Za-z_$@][\w$.@]*(?:\[[^\]]{1,40}\])?)\s*=(?!=)\s*(?P<value>\S.*?)\s*;?\s*$")
_GRANTS_RE = re.compile(r"(?i)credential|cookie|token|authori[sz]|trust|origin|cors|permission|privileg|admin|insecure|debug|skip|bypass|allow")
_BODY = 3  # the lines after a removed head read as its body


def unconditioned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"makes a setting unconditional (…)" for the first guarded assignment written again unguarded, else None."""
    olds = [line for line in removed[:_MOST] if len(line) <= _LONG]
    heads = [i for i, line in enumerate(olds) if _IF_RE.match(line)]
    if not heads or not added:
        return None
    new_side = {squeezed(line) for line in added[:_MOST]}
    for i in heads:
        head = olds[i]
        if squeezed(head) in new_side:
            continue
        for body in olds[i + 1:i + 1 + _BODY]:
            if (m := _ASSIGN_RE.match(body)) is None or indent_width(body) <= indent_width(head):
                continue
            for new in added[:_MOST]:
                if (n := _ASSIGN_RE.match(new)) and n["target"] == m["target"] and indent_width(new) < indent_width(body) and _GRANTS_RE.search(n["target"]):
                    return f"makes a setting unconditional (its if removed): {new.strip()[:70]} (was under {head.strip()[:40]})"
    return None
