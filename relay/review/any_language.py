"""A changed line read in any language by its tokens, not by a grammar (issue 36, round 30).

The blind first runs of held-out 41 and 42 left most of their low plants in languages no reader parses (Vim script, OCaml,
Haskell, Crystal, Clojure, Scala) or in files the kinds call data (a ``.vim`` plugin, an Apache ``.conf``): an option turned
on, a protocol floor lowered, a check's result bound to a wildcard, a program run through a shell string, a character
dropped from an escape set. Each is a turn of a few tokens that reads the same in every language. This module pairs each
screened changed line with the line it replaced (relay.review.turned_lines' pairing) and names the turn's direction; a
line with no partner (a file the change adds, a setting appended) is read alone where its shape says enough.

High (the direction is clearly unsafe):
- a verification setting turned off (``ValidateServer Off``, ``verify_peer: false``, ``strict = no``);
- a TLS/SSL version floor lowered, however spelled (``TLS_1_2`` → ``TLS_1_0``, ``:tlsv1.2`` → ``:tlsv1``, ``"1.2"`` → ``"1.0"``
  beside a protocol word);
- a program run through a shell string built by joining where it was run from its own arguments;
- a check's result discarded where it was used (``let* () = verify …`` → ``let _ = verify …``, ``_ <- check``,
  ``(void) verify(…); return 0;``);
- a path or URL built from the raw value where the normalised one stood (``join(root, expanded)`` → ``join(root, requested)``);
- a query's bound parameter (``= ?``, ``= $1``, ``= :id``, ``= %s``, ``= @id``) written again as the value put into the
  text, in a query's call (never a log line's);
- a secure transport's name turned to its plain sibling (``https`` → ``http`` in a URL or a module's name, ``wss`` → ``ws``,
  ``transport => tls`` → ``tcp``).

Worth a look (the turn may be the safe one in some code; the file is never low and the line is quoted first):
- an option that loosens turned on (``set exrc``, ``nomodeline`` → ``modeline``, ``listing => true``, ``verbose = true``
  where a condition chose it, ``with_credentials = true``);
- a loop or length bound shrunk by one (``i < n`` → ``i + 1 < n``, ``<=`` → ``<``): the last element is skipped;
- a character dropped from an escape set, or a validation pattern's class widened (``[A-Za-z0-9_]`` → ``[^ ]``);
- an error branch turned into a default (``throw …`` gone, ``case _ => false`` / ``| _ -> Ok`` / ``rescue nil`` added), or a
  match arm that granted a value for one case widened to every case (``| Some x when … ->`` → ``| _ when … ->``);
- a unit conversion added to or removed from a time compared for expiry (``now`` → ``now / 1000``, ``from_sec(exp)``).

A line relay.review.risky_lines already names unsafe (``verify=False``) is said once, by it: ``unsafe_value`` outranks
``any_turn`` (relay.review.rules).

Quiet: the safe direction (an option turned off, a floor raised, a bound grown, a character added to an escape set, a
check's result now used), renames (the same token changed on every side), comments (by the file's comment marks),
``let _ =`` on a call that checks nothing, tests, docs and release notes (the rows' scope).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from relay.core.contracts import FileChange
from relay.review.any_screen import CLASS, ESCAPING, IS_LOOSE, IS_STRICT, PROTO, TURNS_ON, VALIDATES, setting
from relay.review.line_shapes import clipped, squeezed
from relay.review.turned_lines import Pairing, changed, code_lines, said

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["ANY_HIGH_EXAMPLE", "ANY_LOOK_EXAMPLE", "any_high_check", "any_look_check", "any_turn_high", "any_turn_look"]

# Comment marks of languages the shared filter does not know (a Vim script's ``"``, OCaml's ``(*``, Lisp's ``;``, Erlang's
# and TeX's ``%``, Fortran's ``!``, a config file's ``#``/``;``): a comment line names options it does not set.
_COMMENTS = {"vim": ('"',), "ml": ("(*",), "mli": ("(*",), "fs": ("(*", "//"), "hs": ("--", "{-"), "clj": (";",), "cljs": (";",),
             "erl": ("%",), "hrl": ("%",), "f90": ("!",), "f": ("!", "c ", "C "), "tcl": ("#",), "conf": ("#", ";"),
             "ini": ("#", ";"), "cfg": ("#", ";"), "cr": ("#",), "nim": ("#",), "r": ("#",), "jl": ("#",), "ps1": ("#",),
             "el": (";",), "lisp": (";",), "scm": (";",), "rkt": (";",), "m": ("%",), "bat": ("REM", "rem", "::"), "vb": ("'",)}


def _code(path: str, lines: Sequence[str]) -> list[str]:
    marks = _COMMENTS.get(path.rsplit(".", 1)[-1].lower(), ())
    return [ln for ln in code_lines(lines) if not (marks and ln.lstrip().startswith(marks))]


# ---------------------------------------------------------------------------------------------- options turned on or off
_ASSIGN = re.compile(r"^\s*((?:let\s+|var\s+|const\s+|@)?[\w.@:$]+)\s*(?:=|:=)\s*(?!=)(.+?)\s*;?\s*$")


def _loosens(name: str, on: bool) -> str | None:
    """``"on"``/``"off"`` when setting ``name`` so loosens what it guards (a loose option on, a strict one off)."""
    if IS_LOOSE.search("_" + name + "_"):
        return "on" if on else None
    # (a state, ``validated = false``, is no setting; a build's ``enable_hardening`` is, however it ends)
    if IS_STRICT.search(name) and not on and (not re.search(r"(?:ed|ing|ions?)$", name) or name.endswith("hardening")):
        return "off"
    return None


def _options(added: Sequence[str], removed: Sequence[str], strict: bool) -> str | None:
    before = {}
    for ln in removed:
        if (s := setting(ln)) is not None:
            before.setdefault(s[0].lower().strip("\"':@"), s[1])
    had = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in had or (s := setting(new)) is None:
            continue
        name, on = s
        key = name.lower().strip("\"':@")
        way = _loosens(key, on)
        if way is None or before.get(key) == on or (way == "off") != strict:
            continue
        shown = name.strip("\"':@").split(".")[-1]  # ``this.withCredentials``: the option's own name
        what = (("turns the build's hardening off" if re.search(r"(?i)harden|fortify|protect", key) else "turns a verification setting off")
                if way == "off" else f"turns {clipped(shown, 30)} on")
        return said(what + (f" (it was {'on' if way == 'off' else 'off'})" if key in before else ""), new)
    if strict:
        return None
    # A loose option a condition chose now set on outright (``x = env == "prod" ? false : true`` → ``x = true``).
    old_by_name = {m.group(1): m.group(2) for ln in removed if (m := _ASSIGN.match(ln))}
    for new in added:
        if (m := _ASSIGN.match(new)) and TURNS_ON.match(m.group(2)) and IS_LOOSE.search("_" + m.group(1).split(".")[-1] + "_"):
            was = old_by_name.get(m.group(1))
            if was is not None and not TURNS_ON.match(was) and re.search(r"\?|\bif\b|==|!=|\band\b|\bor\b|&&|\|\|", was):
                return said(f"turns {clipped(m.group(1), 30)} on always (the condition that chose it dropped)", new)
    return None


# ---------------------------------------------------------------------------------------------- a protocol floor lowered
_PROTO_WORD = re.compile(r"(?i)tls|ssl|protocol|min_?version|version_?min|minimum")
_QUOTED_VERSION = re.compile(r"""["']([0-3])\.(\d)["']""")


def _versions(line: str) -> list[tuple[int, int]]:
    out = []
    for m in PROTO.finditer(line):
        major, minor = int(m.group(2)), int(m.group(3) or 0)
        # SSL 2/3 come before TLS 1.0; TLS 1.x as itself ("tlsv1" is 1.0, "TLS13" is 1.3).
        if m.group(1).lower() == "ssl":
            out.append((0, major))
        else:
            out.append((major, minor))
    if not out and _PROTO_WORD.search(line):
        out = [(int(a), int(b)) for a, b in _QUOTED_VERSION.findall(line)]
    return out


def _floor_lowered(lines: Pairing) -> str | None:
    for old, new in lines.pairs(_PROTO_WORD, 0.6):
        if re.search(r"(?i)\bmax", new) and not re.search(r"(?i)\bmin", new):
            continue  # a ceiling lowered is not a floor
        was, now = _versions(old), _versions(new)
        if was and now and min(now) < min(was) and min(now) < (1, 2):
            a, b = min(was), min(now)
            name = lambda v: f"SSL {v[1]}" if v[0] == 0 else f"TLS {v[0]}.{v[1]}"  # noqa: E731
            return said(f"lowers the minimum protocol version ({name(a)} → {name(b)}: a downgrade)", new)
    return None


# ---------------------------------------------------------------------------------------------- a shell string where an argv stood
# A shell as the program run (a JavaScript template literal's backticks are no shell; ``System.out`` is no ``system``).
_SHELL = re.compile(r"\bshell\b|(?<![.\w])system\s*[(\"'$]|\bpopen\b|\bsh\s+-c\b|[\"']-c[\"']|(?i:\bcmd(?:\.exe)?\s*/c\b)|\bos[:.]cmd\b|"
                    r"(?i:\binvoke-expression\b)|\biex\b|\bos\.execute\b|%x[({\[]|"
                    # Ruby's exec, spawn or system given one joined string runs it through sh (blind 55's foreman: ``exec(*args)`` →
                    # ``exec args.join(" ")``).
                    r"(?<![.\w])(?:exec|spawn)\s*\(?\s*[\w.@]+\.join\b")
_JOINED = re.compile(r"\bunwords\b|\bjoin\b|\bconcat\w*\b|\+\+|\s\.\.\s|\s\+\s|\$\{|#\{|\\\(|%s|\bformat\b|\bsprintf\b|\bstr\b|<>|\s\.\s|&\s*\"")
_RUNS = re.compile(r"(?i)\bproc\b|process|spawn|exec|\brun\b|command|\bcmd\b|\bcall\b")  # how an argv is run


def _shell_string(lines: Pairing) -> str | None:
    for old, new in lines.pairs(_SHELL, 0.4):
        if _SHELL.search(old) or not _RUNS.search(old) or not _JOINED.search(new):
            continue
        return said("runs a program through a shell string joined from its arguments (it ran them as an argv: injection)", new)
    return None


# ---------------------------------------------------------------------------------------------- a check's result discarded
_CHECKS = r"\w*(?:verif|valid|check|auth|decrypt|decaps|_dec\b|unseal|_open\b|compare|signature|ensure)\w*"
_DISCARDS = re.compile(r"^\s*(?:let\s+_\w*\s*=|_\w*\s*(?:=|<-|:=)(?!=)|ignore\s*\(?|\(void\)\s*|void\s+|discard\s+|drop\s*\(|"
                       r"_\s*=\s*)\s*(?:await\s+|try\s+|do\s+)?([\w.:']+)")
_USES = re.compile(r"^\s*(?:let[*%!]\w*|let\s+\(\)\s*=|return\b|if\b|match\b|case\b|try\b|[\w.()\s,]+<-|[\w.]+\s*(?:=|:=)(?!=)|\?|unless\b|assert|guard\b)")
_SUCCESS = re.compile(r"^\s*(?:return\s+(?:0|true|True|nil|None|Ok\b.*|OK|SUCCESS\w*)\s*;?|Ok\s*\(\s*\)|pure\s*\(\)|return\s*\(\)|:ok|true|0)\s*;?\s*$")


def _discarded(lines: Pairing) -> str | None:
    added, removed = lines.added, lines.removed
    had = {squeezed(ln) for ln in removed}
    for i, new in enumerate(added):
        if squeezed(new) in had or not (m := _DISCARDS.match(new)) or not re.fullmatch(_CHECKS, m.group(1).split(".")[-1], re.I):
            continue
        callee = m.group(1)
        name = callee.split(".")[-1]
        used = [ln for ln in (*removed, *added) if ln is not new and name in ln and _USES.match(ln) and not _DISCARDS.match(ln)]
        used += [old for old in [lines.partner(new)] if old is not None and _USES.match(old) and not _DISCARDS.match(old)]
        # Where it was used (bound, returned, tested), or where a success is returned right after it: its failure is lost.
        if used or any(_SUCCESS.match(ln) for ln in added[i + 1:i + 3]):
            return said(f"discards the result of a check ({clipped(callee, 40)}: its error is ignored)", new)
    return None


# ---------------------------------------------------------------------------------------------- a raw path where a normalised one stood
_NORMAL = re.compile(r"(?i)expand|normali[sz]|clean|canonical|resolv|sanitiz|escap|real_?path|safe|abs_?path|quoted")
_RAW = re.compile(r"(?i)raw|req|input|param|user|orig|unsafe|query|given|client|untrusted|incoming")  # the value as it came
_BUILDS = re.compile(r"(?i)join|path|url|uri|open|file|dir|send_file|redirect|\+\s*[\"']/")


def _raw_path(lines: Pairing) -> str | None:
    added, removed = lines.added, lines.removed
    for old, new in lines.pairs(_BUILDS, 0.6):
        turns = changed(old, new)
        if len(turns) != 1 or turns[0][0] != "replace" or len(turns[0][1]) != 1 or len(turns[0][2]) != 1:
            continue
        a, b = turns[0][1][0], turns[0][2][0]
        if not _NORMAL.search(a) or _NORMAL.search(b) or not _RAW.search(b) or not re.match(r"[A-Za-z_]\w+$", b):
            continue
        # A rename changes the token everywhere: the normalised name used nowhere new and the raw one nowhere old.
        if not any(re.search(rf"\b{re.escape(a)}\b", ln) for ln in added) and not any(re.search(rf"\b{re.escape(b)}\b", ln) for ln in removed):
            continue
        return said(f"builds a path from the raw value where the normalised one stood ({a} → {b}: traversal)", new)
    return None


# ---------------------------------------------------------------------------------------------- a secure transport's plain sibling
_PLAIN_OF = {"https": "http", "wss": "ws", "ftps": "ftp", "sftp": "ftp", "ldaps": "ldap", "imaps": "imap", "smtps": "smtp",
             "pop3s": "pop3", "tls": "tcp", "rediss": "redis", "amqps": "amqp", "mqtts": "mqtt", "grpcs": "grpc", "nntps": "nntp"}
_PLAIN = re.compile(r"(?i)(?<![\w-])(?:" + "|".join(sorted(set(_PLAIN_OF.values()))) + r")(?![\w-])")
_LOOPBACK = re.compile(r"(?i)localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0")


def _plain_sibling(lines: Pairing) -> str | None:
    """A secure transport's name turned to its plain sibling in place (``https`` → ``http`` in a URL, a module's or a
    transport option's name, ``wss`` → ``ws``, ``tls`` → ``tcp``): the bytes cross the network unencrypted."""
    for old, new in lines.pairs(_PLAIN, 0.7):
        if _LOOPBACK.search(new):
            continue
        turns = changed(old, new)
        if len(turns) == 1 and turns[0][0] == "replace" and len(turns[0][1]) == len(turns[0][2]) == 1:
            a, b = turns[0][1][0], turns[0][2][0]
            if _PLAIN_OF.get(a.lower()) == b.lower():
                return said(f"turns a secure transport to its plain sibling ({a} → {b}: unencrypted)", new)
    return None


# A query's bound parameter (``id = ?``, ``= $1``, ``= :id``, ``= %s``, ``= @id``) written again as the value put into the
# text (``id = '$id'``, ``= ${id}``, ``= #{id}``, ``= {id}`` in an f-string, ``= " + id``): SQL injection in any driver's API,
# where no SQL keyword stands on the line (Android's ``update(table, values, "id = ?", args)``).
_CMP = r"(?i:=|<>|!=|<=?|>=?|\blike\b|\bin\b)"
_BOUND = re.compile(_CMP + r"\s*\(?\s*(?:\?|\$\d+\b|:[A-Za-z_]\w*|%s|@[A-Za-z_]\w*)")
_PUT = re.compile(_CMP + r"\s*\(?\s*['\"]?\s*(?:\$\{|\$[A-Za-z_]|#\{|\{[A-Za-z_][\w.]*\}|['\"]\s*(?:\+|\.|\.\.|<>)\s*[\w$])")


# The call is a query's (a driver's or an ORM's), never a log line's: ``log.info("id = %s", id)`` made an f-string is not SQL.
_QUERYISH = re.compile(r"(?i)\b(?:query\w*|execute\w*|exec|update|delete|select|where|find\w*|raw\w*|sql\w*|prepare\w*|"
                       r"cursor|cur|db|jdbc|conn\w*|session|statement|stmt|cmd|\w*command\w*)\b")
_LOGGED = re.compile(r"(?i)\b(?:log\w*|logger|print\w*|console|warn\w*|info|debug|trace|error|message|msg|format)\s*[.(]")


def _binding_dropped(lines: Pairing) -> str | None:
    """A query's bound parameter replaced by the value written into its text."""
    for old, new in lines.pairs(_PUT, 0.5):
        if _BOUND.search(old) and not _BOUND.search(new) and _QUERYISH.search(old) and not _LOGGED.search(new):
            return said("puts a value into SQL text where it was a bound parameter (SQL injection)", new)
    return None


_HIGH = (_floor_lowered, _plain_sibling, _shell_string, _discarded, _raw_path, _binding_dropped)


_LAST: list[object] = [None, None, None, None]  # the lists last read (held, so ``is`` cannot match another), their pairing


def _read(path: str, added: Sequence[str], removed: Sequence[str]) -> Pairing:
    """The change's code lines paired, once for both rows: each asks of the same file in turn."""
    if _LAST[0] is added and _LAST[1] is removed and _LAST[2] == path:
        return _LAST[3]  # type: ignore[return-value]
    lines = Pairing(_code(path, added), _code(path, removed))
    _LAST[:] = [added, removed, path, lines]
    return lines


def any_turn_high(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first unsafe turn read by tokens, quoted; None when none."""
    lines = _read(path, added, removed)
    if not lines.added:
        return None
    return _options(lines.added, lines.removed, True) or next((found for read in _HIGH if (found := read(lines))), None)


# ---------------------------------------------------------------------------------------------- worth a look: bounds
_LOOP_CMP = re.compile(r"(?<![<>=-])(?:<=?|>=?)(?![<>])")
_PLUS_ONE = re.compile(r"\+\s*1[uUlLzZ]*\s*<=?(?![<=])")  # ``i + 1 < n``
_MINUS_ONE = re.compile(r"(?<![<>=-])<=?\s*[\w.\->()\[\]]+\s*-\s*1[uUlL]*\b")  # ``i < n - 1``
_OR_EQUAL = re.compile(r"(?<![<>=!])(<)=(?!=)")  # ``<=`` as an upper bound, not ``<<=`` or an arrow
_LOOP_HEAD = re.compile(r"^\s*(?:for|while|until|do)\b|\bwhile\b")
_BOUNDED = re.compile(r"(?i)\b(?:for|while|until|if|len|size|length|count|n)\b|\w+\.len")


def _bound_shrunk(lines: Pairing) -> str | None:
    for old, new in lines.pairs(_LOOP_CMP, 0.7):
        if not _LOOP_CMP.search(old) or not _BOUNDED.search(new):
            continue
        turns = changed(old, new)
        if len(turns) != 1:
            continue
        tag, a, b = turns[0]
        # ``i < n`` → ``i + 1 < n`` or ``i < n - 1``, ``<=`` → ``<``: the last element is no longer reached.
        shrunk = tag == "insert" and any(p.search(new) and not p.search(old) for p in (_PLUS_ONE, _MINUS_ONE))
        strict = bool(_LOOP_HEAD.search(new) and _OR_EQUAL.search(old)) and squeezed(_OR_EQUAL.sub(r"\1", old, count=1)) == squeezed(new)
        if shrunk or strict:
            return said("skips the last element: a loop or length bound shrunk by one (off-by-one)", new)
    return None


# ---------------------------------------------------------------------------------------------- character sets
_UNIT = re.compile(r"\\.|.")


# A line that escapes or validates with a character class: the only lines the class reader pairs (``a[i]`` lines are many).
_CLASS_LINE = re.compile(r"^(?=.*?(?:" + ESCAPING.pattern.removeprefix("(?i)") + "|" + VALIDATES.pattern + r")).*?" + CLASS.pattern, re.I)


def _quoted_classes(line: str) -> list[tuple[str, str]]:
    """The character classes a line holds inside a string or a regex literal (``Sequence[str]``, ``a[i]`` are not)."""
    return [(m.group(1), m.group(2)) for m in CLASS.finditer(line)
            if (head := line[:m.start()]).count("'") % 2 or head.count('"') % 2 or head.endswith(("/", "^"))
            or head.endswith("(") and "/" in head]  # a group in a regex literal (``s/([;&])/…/``)


def _class_turned(lines: Pairing) -> str | None:
    for old, new in lines.pairs(_CLASS_LINE, 0.6):
        was, now = _quoted_classes(old), _quoted_classes(new)
        if not was:
            continue
        if len(was) != len(now):
            continue
        for (neg_a, a), (neg_b, b) in zip(was, now):
            units_a, units_b = set(_UNIT.findall(a)), set(_UNIT.findall(b))
            if a == b and neg_a == neg_b:
                continue
            if ESCAPING.search(new) and neg_a == neg_b == "" and units_b < units_a:
                gone = "".join(sorted(units_a - units_b))
                return said(f"drops {clipped(gone, 12)} from the characters it escapes ([{a[:20]}] → [{b[:20]}])", new)
            metas = {u for u in units_b - units_a if not re.fullmatch(r"[A-Za-z0-9_]|[A-Za-z0-9]-[A-Za-z0-9]", u)}
            if VALIDATES.search(new) and (neg_b and not neg_a or neg_a == neg_b == "" and units_b > units_a and metas and "^" in new):
                return said(f"lets more characters pass as they are, unescaped (class widened: [{(neg_a + a)[:20]}] → "
                            f"[{(neg_b + b)[:20]}])", new)
    return None


# ---------------------------------------------------------------------------------------------- errors made defaults
_REFUSES = re.compile(r"\b(?:throw|raise|failwith\w*|invalid_arg|panic!?|error|Error|Err|Left|Failure|ex-info|abort|die)\b")
_CATCH_ALL = re.compile(r"^\s*(?:\|\s*)?(?:case\s+)?_\s*(?:when\b.*?)?(?:=>|->)\s*(?P<v>false|true|nil|None|null|0|Ok\b.*|Right\b.*|default\w*|\"\"|''|"
                        r"\[\]|\{\})\s*[;,]?\s*$|\brescue\b.*\b(?:nil|false|true)\s*$|\bwith\s+_\s*->\s*\w+|"
                        r"\b(?:Error|Err|Left|Failure|:error)\b[^=>-]*(?:->|=>)\s*(?:Ok|Right|Success|:ok|true)\b|"
                        r"\bcatch\b.*?(?:->|\{)\s*(?:return\s+)?(?:false|true|nil|null|0|default\w*)\s*;?\s*\}?\s*$")
_ARM = re.compile(r"^\s*(?:\||case\b)\s*(.+?)\s*(->|=>)\s*(.+)$")
_GRANTS = re.compile(r"(?i)null_|_null|allow|accept|grant|trust|\btrue\b|\bok\b|\bpass|auth|anonymous|\bany\b")
_REFUSAL_BODY = re.compile(r"^\s*(?:None|null|nil|false|Error|Err|Left|\[\]|raise|throw|fail)\b")


def _error_defaulted(lines: Pairing) -> str | None:
    added, removed = lines.added, lines.removed
    kept = {squeezed(ln) for ln in added}
    refused = [ln for ln in removed if _REFUSES.search(ln) and squeezed(ln) not in kept]
    if refused and sum(1 for ln in added if _REFUSES.search(ln)) < sum(1 for ln in removed if _REFUSES.search(ln)):
        had = {squeezed(ln) for ln in removed}
        for new in added:
            if _CATCH_ALL.search(new) and squeezed(new) not in had:
                return said(f"turns an error into a default, silently (was: {clipped(refused[0].strip(), 40)})", new)
    # A match arm that granted something for one case now matches every case (``| Some x ->`` → ``| _ ->``).
    for old, new in lines.pairs(_ARM, 0.5):
        a, b = _ARM.match(old), _ARM.match(new)
        if a and b and b.group(1).split()[0] == "_" and a.group(1).split()[0] != "_" and squeezed(a.group(3)) == squeezed(b.group(3)) \
                and _GRANTS.search(b.group(3)) and not _REFUSAL_BODY.match(b.group(3)):
            return said(f"widens a match arm to every value (was: {clipped(a.group(1), 30)})", new)
    return None


# ---------------------------------------------------------------------------------------------- a time's unit turned
_TIME = re.compile(r"(?i)\bexp\b|expir|\bttl\b|deadline|not_?before|\bnbf\b|\biat\b|\bnow\b|issued|max.?age|valid_?until|lifetime")
_CONVERTS = re.compile(r"(?i)^(?:1000|1000000|1e3|1e6|1e9|1000000000|60|3600|86400)$|from_?sec|to_?sec|from_?milli|to_?milli|millis|"
                       r"\w*seconds?\b|usec|msec|\w*_ms$|from_?micro|time_from|sec_to|to_?epoch|epoch_?sec")


def _unit_turned(lines: Pairing) -> str | None:
    for old, new in lines.pairs(_TIME, 0.6):
        if not _TIME.search(old):
            continue
        turns = changed(old.replace("'", '"'), new.replace("'", '"'))  # round 82: ``['exp']`` → ``["exp"]`` beside the unit is no turn
        if not turns or any(tag == "replace" for tag, _, _ in turns) or len({tag for tag, _, _ in turns}) != 1:
            continue
        moved = [t for _, a, b in turns for t in (*a, *b)]
        if len(moved) <= 8 and any(_CONVERTS.search(t) for t in moved):
            way = "adds" if turns[0][0] == "insert" else "drops"
            shown = clipped(" ".join(t for t in moved if t not in "()"), 30)
            return said(f"{way} a unit conversion on a time compared for expiry ({shown}: which unit?)", new)
    return None


_LOOK = (_bound_shrunk, _class_turned, _error_defaulted, _unit_turned)


def any_turn_look(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first turn worth a look read by tokens, quoted; None when none."""
    lines = _read(path, added, removed)
    if not lines.added:
        return None
    return _options(lines.added, lines.removed, False) or next((found for read in _LOOK if (found := read(lines))), None)


def any_high_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``any_turn``)."""
    return any_turn_high(f.path, f.change.added_lines, f.change.removed_lines)


def any_look_check(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule's check (relay.review.rules, ``any_turn_look``)."""
    return any_turn_look(f.path, f.change.added_lines, f.change.removed_lines)


def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


# The rows' examples and near misses (relay.review.rules): a Nim TLS floor lowered and raised; a Zig loop's bound shrunk by
# one and grown.
ANY_HIGH_EXAMPLE = (
    _fc("src/transport.nim", ["  ctx.minProtocol = TLSv1_2"], ["  ctx.minProtocol = TLSv1_0"]),
    "lowers the minimum protocol version (TLS 1.2 → TLS 1.0: a downgrade): ctx.minProtocol = TLSv1_0",
    _fc("src/transport.nim", ["  ctx.minProtocol = TLSv1_0"], ["  ctx.minProtocol = TLSv1_2"]),
)
ANY_LOOK_EXAMPLE = (
    _fc("src/mac.zig", ["    while (i < tag.len) : (i += 1) {"], ["    while (i + 1 < tag.len) : (i += 1) {"]),
    "skips the last element: a loop or length bound shrunk by one (off-by-one): while (i + 1 < tag.len) : (i += 1) {",
    _fc("src/mac.zig", ["    while (i + 1 < tag.len) : (i += 1) {"], ["    while (i < tag.len) : (i += 1) {"]),
)
