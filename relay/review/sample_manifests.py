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
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from relay.review.dependencies import dep_key, looks_alike
from relay.review.line_shapes import window
from relay.review.sample_code import dependency_line
from relay.review.words import POPULAR_PACKAGES

__all__ = ["respelled_in_sample"]

_POPULAR = frozenset(dep_key(name) for name in POPULAR_PACKAGES)
_SCAN = 400  # a page's changed lines read, each side


def _named(line: str) -> tuple[str, int, int] | None:
    """The dependency's name on a sample's manifest line, with where it stands."""
    m = dependency_line(line)
    if m is None:
        return None
    group = next(g for g in ("n", "n2", "n3", "n4", "n5", "n6", "n7") if m.group(g))
    return m.group(group), m.start(group), m.end(group)


def respelled_in_sample(added: Sequence[str], removed: Sequence[str], own: Collection[str] = ()) -> str | None:
    """"respells a dependency in a sample to a look-alike of X (a typo-squat?): the line" for the first added manifest line
    that is a removed one with only its package's name turned one or two letters off a known name (see the module's doc)."""
    olds: dict[str, list[str]] = {}
    for line in removed[:_SCAN]:
        if (found := _named(line)) is not None:
            name, start, end = found
            # The line with its name taken out: the new line must be the same around its own name.
            olds.setdefault(line[:start] + "\0" + line[end:], []).append(name)
    known = {dep_key(name) for name in own} | _POPULAR
    for line in added[:_SCAN] if olds else ():
        if (found := _named(line)) is None:
            continue
        name, start, end = found
        for old_name in olds.get(line[:start] + "\0" + line[end:], ()):
            was, now = dep_key(old_name), dep_key(name)
            if was == now or now in known or was not in known or len(was) < 4 or not looks_alike(was, now):
                continue
            return (f"respells a dependency in a sample to a look-alike of {old_name[:40]} (a typo-squat?): "
                    f"{window(line, start, end, 70, 12)}")
    return None
