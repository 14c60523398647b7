"""JSON for the fake agy (tests/fake_agy.py) without importing the ``json`` package.

``import json`` pulls in ``re`` and ``enum`` and compiles six regular expressions: ~8 ms of CPU on a quiet
machine, more than half of what the fake's own start-up adds to the interpreter's, paid on each of the ~1,100
fake launches of a suite run. The work itself is done by ``_json``, the C codec ``json`` uses under the hood,
set up the way ``json.dumps``/``json.loads`` set it up, so the bytes written and the values read are the
same. Anything off that path (a decode error, an interpreter without the C codec) goes to ``json`` itself,
so an error and its message are ``json``'s own.
"""

from __future__ import annotations

__all__ = ["dumps", "loads"]

try:
    import _json
except ImportError:  # an interpreter without the C codec: the json package's pure-Python one
    _json = None

_WHITESPACE = " \t\n\r"  # JSON's whitespace, as json.loads skips it around the value
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


def _not_serializable(value):
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder``: json.loads's defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


_SCAN = _json.make_scanner(_Context()) if _json is not None else None


def dumps(value, *, ensure_ascii: bool = True) -> str:
    """``json.dumps(value, ensure_ascii=...)`` (its default separators ", " and ": ", no indent)."""
    if _json is None:
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii)
    quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    if isinstance(value, str):
        return quote(value)
    encoder = _json.make_encoder({}, _not_serializable, quote, None, ": ", ", ", False, False, True)
    return "".join(encoder(value, 0))


def loads(text: str):
    """``json.loads(text)`` for a str."""
    if _SCAN is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _SCAN(text, start)
        except (StopIteration, ValueError):
            pass  # json.loads below raises json's own error for it
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    return json.loads(text)
