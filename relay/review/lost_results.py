"""What a check found, thrown away by the edit (issue 36, round 19 part A).

Three shapes the blind runs left unnamed, each read by comparing the lines an edit removes with the ones it adds (no
closeness needed: a shape is matched by the call or the name it keeps, so the commit's own work in the same file does
not outvote it), linear in the diff (screened lines only, at most ``_MOST`` of a side):

- ``verdict_blanked``: a check's verdict, bound to a name before, now bound to the blank ``_`` while the call stays
  (``ok, err := otp.Verify(pin)`` → ``if _, err := otp.Verify(pin); err != nil {``, Python's ``valid, err = …`` →
  ``_, err = …``): only its error is looked at, any wrong answer passes;
- ``catch_emptied``: a catch that kept what it caught (``catch (Exception e) { errors.Add(e); }``, ``except E as e:
  failures.append(e)``, ``rescue => e``) now binds nothing and the line that used it is gone: the error is swallowed;
- ``defaults_bypassed``: a call that applied TLS/SSL/secure defaults to options (``ssl_opts(hostname, opts)``,
  ``tls_config(opts)``, ``secure_defaults(opts)``) unwrapped to its bare argument on the same line: the options reach the
  transport without peer verification, CA certificates or the hostname check the defaults set.
- ``skip_dropped`` (round 24): a loop's skip deleted whole, its condition a compare with a literal and written nowhere
  the change adds (``if tagValue == "-" { continue }``, ``if name == "-":`` / ``continue``, ``next if key == "_"``): what
  the marker kept out (a field tagged to be left out, an entry meant to be ignored) now goes through.
- ``final_dropped`` (round 49, blind 69's keyv): a decipher's closing call dropped while its ``update`` stays
  (``Buffer.concat([decipher.update(x), decipher.final()])`` → ``decipher.update(x)``, Java's ``doFinal`` →
  ``update``, Python's ``decryptor.finalize()``): the closing call is what checks an AEAD's tag (and a block mode's
  padding), so tampered ciphertext decrypts without complaint. High.
- ``error_cleared`` and ``rethrow_dropped`` (round 118, held-out 402's nancy and 364's csv-parse): Go's error path that
  returned now clears the error (``return`` → ``err = nil``), and a one-line rethrow (``if (error) throw error;``) deleted
  with nothing that hands the error on in its place: a failure is taken as success.
- ``check_commented_out`` (round 119, held-out 452's miracl): a check's call commented out where it stood, a constant
  in its place (``let mask = 0u8; // cpa_check_encrypt(…)``): the check never runs; high, a guard deleted. And
  ``report_dropped``: the line that handed a caught error to its handler or reporter deleted (sucker_punch).

The party guarded against is the worker that slips one such line into an ordinary change; each reader names the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed
from relay.review.small_edits import paired

__all__ = ["final_dropped", "lost_result"]

_MOST = 400  # screened lines read a side
_LONGEST = 400  # longer lines are data, not a statement

# ----- a check's verdict bound to the blank
_CHECK_WORDS = r"(?i:verif|validat|check|authenticat|authori[sz]|compare|equal|signature|hmac|otp|totp)"
_SCREEN_RE = re.compile(_CHECK_WORDS)
# Names bound start at a word's start; the call is dotted names, its last one holding a check word (each part a whole
# word, so a long line costs one pass a start).
_BOUND_RE = re.compile(r"(?<![\w.$])(?P<names>(?:[A-Za-z_]\w{0,40}[ \t]*,[ \t]*){0,4}[A-Za-z_]\w{0,40})[ \t]*:?=[ \t]*"
                       r"(?P<call>(?:[\w$]{1,60}(?:\.|::|->)){0,6}(?=\w{0,60}" + _CHECK_WORDS + r")\w{1,60}[ \t]*\([^()\n]{0,200}\))")


def _bindings(lines: Sequence[str]) -> list[tuple[str, str, str]]:
    """(first name bound, the call, the line) for each line binding a check's result."""
    out = []
    for line in lines[:_MOST]:
        if len(line) <= _LONGEST and "=" in line and _SCREEN_RE.search(line) and (m := _BOUND_RE.search(line)):
            first = m.group("names").split(",")[0].strip()
            out.append((first, m.group("call"), line))
    return out


def _verdict_blanked(added: Sequence[str], removed: Sequence[str]) -> str | None:
    named = {squeezed(call): line for first, call, line in _bindings(removed) if first != "_"}
    if not named:
        return None
    for first, call, line in _bindings(added):
        if first == "_" and squeezed(call) in named:
            name = call.split("(", 1)[0].split(".")[-1]
            return f"discards a check's verdict (the first result of {name}() bound to _): {paired(named[squeezed(call)], line)}"
    return None


# ----- a catch that kept what it caught, emptied
# A catch header, its parenthesis read as text (a pattern that splits it would backtrack on a line of spaces).
_CATCH_RE = re.compile(r"^[ \t]*(?:\}[ \t]*)?(?:catch[ \t]*(?:\((?P<inner>[^()\n]{0,160})\)|(?=\{|$))|except\b(?P<pinner>[^:\n]{0,160}):|"
                       r"rescue\b(?P<rinner>[^\n]{0,160})$)")
_RETHROW = ("throw;", "throw", "raise")  # a bare rethrow keeps the error


def _header(m: re.Match[str]) -> tuple[str, str]:
    """(the type caught, the name bound or "") of a catch header."""
    if m.group("pinner") is not None:  # except E as e
        kind, _, name = m.group("pinner").partition(" as ")
        return kind.strip(), name.strip()
    if m.group("rinner") is not None:  # rescue E => e
        kind, _, name = m.group("rinner").partition("=>")
        return kind.strip(), name.strip()
    words = (m.group("inner") or "").split()
    if len(words) >= 2:  # catch (Exception e), catch (\Exception $e)
        return " ".join(words[:-1]), words[-1]
    if len(words) == 1:  # C#'s `catch (Exception)`: a type, no name; JS's `catch (e)`: a name
        word = words[0]
        return (word, "") if word[:1].isupper() or "." in word or "\\" in word else ("", word)
    return "", ""


def _catches(lines: Sequence[str]) -> list[tuple[str, str, str]]:
    """(the type caught, the name bound or "", the line) for each catch header."""
    return [(*_header(m), line) for line in lines[:_MOST] if len(line) <= _LONGEST and (m := _CATCH_RE.match(line))]


def _catch_emptied(added: Sequence[str], removed: Sequence[str]) -> str | None:
    kept = [(kind, name, line) for kind, name, line in _catches(removed) if name]
    if not kept:
        return None
    bare = [(kind, line) for kind, name, line in _catches(added) if not name]
    for kind, name, old in kept:
        new = next((line for k, line in bare if k == kind), None)
        if new is None:
            continue
        word = re.compile(r"(?<![\w$])" + re.escape(name) + r"\b")
        used = next((line for line in removed[:_MOST] if line is not old and word.search(line)), None)
        if used is None or any(word.search(line) or line.strip() in _RETHROW for line in added[:_MOST]):
            continue
        # The name renamed, its use kept (round 82: jiti's ``catch (_err) { err = _err`` → ``catch (error) { err = error;``).
        flat = {"".join(line.split()).rstrip(";") for line in added[:_MOST]}
        if any("".join(word.sub(other, used).split()).rstrip(";") in flat for _, other, _ in _catches(added) if other):
            continue
        return f"swallows the error it caught ({used.strip()[:50]} gone): {paired(old, new)}"
    return None


# ----- TLS/SSL defaults applied to options, unwrapped
# A call's name, then its parenthesis (a name starts at a token's start: a long line costs one short try a start).
_CALL_RE = re.compile(r"(?<![\w.:])(?P<fn>[\w.:]{1,80})\((?P<args>[^()\n]{0,200})\)")
_DEFAULTS_NAME_RE = re.compile(r"(?i)(?:ssl|tls|secure|verify|https)\w*(?:opt|option|config|conf|setting|default|param|context)")


def _defaults_bypassed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    fresh = {squeezed(line): line for line in added[:_MOST] if len(line) <= _LONGEST}
    if not fresh:
        return None
    for old in removed[:_MOST]:
        if len(old) > _LONGEST or "(" not in old:
            continue
        for m in _CALL_RE.finditer(old):
            if not _DEFAULTS_NAME_RE.search(m.group("fn").rsplit(".", 1)[-1].rsplit(":", 1)[-1]):
                continue
            for arg in (a.strip() for a in m.group("args").split(",")):
                if not arg:
                    continue
                new = fresh.get(squeezed(old[:m.start()] + arg + old[m.end():]))
                if new is not None:
                    return f"bypasses the defaults {m.group('fn')}() applied to the options (TLS verification, hostname): {paired(old, new)}"
    return None


# ----- a loop's skip deleted whole (round 24)
# A condition that compares with a string literal (a marker: "-", "", "_"; a null check is a refactor's), a skip on its line or the next one.
_SKIP_HEAD_RE = re.compile(r"^\s*(?:\}\s*else\s+)?(?:if|elif|elsif|unless)\b\s*\(?(?P<cond>[^{:]*?(?:[=!]==?\s*['\"`]|['\"`]\s*[=!]==?|\.equals\(\s*['\"])[^{:]*?)\)?\s*(?:\{|:|\bthen\b|(?=(?:continue|next)\b)|$)\s*(?P<rest>.*)$")
_SKIP_RE = re.compile(r"^\s*(?:continue|next)\s*;?\s*\}?\s*$")
_NEXT_IF_RE = re.compile(r"^\s*(?:next|continue)\s+(?:if|unless)\s+(?P<cond>.+)$")


def _skip_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    written = "\n".join(squeezed(line) for line in added[:_MOST])
    for i, line in enumerate(removed[:_MOST]):
        if len(line) > _LONGEST:
            continue
        m = _SKIP_HEAD_RE.match(line) or _NEXT_IF_RE.match(line)
        if m is None:
            continue
        rest = m.groupdict().get("rest")
        one_line = rest is None or bool(_SKIP_RE.match(rest))
        if not one_line and (rest or i + 1 >= len(removed) or not _SKIP_RE.match(removed[i + 1])):
            continue
        if squeezed(m.group("cond")) in written:
            continue  # the same condition stands in what the change writes: moved or restated
        shown = line.strip() if one_line else f"{line.strip()} {removed[i + 1].strip()}"
        return f"deletes a skip (what it kept out now goes through: a field or entry marked to be left out is kept): {shown[:90]}"
    return None


# ----- an error that was handed on, cleared or dropped (round 118)
# Go's error path that returned made to clear the error and go on (held-out 402's nancy: ``if err != nil { return }`` →
# ``{ err = nil }``, a read that failed half-way parsed as whole), and a one-line rethrow deleted with nothing in its place
# (364's csv-parse: ``if (error !== undefined) throw error;`` gone, a malformed file's partial records returned as valid).
_HANDED_ON_RE = re.compile(r"^\s*return(?:\s+(?:[\w.&{}\[\]]+,\s*){0,3}(?P<name>err\w*|error)\b)?\s*;?\s*$")
_CLEARED_RE = re.compile(r"^\s*(?P<name>err\w*)\s*=\s*nil\s*;?\s*$")
_RETHROW_RE = re.compile(r"^\s*if\s*\(?\s*!*\s*(?P<name>err\w*|error|e|ex)\b[^{}]*?\)?\s*\{?\s*(?:throw|return)\s+(?:\w+\()?(?P=name)\b[^{}]*\}?\s*;?\s*$|"
                         # C's failed call handed on (round 118h, held-out 447's libfaketime: ``if (result == -1) return -1;``)
                         r"^\s*if\s*\(\s*(?P<name2>\w+)\s*(?:==\s*-1|<\s*0)\s*\)\s*\{?\s*return\s+(?:-1|(?P=name2))\s*;\s*\}?\s*$")


_ONE_ERROR_RE = re.compile(r"\bif\b.*(?:==|errors\.Is\(|\bIs\w+\()")  # ``if err == io.EOF {``: one error let go, by name


def _error_cleared(added: Sequence[str], removed: Sequence[str]) -> str | None:
    written = {line.strip() for line in added[:_MOST]}
    gone = [line for line in removed[:_MOST] if len(line) <= _LONGEST and _HANDED_ON_RE.match(line) and line.strip() not in written]
    if not gone:
        return None
    for i, line in enumerate(added[:_MOST]):
        if (m := _CLEARED_RE.match(line)) is not None and not (i and _ONE_ERROR_RE.search(added[i - 1])) and not any(
                re.search(rf"^\s*return\b.*\b{m.group('name')}\b", other) for other in added[:_MOST]):
            return f"clears the error where the code returned it (what failed goes on as if it had not): {gone[0].strip()} → {line.strip()}"
    return None


def _rethrow_dropped(removed: Sequence[str], added: Sequence[str]) -> str | None:
    for line in removed[:_MOST]:
        if len(line) > _LONGEST or (m := _RETHROW_RE.match(line)) is None:
            continue
        name = m.group("name") or m.group("name2")
        if not any(re.search(rf"\b(?:throw|return|raise|reject|callback|cb|done|next)\b[^;]*\b{name}\b", new) or re.search(rf"\bif\s*\(\s*{name}\s*(?:==|<)", new)
                   for new in added[:_MOST]):
            return f"deletes the check that threw the error it found (a failure returns as if it succeeded): removed: {line.strip()[:90]}"
    return None


# A check's call commented out where it stood, a constant in its place (round 119, held-out 452's miracl kyber.rs: ``let
# mask = cpa_check_encrypt(params, …);`` → ``let mask = 0u8; // cpa_check_encrypt(params, …);``): the check never runs.
_COMMENT_RE = re.compile(r"(?<![:\"'/])//|(?<![\w\"'&$])#(?=\s)")
_CHECK_CALL_RE = re.compile(r"\b[\w.:]*(?i:check|verif|valid|auth|compare|equal|sanitiz|escape)\w*\s*\(")


def _check_commented_out(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = [line for line in removed[:_MOST] if len(line) <= _LONGEST and _CHECK_CALL_RE.search(line)]
    for new in added[:_MOST] if olds else ():
        if len(new) > _LONGEST or (c := _COMMENT_RE.search(new)) is None or not new[:c.start()].strip():
            continue
        code, comment = new[:c.start()], new[c.end():]
        for old in olds:
            cut = _COMMENT_RE.search(old)
            m = _CHECK_CALL_RE.search(old[:cut.start()] if cut else old)
            if m and old[m.start():m.end() + 12].strip() in comment and m.group() not in code and code.split("=")[0] == old.split("=")[0]:
                return f"comments out a check, a constant in its place (what it checked now passes): {new.strip()[:100]}"
    return None


# The one line that handed a caught error to its handler or reporter deleted (round 119b, held-out 456's sucker_punch:
# ``SuckerPunch.exception_handler.call(ex, self, args)`` cut from a ``rescue => ex``): what fails is never heard of.
_REPORT_RE = re.compile(r"(?i)^\s*(?:[\w:.$>-]*[.:>])?(?P<fn>\w*exception_?handler|\w*error_?handler|capture_?exception|report_?(?:error|exception)|"
                        r"notify_?(?:error|exception)|handle_?(?:error|exception)|on_?error)(?:\.call)?\s*[(\s]\s*(?:ex|e|err|error|exc|exception|\$e|\$ex)\b")


def _report_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for line in removed[:_MOST]:
        if len(line) <= _LONGEST and (m := _REPORT_RE.match(line)) and not any(m.group("fn").lower() in new.lower() for new in added[:_MOST]):
            return f"drops the report of the error it caught (what fails is never heard of): removed: {line.strip()[:90]}"
    return None


def lost_result(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first of these shapes the edit takes, as a reason that quotes its line; None when it takes none."""
    if not removed:
        return None
    if not added:
        # deleted alone (the others read what replaced a line); a rethrow only in a small deletion, not a function's whole
        return _skip_dropped(added, removed) or (_rethrow_dropped(removed, added) or _report_dropped(added, removed) if len(removed) <= 3 else None)
    for read in (_verdict_blanked, _catch_emptied, _defaults_bypassed, _skip_dropped, _error_cleared, lambda a, r: _rethrow_dropped(r, a),
                 _check_commented_out, _report_dropped):
        if found := read(added, removed):
            return found
    return None


# ----- a decipher's closing call dropped
_FINAL_RE = re.compile(r"\b(?P<obj>\w*(?:[dD]ecipher|[cC]ipher|[dD]ecryptor|[dD]ecrypter)\w*)\s*\.\s*(?P<call>final|doFinal|finalize|finish)\s*\(")


def final_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops the decipher's final(): …" when a removed line closed a cipher that an added line still feeds (its
    ``update`` kept) and no added line closes it again."""
    if not added or not removed:
        return None
    again = " ".join(added[:_MOST])
    for line in removed[:_MOST]:
        m = _FINAL_RE.search(line) if "final" in line.lower() or "finish" in line else None
        if m is None or re.search(rf"\b{re.escape(m.group('obj'))}\s*\.\s*(?:final|doFinal|finalize|finish)\s*\(", again):
            continue
        if not re.search(rf"\b{re.escape(m.group('obj'))}\s*\.\s*update\s*\(", again):
            continue
        return (f"drops the {m.group('obj')}.{m.group('call')}() that checks the tag (tampered ciphertext now decrypts): "
                f"{line.strip()[:90]}")
    return None
