"""docs/ranking.md and docs/zh/ranking.md are the rule table as it is: a row added, changed or removed
in relay/review/rules.py fails here until the pages are written again with one command:

    GRAVITY_RELAY_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_ranking_doc.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relay.review.facts import FACTS
from relay.review.ranking_doc import _FACTS_ZH, LANGUAGES, render
from relay.review.rules import RULES

__all__: list[str] = []  # a test module exports nothing

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"en": DOCS / "ranking.md", "zh": DOCS / "zh" / "ranking.md"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ranking_page_is_in_step_with_the_rule_table(lang: str) -> None:
    page = PAGES[lang]
    if os.environ.get("GRAVITY_RELAY_UPDATE_SNAPSHOTS") == "1":
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(render(lang), encoding="utf-8")
    assert page.read_text(encoding="utf-8") == render(lang), f"{page} differs from the rule table: regenerate it (see this module's docstring)"


def test_ranking_page_names_every_rule_and_fact_in_both_languages() -> None:
    assert set(_FACTS_ZH) == set(FACTS)
    for lang in LANGUAGES:
        text = render(lang)
        assert all(f"| `{rule.name}` |" in text for rule in RULES)
        assert all(f"| `{fact}` |" in text for fact in FACTS)
