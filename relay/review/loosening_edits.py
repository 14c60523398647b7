"""The kinds of edit ``relay.review.edit_direction`` judges worth a look rather than high: a switch whose name says
permissive turned on, an exact match loosened (an Elixir pin dropped, ``===`` made ``==``), configuration or the
environment put into a message, how long a token or session stays valid made unbounded or ten times longer, a checking
call swapped for its unchecked twin, a credential written to a log line as a value. Split from ``edit_direction`` (at its
500 lines) by job; each reads a pair of sides and returns its quoted reason, or None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from relay.review.line_shapes import squeezed, window
from relay.review.small_edits import centred

__all__ = ["config_in_message", "credential_logged", "lifetime_raised", "permissive_switch", "pin_dropped", "similar", "unchecked_twin"]

_SHOWN = 60


def similar(a: str, b: str) -> bool:
    """Two lines alike enough to be one edited (half their squeezed text in common)."""
    return SequenceMatcher(None, squeezed(a), squeezed(b), autojunk=False).ratio() >= 0.45


# ----- a permissive switch turned on
_PERMISSIVE = r"\w*(?:[Ll]enien|[Pp]ermissive|[Rr]elax|[Ii]nsecure|[Uu]nsafe|[Ll]oose|[Aa]llow_?(?:[Ii]nsecure|[Uu]nsafe|[Uu]nsigned|[Uu]nverified|[Uu]ntrusted|[Aa]ny|[Aa]ll|[Aa]nonymous|[Ii]nvalid|[Ee]xpired|[Ss]elf_?[Ss]igned|[Ww]eak|[Pp]lain))\w*"
_SWITCH_ON_RE = re.compile(r"\b(?P<name>" + _PERMISSIVE + r")\b['\"]?\s*(?:\{\s*get;\s*set;\s*\}\s*=|=>|[=:])\s*(?:true|True|TRUE|1|yes|on)\b")
_SWITCH_RE = re.compile(r"\b(?P<name>" + _PERMISSIVE + r")\b")


def permissive_switch(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added:
        m = _SWITCH_ON_RE.search(new)
        if m is None:
            continue
        name = m.group("name")
        old = next((line for line in removed if re.search(r"\b" + re.escape(name) + r"\b", line)), None)
        if old is None or _SWITCH_ON_RE.search(old):
            continue  # a new switch written on is a feature's own; only one that stood off (or unset) and is now on
        a, b = centred(old.strip(), new.strip())
        return f"turns a permissive switch on ({name}): {a} → {b}"
    return None


# ----- a credential written to a log line
_LOG_CALL_RE = re.compile(r"(?i)\b(?:log(?:ger)?\w*\s*\.\s*(?:debug|info|warn\w*|error|fatal|trace|notice|printf?|println)|console\s*\.\s*(?:log|info|debug|warn|error)|"
                          r"Logger\.\w+|logging\.\w+|print(?:ln|f)?!?|puts|pp|fmt\.(?:Print|Fprint)\w*|System\.(?:out|err)\.print\w*|echo|"
                          r"error_log|var_dump|dbg!|eprintln!|Console\.Write\w*|NSLog|os_log|slog\.\w+|zap\.\w+|tracing::\w+!?)\s*[(!\s]")
_CREDENTIAL = (r"(?i:password|passwd|passphrase|secret|api_?key|apikey|private_?key|access_?token|refresh_?token|auth_?token|id_?token|bearer_?token|"
               r"client_?secret|credentials?|session_?(?:token|secret|key)|signing_?key|secret_?key|decaps_?key|decryption_?key|(?<![a-z])pin(?![a-z]))")
# The credential as a value: an argument, an interpolation, a field read, its encoding (``secret.base32``); not a word of prose.
_CREDENTIAL_VALUE_RE = re.compile(r"(?:#\{|\$\{|\{|,\s*|\+\s*|\(\s*)(?:[\w.]*\.|[\w.]*\[['\"])?\$?(?P<name>\w*" + _CREDENTIAL + r"\w*)['\"]?\]?\s*(?:\(\s*\))?(?:\.(?:to_\w+|as_\w+|expose\w*|reveal\w*|unwrap|bytes|hex\w*)\(\s*\))*(?:\.(?:base32|base64|hex|ascii|b64)\b)?\s*[})\],+]")


_MEASURED_BEFORE_RE = re.compile(r"(?i)(?:len|length|size|count|bool|is_?\w+|hash\w*|mask\w*|redact\w*|digest|sha\d*|md5|type|typeof)\s*\(\s*(?:[\w.]*\.)?\$?$")
_MEASURED_AFTER_RE = re.compile(r"\s*\.\s*(?:length|size|len|count|is_\w+|present\?|nil\?|empty|blank\?|any\?|isEmpty|IsEmpty|hash)")


def credential_logged(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for new in added:
        if squeezed(new.strip()) in before or (call := _LOG_CALL_RE.search(new)) is None:
            continue
        m = _CREDENTIAL_VALUE_RE.search(new, call.end() - 1)
        if m is not None and (_MEASURED_BEFORE_RE.search(new[:m.start("name")]) or _MEASURED_AFTER_RE.match(new[m.end("name"):])):
            continue  # its length, its presence, its hash: not the credential itself
        if m is not None and not re.search(r"(?i)length|len\b|count|size|_?set\b|present|exists|valid|changed|reset|hash|masked|redact|_id\b|_?url|path|file|expir|name|type", m.group("name")):
            return f"writes a credential ({m.group('name')}) to a log: {window(new.strip(), m.start() - len(new) + len(new.lstrip()), m.end(), _SHOWN)}"
    return None


# ----- a checking call swapped for its unchecked twin
_CALLED_RE = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*(?:::<[^>]*>)?\s*[(!]")  # from a name's start: no retry inside a long word


def _unchecked_names(name: str) -> set[str]:
    """The names a call's unchecked or unsafe twin goes by (``from_utf8`` → ``from_utf8_unchecked``, ``safe_join`` →
    ``join``, ``checked_add`` → ``wrapping_add``/``add``, ``safeLoad`` → ``load``)."""
    cap = name[:1].upper() + name[1:]
    twins = {f"{name}_unchecked", f"unchecked_{name}", f"{name}_unsafe", f"unsafe_{name}", f"{name}Unchecked", f"{name}Unsafe",
             f"unsafe{cap}", f"unchecked{cap}", f"dangerously{cap}", f"Unsafe{cap}"}
    for head in ("safe_", "checked_", "safe", "Safe", "checked"):
        if name.startswith(head) and len(name) > len(head) + 2:
            rest = name[len(head):]
            twins |= {rest, rest[:1].lower() + rest[1:], f"wrapping_{rest}", f"unchecked_{rest}"}
    for tail in ("_safe", "Safe", "_checked", "Checked"):
        if name.endswith(tail) and len(name) > len(tail) + 2:
            twins.add(name[:-len(tail)])
    return twins


_SAFE_ARG_RE = re.compile(r"\bsafe\s*(?::|=)\s*(?:true|True)\b")


def _receiver(line: str, name: str) -> str:
    """What a call of ``name`` in ``line`` is called on: the word before its ``.``/``::`` ("" for a bare call)."""
    m = re.search(r"(?:(\w+)\s*(?:\.|::))?\b" + re.escape(name) + r"\s*(?:::<[^>]*>)?\s*[(!]", line)
    return (m.group(1) or "") if m else ""


def unchecked_twin(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    old_calls = {name for line in removed for name in _CALLED_RE.findall(line)}
    if not old_calls:
        return None
    new_calls = {name for line in added for name in _CALLED_RE.findall(line)}
    # Each call the change dropped, by the names its twins go by: one look-up per call of the new side.
    twin_of = {twin: name for name in old_calls - new_calls for twin in _unchecked_names(name)}
    for new in added:
        if squeezed(new.strip()) in before:
            continue
        for twin in _CALLED_RE.findall(new):
            if twin in old_calls:
                continue
            if (name := twin_of.get(twin)) is not None:
                # The twin is called where the checked call stood (the same receiver: ``yaml.safe_load`` → ``yaml.load``);
                # another object's method of that name, or one told to be safe (``safe: true``), is another call.
                if _receiver(new, twin) not in {_receiver(line, name) for line in removed if name in line} or _SAFE_ARG_RE.search(new):
                    continue
                if len(twin) >= 4:
                    at = new.find(twin)
                    return f"calls the unchecked twin of {name}(): {window(new.strip(), max(0, at - len(new) + len(new.lstrip())), at + len(twin), _SHOWN)}"
    return None


# ----- how long a token, session or link stays valid, made unbounded or ten times longer
_LIFETIME_RE = re.compile(r"(?i)\b(?P<name>\w*(?:max_?age|ttl|expires?_?(?:in|after)|expiry|expiration|lifetime|valid_?for)\w*)['\"]?\s*(?:=>|[=:])\s*"
                          r"(?:(?i:\w*env\w*)\s*\(\s*['\"]\w+['\"]\s*,\s*)?(?P<value>\d+(?:\.\d+)?|None|null|nil|undefined|-1|Infinity|float\(\s*['\"]inf['\"]\s*\)|math\.inf|\w+::MAX)\b")
_LIVES_RE = re.compile(r"(?i)token|session|cookie|jwt|otp|nonce|reset|signature|signed|auth|password|magic_?link|invite|verification|confirm")


def lifetime_raised(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    old: dict[str, tuple[float, str]] = {}
    for line in removed:
        for m in _LIFETIME_RE.finditer(line):
            if m.group("value").replace(".", "", 1).isdigit() and float(m.group("value")) > 0:
                old.setdefault(m.group("name").lower(), (float(m.group("value")), line))
    for line in added:
        if squeezed(line.strip()) in before:
            continue
        for m in _LIFETIME_RE.finditer(line):
            name, value = m.group("name").lower(), m.group("value")
            if name not in old or not (_LIVES_RE.search(name) or _LIVES_RE.search(line) or _LIVES_RE.search(path)):
                continue
            number = float(value) if value.replace(".", "", 1).isdigit() else None
            if number is None or number >= 10 * old[name][0]:
                a, b = centred(old[name][1].strip(), line.strip())
                return f"lets it stay valid {'without end' if number is None else 'far longer'} ({m.group('name')}): {a} → {b}"
    return None


# ----- an exact match loosened
_PIN_RE = re.compile(r"\^(?P<var>[a-z_]\w*)")
_LOOSE_EQ_EXTS = ("js", "jsx", "ts", "tsx", "mjs", "cjs", "php", "vue", "svelte")
_CONDITION_RE = re.compile(r"\b(?:if|elseif|while|return|unless)\b|&&|\|\||\?")


def pin_dropped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    for old in removed:
        if ext in ("ex", "exs", "erl", "hrl") and (pins := list(_PIN_RE.finditer(old))):
            for pin in pins:
                var = pin.group("var")
                for free in (var, "_" + var, "_"):
                    loose = squeezed((old[:pin.start()] + free + old[pin.end():]).strip())
                    new = next((line for line in added if squeezed(line.strip()) == loose), None)
                    if new is not None:
                        a, b = centred(old.strip(), new.strip())
                        return f"drops a pin (any value now matches): {a} → {b}"
        if ext in _LOOSE_EQ_EXTS and ("===" in old or "!==" in old) and _CONDITION_RE.search(old):
            loose = squeezed(old.replace("===", "==").replace("!==", "!=").strip())
            new = next((line for line in added if squeezed(line.strip()) == loose), None)
            if new is not None:
                a, b = centred(old.strip(), new.strip())
                return f"loosens a strict comparison (=== → ==): {a} → {b}"
    return None


# ----- configuration or the environment put into a message
_SINK_RE = re.compile(r"(?i)\b(?:raise|throw|panic|abort|die|log\w*|logger|warn\w*|error|info|debug|puts|print\w*|console|echo|say|"
                      r"Errorf|Sprintf|Exception|Error|fail)\b")
_ENV_DUMP_RE = re.compile(r"\bENV\.(?:to_h|to_hash|to_a|inspect|each|map|select|reject|sort)\b|inspect\(\s*ENV\s*\)|#\{\s*ENV\s*\}|"
                          r"\bos\.environ\b(?!\s*\[|\s*\.(?:get|setdefault|pop|copy|update)\b)|\bprocess\.env\b(?![.\[])|\bos\.Environ\(\)|"
                          r"\bSystem\.getenv\(\s*\)|\bEnvironment\.GetEnvironmentVariables\(\)|\bSystem\.get_env\(\s*\)")
_CONFIG_RE = re.compile(r"(?i)(?:inspect|to_s|repr|str|dumps?|stringify|pformat|pp|format)\s*\(\s*(?P<expr>(?:[\w.]+\.)?(?:config|configuration|settings|credentials|secrets)(?:\(\s*\))?)\s*\)|"
                        r"(?:#\{|\$\{|\{)\s*(?P<expr2>(?:[\w.]+\.)?(?:config|configuration|credentials|secrets)(?:\(\s*\))?)\s*\}")
_ENV_PAIR_RE = re.compile(r"(?:#\{|\$\{|\{)\s*(?:k|key|name|var)\s*\}\s*[=:]\s*(?:#\{|\$\{|\{)\s*(?:v|val|value)\s*\}")
_ENV_WORD_RE = re.compile(r"\b(?:env|ENV|environ|Environ|environment)\b")


def config_in_message(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    logs = "log" in path.rsplit("/", 1)[-1].lower()
    for new in added:
        if squeezed(new.strip()) in before or not (_SINK_RE.search(new) or logs):
            continue
        if (m := _ENV_DUMP_RE.search(new)) is not None and _SINK_RE.search(new):
            return f"puts the whole environment into a message: {window(new, m.start(), m.end(), _SHOWN)}"
        if _ENV_WORD_RE.search(new) and (m := _ENV_PAIR_RE.search(new)) is not None:
            return f"writes environment values into a message (key=value): {window(new, m.start(), m.end(), _SHOWN)}"
        if (m := _CONFIG_RE.search(new)) is not None and _SINK_RE.search(new):
            expr = m.group("expr") or m.group("expr2")
            old = next((line for line in removed if similar(line, new) and expr not in line), None)
            if old is not None:  # a message that stood without the configuration now carries it
                a, b = centred(old.strip(), new.strip())
                return f"puts configuration ({expr}) into a message: {a} → {b}"
    return None
