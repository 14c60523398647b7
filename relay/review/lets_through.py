"""An edit that lets through what the code used to stop, read in every ecosystem where the kind of line exists (issue 36,
round 15):

- a rejection that no longer ends the handler: ``return`` dropped before the call that answers a bad request
  (``return reply.send(err)`` → ``reply.send(err)``, ``return next(err)``, ``return res.status(403).end()``, ``return
  done(err)``), or ``throw``/``raise`` dropped before the error it built: the error is sent, and the handler goes on to
  the work it was guarding;
- a signature or MAC no longer checked: the call that verifies cut out of the line that reads the value
  (``cookies.signed(&key).get(name)`` → ``cookies.get(name)``, ``verify(token)`` → ``token``), or replaced by one that
  only decodes (``jwt.verify(t, key)`` → ``jwt.decode(t, key)``);
- text expanded or evaluated as PowerShell code: ``ExpandString`` on anything, ``Invoke-Expression``/``iex`` on a
  variable (a POSIX shell's ``eval`` of interpolated text is ``dangerous_call``'s already);
- a program installed setuid: a package's file mode with the setuid bit (``%attr(4755…)`` in an rpm spec, a deb asset's
  ``"4755"``, ``install -m 4755``, ``chmod u+s``/``chmod 4755``, a ``mode: 04755`` key).
- a protocol's security argument passed as nothing (round 16): an edited pair whose one different token is a state, a
  nonce, a PKCE verifier, an audience or a signature become ``null``/``None``/``nil``/empty, where the path or the call
  is an authentication protocol's (a UI's ``setState(null)`` stays quiet).

The party guarded against is the worker that slips one such edit into an ordinary change: each reads as tidying (a
shorter line, a word removed) or as a mode among modes, and no word on it says what was lost. Each reader needs the line
the edit adds; the first two need the line it replaced, so a new file or a line only added is never read by them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed, window

__all__ = ["SETUID_WORDS", "lets_through"]

_SHOWN = 72

# ----- a rejection that no longer ends the handler
_ENDS_RE = re.compile(r"\b(?P<word>return|throw|raise)\s+(?=(?:new\s+)?[\w$.:]+\s*\()")
# What the call answers with: an error, a refusal status, the error handed on to the next handler.
_REJECTS_RE = re.compile(r"(?i)\b(?:err|error|errors|exception|invalid\w*|unauthori[sz]ed|forbidden|denied|deny|reject\w*|abort\w*|halt|"
                         r"40[0-9]|429)\b|[a-z](?:Error|Exception|Denied|Forbidden|Unauthorized)\b")
_BARE_RETURN_RE = re.compile(r"^\s*return\s*;?\s*$")


# Languages whose last expression is the value returned: ``return Err(e)`` → ``Err(e)`` as a block's tail returns it still.
_TAIL_RETURNS = (".rs", ".rb", ".ex", ".exs", ".scala", ".kt", ".kts", ".clj", ".hs", ".ml", ".fs", ".erl", ".jl", ".r")


def _rejection_continues(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    tails = path.lower().endswith(_TAIL_RETURNS)
    after = [squeezed(new.strip()) for new in added]
    for old in removed:
        m = _ENDS_RE.search(old)
        if not m or not _REJECTS_RE.search(old[m.end():]):
            continue
        cut = squeezed((old[:m.start()] + old[m.end():]).strip())
        for i, said in enumerate(after):
            if said != cut or (tails and not added[i].rstrip().endswith(";")):
                continue
            # ``next(err); return`` or a bare return on the next line still ends the handler.
            if i + 1 < len(added) and _BARE_RETURN_RE.match(added[i + 1]):
                continue
            new = added[i].strip()
            return f"goes on after a rejection ({m.group('word')} dropped): {window(new, 0, len(new), _SHOWN)}"
    return None


# ----- a signature or MAC no longer checked
_VERIFIES_RE = re.compile(r"(?P<dot>[.:]{0,2})(?P<name>[A-Za-z_]\w*)\s*[(!]?")
_VERIFY_NAME_RE = re.compile(r"(?i)verif|signed$|^signed|signature|hmac|check_?sig|^(?:sign|private|encrypted)$")
_DECODES_RE = re.compile(r"(?i)^(?:decode|parse|read|load|loads|get|unsafe\w*|dangerous\w*|insecure\w*)$")


# What is left of the line still reads something: a call or an access (``cookies.get(name)``, ``payload = body``).
_STILL_READS_RE = re.compile(r"[A-Za-z_]\w*\s*(?:[.(\[]|::)|=\s*[A-Za-z_]")


def _closers(line: str) -> dict[int, int]:
    """Each opening parenthesis's index → the index past the one that closes it (unclosed ones left out): one pass."""
    opened: list[int] = []
    closes: dict[int, int] = {}
    for i, char in enumerate(line):
        if char == "(":
            opened.append(i)
        elif char == ")" and opened:
            closes[opened.pop()] = i + 1
    return closes


# The worker writes the lines: a verifying call is read in lines of a statement's length, and at most so many a file
# (before, 500 lines of nested ``verify(verify(…`` cost 17 s: every call's closing parenthesis searched for, every
# added line tried against every call).
_VERIFY_LINE_CHARS = 400
_MOST_VERIFIES = 200


def _unverified(added: Sequence[str], removed: Sequence[str]) -> str | None:
    after = {squeezed(new.strip()): new.strip() for new in added if new.strip()}
    left = _MOST_VERIFIES
    for old in removed:
        if len(old) > _VERIFY_LINE_CHARS or left <= 0:
            continue
        closes: dict[int, int] | None = None
        for m in _VERIFIES_RE.finditer(old):
            name = m.group("name")
            if not _VERIFY_NAME_RE.search(name):
                continue
            paren = old.find("(", m.end("name"))
            if paren < 0 or old[m.end("name"):paren].strip():
                continue
            closes = _closers(old) if closes is None else closes
            end = closes.get(paren, -1)
            if end < 0:
                continue
            left -= 1
            if left < 0:
                break
            # A method in a chain cut out (``.signed(&key)``), or a wrapping call cut to what it wrapped (``verify(x)`` → ``x``).
            cuts = [old[:m.start()] + old[end:]] if m.group("dot") else []
            cuts.append(old[:m.start("name")] + old[paren + 1:end - 1] + old[end:])
            for cut in cuts:
                if not _STILL_READS_RE.search(cut):
                    continue  # the whole statement went (``verifyChecksum();`` dropped): a line removed, not a read made unverified
                new = after.get(squeezed(cut.strip()))
                if new is not None and squeezed(cut.strip()) != squeezed(old.strip()):
                    return f"reads it without verifying its signature (drops {name}()): {window(new, 0, len(new), _SHOWN)}"
            # The verifying call replaced by one that only decodes, the rest of the line the same.
            head, tail = squeezed(old[:m.start("name")]), squeezed(old[m.end("name"):])
            for said, new in after.items():
                if said.startswith(head) and said.endswith(tail) and len(said) > len(head) + len(tail):
                    other = said[len(head):len(said) - len(tail)]
                    if _DECODES_RE.match(other):
                        return f"reads it without verifying its signature ({name} → {other}): {window(new, 0, len(new), _SHOWN)}"
    return None


# ----- text expanded or evaluated as code in a shell language
_PS_EXPAND_RE = re.compile(r"(?i)\.ExpandString\s*\(|\b(?:Invoke-Expression|iex)\s+(?:-Command\s+)?[\"(]?\s*\$(?!null\b)")


def _expands_input(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    if not path.lower().endswith((".ps1", ".psm1", ".psd1")):
        return None
    for line in added:
        m = _PS_EXPAND_RE.search(line)
        if m and squeezed(line.strip()) not in before and not line.lstrip().startswith("#"):
            at = m.start() - (len(line) - len(line.lstrip()))
            return f"expands or runs text as PowerShell code: {window(line.strip(), at, at + len(m.group()), _SHOWN)}"
    return None


# ----- a program installed setuid
_SETUID = r"0?[46][0-7]{3}"
_SETUID_RE = re.compile(
    r"\bchmod\s+(?:-\w+\s+)*(?:(?:u|a|ug|ugo|uo)?\+[rwxXt]*s\b|" + _SETUID + r"\b)|"  # chmod u+s f, chmod 4755 f
    r"\b(?:os\.)?f?chmod\s*\([^,]+,\s*(?:0o?[46][0-7]{3}\b|[^)]*\bS_ISUID\b)|"  # a program's own chmod
    r"\b(?i:install)\b[^#\n]*\s(?:-m\s*|--mode[= ])['\"]?" + _SETUID + r"\b|"  # install -m 4755, a Makefile's $(INSTALL) -m 4755
    r"%(?:def)?attr\(\s*" + _SETUID + r"\b|"  # an rpm spec's file attributes (%defattr: every file's default, round 52)
    r"\b(?:file_?)?mode\b['\"]?\s*(?:=>|[:=])\s*['\"]?0?o?[46][0-7]{3}\b|"  # a mode key (Ansible, Puppet, Chef, Nix)
    r"\[\s*\"[^\"]*\"\s*,\s*\"[^\"]*/[^\"]*\"\s*,\s*\"" + _SETUID + r"\"\s*\]")  # a package asset [source, dest, mode]


# Every line the setuid reader matches holds one of these (a settings or build file keeps only lines that hold a risky
# word for the rules: relay.review.risky_lines.risky_screen).
SETUID_WORDS = ("u+s", "a+s", "s_isuid", *(f"{a}{b}" for a in ("4", "6") for b in ("755", "750", "711", "511", "555", "775", "777", "700", "500")))


def _setuid(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        m = _SETUID_RE.search(line)
        if m and squeezed(line.strip()) not in before:
            text = line.strip()
            at = m.start() - (len(line) - len(line.lstrip()))
            return f"installs a program setuid (it runs as its owner, root): {window(text, max(at, 0), at + len(m.group()), _SHOWN)}"
    return None


# A security argument of a call replaced by nothing (round 16: an OAuth request built with null where its state was): the
# value that tied the answer to its request, or checked it, is no longer sent. One token of an edited pair, the rest the same.
_SECURITY_ARG_RE = re.compile(r"(?i)^(?:\w+\.)?(?:state|nonce|csrf\w*|xsrf\w*|code_?challenge\w*|code_?verifier|verifier|pkce\w*|"
                              r"audience|issuer|signature|sig|hmac|mac|salt|iv|checksum|digest|expected\w*)$")
_NOTHING = frozenset({"null", "None", "nil", "undefined", "NULL", "nullptr", '""', "''", "Optional.empty()", "false", "False"})
# Where such an argument is a protocol's (a view's "state" or a UI's setState(null) is not): the path or the call says so.
_AUTH_CONTEXT_RE = re.compile(r"(?i)auth|oidc|oauth|openid|saml|sso|login|callback|redirect|pkce|token|sign|verif|jwt|crypt|hmac|digest")
_TOKEN_RE = re.compile(r"[\w.]+(?:\(\))?|\"\"|''|\S")


def _argument_nulled(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"passes nothing where the call sent <arg>: …" for an edited pair whose one different token is a security-named
    argument (a state, nonce, PKCE verifier, audience, signature…) become null, None, nil, empty or false."""
    news = [(new, _TOKEN_RE.findall(new)) for new in added[:50]] if removed else []  # each new line's tokens once, not once a pair
    for old in removed[:50]:
        told = _TOKEN_RE.findall(old)
        for new, tnew in news:
            if len(told) != len(tnew) or len(told) < 4:
                continue
            differ = [(a, b) for a, b in zip(told, tnew) if a != b]
            if (len(differ) == 1 and differ[0][1] in _NOTHING and _SECURITY_ARG_RE.match(differ[0][0]) and "(" in old
                    and _AUTH_CONTEXT_RE.search(path + " " + old)):
                return f"passes {differ[0][1]} where the call sent {differ[0][0][:24]}: {' '.join(new.split())[:70]}"
    return None


def lets_through(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What an edit lets through that the code used to stop (a rejection that goes on, a signature unchecked, text
    evaluated as shell code, a setuid program), quoted; None when it reads as none of these."""
    if not added:
        return None
    if removed:
        found = _rejection_continues(path, added, removed) or _unverified(added, removed) or _argument_nulled(path, added, removed)
        if found:
            return found
    return _expands_input(path, added, removed) or _setuid(added, removed)
