"""Issue 36, round 23: a comparison of several fields narrowed to fewer (relay.review.narrowed_compare), read as the whole
review reads a file: an origin's or identity's part dropped is high and leads the reason; look-alikes stay quiet."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

_LEAD = "compares fewer fields"


@pytest.mark.parametrize(
    ("path", "removed", "added", "risk"),
    [
        ("lib/req/redirect.ex", ["    if {location_url.host, location_url.scheme, location_url.port} ==", "         {url.host, url.scheme, url.port} do"],
         ["    if location_url.host == url.host do"], "high"),
        ("app/redirects.py", ["    if (new.scheme, new.netloc) == (old.scheme, old.netloc):"], ["    if new.netloc == old.netloc:"], "high"),
        ("lib/client/follow.rb", ["      return [target.host, target.port] == [source.host, source.port]"],
         ["      return target.host == source.host"], "high"),
        ("src/follow.ts", ["  if ([next.protocol, next.hostname, next.port].join() === [prev.protocol, prev.hostname, prev.port].join()) {"],
         ["  if (next.hostname === prev.hostname) {"], "high"),
        ("src/main/kotlin/Sessions.kt", ["        if (Pair(session.userId, session.tenantId) == Pair(request.userId, request.tenantId)) {"],
         ["        if (session.userId == request.userId) {"], "high"),
        ("src/Http/Redirects.php", ['        if ([$a["scheme"], $a["host"]] === [$b["scheme"], $b["host"]]) {'],
         ['        if ($a["host"] === $b["host"]) {'], "high"),
        ("Sources/Net/Redirect.swift", ["        if (next.scheme, next.host, next.port) == (prev.scheme, prev.host, prev.port) {"],
         ["        if next.host == prev.host {"], "high"),
        # Fields that are not an origin's or an identity's: worth a look.
        ("src/cache.rs", ["    if (a.width, a.height) == (b.width, b.height) {"], ["    if a.width == b.width {"], "medium"),
    ],
)
def test_a_comparison_narrowed_to_fewer_fields_is_named_first(path: str, removed: list[str], added: list[str], risk: str) -> None:
    out = review(fc(path, added, removed))
    assert out.risk == risk and out.reasons[0].startswith(_LEAD), out


@pytest.mark.parametrize(
    ("path", "removed", "added"),
    [
        # the same fields, reordered and re-wrapped
        ("lib/req/redirect.ex", ["    if {location_url.host, location_url.scheme, location_url.port} ==", "         {url.host, url.scheme, url.port} do"],
         ["    if {location_url.scheme, location_url.host, location_url.port} == {url.scheme, url.host, url.port} do"]),
        ("app/geo.py", ["    if (p.x, p.y) == (0, 0):"], ["    if (x, y) == (0, 0):"]),  # plain values, not two objects' fields
        ("app/redirects.py", ["    if (a.scheme, a.netloc) == (b.scheme, b.netloc):"], ["    if (a.scheme, a.netloc, a.port) == (b.scheme, b.netloc, b.port):"]),
        ("app/redirects.py", ["    if (a.scheme, a.netloc) == (b.scheme, b.netloc):"], ["    if c.netloc == d.netloc:"]),  # other objects
    ],
)
def test_look_alikes_of_a_narrowed_comparison_stay_quiet(path: str, removed: list[str], added: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(r.startswith(_LEAD) for r in out.reasons), out
