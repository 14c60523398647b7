"""relay.review.rules: each row of the table proves itself with its own example, and the table holds together."""

from __future__ import annotations

import pytest

from relay.review.facts import FACTS, FileFacts
from relay.review.risk import assess, rule_fires
from relay.review.rules import RULE_BY_NAME, RULES, Rule

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_rule_fires_on_its_example_and_not_on_its_near_miss(rule: Rule) -> None:
    for example in (rule.example, *rule.more):
        assert rule_fires(rule, example.fires, example.ctx) == example.reason
        assert rule_fires(rule, example.near_miss, example.ctx) is None


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_assess_decides_as_the_rule_says_on_its_example(rule: Rule) -> None:
    example = rule.example
    out = assess(example.fires, example.ctx)
    assert example.reason in out.reasons and rule.name in out.rules
    if rule.risk is not None:
        assert out.risk == rule.risk or (out.risk == "high" and rule.risk == "medium"), out
    assert all(0 < len(r) <= 120 for r in out.reasons) and len(out.reasons) <= 3


def test_rule_names_are_unique_and_scopes_name_only_known_facts() -> None:
    assert len(RULE_BY_NAME) == len(RULES)
    for rule in RULES:
        assert set(rule.scope.needs) | set(rule.scope.unless) <= set(FACTS), rule.name
        assert all(hasattr(FileFacts, fact) for fact in (*rule.scope.needs, *rule.scope.unless)), rule.name
        assert set(rule.outranks) <= set(RULE_BY_NAME) and rule.name not in rule.outranks, rule.name


@pytest.mark.parametrize("rule", [r for r in RULES if r.outranks], ids=lambda r: r.name)
def test_a_rule_silences_the_rules_it_outranks_on_the_same_file(rule: Rule) -> None:
    # Each silenced rule, run alone on one of the outranking rule's examples, would say the same thing
    # less precisely; assess keeps only the outranking rule's reason.
    examples = (rule.example, *rule.more)
    for name in rule.outranks:
        shown = [e for e in examples if rule_fires(RULE_BY_NAME[name], e.fires, e.ctx)]
        assert shown, f"{name} alone fires on none of {rule.name}'s examples"
        for example in shown:
            out = assess(example.fires, example.ctx)
            assert rule.name in out.rules and name not in out.rules, out.rules
