"""Round 28 part A (issue 36): a renamed file's edited line is read as any edit is, a package moved under its owner's
scope is not a look-alike, and a CI job's identity check made a partial match is named.

Held-out 37 left a renamed hook runner whose one edited line made every hook pass (``exit $exitCode`` → ``exit 0``)
low and out of the targets; held-out 38's twelve example manifests moving ``x-y`` to ``@x/y`` were each named a
typo-squat, so the one real look-alike among them was cut from the targets; a privileged workflow's exact actor check
made ``contains(…)`` ranked 5th, said only as "CI configuration". The cases are in languages, ecosystems and CI systems
the misses are not written in; the look-alikes stay quiet (a status not passed on, a count returned, a scope moved, an
actor swapped for another, a ref check made a prefix).
"""

from __future__ import annotations

import pytest

from relay.review.facts import RiskContext
from relay.review.risk import assess
from relay.review.rule_row import fc

_STATUS, _LOOKALIKE, _IDENTITY = "discards a failure's status", "look-alike", "actor check a partial match"
_CASES = [
    # a status passed on replaced by 0, in a file the commit renamed (or edited)
    ("tools/release.sh", "renamed", ["  exit $status"], ["  exit 0"], _STATUS, True),
    ("bin/check.py", "renamed", ["    sys.exit(rc)"], ["    sys.exit(0)"], _STATUS, True),
    ("cmd/lint/main.go", "modified", ["\tos.Exit(code)"], ["\tos.Exit(0)"], _STATUS, True),
    ("scripts/run.js", "renamed", ["  process.exit(exitCode);"], ["  process.exit(0);"], _STATUS, True),
    ("lib/steps.sh", "modified", ["  ret=$?"], ["  ret=0"], _STATUS, True),
    ("tools/count.sh", "renamed", ["  return $count"], ["  return 0"], _STATUS, False),
    ("tools/wait.sh", "renamed", ["  sleep $delay"], ["  sleep 0"], _STATUS, False),
    ("scripts/run.js", "renamed", ["  process.exit(code);"], ["  process.exit(code || 0);"], _STATUS, False),
    # a dependency renamed a letter off, with or without a scope; a scope move is not
    ("web/package.json", "modified", ['    "express-session": "^1.17.0",'], ['    "@expres/session": "^1.18.0",'], _LOOKALIKE, True),
    ("package.json", "modified", ['    "eslint-plugin-react": "^7.0.0",'], ['    "@eslint/plugin-raect": "^7.0.0",'], _LOOKALIKE, True),
    ("composer.json", "modified", ['        "monolog/monolog": "^2.0",'], ['        "monolog/monolgo": "^2.0",'], _LOOKALIKE, True),
    ("app/package.json", "modified", ['    "babel-core": "^6.26.0",'], ['    "@babel/core": "^7.0.0",'], _LOOKALIKE, False),
    ("ui/package.json", "modified", ['    "vue-cli-service": "^4.0.0",'], ['    "@vue/cli-service": "^5.0.0",'], _LOOKALIKE, False),
    ("composer.json", "modified", ['        "guzzle-http": "^6.0",'], ['        "guzzle/http": "^6.0",'], _LOOKALIKE, False),
    # a CI job's identity check made a partial match (GitHub, GitLab, Azure)
    (".github/workflows/automerge.yml", "modified", ["    if: github.event.pull_request.user.login == 'renovate[bot]'"],
     ["    if: startsWith(github.event.pull_request.user.login, 'renovate')"], _IDENTITY, True),
    (".gitlab-ci.yml", "modified", ['    - if: $GITLAB_USER_LOGIN == "deployer"'], ["    - if: $GITLAB_USER_LOGIN =~ /deployer/"], _IDENTITY, True),
    ("azure-pipelines.yml", "modified", ["  condition: eq(variables['Build.RequestedFor'], 'Release Bot')"],
     ["  condition: contains(variables['Build.RequestedFor'], 'Bot')"], _IDENTITY, True),
    (".github/workflows/ci.yml", "modified", ["    if: github.actor == 'dependabot[bot]'"], ["    if: github.actor == 'renovate[bot]'"], _IDENTITY, False),
    (".github/workflows/ci.yml", "modified", ["    if: github.ref == 'refs/heads/main'"], ["    if: startsWith(github.ref, 'refs/tags/')"], _IDENTITY, False),
    (".github/workflows/ci.yml", "modified", ["    if: github.actor != 'dependabot[bot]'"], ["    if: ${{ !contains(github.actor, 'bot') }}"], _IDENTITY, False),
]


@pytest.mark.parametrize(("path", "kind", "removed", "added", "said", "fires"), _CASES)
def test_renamed_lines_scoped_moves_and_identity_checks(path: str, kind: str, removed: list[str], added: list[str], said: str,
                                                         fires: bool) -> None:
    extra = {"old_path": "old/" + path} if kind == "renamed" else {}
    change = assess(fc(path, kind=kind, removed_lines=removed, added_lines=added, additions=len(added), deletions=len(removed), **extra),
                    RiskContext())
    named = any(said in reason for reason in change.reasons)
    assert named == fires and (change.risk != "low" or not fires), change.reasons


# The order: past two files of one kind flagged by one rule, more go after the rest (risk._REPEATS) — unless the file's
# first reason is its own (a line no other file says). Three kinds; the look-alike is four files saying the same.
_REPEAT_SETS = [
    ("examples/{}/package.json", "renames a dependency to a look-alike (a typo-squat?): left-pad → {}", True),
    (".github/workflows/{}.yml", "runs a CI action from a look-alike of actions (a typo-squat?): {}/checkout@v4", True),
    ("docs/{}/setup.md", "turns TLS verification off: verify: {}", True),
    ("examples/{}/Cargo.toml", "CI configuration (runs with repository secrets){}", False),
]


@pytest.mark.parametrize(("pattern", "reason", "odd"), _REPEAT_SETS)
def test_a_repeat_with_its_own_line_is_not_put_after_the_rest(pattern: str, reason: str, odd: bool) -> None:
    from relay.review.risk import rank_changes

    def flagged(name: str, said: str) -> object:
        return fc(pattern.format(name), risk="high", rules=["dangerous_call"], reasons=[reason.format(said)], additions=1, deletions=1)

    same = "" if not odd else "same"
    files = [flagged("a", same), flagged("b", same), flagged("c", same), flagged("d", "other" if odd else same),
             fc("src/app.py", risk="medium", rules=["weakens_more"], reasons=["worth a look"], additions=1, deletions=1)]
    order = [f.path for f in rank_changes(files)]
    last = pattern.format("d")
    assert (order.index(last) < order.index("src/app.py")) == odd, order
