"""What a check decides, turned by one small edit (relay.review.decision_turns, round 22 part A): a condition inverted by
its keyword, a failure result made success, a write sent to another target, a stop-at-boundary iteration made a filter,
a limit compared through another quantity or scaled up, a mismatch check made to run only when a value is present, a
validation replaced by an emptiness test, a confirmation's default made yes, and (relay.review.classic_lines) HTTPS
rewritten to plain HTTP; each in several languages, through the whole review, with look-alikes that stay quiet. Every
case is synthetic; none names a project."""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing

TURNS = [
    # a condition inverted by its keyword
    ("lib/store/mount.rb", ["      raise e if option(:skip_checks)"], ["      raise e unless option(:skip_checks)"], "inverts a condition by its keyword"),
    ("lib/auth.pl", ["    die 'forbidden' unless $user->is_admin;"], ["    die 'forbidden' if $user->is_admin;"], "inverts a condition by its keyword"),
    ("lib/guard.ex", ["    if allowed?(user), do: raise(Denied)"], ["    unless allowed?(user), do: raise(Denied)"], "inverts a condition by its keyword"),
    # a failure result made success
    ("lib/runner.sh", ["      __test_result=${RUNNER_TRUE}"], ["      __test_result=${RUNNER_ERROR}"], "turns a failure result into success"),
    ("src/main.c", ["        return EXIT_SUCCESS;"], ["        return EXIT_FAILURE;"], "turns a failure result into success"),
    ("src/Check.java", ["            return Status.OK;"], ["            return Status.ERROR;"], "turns a failure result into success"),
    ("tools/verify.py", ["        sys.exit(0)"], ["        sys.exit(1)"], "exit status into success"),
    ("src/sig.ts", ["      signatureValid = true;"], ["      signatureValid = false;"], "verdict from failure to success"),
    # a write sent to another target that stood in the line
    ("src/Handler/Page.php", ["                $source[$key] = str_repeat('*', strlen($source[$key]));"],
     ["                $shown[$key] = str_repeat('*', strlen($source[$key]));"], "sends a write to another target ($shown → $source"),
    ("lib/mask.py", ["        env[key] = redact(env[key])"], ["        shown[key] = redact(env[key])"], "sends a write to another target"),
    # a stop-at-boundary iteration made a filter over all
    ("src/Core/Args.cs", ["        var opts = args.Where(a => a != \"--\");"], ["        var opts = args.TakeWhile(a => a != \"--\");"], "stop-at-boundary"),
    ("src/args.kt", ["    val opts = args.filter { it != \"--\" }"], ["    val opts = args.takeWhile { it != \"--\" }"], "stop-at-boundary"),
    ("cli/parse.py", ["    opts = list(filter(lambda a: a != '--', argv))"], ["    opts = list(itertools.takewhile(lambda a: a != '--', argv))"], "stop-at-boundary"),
    ("src/args.rs", ["    let opts: Vec<_> = args.iter().filter(|a| *a != \"--\").collect();"],
     ["    let opts: Vec<_> = args.iter().take_while(|a| *a != \"--\").collect();"], "stop-at-boundary"),
    # a limit compared through another quantity, or scaled up in place
    ("src/chrono/Limits.java", ["        if (instant < limit.getSecondsOfDay()) {"], ["        if (instant < limit.getSeconds()) {"], "compares a limit through another quantity"),
    ("src/Middleware/Throttle.cs", ["            if (counter.Count > rule.Limit * rule.Period.TotalSeconds)"], ["            if (counter.Count > rule.Limit)"],
     "scales a limit up in place"),
    ("lib/throttle.rb", ["      return deny if hits >= request_limit * 60"], ["      return deny if hits >= request_limit"], "scales a limit up in place"),
    # a mismatch check made to run only when a value is present
    ("jwt/claims.go", ["\tif c.Audience != \"\" && e.Audience != c.Audience {"], ["\tif e.Audience != c.Audience {"], "only when c.Audience is present"),
    ("lib/claims.py", ["    if expected is not None and claims['iss'] != expected:"], ["    if claims['iss'] != expected:"], "only when expected is present"),
    ("src/claims.ts", ["  if (expected && payload.iss !== expected) {"], ["  if (payload.iss !== expected) {"], "only when expected is present"),
    # a validation replaced by an emptiness test
    ("src/Spec.java", ["    checkArgument(!name.isEmpty(), \"not a valid name: %s\", name);"], ["    checkArgument(SourceVersion.isName(name), \"not a valid name: %s\", name);"],
     "replaces a validation with an emptiness check"),
    ("src/Names.cs", ["        if (string.IsNullOrEmpty(name)) throw new ArgumentException(nameof(name));"],
     ["        if (!IsValidIdentifier(name)) throw new ArgumentException(nameof(name));"], None),
    ("lib/names.py", ["    require(len(name) > 0, 'bad name')"], ["    require(NAME_RE.fullmatch(name), 'bad name')"], "replaces a validation with an emptiness check"),
    # a confirmation's default made yes
    ("Sources/Input/Confirm.swift", ["        get { return storage.get(\\Self.confirmOverride, default: true) }"],
     ["        get { return storage.get(\\Self.confirmOverride, default: nil) }"], "confirmation's default yes"),
    ("cli/prompt.py", ["def confirm(message, default=True):"], ["def confirm(message, default=False):"], "confirmation's default yes"),
    ("src/Deploy.kt", ["    val assumeYes: Boolean = true"], ["    val assumeYes: Boolean = false"], "confirmation's default yes"),
]

QUIET = [
    ("lib/view.rb", ["      render :edit unless valid?", "      log 'x'"], ["      render :edit if !valid?"]),  # the same test spelled again
    ("src/status.c", ["    return ERROR_COUNT;"], ["    return OK_COUNT;"]),  # a count's name, not a result
    ("src/copy.php", ["        $copy[$key] = trim($values[$key]);"], ["        $values[$key] = trim($values[$key]);"]),  # a copy made, not its source overwritten
    ("src/list.cs", ["        var shown = items.Where(i => i.Visible);"], ["        var shown = items.Select(i => i.Visible);"]),
    ("src/Timer.java", ["        if (elapsed > timeout.toSeconds()) {"], ["        if (elapsed > timeout.toMillis()) {"]),  # no limit in the names
    ("src/pager.ts", ["  if (page > maxPages + 1) {"], ["  if (page > maxPages) {"]),
    ("pkg/user.go", ["\tif u != nil && u.Name == name {"], ["\tif u.Name == name {"]),  # a null guard before a use
    ("src/Form.java", ["    checkArgument(!name.isEmpty(), \"empty\");"], ["    checkArgument(name != null, \"empty\");"]),  # one emptiness test for another
    ("cli/ui.py", ["    color = True"], ["    color = False"]),
    ("tools/run.sh", ["  exit 0"], ["  exit 2"]),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), TURNS)
def test_turn_is_named_and_never_low(path: str, added: list[str], removed: list[str], said: str | None) -> None:
    out = review(fc(path, added, removed))
    if said is None:  # a case another reader already names: still never low
        assert out.risk != "low", out.reasons
        return
    assert out.risk != "low" and any(said in r for r in out.reasons), (out.risk, out.reasons)


_SAID = ("inverts a condition by its keyword", "into success", "another target", "stop-at-boundary", "limit through another",
         "scales a limit", "run only when", "emptiness check", "confirmation's default", "rewrites HTTPS")


@pytest.mark.parametrize(("path", "added", "removed"), QUIET)
def test_look_alike_is_quiet(path: str, added: list[str], removed: list[str]) -> None:
    out = review(fc(path, added, removed))
    assert not any(s in r for r in out.reasons for s in _SAID), out.reasons


@pytest.mark.parametrize("line", [
    "        $request = $factory->createRequest($method, str_replace('https://', 'http://', $base . $url));",
    "    url = url.replace(\"https://\", \"http://\")",
    "\tu = strings.Replace(u, \"https://\", \"http://\", 1)",
    "    let plain = url.replacingOccurrences(of: \"https://\", with: \"http://\")",
])
def test_https_rewritten_to_http_is_high_even_in_a_new_file(line: str) -> None:
    out = review(fc("src/client/http_client.ext".replace(".ext", ".php"), ["<?php", "class C {", line, "}"], [], kind="added"))
    assert out.risk == "high" and any("rewrites HTTPS URLs to plain HTTP" in r for r in out.reasons), out.reasons


def test_http_upgraded_to_https_is_quiet() -> None:
    out = review(fc("src/client.py", ["    url = url.replace(\"http://\", \"https://\")"], [], kind="added"))
    assert not any("rewrites HTTPS" in r for r in out.reasons), out.reasons
