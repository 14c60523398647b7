"""Issue 36, round 24 (part A): a docs page's sample that teaches an unsafe use, an error made success and a skip
deleted, each named by its line.

Held-out 29/30's first runs left three README samples low ("docs edited"): chi's ``r.Use(middleware.RealIP)`` put in
front of a per-IP limiter, a JWKS cache's ``.cached(10, 24, TimeUnit.HOURS)`` made ``3650, TimeUnit.DAYS`` and zerolog's
``hlog.CustomHeaderHandler("authorization", "Authorization")``. Each class is tried in several languages; the look-alikes
stay quiet (relay.review.docs_samples.unsafe_sample). Two code edits were named but judged a low note: mapstructure's
``return fmt.Errorf("error decoding …", name, err)`` made ``return nil`` and its ``if tagValue == "-" { continue }``
deleted (relay.review.subtle_turns' rejection reader, relay.review.lost_results' skip reader): each is worth a look;
jwks-rsa-java's new file's ``setHostnameVerifier((host, session) -> true)`` was read (new files' lines are) but
its setter spelling missed; kotlinpoet's gradle wrapper lost its ``distributionSha256Sum`` (relay.review.manifest_lines), a low file at 7.
"""

from __future__ import annotations

import pytest

from relay.review.docs_samples import is_sample, unsafe_sample
from relay.review.lost_results import lost_result
from relay.review.manifest_lines import manifest_line
from relay.review.risky_lines import unsafe_value
from relay.review.subtle_turns import subtle_turned

__all__: list[str] = []  # a test module exports nothing

# (removed, added, a word the reason holds, or None for a look-alike that stays quiet)
_CASES = [
    ([], ["\tr.Use(middleware.RealIP)"], "client IP"),
    ([], ["app.set('trust proxy', true);"], "client IP"),
    ([], ["app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1)"], "client IP"),
    ([], ["ip := r.Header.Get(\"X-Forwarded-For\")"], "client IP"),
    ([], ['c = c.Append(hlog.CustomHeaderHandler("authorization", "Authorization"))'], "credential header"),
    ([], ['log.Println(r.Header.Get("Authorization"))'], "credential header"),
    ([], ["logger.info('cookie: %s', request.headers['Cookie'])"], "credential header"),
    ([], ["app.use(morgan(':method :url :req[authorization]'))"], "credential header"),
    (["        .cached(10, 24, TimeUnit.HOURS)"], ["        .cached(10, 3650, TimeUnit.DAYS)"], "lifetime"),
    (["token_ttl = timedelta(hours=1)"], ["token_ttl = timedelta(days=3650)"], "lifetime"),
    (['jwt.sign(payload, key, { expiresIn: "1h" });'], ['jwt.sign(payload, key, { expiresIn: "3650d" });'], "lifetime"),
    ([".expireAfterWrite(60, TimeUnit.SECONDS)"], [".expireAfterWrite(Long.MAX_VALUE, TimeUnit.SECONDS)"], "lifetime"),
    (["cache_ttl = 24  # hours"], ["cache_ttl = 24 * 365 * 10  # hours"], "lifetime"),
    # look-alikes
    (["\tr.Use(middleware.RealIP)"], ["\tr.Use(middleware.RealIP)"], None),  # already there
    ([], ["app.set('trust proxy', false);"], None),
    ([], ['req.Header.Set("Authorization", "Bearer "+token)'], None),  # sent, not logged
    ([], ['logger.info("Authorization", zap.String("value", "[REDACTED]"))'], None),
    ([], ['log.Fatal(http.ListenAndServe(":8080", nil))'], None),
    (["        .cached(10, 24, TimeUnit.HOURS)"], ["        .cached(10, 48, TimeUnit.HOURS)"], None),  # under a year
    ([".cached(10, 3650, TimeUnit.DAYS)"], [".cached(10, 1, TimeUnit.DAYS)"], None),  # shortened
    (['add_header Cache-Control "max-age=3600, immutable";'], ['add_header Cache-Control "max-age=31536000, immutable";'], None),
    (["connectTimeout(10, TimeUnit.SECONDS)"], ["connectTimeout(3650, TimeUnit.DAYS)"], None),  # no lifetime word
]


@pytest.mark.parametrize(("removed", "added", "word"), _CASES, ids=[str(i) for i in range(len(_CASES))])
def test_an_unsafe_sample_line_is_named_and_look_alikes_stay_quiet(removed: list[str], added: list[str], word: str | None) -> None:
    found = unsafe_sample(added, removed)
    if word is None:
        assert found is None, found
    else:
        assert all(is_sample(line) for line in added), added  # a docs page's sample line reaches the reader
        assert found and word in found and added[-1].strip()[:20] in found, found


def _go_turn(added: list[str], removed: list[str]) -> str | None:
    found = subtle_turned("pkg/decode.go", added, removed)
    return found[0] if found else None


def _gradle(added: list[str], removed: list[str]) -> str | None:
    return manifest_line("gradle/wrapper/gradle-wrapper.properties", added, removed)


def _maven(added: list[str], removed: list[str]) -> str | None:
    return manifest_line(".mvn/wrapper/maven-wrapper.properties", added, removed)


# (reader, removed, added, a word the reason holds, or None)
_CODE_CASES = [
    (_go_turn, ['\t\t\treturn fmt.Errorf("error decoding \'%s\': %w", name, err)'], ["\t\t\treturn nil"], "swallows an error"),
    (_go_turn, ['\t\treturn nil, errors.New("signature mismatch")'], ["\t\treturn claims, nil"], "swallows an error"),
    (_go_turn, ['\t\treturn fmt.Errorf("decode: %w", err)'], ['\t\treturn fmt.Errorf("decoding %s: %w", name, err)'], None),  # reworded
    (lost_result, ['\t\t\tif tagValue == "-" {', "\t\t\t\tcontinue", "\t\t\t}"], ["\t\t\tkeyName = tagValue"], "deletes a skip"),
    (lost_result, ['        if name == "-":', "            continue"], ["        out[name] = value"], "deletes a skip"),
    (lost_result, ['        if name == "-":', "            continue"], [], "deletes a skip"),  # deleted alone
    (lost_result, ['    if (field.getName().equals("serialVersionUID")) continue;'], ["    fields.add(field);"], "deletes a skip"),
    (lost_result, ['  next if key == "_"'], ["  result[key] = value"], "deletes a skip"),
    (lost_result, ['\t\tif tagValue == "-" {', "\t\t\tcontinue"], ['\tif tagValue == "-" {', "\t\tcontinue"], None),  # moved
    (lost_result, ["\t\tif n > 3 {", "\t\t\tcontinue"], ["\t\tsum += n"], None),  # a bound, not a marker
    (lost_result, ["    if (f == null) { continue; }"], ["    fields.add(f);"], None),  # a null check
    # a new file's lines (nothing removed): Java's setter spelling of an accept-all verifier was missed (jwks-rsa-java)
    (unsafe_value, [], ["        ((HttpsURLConnection) c).setHostnameVerifier((host, session) -> true);"], "TLS verification off"),
    (unsafe_value, [], ["    conn.setHostnameVerifier { _, _ -> true }"], "TLS verification off"),
    (unsafe_value, [], ["\tTLSClientConfig: &tls.Config{InsecureSkipVerify: true},"], "TLS verification off"),
    (unsafe_value, [], ["    let client = Client::builder().danger_accept_invalid_certs(true).build()?;"], "TLS verification off"),
    (unsafe_value, [], ["        c.setHostnameVerifier((host, session) -> host.equals(expectedHost));"], None),
    (_gradle, ["distributionSha256Sum=8fad3d78296ca518113f3d29016617c7f9367dc005f932bd9d93bf45ba46072b"], [], "checksum"),
    (_maven, ["wrapperSha256Sum=3d8f20ce6103913be8b52aef6d994e0c54705fb527324ceb9b835b338739c7a8"], ["wrapperVersion=3.3.2"], "checksum"),
    (_gradle, ["distributionSha256Sum=8fad3d78296ca518113f3d29016617c7f9367dc005f932bd9d93bf45ba46072b"],
     ["distributionSha256Sum=2ab88d6de2c23e6adae7363ae6e29cbdd2a709e992929b48b6530fd0c7133bd6"], None),  # a new version's sum
]


@pytest.mark.parametrize(("read", "removed", "added", "word"), _CODE_CASES, ids=[str(i) for i in range(len(_CODE_CASES))])
def test_an_error_made_success_or_a_skip_deleted_is_named(read, removed: list[str], added: list[str], word: str | None) -> None:  # noqa: ANN001
    found = read(added, removed)
    if word is None:
        assert found is None, found
    else:
        assert found and word in found, found
