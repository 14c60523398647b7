"""A value moved into a shell string's interpolation (relay.review.turned_lines) is read where the string runs a shell:
a backtick in Ruby, Perl, PHP or a shell script, `exec` of a template in Node, `sh -c`, `system`, `popen`. A backtick in
JavaScript, TypeScript or Go is a template or raw string: hapijs/bell (held-out 45) had 13 provider files high for
URL templates ("builds a shell command by interpolating tenantId")."""

from __future__ import annotations

import pytest

from line_changes import fc, review

_SAID = "builds a shell command by interpolating"


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/backup.rb", ["    out = `tar czf #{archive} #{dir}`"], ["    out = capture('tar', 'czf', archive, dir)"]),
        ("scripts/sync.pl", ["my $out = `rsync -a ${src} host:`;"], ["my $out = run_rsync($src);"]),
        ("src/shell.js", ["  const out = execSync(`git log ${branch}`);"], ["  const out = execFileSync('git', ['log', branch]);"]),
    ],
)
def test_a_value_moved_into_a_string_a_shell_runs_is_named(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    # Said by this reader or by the older one that reads a shell string built from text: named high either way.
    assert change.risk == "high" and any("shell command" in r for r in change.reasons), change.reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("lib/providers/azure.js", ["    auth: `https://login.example.com/${tenantId}/oauth2/authorize`,"],
         ["    auth: 'https://login.example.com/' + tenantId + '/oauth2/authorize',"]),
        ("src/client.ts", ["  const url = `${options.uri}/api/user`;"], ["  const url = options.uri + '/api/user';"]),
        ("internal/q.go", ["\tq := `SELECT 1` // ${name}"], ["\tq := name"]),
    ],
)
def test_a_template_string_that_runs_no_shell_is_not_a_shell_command(path: str, added: list[str], removed: list[str]) -> None:
    change = review(fc(path, added, removed))
    assert not [r for r in change.reasons if _SAID in r], change.reasons
