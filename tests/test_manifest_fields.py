"""A JSON manifest's own metadata (its repository's address, its issue tracker, its author) is not a dependency, and a
real dependency cannot pass for metadata (relay.review.manifest_fields).

Whom it guards against: the worker who adds a dependency from git to package.json and dresses it as metadata — the same
line copied into ``repository``, the dependency written on a minified line that also holds ``repository``, a package
named like a metadata field. Each is read as before: high, named.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from relay.review.manifest_fields import metadata_lines
from reviewed import review_edits

_BEFORE = {
    "name": "cookie-signature",
    "version": "1.0.0",
    "repository": {"type": "git", "url": "https://github.com/visionmedia/node-cookie-signature.git"},
    "dependencies": {"left-pad": "^1.3.0"},
}


def _manifest(**fields: object) -> str:
    return json.dumps({**_BEFORE, **fields}, indent=2) + "\n"


def _reasons(c) -> str:
    return " | ".join(c.reasons)


@pytest.mark.parametrize("fields", [
    # The repository moved (session 33: tj/node-cookie-signature, hapijs/cookie): its URL is not a git dependency.
    {"repository": {"type": "git", "url": "git+https://github.com/tj/node-cookie-signature.git"}},
    {"repository": "git://github.com/hapijs/cookie"},
    # The issue tracker given as a plain address (kpdecker/jsdiff), an author, funding.
    {"bugs": "http://github.com/kpdecker/jsdiff/issues"},
    {"author": {"name": "TJ", "url": "http://tjholowaychuk.com"}, "funding": {"type": "github", "url": "https://github.com/sponsors/tj"}},
])
def test_a_package_json_s_own_metadata_is_not_a_dependency(tmp_path: Path, fields: dict) -> None:
    risk, files = review_edits(tmp_path, {"package.json": _manifest(**fields)}, before={"package.json": _manifest()},
                               task="Update the package metadata")
    said = _reasons(files["package.json"])
    assert "adds a dependency" not in said and "git repository" not in said and "unauthenticated" not in said, said
    assert files["package.json"].risk != "high" and risk != "high", said


@pytest.mark.parametrize("fields", [
    # A package really named "url", from a fork, under dependencies: what npm installs.
    {"dependencies": {"left-pad": "^1.3.0", "url": "git+https://github.com/evil/url.git"}},
    # The same line also written into repository, to quiet its twin under dependencies.
    {"repository": {"type": "git", "url": "git+https://github.com/evil/url.git"},
     "dependencies": {"left-pad": "^1.3.0", "url": "git+https://github.com/evil/url.git"}},
    # A package named like a metadata field, under dependencies.
    {"dependencies": {"left-pad": "^1.3.0", "bugs": "github:evil/bugs"}},
])
def test_a_dependency_dressed_as_metadata_is_still_named(tmp_path: Path, fields: dict) -> None:
    risk, files = review_edits(tmp_path, {"package.json": _manifest(**fields)}, before={"package.json": _manifest()},
                               task="Update the package metadata")
    said = _reasons(files["package.json"])
    assert files["package.json"].risk == "high" and risk == "high", said
    assert "git repository" in said or "adds a dependency" in said, said


def test_a_dependency_on_a_minified_line_that_also_holds_repository_is_still_named(tmp_path: Path) -> None:
    before = json.dumps(_BEFORE) + "\n"
    after = json.dumps({**_BEFORE, "repository": {"type": "git", "url": "https://github.com/o/p.git"},
                        "dependencies": {"left-pad": "^1.3.0", "url": "git+https://github.com/evil/url.git"}}) + "\n"
    risk, files = review_edits(tmp_path, {"package.json": after}, before={"package.json": before})
    assert files["package.json"].risk == "high" and "git repository" in _reasons(files["package.json"])


def test_composer_s_repositories_are_a_package_source_not_metadata() -> None:
    text = json.dumps({"name": "a/b", "support": {"source": "http://example.org/a/b"},
                       "repositories": [{"type": "vcs", "url": "http://example.org/fork.git"}]}, indent=4)
    quiet = metadata_lines("composer.json", text)
    assert '"source": "http://example.org/a/b"' in quiet
    assert not any("fork.git" in line for line in quiet)


@pytest.mark.parametrize("text", ['{"repository": {"url": "x"}', '{"repository": "x', '}{"repository": "x"}'])
def test_a_manifest_that_cannot_be_followed_leaves_nothing_out(text: str) -> None:
    assert metadata_lines("package.json", text) == frozenset()


def test_only_the_manifests_whose_fields_are_known_are_read() -> None:
    text = json.dumps({"repository": {"url": "git+https://github.com/o/p.git"}}, indent=2)
    assert metadata_lines("package.json", text) and not metadata_lines("tsconfig.json", text)


def test_a_new_dependency_on_a_minified_manifest_is_named_and_its_metadata_is_not(tmp_path: Path) -> None:
    before = json.dumps(_BEFORE) + "\n"
    added = json.dumps({**_BEFORE, "dependencies": {"left-pad": "^1.3.0", "evil-pkg": "^1.0.0"}}) + "\n"
    risk, files = review_edits(tmp_path / "a", {"package.json": added}, before={"package.json": before})
    assert risk == "high" and "adds a dependency: evil-pkg" in _reasons(files["package.json"])
    moved = json.dumps({**_BEFORE, "repository": {"type": "git", "url": "git+https://github.com/tj/p.git"}}) + "\n"
    risk, files = review_edits(tmp_path / "b", {"package.json": moved}, before={"package.json": before})
    assert risk != "high" and "git repository" not in _reasons(files["package.json"])
