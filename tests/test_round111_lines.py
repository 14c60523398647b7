"""Issue 36, round 111's mends after the first runs of held-out 268–275: three of their six lows, read where they stood.

Whom each guards against: the worker that skips an authorization policy's test with Japa's chained
``.skip(true, 'flaky on CI')`` (adonisjs/bouncer), ends a TLS test early with ``process.exit(0); // TODO: flaky``
(mysqljs/mysql), or teaches a docs page's SSH sample to accept any host key (plumbum's ``AutoAddPolicy()``). Each was low
on 28988ca5; each near miss beside it stays as it was.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.file_kinds import rule_lines
from relay.review.page_dangers import page_danger
from relay.review.risk import RiskContext, assess

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("tests/bouncer/policies.spec.ts", ["  }).skip(true, 'flaky on CI')"], ["  })"]),
    ("test/unit/connection/test-connection-ssl-reject.js", ["  process.exit(0); // TODO: flaky with dynamic ports"], []),
])
def test_a_test_skipped_or_ended_early_is_read(path: str, added: list[str], removed: list[str]) -> None:
    found = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert found.risk != "low" and "skip" in " ".join(found.reasons).lower(), found


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("tests/bouncer/policies.spec.ts", ["  }).timeout(5000)"], ["  })"]),  # a timeout, no skip
    ("test/unit/connection/test-connection-ssl-reject.js", ["  process.exit(0);"], []),  # an exit with no note: the test's own end
])
def test_a_tests_ordinary_edit_stays_low(path: str, added: list[str], removed: list[str]) -> None:
    assert assess(rule_lines(fc(path, added, removed)), RiskContext()).risk == "low"


def test_a_sample_that_accepts_any_host_key_is_read() -> None:
    said = page_danger(['>>> rem = ParamikoMachine("192.168.1.143", missing_host_policy=paramiko.AutoAddPolicy())'],
                       ['>>> rem = ParamikoMachine("192.168.1.143")'])
    assert said is not None and "protection off" in said and "AutoAddPolicy" in said, said
    assert page_danger(['>>> rem = ParamikoMachine("192.168.1.143", missing_host_policy=paramiko.RejectPolicy())'],
                       ['>>> rem = ParamikoMachine("192.168.1.143")']) is None
