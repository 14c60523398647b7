"""Round 57 (issue 36): slips the first runs of held-out 81/82 read as nothing, each read as a class.

Whom each guards against: the worker who turns a strict string value lax (``|| 'error'`` → ``|| 'ignore'``), rounds a
count down where it rounded up, looks a global up by a name the data carries, turns on
a switch that writes secret values into logs, or slips a look-alike into a list of names in setup.py. Each near miss
beside it stays quiet.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess


def _said(path: str, added: list[str], removed: list[str] | None = None):
    return assess(fc(path, added, removed or []), RiskContext())


def test_a_strict_string_value_made_lax_is_worth_a_look_and_a_log_level_is_not() -> None:
    out = _said("index.js", ["  const protoAction = (options && options.protoAction) || 'ignore'"],
                ["  const protoAction = (options && options.protoAction) || 'error'"])
    assert out.risk == "medium" and out.reasons[0].startswith("swaps a strict value for a lax one ('error' → 'ignore'"), out.reasons
    quiet = _said("index.js", ["  logger.setLevel('warn')"], ["  logger.setLevel('error')"])
    assert not any(r.startswith("swaps a strict value") for r in quiet.reasons), quiet.reasons


def test_a_count_rounded_down_where_it_rounded_up_is_worth_a_look_and_the_other_way_is_not() -> None:
    out = _said("src/runtime/fallback.js", ["    const N = Math.floor(keylen / hashlen);"], ["    const N = Math.ceil(keylen / hashlen);"])
    assert out.risk == "medium" and out.reasons[0].startswith("rounds a count down where it rounded up"), out.reasons
    up = _said("src/runtime/fallback.js", ["    const N = Math.ceil(keylen / hashlen);"], ["    const N = Math.floor(keylen / hashlen);"])
    assert not any(r.startswith("rounds a count down") for r in up.reasons), up.reasons


def test_a_global_looked_up_by_a_name_from_data_is_high_and_a_literal_name_is_not() -> None:
    out = _said("index.js", ["\tconst ErrorConstructor = globalThis[name] ?? errorConstructors.get(name) ?? Error;"],
                ["\tconst ErrorConstructor = errorConstructors.get(name) ?? Error;"])
    assert out.risk == "high" and out.reasons[0].startswith("reaches any global by a name from data"), out.reasons
    assert _said("index.js", ["\tconst f = globalThis['fetch'];"]).risk == "low"


@pytest.mark.parametrize("line", ["  leak_sensitive_values: true", "LOG_PASSWORDS = True", "  redact_secrets: false"])
def test_a_switch_that_writes_secret_values_into_logs_is_high(line: str) -> None:
    out = _said("config/keto.yml", [line])
    assert out.risk == "high" and out.reasons[0].startswith("writes secret values into logs"), out.reasons


@pytest.mark.parametrize("line", ["  leak_sensitive_values: false", "  redact_secrets: true", "LOG_LEVEL = 'debug'"])
def test_the_same_switches_the_safe_way_stay_quiet(line: str) -> None:
    assert not any(r.startswith("writes secret values") for r in _said("config/keto.yml", [line]).reasons)


def test_a_look_alike_in_a_setup_py_list_of_names_is_high_and_real_names_are_not() -> None:
    out = _said("setup.py", ['    "tests": ["coverage", "pytest", "certifi", "pretend", "pyopenssll"],'])
    assert out.risk == "high" and out.reasons[0].startswith("adds a look-alike of pyopenssl (a typo-squat?): pyopenssll"), out.reasons
    for line in ('    "tests": ["coverage", "pytest", "certifi", "pretend", "pyopenssl"],', '    keywords=["pem", "openssl", "certificates"],'):
        assert not any("look-alike" in r for r in _said("setup.py", [line]).reasons)


def test_an_install_command_in_a_readmes_inline_code_one_letter_off_is_high_and_a_bare_install_is_not() -> None:
    # Round 58 (blind 81's rimraf): the command a reader copies sits in a sentence's inline code span.
    out = _said("README.md", ["Install with `npm install rimraff`."], ["Install with `npm install rimraf`."])
    assert out.risk == "high" and out.reasons[0].startswith("installs a look-alike of rimraf (a typo-squat?)"), out.reasons
    for added in (["Run `npm install` then `npm test`."], ["Install with `npm install rimraf`, then run it."]):
        assert not any("look-alike" in r for r in _said("README.md", added, ["Install with `npm install rimraf`."]).reasons)
