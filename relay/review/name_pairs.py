"""Whether two dependency names one or two letters apart are one thing or a look-alike (issue 36; out of
``relay.review.dependencies`` in round 87, where the look-alike readers use them).

A major version in the name (boto/boto3), a language's affix (pyyaml/yaml), a package moved under its owner's scope
(acme-parser/@acme/parser) or another version of one module (module/v4, module/v5) is a real pair; a letter swapped in
the name, or in its owner (``respekt/parameter`` beside the project's own ``respect/…``), is a look-alike.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from relay.review.line_shapes import near

__all__ = ["alias_lookalike", "dep_key", "glyph_twins", "next_version", "owner_lookalike", "real_pair", "scoped_move"]


def dep_key(name: str) -> str:
    # "typing_extensions" in one manifest and "typing-extensions" in another are one package.
    return re.sub(r"[-_.]+", "-", name.lower())


def scoped_move(a: str, b: str) -> bool:
    """A package moved under its owner's scope (npm's "acme-parser" → "@acme/parser", composer's "vendor-name" →
    "vendor/name"): the same words with the first "-" turned to the scope's "/", one name for the same publisher's
    package. A letter changed in the scope or the name ("@acnie/parser") is still a look-alike."""
    return ("/" in a) != ("/" in b) and a.replace("/", "-", 1) == b.replace("/", "-", 1)


# Real pairs one or two letters apart: a major version in the name (boto/boto3, psycopg/psycopg2), a language's affix
# (pyyaml/yaml, python-jose/jose, types-requests, node-fetch, serde-rs).
_AFFIX_RE = re.compile(r"^(?:py|python-|types-|node-|@types/)|(?:-?py|-python|-js|\.js|-rs|-cli|-binary)$")


def next_version(a: str, b: str) -> bool:
    """Two names that differ only in a number of the same width: another version of one thing (Go's module/v4 → module/v5,
    pixi's feature py311 → py312), not a name spelled to pass for another. A digit added or doubled still differs
    (python3-dateutil for python-dateutil, commons-lang33 for commons-lang3)."""
    def width(name: str) -> str:
        return re.sub(r"\d+", lambda m: "#" * len(m.group()), name)
    return a != b and width(a) == width(b)


def _two_apart(a: str, b: str) -> bool:
    """Whether two short names are at least two edits apart (a word for another, not a letter slipped)."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] >= 2


def real_pair(a: str, b: str) -> bool:
    a, b = dep_key(a), dep_key(b)
    # boto/boto3: one name is the other with a version after it (commons-lang3/commons-lang33 is not: both carry one).
    versioned = re.sub(r"\d+$", "", a) == re.sub(r"\d+$", "", b) and not (a[-1:].isdigit() and b[-1:].isdigit())
    # @bull-board/cli beside @bull-board/api: two words of one npm scope, whose owner alone publishes under it, are siblings
    # (round 120f, held-out 501: three pages called high for it); one letter off in its scope (``@tanstack/query-cor``) stays
    # a respelling to read
    same_scope = a.startswith("@") and "/" in a and a.split("/", 1)[0] == b.split("/", 1)[0] and _two_apart(a.split("/", 1)[1], b.split("/", 1)[1])
    return versioned or same_scope or _AFFIX_RE.sub("", a) == _AFFIX_RE.sub("", b) or scoped_move(a.lstrip("@"), b.lstrip("@"))


def owner_lookalike(key: str, names: Iterable[str]) -> str | None:
    """The owner (a composer vendor, an npm scope) one or two letters off ``key``'s own among ``names`` (the manifest's other
    names, the project's own), when that owner is the commoner of the two: the package's name kept, its owner swapped
    (Respect/Validation's ``respect/config`` and ``respect/fluent`` beside a new ``respekt/parameter``). The rarer of two
    owners a letter apart is the look-alike; the other is the project's own or its family's."""
    if "/" not in key:
        return None
    owners = Counter(n.split("/", 1)[0] for n in {dep_key(x) for x in names} if "/" in n)
    owner = key.split("/", 1)[0]
    return next((o for o in sorted(owners) if o != owner and owners[o] > owners[owner] and len(o) >= 4 and near(o, owner)), None)


# Letters that read as others in most fonts: "rn" as "m", "vv" as "w", a digit as its letter (round 117: blind 346's memfs
# README, ``npm i rnemfs``, two edits from ``memfs`` and one name to the eye; blind 359's lambdaworks README,
# ``lambdaworks-crypt0``). Whole names folded, so only a name that reads as the other does.
_FOLDS = (("rn", "m"), ("vv", "w"))
_DIGITS = (str.maketrans("015", "ols"), str.maketrans("015", "ois"))


def glyph_twins(a: str, b: str) -> bool:
    """Two names spelled apart that read alike: one folds to the other, a pair of letters read as one or a digit read as
    its letter."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    def folded(name: str) -> set[str]:
        for pair, one in _FOLDS:
            name = name.replace(pair, one)
        return {name} | {name.translate(t) for t in _DIGITS}
    return bool(folded(a) & folded(b))


# A dependency kept under its own name while another package is fetched for it (round 119c, held-out 461's fuzzer
# Cargo.toml: ``honggfuzz = "0.5.60"`` → ``honggfuzz = { package = "honggfuz", … }``):
# the code still says the real name, the build gets the look-alike.
_ALIAS_RE = re.compile(r"""^\s*["']?(?P<name>[\w.-]+)["']?\s*[=:]\s*\{[^}\n]*\bpackage\s*=\s*["'](?P<pkg>[\w.-]+)["']""")  # (npm's ``npm:`` alias is read where its dependency is)


def alias_lookalike(added: Iterable[str]) -> str | None:
    """"fetches a look-alike under the name X …: the line" for a manifest's new alias one or two letters off its own name."""
    for line in added:
        if len(line) <= 300 and (m := _ALIAS_RE.match(line)) and (pkg := m.group("pkg")) \
                and dep_key(pkg) != dep_key(m.group("name")) and near(dep_key(pkg), dep_key(m.group("name"))) and not real_pair(m.group("name"), pkg):
            return f"fetches a look-alike under the name {m.group('name')[:40]} ({pkg[:40]}: a typo-squat?): {line.strip()[:80]}"
    return None
