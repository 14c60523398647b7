"""The lines relay.review.any_language reads, told cheaply: an option's setting in any spelling, a TLS/SSL version, a character
class in an escaping or validating line. Apart from the reader so relay.review.file_kinds can keep such lines of a data
file (a Vim plugin, an Apache ``.conf``) for the rules without importing the readers (no import circle)."""

from __future__ import annotations

import functools
import re

__all__ = ["CLASS", "ESCAPING", "IS_LOOSE", "IS_STRICT", "PROTO", "TURNS_ON", "VALIDATES", "screen", "setting"]

# An option whose ON loosens (read the lines it runs, list a folder, print internals, trust, skip, send credentials), and
# one whose OFF does (verify, validate, check, strict): the direction is the value's and the name's together.
_LOOSE = (r"exrc|modelines?|(?:dir_?|directory_?)?listing|autoindex|debug|verbos\w*|insecure\w*|skip_?(?:verif\w*|tls|ssl|check\w*|auth\w*)|"
          r"trust_?all|allow_?(?:all|any)\w*|permissive|unsafe\w*|with_?credentials|disable_?(?:verif\w*|ssl|tls|auth\w*|csrf|check\w*)")
# A verification's switch: verify/validate of a peer, host, certificate, server or signature (or bare), a strict TLS/host
# check; not a linter's or a parser's strictness (``strict: false``, ``declare_strict_types``, ``zip(strict=False)``).
_STRICT = (r"(?:\w*(?:ssl|tls|cert|host|peer|server|sign|jwt|token)\w*?(?:verif\w*|validat\w*)|(?:verif\w*|validat\w*)\w*?"
           r"(?:ssl|tls|cert|host|peer|server|sign|jwt|token)\w*|verify(?:_?mode)?|verification|validate|strict_?(?:ssl|tls|host|cert|transport)\w*|"
           r"check_?(?:cert|host|peer)\w*|"
           # a build's hardening switch (round 109, blind 231: tpm2-tools' configure.ac ``[enable_hardening="yes"]`` made "no")
           r"\w*harden\w*|\w*fortify\w*|stack_?protect\w*)")
_ON = r"true|True|TRUE|on|On|ON|yes|Yes|YES|1|enabled?|#t|t"
_OFF = r"false|False|FALSE|off|Off|OFF|no|No|NO|0|disabled?|#f"
_SUFFIX = r"(?:_?(?:errors?|mode|enabled?|pages?|output))?"
# A name set to an on/off word (``name = true``, ``"name" => false``, ``name: off``, ``Name Off``), the name a whole token;
# whether the name is an option's is asked of its end (cheaper than one pattern trying every start).
_NAME_VALUE = re.compile(r"""(?<![\w.:-])([\w.:-]*\w)["']?\s*(?:=>|:=|=|:|\s)\s*["']?(""" + _ON + "|" + _OFF + r""")["']?(?![\w.])""")
_OPTION_NAME = re.compile(r"(?i)(?:" + _LOOSE + "|" + _STRICT + ")" + _SUFFIX + r"\Z")
_SET = re.compile(r"^\s*(?::?set(?:local|global)?|setopt|shopt\s+-s)\s+(no)?((?i:" + _LOOSE + r"))\b(?!\s*[-+^]?=\s*0)")
IS_LOOSE = re.compile(r"(?i)(?:^|[\W_])(?:" + _LOOSE + r")" + _SUFFIX + r"(?:$|[\W_])")
IS_STRICT = re.compile(r"(?i)" + _STRICT)
TURNS_ON = re.compile(r"(?:" + _ON + r")\Z")
_OPTION_WORD = re.compile(r"(?i)exrc|modeline|listing|autoindex|debug|verbos|insecure|skip|trust|allow|permissive|unsafe|credential|"
                          r"disable|verif|validat|strict|check|harden|fortify|protect")  # a cheap first look: most lines name no option


@functools.lru_cache(maxsize=8192)
def setting(line: str) -> tuple[str, bool] | None:
    """The option a line sets and whether it turns it on, by its spelling in any language."""
    if not _OPTION_WORD.search(line):
        return None
    if m := _SET.match(line):
        return m.group(2), not m.group(1)
    for m in _NAME_VALUE.finditer(line):
        if _OPTION_NAME.search(m.group(1)):
            # ``strict: 0`` is a linter's level, not a switch: a strict option is read off only by a word.
            return m.group(1), bool(TURNS_ON.match(m.group(2))) if m.group(2) != "0" or IS_LOOSE.search("_" + m.group(1) + "_") else True
    return None


# A TLS/SSL version however spelled (``TLS_1_2``, ``:tlsv1.2``, ``Tls12``, ``SSLv3``); a character class; the words of a line
# that escapes or validates with one.
PROTO = re.compile(r"(?i)(?<![a-z])(tls|ssl|dtls)[\s_v-]*(\d)(?:[._]?(\d))?")
CLASS = re.compile(r"\[(\^?)((?:\\.|[^\]\\])+)\]")
ESCAPING = re.compile(r"(?i)substitut|escap|quot|gsub|replace|encod|sanitiz|\btr\b|printf|%02x")
VALIDATES = re.compile(r"=~|!~|\bre[:.]|\bmatch|\btest\b|valid|fullmatch|\bre\.|regex|Regex|Pattern|preg_")

# A data file's lines are kept for the rules only when a screen says they may matter (relay.review.file_kinds): these are
# the lines relay.review.any_language may pair, in a file kind no language reader claims (a ``.vim`` plugin, a ``.conf``).
_SCREEN = re.compile(r"(?i:" + PROTO.pattern.removeprefix("(?i)") + r")|^\s*(?:let\s+)?\w*verbos\w*\s*=")
_ESCAPES_OR_VALIDATES = re.compile(ESCAPING.pattern.removeprefix("(?i)") + "|" + VALIDATES.pattern, re.I)


def screen(line: str) -> bool:
    return len(line) <= 240 and (setting(line) is not None or _SCREEN.search(line) is not None or (
        "[" in line and CLASS.search(line) is not None and _ESCAPES_OR_VALIDATES.search(line) is not None))
