"""A dependency's next version is not a look-alike of it; a name spelled to pass for another still is
(relay.review.dependencies: ``_next_version``).

Whom it guards against: the worker who slips a typo-squat into a manifest beside a version move. Only a number of the
same width turned reads as a version; a digit added or doubled, a letter off, stays a look-alike.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess

NO_CTX = RiskContext()


@pytest.mark.parametrize(("path", "added", "removed"), [
    # Go's major version in the module path (crewjam/saml, auth0/go-jwt-middleware on ordinary history).
    ("go.mod", ["\tgithub.com/golang-jwt/jwt/v5 v5.2.1"], ["\tgithub.com/golang-jwt/jwt/v4 v4.5.0"]),
    # pixi's feature named for a Python version, in a mixed manifest (pint's pyproject.toml).
    ("pyproject.toml", ['  "py312",'], ['  "py311",']),
    # yaml.v2 beside the widely used yaml.v3; x/sys beside x/sync: each a real module.
    ("go.mod", ["\tgopkg.in/yaml.v2 v2.4.0"], []),
    ("go.mod", ["\tgolang.org/x/sys v0.28.0"], ["\tgolang.org/x/sync v0.10.0"]),
])
def test_a_dependency_s_next_version_is_not_a_look_alike(path: str, added: list[str], removed: list[str]) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert "lookalike_dependency" not in out.rules, out.reasons


@pytest.mark.parametrize(("path", "added", "removed", "named"), [
    ("requirements.txt", ["python3-dateutil==2.9.0"], ["python-dateutil==2.9.0"], "python3-dateutil"),  # a digit added
    ("build.gradle", ["    implementation 'org.apache.commons:commons-lang33:3.14.0'"],
     ["    implementation 'org.apache.commons:commons-lang3:3.14.0'"], "commons-lang33"),  # a digit doubled
    ("requirements.txt", ["botto3==1.34.0"], ["boto3==1.34.0"], "botto3"),  # a letter doubled beside the number
])
def test_a_look_alike_beside_a_version_move_is_still_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == "high" and "look-alike" in " ".join(out.reasons) and named in " ".join(out.reasons), out.reasons


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("requirements.txt", ["boto4==1.34.0"], ["boto3==1.34.0"]),  # a squatter's "next version" of a package
    ("go.mod", ["\tgithub.com/golang-jwt/jwt/v5 v5.2.1"], ["\tgithub.com/golang-jwt/jwt/v4 v4.5.0"]),
])
def test_a_next_version_s_name_is_still_a_new_dependency(path: str, added: list[str], removed: list[str]) -> None:
    # Not called a look-alike, but nothing walks around the dependency row: a name the manifest did not have is high.
    out = assess(fc(path, added, removed), NO_CTX)
    assert out.risk == "high" and "adds a dependency" in out.reasons[0], out.reasons
