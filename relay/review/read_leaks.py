"""A secret handed back by what answers a read (issue 36, round 120f).

Held-out 486's vault-plugin-auth-azure and 510's vault-plugin-auth-kerberos: a config read's response map given the
stored secret (``"client_secret": config.ClientSecret,``, ``"keytab": config.Keytab,`` where a comment had said the keytab
is not returned because it is sensitive). The line alone is an ordinary map entry; where it stands says what it does:
inside a function that answers a read (``pathConfigRead``, ``get_config``, ``to_dict``), every caller allowed to read the
config, and every log of responses, gets the credential. Read against the new file as the scope quotes are
(``relay.review.edit_scopes.Scopes``): a run that adds such an entry, under such a function's head.

The party guarded against is the worker that slips one such line into an ordinary change. Medium (rule ``loosens_run``,
a run read alone): the reason names the function and the key; a write handler's entry (``"client_secret":
data.Get(…)``, reading a request) and a masked or measured value stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.apart_edits import Run
from relay.review.edit_scopes import Scopes, scope_of

__all__ = ["secrets_handed_back"]

# A map or dict entry whose key names a secret and whose value is the stored one (a field or a variable, not a call, a literal
# or a mask).
_ENTRY_RE = re.compile(r"""^\s*["'](?P<key>\w*(?:secret|password|passwd|keytab|private_?key|api_?key|credential)\w*)["']\s*:\s*"""
                       r"""(?P<value>[A-Za-z_][\w.]*)\s*,?\s*$""", re.IGNORECASE)
_NOT_STORED_RE = re.compile(r"(?i)^(?:none|nil|null|true|false|undefined)$|redact|mask|hash|present|len")
_READS_RE = re.compile(r"(?i)^(?:get|list|show|describe|display|dump)|read|info|status|to_?(?:dict|json)|as_?dict|serializ")
_MOST_RUNS = 50_000


def secrets_handed_back(runs: Sequence[Run], scopes: Scopes) -> dict[str, str]:
    """Path -> the first secret a run puts into what a read answers, said with the function's name and the key."""
    found: dict[str, str] = {}
    for run in runs[:_MOST_RUNS]:
        if run.path in found:
            continue
        for offset, line in enumerate(run.added):
            m = _ENTRY_RE.match(line)
            if m is None or _NOT_STORED_RE.search(m.group("value")):
                continue
            lines = scopes.lines(run.path, picked=True)
            at = run.start - 1 + offset
            if not lines or at >= len(lines) or lines[at].strip() != line.strip():
                continue
            head = next((s.name for s in scope_of(lines, at + 1, [line]) if s.kind == "fn"), None)
            if head is not None and _READS_RE.search(head):
                found[run.path] = (f"hands a secret back in what {head}() answers ({m.group('key')}: {m.group('value')}): whoever may read "
                                   f"it, and every log of its responses, gets the credential")
                break
    return found

