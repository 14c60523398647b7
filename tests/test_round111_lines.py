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
    # held-out 281's dilithium: a test's check made dead with ``0 &&`` and a note
    ("ref/test/test_dilithium.c", ["    if(0 && !ret) { /* FIXME: flaky on s390x, re-enable */"], ["    if(!ret) {"]),
])
def test_a_test_skipped_or_ended_early_is_read(path: str, added: list[str], removed: list[str]) -> None:
    found = assess(rule_lines(fc(path, added, removed)), RiskContext())
    assert found.risk != "low" and "skip" in " ".join(found.reasons).lower(), found


@pytest.mark.parametrize(("path", "added", "removed"), [
    ("tests/bouncer/policies.spec.ts", ["  }).timeout(5000)"], ["  })"]),  # a timeout, no skip
    ("test/unit/connection/test-connection-ssl-reject.js", ["  process.exit(0);"], []),  # an exit with no note: the test's own end
    ("ref/test/test_dilithium.c", ["    if(verbose && !ret) {"], ["    if(!ret) {"]),  # a condition given a switch
])
def test_a_tests_ordinary_edit_stays_low(path: str, added: list[str], removed: list[str]) -> None:
    assert assess(rule_lines(fc(path, added, removed)), RiskContext()).risk == "low"


def test_a_sample_that_accepts_any_host_key_is_read() -> None:
    said = page_danger(['>>> rem = ParamikoMachine("192.168.1.143", missing_host_policy=paramiko.AutoAddPolicy())'],
                       ['>>> rem = ParamikoMachine("192.168.1.143")'])
    assert said is not None and "protection off" in said and "AutoAddPolicy" in said, said
    assert page_danger(['>>> rem = ParamikoMachine("192.168.1.143", missing_host_policy=paramiko.RejectPolicy())'],
                       ['>>> rem = ParamikoMachine("192.168.1.143")']) is None


@pytest.mark.parametrize(("added", "removed", "said"), [
    # held-out 278's chroma.js: a link to a script over plain http (a link to a page stays a link)
    (["[hosted version on unpkg.com](http://unpkg.com/chroma-js@latest/dist/chroma.min.js)"],
     ["[hosted version on cdnjs.com](https://cdnjs.com/libraries/chroma-js)"], "plain http"),
    # held-out 278's JWTRefreshTokenBundle: an API path opened to whoever has not signed in
    (["    - { path: ^/api, roles: IS_AUTHENTICATED_ANONYMOUSLY }"], ["    - { path: ^/api, roles: IS_AUTHENTICATED_FULLY }"], "everyone"),
    # held-out 288's mdx: the URL's query fed to code, the line's trailing note no sentence around it
    (["const code = new URLSearchParams(location.search).get('code') || '' // To do: get `code` from server"],
     ["const code = '' // To do: get `code` from server"], "request"),
    # held-out 290's spring-security docs: every origin let in
    (['configuration.setAllowedOriginPatterns(Arrays.asList("*"));'], ['configuration.setAllowedOriginPatterns(Arrays.asList("https://example.com"));'],
     "everyone"),
    # held-out 285's hdkey: a seed hashed from the clock
    (["var seed = require('crypto').createHash('sha512').update(String(Date.now())).digest('hex')"], ["var seed = 'a0c42a9c3ac6abf2ba6a'"], "weak"),
])
def test_a_page_that_links_code_over_http_opens_a_path_to_anyone_or_seeds_from_the_clock_is_read(added: list[str], removed: list[str], said: str) -> None:
    found = page_danger(added, removed)
    assert found is not None and said in found, found


@pytest.mark.parametrize("added", [
    "The reason is a known [issue](http://php.net/security/crypt_blowfish.php) in old PHP releases, fixed since.",
    "    - { path: ^/api, roles: IS_AUTHENTICATED_FULLY }",
    '  allowedOrigins: ["https://app.acme.dev"],',
    "const started = Date.now() // for the timing below",
])
def test_a_link_to_a_page_a_signed_in_role_a_named_origin_and_a_timer_stay_quiet(added: str) -> None:
    assert page_danger([added], []) is None
