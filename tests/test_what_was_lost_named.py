"""Issue 36, round 16 part B: what a check or a call lost is named (relay/review/guard_reading.py, lets_through.py).

A long condition was quoted from its start and cut at the reason's length, before the clause the edit dropped: the
reason said "drops a clause from a check" without what the check stopped asking (a signed element compared with the
signature's parent; an admin flag). The dropped clause is now named first, in every language the reader reads.
"""

from __future__ import annotations

import pytest

from line_changes import fc, review

__all__: list[str] = []  # a test module exports nothing


@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("src/Xml/SignedXmlHelper.cs", ["                if (signedElement == null)"],
         ["                if (signedElement == null || signedElement != signatureElement.ParentNode)"],
         "drops a clause from a check: signedElement != signatureElement.ParentNode (was "),
        ("src/admin.js", ["  if (!user.isAuthenticated) {"], ["  if (!user.isAuthenticated || !user.isAdmin) {"],
         "drops a clause from a check: !user.isAdmin (was "),
    ],
)
def test_the_clause_a_check_lost_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


def test_a_clause_added_to_a_check_is_not_called_dropped() -> None:
    reasons = review(fc("src/admin.js", ["  if (!user.isAuthenticated || !user.isAdmin) {"], ["  if (!user.isAuthenticated) {"])).reasons
    assert not any("drops a clause" in r for r in reasons), reasons


# A security argument of a call replaced by nothing: the OAuth state, an OpenID nonce, a PKCE verifier no longer sent.
@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("src/main/java/org/example/oauth/AuthorizationUrlBuilder.java",
         ["                service.getCallback(), scope, null, params);"], ["                service.getCallback(), scope, state, params);"],
         "passes null where the call sent state"),
        ("lib/oidc.py", ["    url = build_auth_url(client_id, redirect_uri, nonce=None)"],
         ["    url = build_auth_url(client_id, redirect_uri, nonce=nonce)"], "passes None where the call sent nonce"),
        ("lib/client/authorize.rb", ["    url = authorize_url(client_id, redirect_uri, nil)"],
         ["    url = authorize_url(client_id, redirect_uri, state)"], "passes nil where the call sent state"),
    ],
)
def test_a_security_argument_passed_as_nothing_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/App.js", ["    setState(null)"], ["    setState(state)"]),
        ("lib/view.py", ["    render(template, None)"], ["    render(template, state)"]),
        ("src/main/java/org/example/oauth/Client.java", ["        client.send(request, null);"], ["        client.send(request, handler);"]),
    ],
)
def test_an_ordinary_argument_passed_as_nothing_is_not_named(path: str, added: list[str], removed: list[str]) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert not any("where the call sent" in r for r in reasons), reasons


# A configuration file joined to a folder (home, config, base) written bare: read from wherever the program runs.
@pytest.mark.parametrize(
    ("path", "added", "removed", "named"),
    [
        ("src/config.rs", ['        PathBuf::from(".tool.toml"),'], ['        base.join(".tool.toml"),'], "reads .tool.toml from the current directory"),
        ("tool/config.py", ['    path = Path(".toolrc")'], ['    path = Path.home() / ".toolrc"'], "reads .toolrc from the current directory"),
        ("src/main/java/org/example/Conf.java", ['        File f = new File("app.properties");'],
         ['        File f = new File(configDir, "app.properties");'], "reads app.properties from the current directory"),
    ],
)
def test_a_config_file_read_from_the_current_directory_is_named(path: str, added: list[str], removed: list[str], named: str) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert reasons and reasons[0].startswith(named), reasons


@pytest.mark.parametrize(
    ("path", "added", "removed"),
    [
        ("src/config.rs", ['        home.join(".tool.toml"),'], ['        base.join(".tool.toml"),']),
        ("src/config.rs", ['        PathBuf::from(base_dir).join(".tool.toml"),'], ['        base.join(".tool.toml"),']),
        ("tool/config.py", ['    path = config_dir() / ".toolrc"'], ['    path = Path.home() / ".toolrc"']),
    ],
)
def test_a_config_file_joined_to_another_folder_is_not_named(path: str, added: list[str], removed: list[str]) -> None:
    reasons = review(fc(path, added, removed)).reasons
    assert not any("current directory" in r for r in reasons), reasons
