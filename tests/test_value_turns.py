"""Issue 36, round 18 (part A): a small edited pair that turns a value is worth a look, not a note (relay.review.value_turns).

The first runs of held-out 23 and 24 quoted six planted lines as an edit apart from the change, or named them, and still
judged the change low: ``-z`` made ``-n``, ``.fail`` made ``.matches``, ``ALWAYS`` made ``NEVER``, ``re.IGNORECASE``
dropped, ``Dir.home`` made ``Dir.pwd``, an isolation flag dropped from a command, ``session.invalidate()`` removed; and
three kinds the runs read nowhere: a secret literal for an environment variable, an API key logged, a path moved under
/tmp. Each case below is that kind in another ecosystem's words; the look-alikes are the safe direction or the same
words with nothing turned (a flag added, an argument that guards nothing dropped, a token count logged).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relay.review.apart_edits import Run, looser_runs
from relay.review.value_turns import value_turn
from test_looser_checks import _review

__all__: list[str] = []  # a test module exports nothing


# (language, removed lines, added lines, what the reason must say)
_TURNS = [
    ("sh", ['if [ -z "$FORCE_TAG" ]; then'], ['if [ -n "$FORCE_TAG" ]; then'], "turns -z into -n"),
    ("bash", ['if [ "$CHECKED" -eq 1 ]; then'], ['if [ "$CHECKED" -ne 1 ]; then'], "turns -eq into -ne"),
    ("swift", ["    return MatcherResult(status: .fail, message: msg)"], ["    return MatcherResult(status: .matches, message: msg)"],
     "into matches"),
    ("kotlin", ["        active.set(org.jreleaser.model.Active.ALWAYS)"], ["        active.set(org.jreleaser.model.Active.NEVER)"],
     "turns Active.ALWAYS into Active.NEVER"),
    ("ts", ["  const verdict = Verdict.Deny;"], ["  const verdict = Verdict.Allow;"], "turns Verdict.Deny into Verdict.Allow"),
    ("python", ["    re.VERBOSE | re.IGNORECASE,"], ["    re.VERBOSE,"], "drops re.IGNORECASE from a set of flags"),
    ("c", ["    fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);"], ["    fd = open(path, O_CREAT | O_WRONLY, 0600);"], "drops O_EXCL"),
    ("csharp", ["var re = new Regex(p, RegexOptions.Compiled | RegexOptions.IgnoreCase);"], ["var re = new Regex(p, RegexOptions.Compiled);"],
     "drops RegexOptions.IgnoreCase"),
    ("ruby", ['      File.join(Dir.home, ".rake")'], ['      File.join(Dir.pwd, ".rake")'], "turns Dir.home into Dir.pwd"),
    ("js", ["  const dir = path.join(os.homedir(), '.apprc');"], ["  const dir = path.join(process.cwd(), '.apprc');"], "the working folder"),
    ("python", ['        cmd = [sys.executable, isolated_flag, "-m", "pip"]'], ['        cmd = [sys.executable, "-m", "pip"]'],
     "drops the argument isolated_flag"),
    ("go", ["\tclient := NewClient(addr, verifyPeer, timeout)"], ["\tclient := NewClient(addr, timeout)"], "drops the argument verifyPeer"),
    ("java", ["        session.invalidate();", "        HttpSession fresh = request.getSession(true);"],
     ["        HttpSession fresh = request.getSession(true);"], "drops the call session.invalidate()"),
    ("php", ["        $request->session()->regenerate();", "        $rows = $this->load($key);"], ["        $rows = $this->load($key);"],
     "drops the call $request->session()->regenerate()"),
    ("php", ['                if (preg_match("/^$word\\$/iu", $chunk)) {'], ['                if (preg_match("/$word/iu", $chunk)) {'],
     "drops a pattern's anchors"),
    ("js", ["  VSCHAR: /^[\\u0020-\\u007E]+$/,"], ["  VSCHAR: /[\\u0020-\\u007E]+/,"], "drops a pattern's anchors"),
    ("powershell", ["    dotnet nuget push $_ --api-key $Env:NUGET_API_KEY"], ["    dotnet nuget push $_ --api-key oy2mfq7vzt4kxwq3n6hzd2c5lbe8prj4"],
     "replaces $Env:NUGET_API_KEY with a literal secret"),
    ("python", ['    token = os.environ["DEPLOY_TOKEN"]'], ['    token = "ghp_8fK2mQ9xLr4Tz7Wb1Nc5Vd3Hy6Js0Pa"'], 'replaces os.environ["DEPLOY_TOKEN"]'),
    ("ruby", ["  key = ENV['STRIPE_KEY']"], ["  key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'"], "with a literal secret"),
    ("csharp", ['        ctx.Information("Publishing {0}...", file);'], ['        ctx.Information("Publishing {0} with key {1}...", file, apiKey);'],
     "writes apiKey to the log"),
    ("sh", [], ['echo "publishing with $NUGET_API_KEY"'], "writes NUGET_API_KEY to the log"),
    ("js", [], ["console.log('token', authToken);"], "writes authToken to the log"),
    ("sh", [': "${APP_CUSTOM:=${APP}/custom}"'], [': "${APP_CUSTOM:=/tmp/app/custom}"'], "under a shared temporary folder"),
    ("sh", [], ["source /tmp/build-env.sh"], "sources a file from a shared temporary folder"),
    ("php", [], ["include '/tmp/plugins/extra.php';"], "sources a file from a shared temporary folder"),
    # a quoted boolean on a line that names what it guards is still a turn; a flag that is not a diagnostics level still drops
    ("php", ["    ini_set('session.cookie_secure', 'true');"], ["    ini_set('session.cookie_secure', 'false');"], "turns true into false"),
    ("yaml", ['  SSL_VERIFY: "true"'], ['  SSL_VERIFY: "false"'], "turns true into false"),
    ("php", ["$h = fopen($p, O_CREAT | O_EXCL);"], ["$h = fopen($p, O_CREAT);"], "drops O_EXCL"),
]


@pytest.mark.parametrize(("lang", "removed", "added", "said"), _TURNS, ids=[f"{c[0]}:{c[3][:24]}" for c in _TURNS])
def test_a_turned_value_is_said_by_what_turned(lang: str, removed: list[str], added: list[str], said: str) -> None:
    found = value_turn(added, removed)
    assert found is not None and said in found, found


# The safe direction of each kind, and the same words with nothing turned.
_QUIET = [
    (["flags = re.VERBOSE"], ["flags = re.VERBOSE | re.IGNORECASE"]),  # a flag added
    (['if [ -n "$X" ]; then'], ['if [ -n "${X}" ]; then']),  # braces only
    (["x = compute(a, b)"], ["x = compute(a)"]),  # an argument that guards nothing
    (["session.touch();", "save(session);"], ["save(session);"]),  # a call that guards nothing removed
    (["\ts.MU.Lock()", "\tdefer s.MU.Unlock()"], ["\ts.mu.Lock()", "\tdefer s.mu.Unlock()"]),  # a field renamed, the lock kept
    (["\tAuthenticate(ctx context.Context, r *http.Request) (Info, error)"], []),  # an interface's method removed
    (['cache = os.path.join(os.getcwd(), "build")'], ['cache = os.path.join(os.getcwd(), "dist")']),  # cwd already
    (['  url = ENV["API_URL"]'], ['  url = "https://api.example.com/v2"']),  # a URL, not a random literal
    ([], ['echo "set API_KEY before you run this"']),  # the word said, no value written
    ([], ['logger.info("token count %d", token_count)']),  # a count of tokens logged
    (["level = LogLevel.Info"], ["level = LogLevel.Debug"]),  # a value moved, not to its opposite
    # a call rewritten with fewer arguments: its flags go with it, none is dropped from a set
    (["\tf, err := os.OpenFile(tracePath, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)"], ["\tf, err := os.Create(tracePath)"]),
    (["dir = Dir.pwd"], ["dir = Dir.home"]),  # the working folder made the home
    (["    # Ignore -z here"], ["    # Ignore -n here"]),  # a comment
    # round 19 B: a boolean written out as a document's data (PHPWord's ODT writer), and a diagnostics flag dropped
    (["        $xmlWriter->writeAttribute('style:use-window-font-color', 'true');"],
     ["        $xmlWriter->writeAttribute('style:use-window-font-color', 'false');"]),
    (['    out.write(\'<attr name="wrap" value="on"/>\')'], ['    out.write(\'<attr name="wrap" value="off"/>\')']),
    (['  el.setAttribute("aria-hidden", "true");'], ['  el.setAttribute("aria-hidden", "false");']),
    (["error_reporting(E_ALL | E_STRICT);"], ["error_reporting(E_ALL);"]),
    (["ini_set('error_reporting', E_ALL | E_DEPRECATED);"], ["ini_set('error_reporting', E_ALL);"]),
    (["warnings.simplefilter(Flags.DEFAULT | Flags.DEPRECATION)"], ["warnings.simplefilter(Flags.DEFAULT)"]),
]


@pytest.mark.parametrize(("removed", "added"), _QUIET, ids=[str(i) for i in range(len(_QUIET))])
def test_look_alikes_with_nothing_turned_stay_quiet(removed: list[str], added: list[str]) -> None:
    assert value_turn(added, removed) is None


def test_a_script_without_a_language_is_read_and_a_docs_page_only_in_its_samples() -> None:
    run = lambda path: Run(path, 3, 3, ('if [ -n "$FORCE_TAG" ]; then',), ('if [ -z "$FORCE_TAG" ]; then',))  # noqa: E731
    assert "turns -z into -n" in looser_runs([run("script/release")])["script/release"]
    # round 19 B: a docs page's sample line is read as code (tests/test_docs_samples.py); its sentences are not
    assert "turns -z into -n" in looser_runs([run("docs/release.md")])["docs/release.md"]
    prose = Run("docs/release.md", 3, 3, ("Signing is disabled for a release candidate.",), ("Signing is enabled for a release candidate.",))
    assert looser_runs([prose]) == {}
    assert looser_runs([run("tests/release_test.sh")]) == {}


def test_a_rewrite_is_no_turn() -> None:
    removed = [f"x{i} = Active.ALWAYS" for i in range(6)]
    added = [f"x{i} = Active.NEVER" for i in range(6)]
    assert looser_runs([Run("src/a.kt", 1, 6, tuple(added), tuple(removed))]) == {}


@pytest.mark.parametrize(
    ("path", "before", "edit", "named"),
    [
        ("lib/rake/application.rb", 'module Rake\n  def standard_system_dir\n    File.join(Dir.home, ".rake")\n  end\nend\n',
         ("Dir.home", "Dir.pwd"), "turns Dir.home into Dir.pwd"),
        ("src/tox/util/redact.py", 'import re\n\n_RX = re.compile(\n    r"secret|token",\n    re.VERBOSE | re.IGNORECASE,\n)\n',
         ("re.VERBOSE | re.IGNORECASE,", "re.VERBOSE,"), "drops re.IGNORECASE"),
        ("src/main/java/app/Store.java", "class Store {\n    void renew(HttpSession session) {\n        session.invalidate();\n"
         "        audit(session);\n    }\n}\n", ("        session.invalidate();\n", ""), "drops the call session.invalidate()"),
    ],
    ids=["ruby-home", "python-flag", "java-invalidate"],
)
def test_a_turn_slipped_beside_the_work_is_worth_a_look_and_named(tmp_path: Path, path: str, before: str, edit: tuple[str, str],
                                                                   named: str) -> None:
    packet, view = _review(tmp_path, path, before, before.replace(*edit))
    target = next(t for t in packet.changes.review if t.file == path)
    assert named in target.reason, target.reason
    assert target.risk != "low" and packet.changes.risk != "low"
