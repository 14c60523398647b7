"""What a one-line turn now lets through, said from the line's own parts (issue 36, round 26 part B).

The first runs of held-out 33 and 34 flagged planted lines but said only what turned: "inverts a check", "turns false
into true", "deletes a check", "edit apart from the change", "build configuration". A leader deciding whether to look
needs what the line now lets through. Each reader below reads the edited pair (or the added line) and says the
consequence in words of its own, quoting the line; the reason is a note (``relay.review.rules``: it names, it does not
rank):

- a limiter's take allowed with nothing left: a returned ``false`` turned ``true`` beside a ``0`` left, or ``allowed``
  set true where it was computed from what is left, in a file about limits, quotas, tokens or buckets;
- an error path that fails open: a return of zero values and ``false`` (Go's error return, a refusal) replaced by one
  that returns values and ``true``;
- a mask dropped: ``'*'.repeat(x.length)``, ``"*" * len(x)``, ``strings.Repeat("*", …)``, ``mask(x)``/``redact(x)``, or
  a field's ``type: 'password'``, replaced on the same line by the plain value;
- a place moved to the shared temp root (``std::env::temp_dir()``, ``os.tmpdir()``, ``tempfile.gettempdir()``,
  ``os.TempDir()``, ``Path.GetTempPath()``, ``java.io.tmpdir``, ``Dir.tmpdir``, ``"/tmp"``): a name that was bound to
  a private place is bound there (a fresh ``mkdtemp``/``tempdir()`` is private and stays quiet);
- a test runner told to skip directories or tests (``norecursedirs``, ``--ignore=``, ``--deselect``, ``-k "not …"``,
  ``testPathIgnorePatterns``, ``collect_ignore``): the names it newly skips (build output, caches, vendored trees quiet);
- a shell run on a command joined into text (``'sh', '-c', ' '.join(cmd)``, ``os.system(" ".join(cmd))``,
  ``exec.Command("sh", "-c", strings.Join(…))``, ``.arg("-c").arg(format!(…))``): the argument list's quoting is lost;
- a compare made to exit at the first difference (``a[i] != b[i]`` then ``return false``, where a flag was set, or
  about hashes, MACs, secrets): timing says how much matched;
- a tolerance added to a time comparison (``x > y`` → ``x > y + 24 * 60 * 60``, or a duration with its unit: ``- 1.year``,
  ``timedelta(days=30)``, ``Duration.ofDays(7)``; round 27): what is that much out of date passes;
- a checking call replaced by its success value (``case cast(t, v) do`` → ``case {:ok, v} do``);
- a redirect target read from the request (a value keyed return/redirect/next/…, not checked on its line or the two
  after);
- a .NET package let float to any version (``Version="*"``).

``relay.review.turn_consequences`` says more such consequences (round 27), in its own note placed with the line readers.

The party guarded against is a worker that slips one such line into an ordinary change, where the readers that catch
it say only that something turned. Tests' own code stays quiet (a test masks, limits and uses a temp dir on purpose).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rule table's types; facts imports the readers, not the other way
    from relay.review.facts import FileFacts, RiskContext
from relay.review.line_shapes import Screen, clipped, squeezed

__all__ = ["SCREENS", "let_through"]

_SHOWN = 64


def _quote(line: str) -> str:
    return clipped(line, _SHOWN)


# ----- a limiter's take allowed when spent; an error path that fails open
_LIMITER_RE = re.compile(r"(?i)limit|quota|bucket|throttl|tokens|\btake\b|ratelimit|allowance")
_TRUE_RE = re.compile(r"\b(?:true|True|TRUE)\b")
_FALSE_RE = re.compile(r"\b(?:false|False|FALSE)\b")
_ZERO = frozenset({"0", "0.0", "nil", "None", "null", "false", "False", '""', "''", "0u", "0i64", "0u64", "time.Time{}", "{}", "[]"})
# ``allowed = remaining > 0`` → ``allowed = true``: the verdict no longer reads what is left.
_VERDICT_RE = re.compile(r"^\s*(?:let\s+|var\s+|const\s+|\$)?(?P<name>\w+)\s*(?::=|=|:)\s*(?P<value>[^;,]+)[;,]?\s*$", re.I)
_VERDICT_NAME_RE = re.compile(r"(?i)allow|^ok$|permit|pass")
_LEFT_RE = re.compile(r"(?i)remain|tokens|left|count|avail|budget|quota")


def _values(line: str) -> list[str] | None:
    """The values a return (or a tuple, an ``Ok(…)``) gives, split at commas; None for another line."""
    body = line.strip().rstrip(";").strip()
    if body.startswith("return "):
        body = body[len("return "):].strip()
    elif not body.startswith(("Ok(", "Some(", "(")):
        return None
    for opening in ("Ok(", "Some(", "("):  # ``Ok((a, b))``: each wrapper once, outermost first
        if body.startswith(opening) and body.endswith(")"):
            body = body[len(opening):-1].strip()
    return [part.strip() for part in body.split(",")]


def _spent_or_open(added: Sequence[str], removed: Sequence[str], limiter: bool) -> str | None:
    for old in removed:
        was = _values(old)
        for new in added:
            if limiter and (m := _VERDICT_RE.match(old)) and _VERDICT_NAME_RE.search(m.group("name")) and _LEFT_RE.search(m.group("value")):
                n = _VERDICT_RE.match(new)
                if n and n.group("name") == m.group("name") and _TRUE_RE.fullmatch(n.group("value").strip()):
                    return f"allows a request when the limit is exhausted (the verdict no longer reads what is left): {_quote(new)}"
            now = _values(new)
            if not was or not now or len(was) != len(now) or len(was) < 2:
                continue
            turned = [i for i, (a, b) in enumerate(zip(was, now)) if _FALSE_RE.fullmatch(a) and _TRUE_RE.fullmatch(b)]
            if len(turned) != 1:
                continue
            rest = [(a, b) for i, (a, b) in enumerate(zip(was, now)) if i != turned[0]]
            if all(a == b for a, b in rest):
                if limiter and any(b == "0" for _, b in rest):
                    return f"allows a request when the limit is exhausted (0 left, false → true): {_quote(new)}"
                continue
            if all(a in _ZERO for a in was) and not all(b in _ZERO for _, b in rest):
                said = "on an error it allows" + (" the request" if limiter else "")
                return f"fails open: {said} (zero values and false → true): {_quote(new)}"
    return None


# ----- a mask dropped
_MASK_RE = re.compile(r"""(?x)
    ['"`]\*{1,3}['"`]\s*\.repeat\(        # '*'.repeat(n)
  | ['"]\*['"]\s*\*\s*len\(              # "*" * len(x)
  | strings\.Repeat\(\s*"\*"             # Go
  | "\*"\.repeat\(                       # Rust
  | \.replace\([^)]*['"]\*+['"]          # .replace(/./g, '*')
  | \b(?:mask|redact|obfuscate|conceal)\w*\s*\(
  | \btype\s*[:=]\s*\{?\s*['"]password['"]
""", re.I)
_KEY_RE = re.compile(r"^\s*([\w$.\[\]'\"-]+)\s*[:=(]")


def _mask_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old in removed:
        if not _MASK_RE.search(old) or not (key := _KEY_RE.match(old)):
            continue
        for new in added:
            k = _KEY_RE.match(new)
            if k and k.group(1) == key.group(1) and not _MASK_RE.search(new) and squeezed(new) != squeezed(old):
                what = "the password field as plain text" if re.search(r"(?i)type\s*[:=]\s*\{?\s*['\"]password", old) else \
                    "the input it used to mask"
                return f"shows {what}: {_quote(new)}"
    return None


# ----- a place moved to the shared temp root
_SHARED_TMP_RE = re.compile(r"""std::env::temp_dir\(\)|\bos\.tmpdir\(\)|\btempfile\.gettempdir\(\)|\bos\.TempDir\(\)|"""
                            r"""\bPath\.GetTempPath\(\)|java\.io\.tmpdir|\bDir\.tmpdir\b|\bsys_get_temp_dir\(\)|"""
                            r"""['"]/tmp/?['"]|['"]/tmp/[\w.{}$-]*['"]""")
_TEMP_ALREADY_RE = re.compile(r"(?i)te?mp")
_BINDS_RE = re.compile(r"^\s*(?:let\s+(?:mut\s+)?|var\s+|const\s+|val\s+|my\s+|\$)?(?P<name>[\w.]+)\s*(?::[^=]+)?(?::=|=)(?!=)")


def _shared_tmp(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A temp dir made a fixed /tmp path is relay.review.looser_checks' read: here a private place made the shared root.
    bound = {m.group("name") for old in removed if (m := _BINDS_RE.match(old)) and not _TEMP_ALREADY_RE.search(old)}
    for new in added:
        if (m := _BINDS_RE.match(new)) and m.group("name") in bound and _SHARED_TMP_RE.search(new):
            return f"puts {m.group('name')} in a shared temp dir other users can write: {_quote(new)}"
    return None


# ----- a test runner told to skip directories or tests
_SKIP_KEY_RE = re.compile(r"""(?P<key>norecursedirs|--ignore(?:-glob)?|--deselect|testPathIgnorePatterns|collect_ignore(?:_glob)?|"""
                          r"""(?<![\w-])-k\b)""")
_ITEM_RE = re.compile(r"""--ignore(?:-glob)?=(\S+)|--deselect[= ](\S+)|['"]([^'"\s]+)['"]|\bnot\s+([\w.-]+)|(?<=[=\s,\[])([\w./*-]+)""")
_RUNNER_FILES = re.compile(r"(?:^|/)(?:pyproject\.toml|setup\.cfg|pytest\.ini|tox\.ini|conftest\.py|package\.json|"
                           r"(?:jest|vitest)\.config\.\w+|\.mocharc\.\w+)$")
# What runners are told to skip anyway: build output, caches, environments, vendored trees.
_ORDINARY = frozenset({".git", "node_modules", "build", "dist", ".tox", ".nox", "venv", ".venv", "env", "__pycache__", "htmlcov",
                       ".eggs", "*.egg", "*.egg-info", ".mypy_cache", ".pytest_cache", "coverage", ".cache", "docs", "site-packages",
                       "norecursedirs", "addopts", "testPathIgnorePatterns", "collect_ignore", "/node_modules/", "<rootDir>/node_modules/",
                       "[tool.pytest.ini_options]", "-k", "--ignore", "true", "false", "not", "and", "or", "-q", "-v", "-ra", "="})


def _items(line: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _ITEM_RE.finditer(line)} - _ORDINARY


def _tests_skipped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not _RUNNER_FILES.search(path):
        return None
    before = set().union(*(_items(old) for old in removed if _SKIP_KEY_RE.search(old))) if removed else set()
    for new in added:
        if not (m := _SKIP_KEY_RE.search(new)):
            continue
        fresh = sorted(item.strip("/") for item in _items(new[m.start():]) - before if not item.startswith("-"))
        if fresh:
            return f"skips tests under {', '.join(fresh[:3])} ({m.group('key')}): {_quote(new)}"
    return None


# ----- a shell run on a command joined into text
_JOINED_SHELL_RE = re.compile(r"""['"](?:ba|z)?sh['"]\s*,\s*['"]-c['"]\s*,\s*+(?!['"][^'"{}$%]*['"]\s*[,)\]])"""
                              r"""|\bos\.(?:system|popen)\(\s*(?:['"]\s*['"]\s*\.join|f['"]|[\w.]+\s*[%+])"""
                              r"""|\.arg\(\s*"-c"\s*\)\s*\.arg\(\s*(?:format!|&?\w+\.join\()"""
                              r"""|\bshell\s*=\s*True\b""")
_BUILT_RE = re.compile(r"""\.join\(|\bf['"][^'"]*\{|%\s*[\w(]|\+\s*\w|\bformat!?\(|Sprintf\(|\$\{""")


def _shell_joined(added: Sequence[str]) -> str | None:
    for new in added:
        m = _JOINED_SHELL_RE.search(new)
        # ``shell=True`` and ``os.system(cmd % x)`` say shell; the text must be built on the line for it to be this read.
        if m and (not m.group(0).startswith("shell") or _BUILT_RE.search(new)):
            return f"runs a shell on text joined from a command (quoting lost): {_quote(new)}"
    return None


# ----- a compare made to exit at the first difference (timing)
_INDEXED_NE_RE = re.compile(r"\b(\w+)\[(\w+)\]\s*!=\s*(\w+)\[\2\]")
_EXITS_RE = re.compile(r"^\s*(?:\}?\s*)?(?:return\s+(?:false|0|-1|False)\b|break\b)")
_FLAGS_RE = re.compile(r"^\s*\w+\s*(?:=\s*(?:false|0|False)\b|\|=)")
_SECRET_RE = re.compile(r"(?i)hash|digest|\bmac\b|hmac|secret|passw|token|signature|compare|equal")


def _early_exit(added: Sequence[str], removed: Sequence[str]) -> str | None:
    flagged = {m.group(0) for i, old in enumerate(removed) if (m := _INDEXED_NE_RE.search(old))
               and any(_FLAGS_RE.match(nxt) for nxt in removed[i + 1:i + 3])}
    for i, new in enumerate(added):
        m = _INDEXED_NE_RE.search(new)
        if not m or not any(_EXITS_RE.match(nxt) for nxt in (new.split("{", 1)[-1], *added[i + 1:i + 3])):
            continue
        if m.group(0) in flagged or _SECRET_RE.search(" ".join(added[max(0, i - 6):i + 1])):
            return f"compares {m.group(1)} and {m.group(3)} with an early exit at the first difference (timing leak): {_quote(new)}"
    return None


# ----- a tolerance added to a time comparison
# A slack of integer literals (``24 * 60 * 60``), or a duration spelt with its unit (Ruby's ``1.year``, Go's ``30 * 24 *
# time.Hour``, ``timedelta(days=30)``, ``Duration.ofDays(30)``).
_UNIT = r"(?:\.(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?)\b|\s*\*\s*time\.(?:Hour|Minute|Second)\b)"
_TOLERANCE_RE = re.compile(rf"\s*[+-]\s*(?P<slack>\d[\d_]*(?:\s*\*\s*\d[\d_]*)*{_UNIT}?"
                           rf"|(?:timedelta|Duration\.of\w+|TimeSpan\.From\w+)\(\s*(?:\w+\s*=\s*)?\d[\d_]*\s*\))")
_SECONDS = {"year": 31536000, "month": 2592000, "week": 604800, "day": 86400, "hour": 3600, "minute": 60, "second": 1,
            "Hour": 3600, "Minute": 60, "Second": 1}
_TIMEISH_RE = re.compile(r"(?i)modif|mtime|time|expir|\bage\b|stamp|date|now|stale|fresh")


def _tolerance(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A comparison's operator stands between spaces: ``Vector<K>``'s brackets are a type's (blind 98's vavr: an index's
    # ``- 1`` on a line holding ``Vector<K>`` and ``update`` had read as a tolerance on a date).
    olds = {squeezed(old) for old in removed if re.search(r"\s(?:<|>)=?\s", old) and _TIMEISH_RE.search(old)}
    for new in added:
        for m in _TOLERANCE_RE.finditer(new):
            if squeezed(new[:m.start()] + new[m.end():]) in olds:
                slack = m.group("slack")
                seconds = _product(slack)
                said = f" ({seconds} s, {seconds / 86400:g} day{'' if seconds == 86400 else 's'})" if seconds >= 3600 and "*" in slack \
                    and "time." not in slack else ""
                return f"lets through what is out of date by up to {' '.join(slack.split())}{said} (tolerance added): {_quote(new)}"
    return None


def _product(text: str) -> int:
    """``24 * 60 * 60`` → 86400: a product of integer literals, read without eval (a unit's literal is 0 here: the
    duration is said as written)."""
    out = 1
    for part in text.replace("_", "").split("*"):
        part = part.strip()
        out *= int(part) if part.isdigit() else 0
    return out


# ----- a checking call replaced by its success value
_CALL_RE = re.compile(r"[\w.:]*\b(?P<name>\w*(?:cast|valid|verif|check|parse|decode|convert|sanitiz|authori)\w*)\s*\(", re.I)
# Every checking call holds one of the words: the pattern's leading run of name characters is slow on a long line.
_CALL = Screen(("cast", "valid", "verif", "check", "parse", "decode", "convert", "sanitiz", "authori"), _CALL_RE)
_SUCCESS_RE = re.compile(r"^(?:\{\s*:ok\b|Ok\(|Right\(|Success\(|true\b|True\b|:ok\b)")


def _check_skipped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old in removed:
        if not (m := _CALL.search(old)):
            continue
        head, tail = old[:m.start()], old[m.end():]
        for new in added:
            if not new.startswith(head) or new == old:
                continue
            rest = new[len(head):]
            if _SUCCESS_RE.match(rest) and tail.rstrip().endswith(rest.rstrip()[-3:]):
                return f"skips {m.group('name')}: the value is taken as it came, its result assumed success: {_quote(new)}"
    return None


# ----- a redirect target read from the request
_REQUEST_VALUE_RE = re.compile(r"""(?:getGet|getVar|getPost|getParameter|query|args|params|form|searchParams|formData|GET|POST|REQUEST)"""
                               r"""(?:\.get)?\s*[(\[]\s*['"](?P<key>[\w-]*(?:return|redirect|next|continue|callback|goto|back_?url|dest)[\w-]*)['"]""", re.I)
_REDIRECTS_RE = re.compile(r"(?i)redirect|url|location|return")
_CHECKED_RE = re.compile(r"(?i)safe|allowed|valid|relative|same_?origin|startsWith\(\s*['\"]/|start_with\?\(\s*['\"]/|is_local")


def _redirect_value(added: Sequence[str]) -> str | None:
    for i, new in enumerate(added):  # checked on its line or the two after: quiet
        if not (m := _REQUEST_VALUE_RE.search(new)) or any(_CHECKED_RE.search(line) for line in added[i:i + 3]):
            continue
        # ``next`` is a pagination cursor as often as a redirect target: said only beside a redirect or URL.
        if m.group("key").lower() != "next" or _REDIRECTS_RE.search(new):
            return f"redirects to a URL the request supplies ({m.group('key')}, unchecked: open redirect): {_quote(new)}"
    return None


# ----- a dependency let float to any version
_FLOATING_RE = re.compile(r'(?i)(?:Include|name)\s*=\s*"(?P<pkg>[\w.-]+)"[^>]*?\bVersion\s*=\s*"[\d.]*\*"')


def _floating(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not path.lower().endswith((".csproj", ".fsproj", ".vbproj", ".props", ".targets")):
        return None
    for new in added:
        # A pinned one made "*" is relay.review.manifest_lines' read ("lets a pinned dependency take any version").
        if (m := _FLOATING_RE.search(new)) and not any(f'"{m.group("pkg")}"' in old for old in removed):
            return f"lets {m.group('pkg') or 'a package'} float to any version (wildcard \"*\", unpinned): {_quote(new)}"
    return None


def let_through(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """What the edit now lets through, in words of its consequence with the line quoted, or None."""
    if not added:
        return None
    limiter = bool(_LIMITER_RE.search(path)) or any(_LIMITER_RE.search(line) for line in (*added[:200], *removed[:200]))
    return (_spent_or_open(added[:200], removed[:200], limiter) or _mask_dropped(added[:200], removed[:200])
            or _shared_tmp(added[:200], removed[:200]) or _tests_skipped(path, added[:200], removed[:200]) or _shell_joined(added[:200])
            or _early_exit(added[:200], removed[:200]) or _tolerance(added[:200], removed[:200])
            or _check_skipped(added[:200], removed[:200]) or _redirect_value(added[:200]) or _floating(path, added[:200], removed[:200]))


def let_through_row(f: FileFacts, ctx: RiskContext) -> str | None:
    """The rule table's check (rules.py ``lets_through_note``): this reader on one file's changed lines."""
    return let_through(f.path, f.change.added_lines, f.change.removed_lines)


SCREENS = {"let_through.call": _CALL}  # proved by tests/test_screens.py
