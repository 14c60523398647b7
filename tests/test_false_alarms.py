"""Readers that fired on ordinary code (round 23, part C): each false alarm's class stays quiet, and the real turn
beside it is still named."""

from __future__ import annotations

import pytest

from relay.review.subtle_turns import rejection_in_run, subtle_turned

# A formatter's reflow: the rejection is split over lines, its words all kept (a refactor's own hunk).
_REFLOWED = [
    ("lib/device_flow.js",
     ["        throw new RPError(`expected ${prop} string to be returned, got %j`, response[prop]);"],
     ["        throw new RPError(", "          `expected ${prop} string to be returned, got %j`,", "          response[prop],", "        );"]),
    ("lib/strategy.js",
     ["      throw new TypeError('neither code_challenge_method supported (S256 or plain) by the issuer');"],
     ["      throw new TypeError(", "        'neither code_challenge_method supported (S256 or plain) by the issuer',", "      );"]),
    ("src/Auth/Check.cs",
     ["            throw new SecurityTokenException(\"token expired at \" + expires);"],
     ["            throw new SecurityTokenException(", "                \"token expired at \" + expires);"]),
    ("app/guard.py",
     ["        raise PermissionDenied('login required for %s' % request.path)"],
     ["        raise PermissionDenied(", "            'login required for %s' % request.path", "        )"]),
]


@pytest.mark.parametrize("path, removed, added", _REFLOWED)
def test_a_rejection_reflowed_over_lines_is_not_failing_open(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert found is None or "fails open" not in found[0], found
    assert rejection_in_run(added, removed) is None


@pytest.mark.parametrize("path, removed, added", [
    ("lib/device_flow.js",
     ["        throw new RPError(`expected ${prop} string to be returned, got %j`, response[prop]);"],
     ["        return undefined;"]),
    ("lib/strategy.js",
     ["      throw new TypeError('neither code_challenge_method supported (S256 or plain) by the issuer');"],
     ["      // 'neither code_challenge_method supported (S256 or plain) by the issuer'", "      return;"]),
])
def test_a_rejection_replaced_by_a_return_still_fails_open(path, removed, added):
    found = subtle_turned(path, added, removed)
    assert (found is not None and "fails open" in found[0]) or rejection_in_run(added, removed), found


# ----- session 22's known misreads


def test_a_null_forgiving_or_force_unwrap_bang_is_not_a_check_inverted(tmp_path):
    from reviewed import review_edits

    before = "class C {\n  void M() {\n    var c = Thread.CurrentThread.CurrentCulture;\n    CultureInfo.CurrentCulture = originalCulture;\n  }\n}\n"
    risk, files = review_edits(tmp_path, {"src/Lib/UseCulture.cs": before.replace("originalCulture;", "originalCulture!;")},
                               before={"src/Lib/UseCulture.cs": before})
    assert not any("inverts" in r for r in files["src/Lib/UseCulture.cs"].reasons), files["src/Lib/UseCulture.cs"].reasons


@pytest.mark.parametrize("removed, added", [
    (["    if (!user.isAdmin()) throw new ForbiddenException();"], ["    if (user.isAdmin()) throw new ForbiddenException();"]),
    (["    if (!token!.isValid) return Unauthorized();"], ["    if (token!.isValid) return Unauthorized();"]),
])
def test_a_prefix_not_dropped_beside_a_postfix_bang_still_inverts(removed, added):
    from relay.review.guard_reading import removed_guard

    assert "inverts a check" in (removed_guard(added, removed) or ""), removed_guard(added, removed)


@pytest.mark.parametrize("path, kind", [
    ("src/main/kotlin/com/acme/docs/DocsController.kt", "source"),  # a package named docs holds code
    ("app/src/main/java/org/acme/documentation/Api.java", "source"),
    ("config/security.yml", "data"),  # a settings file named like a policy page
    ("config/security.json", "data"),
    ("settings.xml", "build"),  # Maven's mirrors and servers
    (".mvn/settings.xml", "build"),
    ("gradle/verification-metadata.xml", "build"),  # Gradle's dependency checksums
    # look-alikes keep their kind
    ("docs/conf.py", "docs"), ("docs/src/main.rs", "docs"), ("SECURITY.md", "docs"), ("SECURITY", "docs"),
    ("app/src/main/res/xml/settings.xml", "data"),  # an Android preference screen
])
def test_a_files_kind_by_its_path(path, kind):
    from relay.review.file_kinds import file_kind

    assert file_kind(path) == kind


@pytest.mark.parametrize("line, shown, hidden", [
    ("  <NuGetApiKey>oy2abcd1234efgh5678ijkl</NuGetApiKey>", "oy2abc…", "oy2abcd1234efgh5678ijkl"),
    ('  <property name="db.password" value="S3cr3tPassw0rdValue99"/>', "S3cr3t…", "S3cr3tPassw0rdValue99"),
    ('  <add key="StripeApiKey" value="k9Xz7Qw2Lm4Np6Rt8Vb1"/>', "k9Xz7Q…", "k9Xz7Qw2Lm4Np6Rt8Vb1"),
])
def test_an_xml_propertys_secret_is_named_but_never_shown_whole(line, shown, hidden):
    from relay.review.risky_lines import unsafe_value

    found = unsafe_value([line], []) or ""
    assert found.startswith("hard-codes a secret") and shown in found and hidden not in found, found


@pytest.mark.parametrize("line", ['  <add key="ApiKey" value="$(API_KEY)"/>', '  <property name="db.password" value="${db.password}"/>'])
def test_an_xml_propertys_variable_is_no_secret(line):
    from relay.review.risky_lines import unsafe_value

    assert unsafe_value([line], []) is None


def test_a_world_writable_quote_keeps_its_mode_number():
    from relay.review.risky_lines import unsafe_value

    found = unsafe_value(["        temp.as_file().set_permissions(fs::Permissions::from_mode(0o666)).ok();"], [])
    assert found is not None and "0o666" in found, found


def test_escaping_removed_with_the_value_it_escaped_is_not_escaping_removed():
    from relay.review.guard_reading import removed_guard

    removed = ["        my_url = (", "            self.request.protocol", '            + "/auth/login?next="',
               '            + tornado.escape.url_escape(self.get_argument("next", "/"))', "        )"]
    added = ['        my_url = self.request.protocol + "://" + self.request.host + "/auth/login"']
    assert "escaping" not in (removed_guard(added, removed) or "")


@pytest.mark.parametrize("removed, added", [
    (['    html = "<p>" + escape(comment.body) + "</p>"'], ['    html = "<p>" + comment.body + "</p>"']),
    (["    out.write(html.escape(name))"], ["    out.write(name)"]),
    (["    $q = 'SELECT * FROM t WHERE id = ' . mysqli_real_escape_string($db, $id);"], ["    $q = 'SELECT * FROM t WHERE id = ' . $id;"]),
])
def test_escaping_taken_off_a_value_still_used_is_named(removed, added):
    from relay.review.guard_reading import removed_guard

    assert "escaping" in (removed_guard(added, removed) or ""), removed_guard(added, removed)


def test_a_receiver_shared_with_an_escaped_value_is_not_that_value_interpolated():
    from relay.review.slipped_lines import turned_down

    removed = ['\treturn r.URL.Scheme + "://" + r.Host + "/login?next=" +', '\t\turl.QueryEscape(r.URL.Query().Get("next"))']
    added = ['\treturn r.URL.Scheme + "://" + r.Host + "/login"']
    assert "interpolation" not in (turned_down(added, removed) or ""), turned_down(added, removed)
    assert "interpolation" in (turned_down(['    return "<p>" + name + "</p>"'], ['    return "<p>" + escape(name) + "</p>"']) or "")


def test_an_escaped_value_interpolated_as_it_is_is_still_named(tmp_path):
    from reviewed import review_edits

    before = 'def greet(name):\n    return "<p>" + html.escape(name) + "</p>"\n'
    after = 'def greet(name):\n    return f"<p>{name}</p>"\n'
    _, files = review_edits(tmp_path, {"app/views.py": after}, before={"app/views.py": before})
    assert any("escap" in r or "interpolation" in r for r in files["app/views.py"].reasons), files["app/views.py"].reasons


@pytest.mark.parametrize("old, new", [
    ("    if @config.magic_login_mailer_class.nil? and @config.magic_login_token_attribute_name",
     "    if @config.magic_login_mailer_class.nil? && @config.magic_login_token_attribute_name"),
    ("    if not user.is_authenticated or session.expired:", "    if ! user.is_authenticated || session.expired:"),
])
def test_an_operator_spelt_otherwise_is_not_a_security_line_edited(old, new):
    from relay.review.condition_reading import pairs
    from relay.review.line_edits import edited_meaning

    assert edited_meaning(pairs([new], [old]), [old]) is None


def test_an_operator_swapped_for_another_is_still_a_security_line_edited():
    from relay.review.condition_reading import pairs
    from relay.review.line_edits import edited_meaning

    old, new = "    if user.authenticated? and token.valid?", "    if user.authenticated? || token.valid?"
    assert "edits a security line" in (edited_meaning(pairs([new], [old]), [old]) or "")
