"""A dependency line in a docs page's sample respelled to a look-alike (issue 36, round 75).

A README's Gemfile, Cargo, Gradle, Maven, NuGet, package.json or requirements sample is what its reader pastes into a
manifest of their own: the same line back with the package's name one or two letters off (``gem 'shoulda-matchers'``
→ ``gem 'shoulda-matcher'``, blind 106's shoulda-matchers README) installs someone else's package for every reader who
copies it. A page's install commands are ``relay.review.dependencies.installed_lookalike``'s; this reads the manifest
lines those commands leave out (the line shapes are ``relay.review.sample_code.dependency_line``'s).

Only the direction a squat takes is read: from a name the project is known by (its root manifests' own names) or a
widely used package's, to a name that is neither. A page fixing its own typo goes the other way (``shoulda-matcher`` →
``shoulda-matchers``) and stays quiet; so does a name moved to a real sibling (``boto`` → ``boto3``, a version in the
name, a scope move: ``relay.review.dependencies.looks_alike``), and a line whose other words changed too.

Round 84 (blind 119): a sample's dependency kept by its key but pointed at another package whose name holds the key
(orion's README ``orion = { version = "*" }`` → ``orion = { package = "orion-crypto", … }``; npm's ``"name":
"npm:other@…"``), and ``import_respelled``: a code host's module path respelled in one segment (survey's README ``import
"github.com/AlecAivazis/survey/v2"`` → ``AlecAivazls``), in a sample or in code. Round 117 (blind 356, 359): a new sample's
module path one segment off go.mod's own, and a respelled name that reads as the old one (``crypt0``: ``name_pairs.glyph_twins``)
whoever's name the old one was.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from relay.review.dependencies import dep_key, looks_alike
from relay.review.line_shapes import near, window
from relay.review.manifest_lines import any_version
from relay.review.name_pairs import glyph_twins
from relay.review.sample_code import IMPORTED_RE, MODULE_PATH_RE, dependency_line
from relay.review.words import POPULAR_PACKAGES

__all__ = ["import_respelled", "respelled_in_sample"]

_POPULAR = frozenset(dep_key(name) for name in POPULAR_PACKAGES)
_SCAN = 400  # a page's changed lines read, each side


def _named(line: str) -> tuple[str, int, int] | None:
    """The dependency's name on a sample's manifest line, with where it stands."""
    m = dependency_line(line)
    if m is None:
        return None
    group = next(g for g in ("n", "n2", "n3", "n4", "n5", "n6", "n7") if m.group(g))
    return m.group(group), m.start(group), m.end(group)


_VERSION_LITERAL_RE = re.compile(r"""(["'])[\^~<>=v*\s]*(?:\d[\w.+-]*|dev-[\w./-]+|latest|\*)\1""")


def _around(line: str, start: int, end: int) -> str:
    """The line with its name (``start``:``end``) and its quoted versions taken out."""
    return _VERSION_LITERAL_RE.sub('"V"', line[:start]) + "\0" + _VERSION_LITERAL_RE.sub('"V"', line[end:])


def respelled_in_sample(added: Sequence[str], removed: Sequence[str], own: Collection[str] = ()) -> str | None:
    """"respells a dependency in a sample to a look-alike of X (a typo-squat?): the line" for the first added manifest line
    that is a removed one with only its package's name turned one or two letters off a known name (see the module's doc)."""
    olds: dict[str, list[str]] = {}
    for line in removed[:_SCAN]:
        if (found := _named(line)) is not None:
            name, start, end = found
            # The line with its name taken out: the new line must be the same around its own name, but for a version moved
            # with it (round 96: phpass's README, ``"hautelook/phpass": "dev-master"`` → ``"hautelok/phpass": "1.0.0"``).
            olds.setdefault(_around(line, start, end), []).append(name)
    known = {dep_key(name) for name in own} | _POPULAR
    for line in added[:_SCAN] if olds else ():
        if (found := _named(line)) is None:
            continue
        name, start, end = found
        for old_name in olds.get(_around(line, start, end), ()):
            was, now = dep_key(old_name), dep_key(name)
            # A name the page had respelled to read as itself (``lambdaworks-crypt0``) is a squat whoever's name it was; a
            # letter changed is one only of a name known to be the real one (a page's own typo is fixed the other way).
            if was == now or now in known or (was not in known and not glyph_twins(was, now)) or len(was) < 4 or not looks_alike(was, now):
                continue
            return (f"respells a dependency in a sample to a look-alike of {old_name[:40]} (a typo-squat?): "
                    f"{window(line, start, end, 70, 12)}")
    # a sample's pinned dependency made to take any version (round 119c, held-out 470's rootbeer README: ``'com.scottyab:
    # rootbeer-lib:0.1.0'`` → ``:+'``): every reader's build takes whatever is published next
    return (_renamed_to_lookalike(added, removed, known) or _imported_lookalike(added, removed, {dep_key(name): name for name in own})
            or _own_path_respelled(added, removed, own) or any_version([line for line in added[:_SCAN] if dependency_line(line)], removed[:_SCAN]))


def _imported_lookalike(added: Sequence[str], removed: Sequence[str], own: dict[str, str]) -> str | None:
    """"imports a look-alike of X (a typo-squat?): the line" for a sample's new import of a package one or two letters off
    the project's own name (round 114, held-out 316's bech32 README: ``const bech32 = require('bech-32')``): the reader who
    installs what the sample imports installs someone else's package. A name the removed lines imported is the page as it was."""
    had = {dep_key(m["n"] or m["f"] or m["i"]) for line in removed[:_SCAN] for m in IMPORTED_RE.finditer(line)}
    for line in added[:_SCAN] if own else ():
        for m in IMPORTED_RE.finditer(line):
            name = m["n"] or m["f"] or m["i"]
            key = dep_key(name)
            if key in own or key in had or key in _POPULAR or any(key.startswith(k) for k in own):
                continue  # the project's own, the page as it was, a widely used package, a sibling (``bech32`` → ``bech32m``)
            if (old := next((own[k] for k in sorted(own) if len(k) >= 4 and looks_alike(k, key)), None)) is not None:
                at = line.find(name)
                return f"imports a look-alike of {old[:40]} (a typo-squat?): {window(line, at, at + len(name), 70, 12)}"
    return None


def _own_path_respelled(added: Sequence[str], removed: Sequence[str], own: Collection[str]) -> str | None:
    """"imports a look-alike of <own path> …" for a sample's new module path one segment off the project's own (go.mod's
    module; round 117, blind 356's cascadia README: a new example importing ``github.com/andybalhom/cascadia``): the reader
    who copies it fetches someone else's module. A path the removed lines had is the page as it was."""
    paths = [name.split("/") for name in own if MODULE_PATH_RE.fullmatch(f'"{name}"')]
    had = {m.group("path") for line in removed[:_SCAN] for m in MODULE_PATH_RE.finditer(line)} if paths else set()
    for line in added[:_SCAN] if paths else ():
        for m in MODULE_PATH_RE.finditer(line):
            new = m.group("path").split("/")
            for parts in paths if m.group("path") not in had else ():
                turned = [i for i, (a, b) in enumerate(zip(parts, new)) if a != b] if len(new) >= len(parts) else []
                if len(turned) != 1 or not 0 < turned[0] < 3:
                    continue  # the host and the rest kept, one of the owner or the name turned
                was, now = parts[turned[0]], new[turned[0]]
                if len(was) >= 4 and (near(was, now) or glyph_twins(was, now)) and re.sub(r"\d", "", was) != re.sub(r"\d", "", now):
                    return f"imports a look-alike of {'/'.join(parts)} ({was} → {now}: a typo-squat?): {window(line, m.start('path'), m.end('path'), 70, 12)}"
    return None


# A dependency kept by its key, the package behind it named apart: Cargo's ``key = { package = "other", … }``, npm's alias.
_RENAMED_RE = re.compile(r"""^\s*["']?(?P<key>[\w.@/-]+)["']?\s*[=:]\s*(?:\{[^}]*?\bpackage\s*=\s*["'](?P<other>[\w.-]+)["']|["']npm:(?P<alias>@?[\w./-]+?)@)""")
_KEYED_RE = re.compile(r"""^\s*["']?(?P<key>[\w.@/-]+)["']?\s*[=:]""")


def _renamed_to_lookalike(added: Sequence[str], removed: Sequence[str], known: Collection[str]) -> str | None:
    olds = {m.group("key") for line in removed[:_SCAN] if (m := _KEYED_RE.match(line)) and "package" not in line and "npm:" not in line}
    for line in added[:_SCAN] if olds else ():
        m = _RENAMED_RE.match(line)
        if m is None or m.group("key") not in olds:
            continue
        key, other = m.group("key"), m.group("other") or m.group("alias")
        if dep_key(key) == dep_key(other) or dep_key(other) in known:
            continue
        if re.match(rf"(?i){re.escape(key)}[-_.]?[a-z]", other) or looks_alike(dep_key(key), dep_key(other)):
            return f"points a sample's dependency {key} at a look-alike package ({other}: a typo-squat?): {window(line, m.start(), m.end(), 70, 12)}"
    return None




# Digits that stand for letters (round 110, blind 256's bigcache README: ``github.com/a11egro/bigcache``, two ones for two
# ells): folded, the owner reads as the one it imitates.
_DIGIT_LETTERS = str.maketrans("013457", "oleast")


def _digits_folded(name: str) -> str:
    return name.lower().translate(_DIGIT_LETTERS)


def import_respelled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"imports a look-alike of <path> (<segment> → <segment>: a typo-squat?) …" where a code host's module path comes
    back with one segment one or two letters off, the rest of the line kept."""
    olds: dict[str, list[str]] = {}
    for line in removed[:_SCAN]:
        for m in MODULE_PATH_RE.finditer(line):
            olds.setdefault("".join((line[:m.start("path")] + "\0" + line[m.end("path"):]).split()), []).append(m.group("path"))
    for line in added[:_SCAN] if olds else ():
        for m in MODULE_PATH_RE.finditer(line):
            new = m.group("path").split("/")
            for old in olds.get("".join((line[:m.start("path")] + "\0" + line[m.end("path"):]).split()), ()):
                parts = old.split("/")
                turned = [i for i, (a, b) in enumerate(zip(parts, new)) if a != b] if len(parts) == len(new) else []
                was, now = parts[turned[0]] if turned else "", new[turned[0]] if turned else ""
                if re.sub(r"\d", "", was) == re.sub(r"\d", "", now):
                    continue  # a version in the path moved (``jwt-go.v2`` → ``jwt-go.v3``: dgrijalva's README in ordinary history)
                if len(turned) == 1 and 0 < turned[0] < 3 and len(was) >= 4 and (near(was, now) or _digits_folded(was) == _digits_folded(now)):
                    return f"imports a look-alike of {old} ({parts[turned[0]]} → {new[turned[0]]}: a typo-squat?): {window(line, m.start('path'), m.end('path'), 70, 12)}"
    return _vanity_respelled(added, removed)


# A Go import from a vanity domain (``import "filippo.io/edwards25519"``, ``go get go.uber.org/zap``): the domain is the owner,
# respelled one or two letters off (round 89: edwards25519's README, blind 131, ``filipo.io``).
_VANITY_RE = re.compile(r"""^\s*(?:import\s+(?:\w+\s+)?|go\s+(?:get|install)\s+|\w+\s+)?["'`]?(?P<path>(?P<domain>[a-z0-9-]+(?:\.[a-z0-9-]+)+)/[\w./-]+?)(?:@[\w.-]+)?["'`]?\s*$""")


def _vanity_respelled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {m.group("path").split("/", 1)[1]: m.group("domain") for line in removed[:_SCAN] if (m := _VANITY_RE.match(line))}
    for line in added[:_SCAN] if olds else ():
        if (m := _VANITY_RE.match(line)) is None or (was := olds.get(m.group("path").split("/", 1)[1])) is None:
            continue
        now = m.group("domain")
        if was != now and len(was) >= 5 and near(was, now) and re.sub(r"\d", "", was) != re.sub(r"\d", "", now):
            return f"imports a look-alike of {was}/… ({was} → {now}: a typo-squat?): {window(line, m.start('path'), m.end('path'), 70, 12)}"
    return None
