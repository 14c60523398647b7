"""Issue 36, round 25 (part B): a docs sample that teaches an unsafe line, and a default or bind set to its unsafe member.

Held-out 31/32's first runs quoted README samples and judged them "docs edited" (low): a Rails helper's
``h.raw("<strong>#{…}</strong>")``, a C++ verifier's ``algorithm::none{}``, a Go ``Printf(os.Args[1])``, a Bazel
archive URL moved from a commit to a branch; and left four one-token turns of a guard-named key unnamed or low
(``server_host = nil`` → ``'0.0.0.0'``, ``limits: Limit = .default`` → ``[]``, ``credentialsRequired``'s default ``true``
→ ``false``, a rate limiter's always-run ``store.incr`` made opt-in). Each class is tried here in other languages'
spellings (relay.review.taught_lines, relay.review.guard_defaults, manifest_lines.moving_source, the docs arm of
checks.downgrades_dependency); the look-alikes stay quiet.
"""

from __future__ import annotations

import pytest

from relay.review.checks import downgrades_dependency
from relay.review.facts import FileFacts, RiskContext
from relay.review.guard_defaults import action_made_opt_in, guard_default_turned
from relay.review.manifest_lines import sample_source
from relay.review.rule_row import fc
from relay.review.risky_lines import unsafe_value

__all__: list[str] = []  # a test module exports nothing


def _line(added: list[str], removed: list[str]) -> str | None:
    return unsafe_value(added, removed, prose_too=False)  # as a docs page's sample is read


def _guard(added: list[str], removed: list[str]) -> str | None:
    found = guard_default_turned(added, removed)
    return found[0] if found else None


def _docs(added: list[str], removed: list[str]) -> str | None:
    change = fc("docs/guide.md", additions=len(added), deletions=len(removed), added_lines=added, removed_lines=removed)
    return downgrades_dependency(FileFacts(change), RiskContext())


# (reader, removed, added, a word the reason holds, or None for a look-alike that stays quiet)
_CASES = [
    (_line, [], ['    content = helpers.raw("<b>#{user.name}</b>")'], "raw HTML"),
    (_line, [], ['var bio = new HtmlString($"<span>{Model.Bio}</span>");'], "raw HTML"),
    (_line, [], ['return new Handlebars.SafeString("<b>" + title + "</b>");'], "raw HTML"),
    (_line, [], ['    PreEscaped(format!("<p>{}</p>", comment))'], "raw HTML"),
    (_line, [], ["JWTVerifier verifier = JWT.require(Algorithm.none()).build();"], "alg none"),
    (_line, [], ["\ttoken, err := jwt.Parse(s, func(t *jwt.Token) (any, error) { return jwt.UnsafeAllowNoneSignatureType, nil })"], "alg none"),
    (_line, [], ["const verified = jwt.verify(token, key, { algorithms: ['HS256', 'none'] });"], "alg none"),
    (_line, [], ["    printf(argv[1]);"], "format string"),
    (_line, [], ['\tfmt.Fprintf(w, r.URL.Query().Get("msg"))'], "format string"),
    (_line, [], ["String msg = String.format(request.getParameter(\"tpl\"), user);"], "format string"),
    (_line, [], ["    return request.args['greeting'].format(user=user)"], "format string"),
    (sample_source, ['    urls = ["https://github.com/acme/rules/archive/v1.4.2.tar.gz"],'],
     ['    urls = ["https://github.com/acme/rules/archive/refs/heads/master.tar.gz"],'], "moving branch"),
    (_guard, ["    config.server_bind = 'localhost'"], ["    config.server_bind = '0.0.0.0'"], "every interface"),
    (_guard, ["    listen_address: Option<String> = None,"], ['    listen_address: Option<String> = "::",'], "every interface"),
    (_guard, ["    require_signature: bool = True,"], ["    require_signature: bool = False,"], "no longer required"),
    (_guard, ["  strictSSL: true,"], ["  strictSSL: false,"], "no longer checked"),
    (_guard, ["  trustProxy = false"], ["  trustProxy = true"], "trustProxy"),
    (_guard, ["MAX_CONTENT_LENGTH = 16 * 1024 * 1024"], ["MAX_CONTENT_LENGTH = None"], "MAX_CONTENT_LENGTH"),
    (_guard, ["    allowed_paths: list[str] = DEFAULT_ROOTS,"], ["    allowed_paths: list[str] = ['*'],"], "allowed_paths"),
    (lambda a, r: action_made_opt_in(a, r), ["    cache.touch(key)"],
     ["    const op = opts?.refresh ? 'touch' : 'peek'", "    cache[op](key)"], "opt-in"),
    (_docs, ["    echo htmlspecialchars($comment);"], ["    echo $comment;"], "docs sample"),
    (_docs, ["    verifier.allow_algorithm(jwt::algorithm::rs256{pub});"], ["    verifier.allow_algorithm(jwt::algorithm::none{});"],
     "a docs sample that accepts unsigned tokens"),
    # look-alikes
    (_line, [], ['<%= raw("<br>") %>'], None),  # a literal, no interpolation
    (_line, [], ['db.raw(`SELECT * FROM users WHERE id = ${id}`)'], None),  # SQL, no tag: not raw HTML
    (_line, [], ['\tfmt.Printf("%s\\n", os.Args[1])'], None),  # the format is a literal
    (_line, [], ["algorithm = 'HS256'  # none of the others"], None),
    (_line, [], ["auto token = jwt::create().set_issuer(\"auth0\").sign(jwt::algorithm::none{});"], None),  # makes one, accepts none
    (sample_source, [], ['    urls = ["https://github.com/acme/rules/archive/refs/heads/master.tar.gz"],'], None),  # not a pin replaced
    (_guard, ["  self.server_host = '0.0.0.0'"], ["  self.server_host = nil"], None),  # made narrower
    (_guard, ["  credentialsRequired: false,"], ["  credentialsRequired: true,"], None),  # made stricter
    (_guard, ["  limit: 10,"], ["  limit: 20,"], None),
    (_guard, ["  host: '127.0.0.1',"], ["  host: 'localhost',"], None),
    (_guard, ["  verify = true"], ["  check = true"], None),  # a rename
    (_guard, ["  max_age = 3600"], ["  max_age = 0"], None),  # a max made 0 is stricter as often
    (_guard, ["  enabled = true"], ["  enabled = false"], None),  # not a guard's name
    (_guard, ["\t\tskipScope:       opts.ADFSConfig.SkipScope,"], ["\t\tskipScope:       *opts.ADFSConfig.SkipScope,"], None),  # a pointer read
    (lambda a, r: action_made_opt_in(a, r), ["    cache.touch(key)"],
     ["    const op = opts?.refresh ? 'peek' : 'touch'", "    cache[op](key)"], None),  # the default still touches
    (_docs, [], ["Pass the comment through htmlspecialchars before you echo it."], None),  # prose
]


@pytest.mark.parametrize(("reader", "removed", "added", "word"), _CASES, ids=[str(i) for i in range(len(_CASES))])
def test_a_taught_line_or_a_guard_default_is_named_and_look_alikes_stay_quiet(reader, removed: list[str], added: list[str], word: str | None) -> None:
    found = reader(added, removed)
    if word is None:
        assert found is None, found
    else:
        assert found and word in found, found
