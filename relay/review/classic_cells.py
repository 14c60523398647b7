"""Classic risks in the spellings the kind x ecosystem matrix found unread (issue 36, round 17 part B).

bench/plant_matrix/classic.json writes each classic kind the way each ecosystem writes it, in code, a docs sample, a
config, a manifest and CI. What the older readers missed there, read here as families:

- a credential written as a bare setting value: ``password: hunter2-prod-Xk29!`` in YAML, ``Environment=DB_PASSWORD=…``
  in a systemd unit, ``MAIL_PASSWORD=…`` in an env template, ``export SHOP_TOKEN=…`` in a README: a key named for a
  credential set to a literal that mixes lower case, upper case and digits (a reference — ``${…}``, ``%(…)``,
  ``<…>``, ``ENC(…)`` — a path, a URL or a placeholder is not one);
- a shell run with ``-c`` and text built in the line, where the interpreter is an argument: .NET's
  ``Process.Start("/bin/sh", $"-c …{name}")``, Elixir's ``System.cmd("sh", ["-c", "… #{name}"])``, Node's
  ``spawn("sh", ["-c", `… ${name}`])``;
- Ruby's ``instance_eval``/``class_eval``/``module_eval`` of a value (not a block, not a heredoc);
- escaping dropped in Razor: ``@Html.Raw(…)``, Blazor's ``(MarkupString)``;
- SQL built by Rust's ``format!("SELECT … '{}'", …)``;
- CORS opened by a PHP array (``'allowed_origins' => ['*']``), ASP.NET's detailed errors and exception details on;
- (round 20 part B, held-out 25/26's docs samples) a value keyed on a forwarding header any client sets
  (``limiter.consume(req.headers['x-forwarded-for'] || ip)``, ``r.Header.Get("X-Real-IP")``); a query ordered by a request
  parameter (``collection.order(params[:sort])``, ``->orderBy($request->input('sort'))``: SQL through the column name);
  a sanitizer's allow-list given ``script`` or an event-handler attribute (``tags: %w(td script)``, ``ADD_ATTR: ['onerror']``).

The screens stay narrow: a docs file keeps every line a screen passes (relay.review.file_kinds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["CALLS", "VALUES", "paired"]

# A credential's key at the end of its name (DB_PASSWORD, api_key, SHOP_TOKEN; not token_endpoint, password_min_length),
# then a bare literal to the end of the line with lower case, upper case and a digit in it.
_CREDENTIAL_KEY = r"(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|auth[_-]?key)"
# (Every run stops at the next separator, ``=`` and ``:`` included, and so does each look-ahead: a crafted line of
# "token=token=…" is read in linear time, tests/test_review_backtracking.py.)
_V = r"[^\s'\"`$%{}<>()\[\]#;,=:]"  # (round 87: an index is code, ``password = hashParts[1]``, no literal)
_BARE_LITERAL = (r"(?P<atcred>(?!" + _V + r"*(?i:your|example|changeme|change_me|placeholder|dummy|fake|xxxx|redacted))(?!/)"
                 r"(?=" + _V + r"*[a-z])(?=" + _V + r"*[A-Z])(?=" + _V + r"*\d)" + _V + r"{8,}={0,2})")

VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("turns autoescaping off", ("html.raw", "markupstring", "@html"), re.compile(
        r"@?\bHtml\.Raw\s*\(\s*(?!['\"])|\(\s*MarkupString\s*\)\s*[\w@(]|\{@html\s+[\w$]")),
    # JPA/Hibernate queries have no SELECT to find: a query string joined with a value.
    ("builds SQL from text (SQL injection?)", ("createquery", "createnativequery", "createsqlquery"), re.compile(
        r"\bcreate(?:Native|SQL)?Query\s*\(\s*\"[^\"]*\"\s*\+\s*[\w(]")),
    ("makes files world-writable or access open", ("fromstring",), re.compile(r"\bPosixFilePermissions\.fromString\s*\(\s*\"[r-][w-][x-][r-][w-][x-]r?-?w")),
    ("opens CORS to any origin", ("origin",), re.compile(r"(?i)['\"](?:allowed_?origins?|allow_?origins?|cors_?origins?)['\"]\s*=>\s*\[?\s*['\"]\*['\"]")),
    ("turns debug mode on", ("detailederrors", "includeexceptiondetailinfaults"), re.compile(
        r"['\"]?\b(?:DetailedErrors|IncludeExceptionDetailInFaults)['\"]?\s*[:=]\s*['\"]?(?:true|True)\b")),
    ("builds SQL from text (SQL injection?)", ("format!",), re.compile(
        r"\bformat!\s*\(\s*\"(?i:[^\"]{0,200}?\b(?:select\b[^\"]{0,200}?\bfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|where))"
        r"[^\"]{0,300}?\{\w*(?::[^}\"]*)?\}")),
    ("keys on a header any client sets", ("forwarded-for", "forwarded_for", "real-ip", "real_ip", "client-ip", "client_ip", "connecting-ip"), re.compile(
        r"(?i)(?P<at>\b(?:req|request|ctx|c|r|this\.request))\.(?:headers?|get_?header|Header\.Get)\s*(?:\[|\.get\s*\(|\()\s*['\"]"
        r"(?:x-forwarded-for|x-real-ip|true-client-ip|x-client-ip|cf-connecting-ip)['\"]|"
        r"\$_SERVER\s*\[\s*['\"]HTTP_X_(?:FORWARDED_FOR|REAL_IP|CLIENT_IP)['\"]|\bMETA\s*(?:\[|\.get\s*\()\s*['\"]HTTP_X_(?:FORWARDED_FOR|REAL_IP)['\"]")),
    # An allow-list's own key (not forbid_tags or strip_tags: the word before is part of the name) given a tag or an
    # attribute that runs script.
    ("lets script through a sanitizer's allow-list", ("tags", "attr", "elements"), re.compile(
        r"(?i)(?<![\w-])(?:allowed_?|add_?|safe_?|permitted_?)?(?:tags|attr(?:ibute)?s?|elements)['\"]?\s*(?::|=>|=)\s*[^;=]{0,200}?"
        r"(?<![\w-])(?P<at>script|on(?:error|load|click|mouseover|mouseenter|focus|blur|change|submit|input|key(?:down|up|press)|toggle|begin))(?![\w-])")),
    # Round 57 (blind 82): a global looked up by a name the data carries (serialize-error's ``globalThis[name] ?? …``): any
    # constructor or function of the runtime can be picked by whoever writes the name; a service's switch that writes the
    # secret values it would mask into its logs (Ory's ``leak_sensitive_values: true``).
    ("reaches any global by a name from data", ("globalthis", "window", "global"), re.compile(
        r"\b(?:globalThis|window|global)\s*\[\s*(?![\"'`\d])[A-Za-z_$][\w$.]*\s*\]")),
    ("writes secret values into logs", ("sensitive", "secret", "credential", "password", "token", "redact"), re.compile(
        r"(?i)\b(?:leak|log|expose|reveal|show|print|unmask|include)_?(?:sensitive|secret|credential|password|token)s?(?:_?(?:values?|data|fields?))?"
        r"['\"]?\s*[:=]\s*['\"]?(?:true|yes|on|1)\b|\bredact(?:_?(?:secrets|sensitive|values))?['\"]?\s*[:=]\s*['\"]?(?:false|no|off)\b")),
)

# A shell's -c given text the line builds (interpolation or concatenation), the shell named as an argument.
_SHELL = r"['\"](?:/usr)?(?:/bin/)?(?:ba|z|da)?sh['\"]"
_BUILT = r"(?:#\{|\$\{|\$[A-Za-z_]|\{\w+\}|['\"]\s*\+|\+\s*['\"]|<>|\.\s*\$)"
CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    # (round 25 part C) any call, an anonymous function's ``f.(…)`` too, or an argv list: ``exec.CommandContext(ctx, "bash",
    # "-c", "… " + name)``, ``run.("sh", ["-c", cmd <> " " <> args])``, ``subprocess.run(["sh", "-c", f"… {name}"])``.
    ("runs a shell command built from text", ("sh\"", "sh'"), re.compile(
        r"(?:\b(?:Process\.Start|System\.cmd|spawn(?:Sync)?|execFile(?:Sync)?|Popen|run|cmd|Command(?:Context)?|Process(?:Builder)?|exec\w*|call|check_output|system)|"
        r"[\w$)]\s*\.)\s*\(\s*(?:\[\s*|(?:list|array)Of\(\s*|\w+\s*,\s*)?" + _SHELL +
        r"\s*,\s*(?:\[\s*|(?:list|array)Of\(\s*|new\s*(?:string)?\s*\[\]\s*\{\s*)?\$?['\"`]-c\b[^)]{0,300}?" + _BUILT)),
    ("runs text as code", ("_eval",), re.compile(r"\b(?:instance|class|module)_eval\s*\(?\s*(?![&{]|do\b|<<|['\"]|\))[\w@$]")),
    ("orders a query by a request parameter (SQL through the column name)", ("order",), re.compile(
        r"(?:\.|->)(?:re)?order(?:_?by|By)?\s*\(\s*(?:[^()]{0,80}?[\s(,|])?(?:params\s*\[|params\.(?:get|fetch)\s*\(|"
        r"request\.(?:args|GET|POST|query_params|params|query|form)\b|req\.(?:query|body|params)\b|\$request->(?:input|get|query)\s*\(|"
        r"\$_(?:GET|POST|REQUEST)\b|Request\.Query\b)")),
)


_CREDENTIAL_RE = re.compile(r"(?P<key>(?i:[\w.-]{0,40}?" + _CREDENTIAL_KEY + r"))['\"]?\s*[:=]\s*" + _BARE_LITERAL + r"\s*(?:#.*)?$")
_CREDENTIAL_SCREEN_RE = re.compile(r"(?i)passw|pwd|secret|token|key")
# What relay.review.setting_turns already says of a settings file: a long key-like value there is its reason, not this.
_SETTINGS_FILE_RE = re.compile(r"(?i)\.(?:ya?ml|ini|cfg|conf|toml|properties|env)$|(?:^|/)\.[\w.-]*rc$")


# The same literal as a call's second argument after its quoted key (PHP's define('DB_PASSWORD', '…'), a map's
# put("password", "…")), or a connection string's Password=…; (a settings file's JSON value).
_CREDENTIAL_ARG_RE = re.compile(r"['\"](?P<key>(?i:[\w.-]{0,40}?" + _CREDENTIAL_KEY + r"))['\"]\s*,\s*['\"]" + _BARE_LITERAL + r"['\"]|"
                                r"(?<![\w])(?P<key2>(?i:password|pwd))=" + _BARE_LITERAL.replace("atcred", "atcred2") + r"(?=;|['\"])")


_ARG_LINE = 300  # a longer line is minified code or data, not a call that sets a credential
_NAME_RE = re.compile(r"[A-Za-z_$][\w$]*")


def paired(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A credential written as a bare setting value on an added line that did not stand before, as "what: key: the
    value's first characters…" (the reason never shows a credential whole); or ASP.NET's developer exception page
    taken out of its Development-only branch."""
    before = {line.strip() for line in removed}
    if any("UseDeveloperExceptionPage" in line for line in added) and any("IsDevelopment()" in line for line in removed):
        return "turns debug mode on: the developer exception page no longer only in Development (UseDeveloperExceptionPage)"
    for line in added:
        text = line.strip()
        if not text or text in before or _CREDENTIAL_SCREEN_RE.search(text) is None:
            continue
        # A .properties value's # is a character, a comment only opens a line (round 109, blind 231: java-spiffe's
        # ``mavenCentralPassword=Xk7#pR2…``); read as a letter, quoted as written.
        m = _CREDENTIAL_RE.search(text.replace("#", "x") if path.endswith(".properties") and not text.startswith(("#", "!")) else text)
        arg = _CREDENTIAL_ARG_RE.search(text) if m is None and len(text) <= _ARG_LINE else None
        # (a minified file's or a source map's list of names puts "password" before a name, not a value)
        if arg is not None and not _NAME_RE.fullmatch(value := arg.group("atcred") or arg.group("atcred2")):
            return f"hard-codes a credential ({(arg.group('key') or arg.group('key2')).strip()}: {value[:6]}…)"
        if m is None:
            continue
        value = text[m.start("atcred"):m.end("atcred")]
        if _SETTINGS_FILE_RE.search(path) and re.fullmatch(r"[A-Za-z0-9_+/-]{20,}=*", value):
            continue
        return f"hard-codes a credential in a setting ({m.group('key').strip()}: {value[:6]}…)"
    return None
