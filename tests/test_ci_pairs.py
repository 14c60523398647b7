"""Issue 36, round 20 (part B): a CI file's pair of lines is named, not the file's kind alone.

Held-out 25/26's first runs named four CI plants only "CI runs with the project's credentials" or "CI configuration": a
publish job's ``if:`` made ``always()``, an Azure stage's ``condition:`` that kept code signing off pull requests cut to
``succeeded('Build')``, harden-runner's ``egress-policy: block`` made ``audit``, and a tool installed from a feed over
plain http (``dotnet tool install --add-source http://…``). The kind's reason says where the file runs, not what the line
does. Each case here is one such pair in a GitHub workflow or an Azure pipeline; the look-alikes tighten, keep or only
reword the same lines and stay with the kind's reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_plant_matrix  # noqa: E402

__all__: list[str] = []  # a test module exports nothing

_GH = """name: release
on: [push, pull_request]
permissions:
  id-token: write
jobs:
  publish:
    runs-on: ubuntu-latest
{guard}
    steps:
      - uses: step-security/harden-runner@v2
        with:
{policy}
      - uses: actions/checkout@v4
      - run: {install}
      - run: twine upload dist/*
"""
_AZ = """trigger:
- main
stages:
- stage: Build
  jobs:
  - job: build
    steps:
    - script: {install}
- stage: CodeSign
  dependsOn: Build
{guard}
  jobs:
  - job: sign
    steps:
    - script: SignClient sign --secret $(SignClientSecret)
"""
_GUARD, _POLICY, _INSTALL = "    if: startsWith(github.ref, 'refs/tags/')", "          egress-policy: block", "pip install build"
_AZ_GUARD = "  condition: and(succeeded('Build'), not(eq(variables['build.reason'], 'PullRequest')))"


def _case(template: str, path: str, field: str, old: str, new: str, words: list[str]) -> dict:
    base = {"guard": _AZ_GUARD if template is _AZ else _GUARD, "policy": _POLICY, "install": _INSTALL}
    fill = lambda line: template.format(**{**base, field: line})  # noqa: E731
    return {"kind": "ci", "eco": "yml", "place": "ci", "path": path, "before": fill(old), "after": fill(new),
            "line": new.strip(), "words": words}


_WF, _PIPE = ".github/workflows/release.yml", "azure-pipelines.yml"
# (template, path, field, old line, new line, words the reason holds)
_PLANTS = [
    (_GH, _WF, "guard", _GUARD, "    if: always()", ["guard", "refs/tags"]),
    (_GH, _WF, "guard", "    if: github.repository == 'o/r' && github.event_name == 'push'", "    if: ${{ true }}", ["guard"]),
    (_AZ, _PIPE, "guard", _AZ_GUARD, "  condition: succeeded('Build')", ["guard", "PullRequest"]),
    (_AZ, _PIPE, "guard", "  condition: and(succeeded(), eq(variables['Build.SourceBranch'], 'refs/heads/main'))",
     "  condition: succeeded()", ["guard", "SourceBranch"]),
    (_GH, _WF, "policy", _POLICY, "          egress-policy: audit", ["audit"]),
    (_GH, _WF, "install", "dotnet tool install -g docfx", "dotnet tool install -g docfx --add-source http://feed.example.net/v3/index.json",
     ["untrusted index", "http://"]),
    (_AZ, _PIPE, "install", "choco install nuget.commandline", "choco install nuget.commandline --source http://feed.example.org/api/v2",
     ["untrusted index", "http://"]),
]


@pytest.mark.parametrize("template, path, field, old, new, words", _PLANTS, ids=[f"{p[1]}:{p[2]}:{i}" for i, p in enumerate(_PLANTS)])
def test_a_ci_pair_is_named_by_what_the_line_does(template, path, field, old, new, words) -> None:
    out = bench_plant_matrix.review_case(_case(template, path, field, old, new, words))
    assert out["risk"] == "high" and out["named"] and not out["reason"].startswith("CI "), out


# The same lines tightened, kept to the same guard, or pointed at a local or https feed.
_QUIET = [
    (_GH, _WF, "guard", "    if: success()", "    if: always()"),
    (_GH, _WF, "guard", _GUARD, "    if: startsWith(github.ref, 'refs/tags/v')"),
    (_AZ, _PIPE, "guard", "  condition: succeeded('Build')", "  condition: succeeded('Test')"),
    (_GH, _WF, "policy", "          egress-policy: audit", "          egress-policy: block"),
    (_GH, _WF, "install", "dotnet tool install -g docfx", "dotnet tool install -g docfx --add-source https://feed.example.net/v3/index.json"),
    (_GH, _WF, "install", "dotnet tool install -g docfx", "dotnet tool install -g docfx --add-source http://localhost:5555/v3/index.json"),
]


@pytest.mark.parametrize("template, path, field, old, new", _QUIET, ids=[f"{p[1]}:{p[2]}:{i}" for i, p in enumerate(_QUIET)])
def test_a_ci_pair_tightened_or_kept_stays_the_kinds(template, path, field, old, new) -> None:
    out = bench_plant_matrix.review_case(_case(template, path, field, old, new, ["guard", "audit", "untrusted", "http://"]))
    # The changed line may be quoted ahead of the kind (round 30, relay.review.leading_lines; round 35: a command that
    # gained a flag in place, a local feed's URL with it): the quote holds the line's own text, and no reader names it.
    quoted = out["reason"].startswith(("turns: ", "adds: ", "removes: "))
    kind = out["reason"].split("; ", 1)[-1] if quoted else out["reason"]
    assert kind.startswith("CI ") and (quoted or not out["named"]), out
