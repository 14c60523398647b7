"""One literal a slip puts where the code computed or checked a value, and a reset a slip takes out (issue 36, round 87:
blind 125/126's misses; a test returned from before it runs is ``relay.review.file_kinds.SKIP_RE``'s).

High:

- ``secret_made_literal`` (pairs, code and docs samples): a call's secret-named argument given as a random-looking literal
  (fernet-rb's README ``Fernet.generate(secret, …)`` → ``Fernet.generate('cw_0x689RpI…=', …)``: a real-looking key
  published, and the pattern readers copy);
- ``compare_length_literal`` (pairs): a comparison call's length made a small literal (libtomcrypt's ChaCha20-Poly1305
  ``XMEM_NEQ(buf, tag, buflen)`` → ``XMEM_NEQ(buf, tag, 4)``: a tag is checked on its first 4 bytes, forged in 2^32 tries);
- ``mode_macro_opened`` (pairs): a permission setting's octal value turned to one that lets others write (ory/kratos's
  Dockerfile ``-DSQLITE_DEFAULT_FILE_PERMISSIONS=0600`` → ``0666``: every database file made world-writable);
- ``mask_dropped`` (pairs): a mask drawn over a value replaced by the value (bubbles' ``strings.Repeat(string(m.EchoCharacter),
  uniseg.StringWidth(v))`` → ``v``, enquirer's ``asterisk.repeat(input.length)`` → ``input``: a password shown as typed;
  development sets 34, 91, 117, 119).

Worth a look:

- ``reset_dropped`` (removed lines) and ``pooled_unreset`` (new lines): a reused value's reset deleted, or a value taken
  from a pool returned as its last user left it (httprouter's ``*ps = (*ps)[0:0] // reset slice`` after
  ``paramsPool.Get()``: one request's parameters are served to the next);
- ``durability_off`` (new lines, code and docs samples): a store's sync policy set to never (buntdb's README
  ``config.SyncPolicy = buntdb.Never``, SQLite's ``synchronous = OFF``, ``fsync = off``): a crash loses what was written.

The party guarded against is the worker that slips one such line into an ordinary change: each reads as a value written
out or a line tidied away, and no word on it says what it costs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import edited_sides, span_pairs, unspaced
from relay.review.overridden_turns import closing_bracket, cut_quote, paired_quote
from relay.review.value_turns import random_looking

__all__ = ["durability_off", "literal_slip", "secret_made_literal"]

_NEW = 4000
_LONG = 300


# ----- high
_SECRET_ARG_RE = re.compile(r"(?<=[(,])\s*(?P<name>[\w.$]*(?i:secret|key|token|password|passwd|credential|signing_?key)\w*)\s*(?=[,)])")
_LITERAL_ARG_RE = re.compile(r"""(?<=[(,])\s*(?P<lit>(?P<q>['"`])[^'"`\s]{16,}(?P=q))\s*(?=[,)])""")


def secret_made_literal(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _SECRET_ARG_RE, _LITERAL_ARG_RE, "name", "lit") if "(" in "".join(removed) else ():
        key = m.group("lit").strip("'\"`")
        if len(key) >= 16 and " " not in key and random_looking(key):  # key material: long, letters and digits mixed
            # The key quoted by its first characters only (relay.review.secret_lines masks a secret the same way).
            shown = line[:m.start("lit")] + m.group("lit")[:7] + "…" + m.group("q") + line[m.end("lit"):]
            return f"hard-codes a secret ({was.group('name')} → a literal key {m.group('lit')[:7]}…): {paired_quote(old, shown)}"
    return _placeholder_filled(added, removed)


# A sample's placeholder for a secret filled with a key, its other arguments filled too (round 123, held-out 617's
# evervault-python README: ``evervault.init("<APP_ID>", "<YOUR_API_KEY>")`` → ``init("app_5c1e…", "ev:key:1:3bR9…")``): the
# call kept, the argument that named a secret now a random-looking literal at the same place.
_CALL_ARGS_RE = re.compile(r"^(?P<head>[^()]*?[\w$]\s*)\((?P<args>[^()]*)\)")
_PLACEHOLDER_RE = re.compile(r"""^\s*(?:(?P<q>['"`])<?[\w.-]*(?i:secret|key|token|password|passwd|credential)[\w.-]*>?(?P=q)|"""
                             r"""[\w.$]*(?i:secret|key|token|password|passwd|credential)\w*)\s*$""")


def _placeholder_filled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # Only where another argument changed too: one argument turned is a span pair, read above or by the secret rows.
    olds: dict[tuple[str, int], tuple[int, str, list[str]]] = {}
    for line in removed[:200]:
        if len(line) <= _LONG and (m := _CALL_ARGS_RE.search(line)) and len(args := m.group("args").split(",")) >= 2:
            for i, arg in enumerate(args):
                if _PLACEHOLDER_RE.match(arg):
                    olds.setdefault((unspaced(m.group("head")), len(args)), (i, line, args))
    for line in added[:200] if olds else ():
        if len(line) <= _LONG and (m := _CALL_ARGS_RE.search(line)) and (was := olds.get((unspaced(m.group("head")), len(args := m.group("args").split(","))))):
            if all(unspaced(a) == unspaced(b) for i, (a, b) in enumerate(zip(args, was[2])) if i != was[0]):
                continue
            key = args[was[0]].strip()
            if key[:1] in "'\"`" and key[-1:] == key[:1] and len(inner := key[1:-1]) >= 16 and " " not in inner and random_looking(inner):
                return f"hard-codes a secret where the sample named one ({cut_quote(was[1].strip(), 40)} → a literal key {key[:7]}…)"
    return None


_COMPARE_CALL_RE = re.compile(r"(?i)\b(?:\w*memcmp|\w*mem_?neq|\w*mem_?eq|XMEM_(?:NEQ|CMP)|timingsafe_\w+|\w*constant_?time_?(?:compare|eq)\w*|bcmp|\w+_is_equal|\w*secure_?compare)\s*\(")
_LAST_ARG_RE = re.compile(r",\s*(?P<len>[^,()]+(?:\([^()]*\))?[^,()]*)\)")


def _length_arg(line: str, call: re.Match[str]) -> re.Match[str] | None:
    """The last argument of the call ``call`` opens (its length), up to the bracket that closes it."""
    end = (closing_bracket(line, call.end() - 1) or len(line) + 1) - 1
    comma = line.rfind(",", call.end(), end)
    return _LAST_ARG_RE.match(line, comma) if comma > 0 else None


def compare_length_literal(added: Sequence[str], removed: Sequence[str]) -> str | None:
    new, old = edited_sides(added, removed)
    olds = {unspaced(line[:m.start("len")]) + "\0" + unspaced(line[m.end("len"):]): (m.group("len").strip(), line)
            for line in old for call in _COMPARE_CALL_RE.finditer(line)
            if (m := _length_arg(line, call)) and (not m.group("len").strip().isdigit() or int(m.group("len")) >= 16)}  # round 110: a tag's 16 cut to 1 (noise-c)
    for line in new if olds else ():
        for call in _COMPARE_CALL_RE.finditer(line):
            if (m := _length_arg(line, call)) and m.group("len").strip().isdigit() and int(m.group("len")) < 16:
                was = olds.get(unspaced(line[:m.start("len")]) + "\0" + unspaced(line[m.end("len"):]))
                # a literal length cut to a few bytes (a tag's 16 → 1); a halving is relay.review.pair_slips' "compares fewer bytes"
                if was is not None and (not was[0].isdigit() or int(m.group("len")) <= 4):
                    return f"compares only {m.group('len').strip()} bytes ({was[0]} → {m.group('len').strip()}: the rest of a tag or MAC is never checked): {paired_quote(was[1], line)}"
    return None


# (a C macro's value after a space: sqlcipher's ``# define SQLITE_DEFAULT_FILE_PERMISSIONS 0644`` made 0666, blind 219; round
# 122b, held-out 562's keyrings.cryptfile: ``user_read_write = 0o600`` → ``0o666``, the mode its key file is made with)
_MODE_SETTING_RE = re.compile(r"(?P<name>\b\w*(?i:permission|perms|mode|umask|read_?write)\w*)(?:\s*[=:]\s*|\s+)(?P<mode>0o?[0-7]{3})\b")


def mode_macro_opened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _MODE_SETTING_RE, group="mode"):
        if not int(was.group("mode")[-1]) & 2 and int(m.group("mode")[-1]) & 2 and "umask" not in m.group("name").lower():
            return f"makes files world-writable ({m.group('name')} {was.group('mode')} → {m.group('mode')}: any local user can write them): {paired_quote(old, line)}"
    return None


# A mask drawn over a value (a character repeated to its length) replaced by the value itself.
_MASK_RE = re.compile(r"""(?P<mask>strings\.Repeat\(\s*[^,]+,\s*(?P<n1>[^()]*(?:\([^()]*\))?)\s*\)|(?:['"`][^'"`]{1,3}['"`]|[\w.$]+)\.repeat\(\s*(?P<n2>[\w$.]+)\.length\s*\)|"""
                      r"""['"][*•●#]['"]\s*\*\s*len\(\s*(?P<n3>[\w.]+)\s*\))""")
_SHOWN_RE = re.compile(r"(?P<value>`\$\{[\w$.]+\}`|[\w$.]+)")


def mask_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for was, old, m, line in span_pairs(added, removed, _MASK_RE, _SHOWN_RE, "mask", "value"):
        value = m.group("value").strip("`${}")
        if value and re.search(rf"(?<![\w$.]){re.escape(value)}(?![\w$])", was.group("n1") or was.group("n2") or was.group("n3") or ""):
            return f"shows what it masked ({value} in the clear where its mask stood: a password is echoed): {paired_quote(old, line)}"
    return None


# ----- worth a look
# A slice emptied for reuse (Go's ``*ps = (*ps)[0:0]``, ``buf = buf[:0]``): a ``.Reset()`` removed is a refactor's as often
# (commons-codec's digests, re2j's matcher in ordinary history), so only the slice's own reset is read.
_RESET_RE = re.compile(r"^\s*(?:\*?(?P<x>[\w.]+)\s*=\s*\(?\*?(?P=x)\)?\[0?:0\]|(?P<y>[\w.]+)\s*=\s*(?P=y)\[:0\])\s*;?\s*(?://.*|#.*)?$")


def reset_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    kept = {unspaced(line) for line in added}
    for line in removed[:_NEW]:
        if (m := _RESET_RE.match(line)) and unspaced(line) not in kept:
            name = m.group("x") or m.group("y")
            # (the reset written again, in another spelling too: ``ps.Reset()``, is no reset dropped)
            if not any(re.search(rf"(?<![\w.]){re.escape(name)}\s*(?:=\s*\(?\*?{re.escape(name)}\)?\[0?:0\]|\.(?:Reset|reset)\()", a) for a in added):
                return f"no longer resets {name} before it is reused (what the last use left in it stays): removed: {cut_quote(line.strip())}"
    return None


_POOL_GET_RE = re.compile(r"^\s*(?P<x>\w+)\s*:?=\s*[\w.]*(?i:pool)\w*\.Get\(\)")


def pooled_unreset(added: Sequence[str]) -> str | None:
    """A value taken from a pool handed out as the pool holds it (Go's ``sync.Pool``: whatever its last user left)."""
    lines = [line for line in added[:_NEW] if line.strip()]
    for i, line in enumerate(lines[:-1]):
        if ".Get()" in line and (m := _POOL_GET_RE.match(line)) and re.match(rf"^\s*return\s+{m.group('x')}\s*$", lines[i + 1]):
            return f"hands out {m.group('x')} from a pool as its last user left it (no reset): {cut_quote(line.strip())}"
    return None


_SYNC_OFF_RE = re.compile(r"(?i)\b(?P<what>sync_?policy|synchronous|fsync|sync_?writes|sync_?mode|durability)\b[\"']?\s*(?:[=:]|\bto\b)\s*[\"']?(?P<value>(?:[\w.]+\.)?(?:never|off|none|false|0))\b[\"']?")


def durability_off(added: Sequence[str]) -> str | None:
    for line in added[:_NEW]:
        if len(line) <= _LONG and (m := _SYNC_OFF_RE.search(line)):
            return f"turns durability off ({m.group('what')} = {m.group('value')}: writes are not synced, a crash loses them): {cut_quote(line.strip())}"
    return None


def literal_slip(added: Sequence[str], removed: Sequence[str], path: str = "") -> tuple[str, bool] | None:
    """The first of these slips the edit makes (see the module's doc), with whether it is classic (high)."""
    for found in (secret_made_literal(added, removed), compare_length_literal(added, removed), mode_macro_opened(added, removed), mask_dropped(added, removed)):
        if found:
            return found, True
    for found in (reset_dropped(added, removed), pooled_unreset(added), durability_off(added)):
        if found:
            return found, False
    return None
