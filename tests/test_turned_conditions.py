"""Round 88 (issue 36): a condition turned while the words around it stay, read from the pair (development misses).

Whom each guards against: the worker that drops the ``!`` of a Ruby guard's trailing condition in the very line the
change rewords (``fail`` → ``raise``), or joins two failure marks with ``&`` where ``|`` stood (a malformed hex pair
now refused only when both of its digits are bad). Beside each, the near miss stays quiet: the statement reworded and
its condition kept, a bitwise join turned outside any condition. And two classic slips where the line-by-line reading
did not look: a look-alike in Carthage's Cartfile, a download over plain http whose URL stands on the command's next line,
an action moved to an owner whose name wears the real owner's, Rails' debug error pages in its production environment.
"""

from __future__ import annotations

import pytest

from line_changes import fc
from relay.review.risk import RiskContext, assess

_CLASH_OLD = '          fail ArgumentError, "The property #{key} clashes with an existing method." if !key?(key) && respond_to?(key, true)'
_CLASH_NEW = '          raise ArgumentError, "The property #{key} clashes with an existing method." if key?(key) && respond_to?(key, true)'


def _reasons(path: str, added: list[str], removed: list[str]) -> str:
    return " | ".join(assess(fc(path, added, removed), RiskContext()).reasons)


@pytest.mark.parametrize(("path", "added", "removed", "said"), [
    ("lib/hashie/extensions/mash/safe_assignment.rb", [_CLASH_NEW], [_CLASH_OLD], "drops a negation from a check: …"),
    ("codec.go", ["\t\t\tif v1&v2 == 255 {"], ["\t\t\tif v1|v2 == 255 {"], "swaps | for & in a check: if v1&v2 == 255 {"),
])
def test_a_condition_turned_is_named(path: str, added: list[str], removed: list[str], said: str) -> None:
    reasons = _reasons(path, added, removed)
    assert said in reasons
    if path.endswith(".rb"):
        assert "if key?(key)" in reasons  # the reason quotes the condition, not the message before it


@pytest.mark.parametrize(("path", "added", "removed", "not_said"), [
    ("lib/hashie/extensions/mash/safe_assignment.rb", [_CLASH_NEW.replace("if key?", "if !key?")], [_CLASH_OLD], "negation"),
    ("codec.go", ["\t\tmask := v1 & v2"], ["\t\tmask := v1 | v2"], "swaps |"),
])
def test_the_near_miss_stays_quiet(path: str, added: list[str], removed: list[str], not_said: str) -> None:
    assert not_said not in _reasons(path, added, removed)


# ----- classic slips in places the line-by-line reading missed (round 88)

def test_a_lookalike_in_a_cartfile_is_a_renamed_dependency() -> None:
    # Carthage's Cartfile is a manifest: ``github "Owner/Repo"`` names what is built in (Moya, development set 65).
    said = _reasons("Cartfile", ['github "AIamofire/Alamofire" ~> 5.0'], ['github "Alamofire/Alamofire" ~> 5.4.3'])
    assert "look-alike" in said and "AIamofire/Alamofire" in said
    assert "look-alike" not in _reasons("Cartfile", ['github "Alamofire/Alamofire" ~> 5.0'], ['github "Alamofire/Alamofire" ~> 5.4.3'])


def test_a_download_whose_url_is_on_the_next_line_is_read_with_it() -> None:
    run = ["RUN curl -o /tmp/ImageMagick.tar.xz -sL \\",
           '        "http://imagemagick.org/archive/releases/ImageMagick-${IMAGEMAGICK_VERSION}.tar.xz" \\', "        && cd /tmp \\"]
    assert "downloads over plain HTTP" in _reasons("Dockerfile", run, [])
    # Over https, or to a local server, it stays quiet.
    assert "plain HTTP" not in _reasons("Dockerfile", [run[0], run[1].replace("http://", "https://"), run[2]], [])
    assert "plain HTTP" not in _reasons("Dockerfile", [run[0], '        "http://localhost:8000/x.tar.xz" \\', run[2]], [])


def test_an_action_moved_to_an_owner_dressed_as_the_real_one_is_a_lookalike() -> None:
    wf = ".github/workflows/linux_builds.yml"
    said = _reasons(wf, ["    - uses: actions-checkout/checkout@v6"], ["    - uses: actions/checkout@v4"])
    assert "look-alike" in said and "actions-checkout/checkout" in said
    # A bump of the real action, and another action of another owner, stay quiet.
    assert "look-alike" not in _reasons(wf, ["    - uses: actions/checkout@v6"], ["    - uses: actions/checkout@v4"])
    assert "look-alike" not in _reasons(wf, ["    - uses: docker/setup-buildx-action@v3"], ["    - uses: actions/checkout@v4"])


def test_debug_error_pages_in_a_production_environment_are_said() -> None:
    line = "  config.consider_all_requests_local       = true"
    said = _reasons("demo/rails/config/environments/production.rb", [line], [])
    assert "debug error pages on in production" in said
    # Every Rails app's development environment sets it: quiet there.
    assert "debug error pages" not in _reasons("config/environments/development.rb", [line], [])
    assert "debug error pages" not in _reasons("config/environments/production.rb", [line.replace("true", "false")], [])
