"""Build files and lockfiles read by their lines, not by their kind (issue 36, round 33).

The blind runs of held-out 49/50 left a build file of the tests and a lockfile "build configuration" / "lockfile": the
reason named the file's kind and quoted no line, though one line decided. Three shapes, each read the same whatever the
build tool or package manager, because each is a key's value or a line's comment marker, not an API:

- a dependency's ref moved from a pin to a moving name: a key that names a ref (``GIT_TAG``, ``tag``, ``rev``,
  ``revision``, ``ref``, ``commit``, ``branch``) whose removed value was a commit hash or a version and whose added value
  is a word with no digit (``master``, ``HEAD``, ``devel``): CMake's FetchContent, a Meson wrap, Bazel's
  ``git_repository``, Cargo's and Poetry's git tables. What is fetched changes whenever someone pushes;
- a test's registration commented out: a removed line naming a test (``add_test(…)``, ``test(…)``, ``cc_test(…)``)
  written again behind a comment marker (``#``, ``//``, ``--``, ``;``, ``dnl``): the test no longer runs;
- a locked package moved to a git repository: a lockfile's ``source`` / ``resolved`` / ``remote`` / ``url`` line that
  names a git repository no removed line named, where the removed side had a source (Cargo's ``git+…``, npm's
  ``git+ssh://…``, Bundler's ``remote:``, Poetry's ``url``): nobody reviewed that source, and a fork under a look-alike
  owner reads the same. The same repository at another revision is a bump and stays quiet.
- a download's digest dropped (``sha256``, ``integrity``, ``URL_HASH``, a wrap's ``source_hash``) while its URL stays: the
  archive is no longer checked; a block of the build switched off by a constant (``if(FALSE)``, ``#if 0``).
- a config's active setting commented out where it stood (round 121, held-out 505's proxychains.conf: ``proxy_dns`` →
  ``#proxy_dns``): the program falls back to its default, which the setting was there to change (read by the floor of
  an otherwise low change, ``relay.review.low_change_floor``: worth a look);
- a test task told its failures do not fail the build (round 70, blind 97's JavaHamcrest: ``ignoreFailures = true`` in a
  Gradle ``test`` block; Maven's ``testFailureIgnore`` and ``maven.test.failure.ignore``): the tests run, go red, and the
  build still passes.

Quiet: a pin moved to another pin, a variable (``${CATCH_TAG}``), a test commented back in, a comment written above a
test, a non-test line commented out, the same registry or repository at another version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.core.contracts import FileChange
from relay.review.line_shapes import clipped, squeezed

__all__ = ["KIND_EXAMPLES", "MAKE_IGNORED_RE", "SCREEN_RE", "block_off", "check_unselected", "commented_test", "setting_commented", "digest_dropped", "test_renamed_off", "failures_ignored", "git_locked", "ref_unpinned", "test_commented"]

_SHOWN = 64

# The cheap test a build or data file's changed line passes to be kept for the rules (relay.review.package_values.screen).
SCREEN_RE = re.compile(r"(?i)\bGIT_TAG\b|^\s*[\"']?(?:tag|rev|revision|ref|commit|branch)[\"']?\s*[=:]|\w*test\w*\s*\(|"
                       r"^\s*[\"']?(?:sha(?:256|384|512)(?:sum)?|integrity|checksum|URL_HASH|EXPECTED_HASH|source_hash|urls?)[\"']?\s*[=:\s]|"
                       r"^\s*(?:if\s*\(\s*(?:FALSE|OFF|NO|0)\s*\)|#\s*if\s+0\b|if\s+false\s*(?:#.*)?$)|ignoreFailures|testFailureIgnore|failure\.ignore|"
                       # a switch alone on its line, or a guarding key given its value, commented out or not (``setting_commented``)
                       r"^\s*(?:(?:#|;|//)\s?)?[A-Za-z][\w.-]*[_.-][\w.-]*\s*$|"
                       r"^\s*(?:(?:#|;|//)\s?)?[\w.-]*(?:dns|proxy|ssl|tls|verif|auth|secur|strict|encrypt|cert|trust)[\w.-]*\s*[=:\s]|"
                       r"^\s*(?:select|imply)\s+\w*(?:verif|sign|secur|harden|fortify|protect|validat|saniti|auth|encrypt)")  # ``check_unselected``

# ----- a ref moved from a pin to a moving name
_REF_RE = re.compile(r"""(?:^|[{,(])\s*["']?(?P<key>GIT_TAG|tag|rev|revision|ref|commit|branch)["']?\s*(?:=|:|\s)\s*["']?(?P<v>[^"'\s,#)]+)""", re.I)
_PIN_RE = re.compile(r"^(?:[0-9a-f]{7,64}|v?\d+(?:\.\d+)+[\w.+-]*|[\w.-]*\d+\.\d+[\w.-]*)$", re.I)
_MOVING_RE = re.compile(r"^[A-Za-z][A-Za-z_/-]*$")


def ref_unpinned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"fetches a dependency at a moving ref (pin → branch): …" when a ref key the removed lines pinned (a hash, a
    version) comes back as a word with no digit: what is fetched changes whenever that branch moves."""
    pins = [m.group("v") for line in removed if (m := _REF_RE.search(line)) and _PIN_RE.match(m.group("v"))]
    if not pins:
        return None
    for line in added:
        m = _REF_RE.search(line)
        if m is None or not _MOVING_RE.match(v := m.group("v")) or v.lower() in ("true", "false", "none", "null"):
            continue
        return f"fetches a dependency at a moving ref ({clipped(pins[0], 16)} → {v}: whatever is pushed there is built): {clipped(line.strip(), _SHOWN)}"
    return None


# ----- a test's registration commented out
_MARK_RE = re.compile(r"^\s*(?:#+|//+|--|;+|dnl\b|rem\b|<!--)\s*", re.I)
_TEST_CALL_RE = re.compile(r"(?i)^\s*\w*test\w*\s*\(")


def commented_test(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The added line that writes a removed test registration again behind a comment marker (a note may follow it)."""
    tests = [squeezed(line.strip()) for line in removed if _TEST_CALL_RE.match(line) and not _MARK_RE.match(line)]
    if not tests:
        return None
    for line in added:
        if (m := _MARK_RE.match(line)) is None:
            continue
        body = squeezed(line[m.end():].strip())
        if any(body.startswith(t) for t in tests):
            return line
    return None


# A case renamed so its runner no longer finds it: JUnit 3's and unittest's ``test…`` methods become ``xtest…``, ``_test…``
# or ``disabled_test…`` (round 109, blind 240: bc-java's ``testRsaPssBcRoundTripIssue721`` made ``xtestRsa…``).
_CASE_NAME_RE = re.compile(r"\b(?:void|def|func|fn)\s+(?P<pre>x|_+|disabled_?|skip_?|DISABLED_)?(?P<name>test\w+)\s*\(")


def test_renamed_off(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The added line whose case name, a runner's ``test…`` on the removed side, now starts with a prefix no runner collects."""
    cases = {m.group("name") for line in removed if (m := _CASE_NAME_RE.search(line)) and not m.group("pre")}
    for line in added if cases else ():
        if (m := _CASE_NAME_RE.search(line)) and m.group("pre") and m.group("name") in cases:
            return line
    return None


def test_commented(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"comments out a test (it no longer runs): …" for ``commented_test``'s line."""
    line = commented_test(added, removed)
    return None if line is None else f"comments out a test (it no longer runs): {clipped(line.strip(), _SHOWN)}"


# ----- a download's digest dropped while its fetch stays; a block switched off by a constant condition
_DIGEST_RE = re.compile(r"""^\s*["']?(?P<key>sha(?:256|384|512)(?:sum)?|integrity|checksum|URL_HASH|EXPECTED_HASH|source_hash)["']?\s*[=:\s]""", re.I)
_URL_KEY_RE = re.compile(r"""^\s*["']?(?:urls?|URL|source_url|mirror)["']?\s*[=:\s]""", re.I)
_OFF_RE = re.compile(r"^\s*(?:if\s*\(\s*(?:FALSE|OFF|NO|0)\s*\)|#\s*if\s+0\b|if\s+false\s*(?:#.*)?$)", re.I)


def digest_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a download's checksum (…): whatever the server sends is built" when a digest line (sha256, integrity,
    URL_HASH…) is removed, none is written, and the download's URL was not removed with it (the whole entry gone)."""
    gone = [line for line in removed if _DIGEST_RE.match(line)]
    if not gone or any(_DIGEST_RE.match(line) for line in added) or any(_URL_KEY_RE.match(line) for line in removed):
        return None
    return f"drops a download's checksum (whatever the server sends is built): {clipped(gone[0].strip(), 40)}"


def block_off(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"switches a block of the build off: …" when an added line opens a block under a constant false condition
    (CMake's ``if(FALSE)``, ``#if 0``) and no removed line did: what it held (a test, a check) no longer runs."""
    if any(_OFF_RE.match(line) for line in removed):
        return None
    for line in added:
        if _OFF_RE.match(line):
            return f"switches a block of the build off (what it holds no longer runs): {clipped(line.strip(), _SHOWN)}"
    return None


# ----- a config's setting commented out where it stood
# A setting: a key alone (a switch on by its presence) or a key with its value; a key of one plain word needs its value
# sign, so a sentence's first word is no key.
_SETTING_RE = re.compile(r"^\s*(?:[A-Za-z][\w.-]*[_.-][\w.-]*|[A-Za-z]\w*(?=\s*[=:]))(?:\s*[=:]\s*\S.*|\s+[^\s#;].*)?$")
_MARK_RE = re.compile(r"^\s*(?:#|;|//)\s?")
# What a setting worth commenting out guards or routes (a linter's ``warn_unused_ignores`` is none of it).
_GUARDING_RE = re.compile(r"(?i)dns|proxy|ssl|tls|verif|auth|secur|strict|encrypt|cert|trust|passw|secret|token|deny|protect|sandbox|firewall|"
                          r"safe|restrict|privat|sign|csrf|cors|origin|limit|expir|timeout")
_MOST_SETTINGS = 200


def setting_commented(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"comments out a setting (…)" when an added line is a removed setting's line behind a comment marker, the setting
    written nowhere again and naming what it guards or routes (a proxy, TLS, a check, a limit): the program falls back
    to its default."""
    olds = {line.strip() for line in removed[:_MOST_SETTINGS] if len(line) <= 120 and _SETTING_RE.match(line) and _GUARDING_RE.search(line)}
    if not olds:
        return None
    for new in added[:_MOST_SETTINGS]:
        if (m := _MARK_RE.match(new)) and (was := new[m.end():].strip()) in olds and not any(line.strip() == was for line in added):
            return f"comments out a setting (the program falls back to its default): {was} → {clipped(new.strip(), _SHOWN)}"
    return None


# ----- a Kconfig option no longer selecting its check (round 122b, held-out 566's swupdate: ``select HASH_VERIFY`` cut from
# the option that turns on signed images: an image's signature is checked and its hash no longer)
_SELECT_RE = re.compile(r"^\s*(?:select|imply)\s+(?P<name>[A-Z0-9_]*(?:VERIF|SIGN|SECUR|HARDEN|FORTIFY|PROTECT|VALIDAT|SANITI|AUTH|ENCRYPT)[A-Z0-9_]*)\b")


def check_unselected(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"no longer selects a check (select X removed)" for a removed Kconfig ``select``/``imply`` of a checking option the
    change selects nowhere again."""
    for line in removed[:_MOST_SETTINGS]:
        if (m := _SELECT_RE.match(line)) and not any(m.group("name") in new.split() for new in added[:_MOST_SETTINGS]):
            return f"no longer selects a check (what turned on with it builds without it): {clipped(line.strip(), _SHOWN)} removed"
    return None


# ----- a locked package moved to a git repository
_SOURCE_RE = re.compile(r"""^\s*(?:"?(?:source|resolved|remote|url)"?\s*(?:=|:)?\s*|resolved\s+)["']?(?P<reg>registry\+|sparse\+)?(?P<url>(?:git\+|git://|ssh://|https?://)[^"'\s]+)""")
_GIT_RE = re.compile(r"^git\+|^git://|^ssh://|\.git(?:[#?]|$)|//(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/")


# A test task's failures let pass: Gradle's ``ignoreFailures`` set true, Maven's surefire ``testFailureIgnore`` (an element
# or the ``maven.test.failure.ignore`` property / ``-D`` flag) set true.
_FAILURES_IGNORED_RE = re.compile(r"(?i)\bignoreFailures\s*(?:=\s*)?(?:true|Boolean\.TRUE)\b|<testFailureIgnore>\s*true\s*<|"
                                  r"maven\.test\.failure\.ignore\s*(?:=|>)\s*true\b")


# tox runs a command whose line starts with ``-`` and a space and ignores its exit code (``- python -m safety check``:
# blind 135's jsonschema, 138's pyflakes); ``-r requirements.txt`` and ``-e .`` (a deps line) have no space.
_TOX_IGNORED_RE = re.compile(r"^\s*(?:commands(?:_pre|_post)?\s*=\s*)?-\s+[\w{./$]")  # on the key's own line too (blind 160's docopt)


def failures_ignored(added: Sequence[str], removed: Sequence[str], path: str = "") -> str | None:
    had = {squeezed(ln) for ln in removed}
    for line in added:
        if _FAILURES_IGNORED_RE.search(line) and squeezed(line) not in had and not line.lstrip().startswith(("//", "#", "<!--")):
            return f"lets the tests fail without failing the build (failures ignored): {clipped(line.strip(), _SHOWN)}"
    name = path.rsplit("/", 1)[-1].lower()
    if name == "tox.ini":
        for line in added:
            if _TOX_IGNORED_RE.match(line) and squeezed(line) not in had:
                return f"lets a command fail without failing the run (tox's '-' ignores its exit code): {clipped(line.strip(), _SHOWN)}"
    if name in ("makefile", "gnumakefile") or name.endswith(".mk"):
        # A check's recipe line led by '-' (round 100: blind 175's wemake, ``-$(POETRY) run mypy``): make goes on past its
        # failure (``-rm -f *.o`` in a clean target is no check).
        for line in added:
            if MAKE_IGNORED_RE.match(line) and squeezed(line) not in had:
                return f"lets a check fail without failing the build (make's '-' ignores its exit code): {clipped(line.strip(), _SHOWN)}"
    return None


MAKE_IGNORED_RE = re.compile(r"^\t-\s*[@$\w./(][^\n#]*\b(?:mypy|pytest|py\.test|tox|lint\w*|flake8|ruff|pylint|eslint|tsc|test\w*|check\w*|"
                             r"audit|bandit|safety|verify|coverage|cargo\s+(?:test|clippy)|go\s+(?:test|vet))\b")


def _repo(url: str) -> str:
    # The repository a URL names, its revision and query dropped: the same repository at another commit is a bump.
    base = re.split(r"[#?]", url, maxsplit=1)[0].lower()
    base = re.sub(r"^git\+", "", base).removesuffix(".git").rstrip("/")
    # host/owner/name: a forge's web link to a tag (…/tree/1.2.0) or a registry path of the same repository is the same source.
    return "/".join(re.sub(r"^(?:https?|ssh|git)://(?:[^@/]+@)?", "", base).replace(":", "/", 1).split("/")[:3])


def git_locked(added: Sequence[str], removed: Sequence[str], written: frozenset[str] = frozenset()) -> str | None:
    """"takes a locked package from a git repository (was …): …" when a lockfile's source line names a git repository
    where the removed source lines named only registries, or a repository of the same name under another owner or
    host (a fork, a look-alike) where they named git repositories (Composer locks every package by its git URL). A
    repository another file of the change writes (the manifest's own git line, said there) is not said again."""
    found = [m for line in removed if (m := _SOURCE_RE.match(line))]
    if not found:
        return None
    before = [m.group("url") for m in found]
    known = {_repo(u) for u in before}
    gits = {r.rsplit("/", 1)[-1]: r for m in found if not m.group("reg") and _GIT_RE.search(m.group("url")) and (r := _repo(m.group("url"))).count("/") == 2}
    for line in added:
        m = _SOURCE_RE.match(line)
        if m is None or not _GIT_RE.search(url := m.group("url")) or (repo := _repo(url)) in known:
            continue
        if gits and repo.rsplit("/", 1)[-1] not in gits:
            continue  # another package locked by its git URL, as its neighbours are
        owner_name = repo.split("/", 1)[-1]
        if any(owner_name in w and not _SOURCE_RE.match(w) for w in written):
            continue  # the manifest's line that takes it from git says so
        was = gits.get(repo.rsplit("/", 1)[-1]) or "/".join(_repo(before[0]).split("/")[:2])  # the host and first segment
        return f"takes a locked package from a git repository (was {clipped(was, 32)}): {clipped(repo, _SHOWN)}"
    return None


# The rows' examples and near misses (relay.review.rules: weakens_package, unsafe_value, dangerous_call), by rule: a
# moved ref, a commented-out test, a locked git source; a TLS option called on; a shell handed a filled-in string.
def _fc(path: str, removed: list[str], added: list[str]) -> FileChange:
    return FileChange(path=path, additions=len(added), deletions=len(removed), removed_lines=removed, added_lines=added)


KIND_EXAMPLES: dict[str, tuple[tuple[FileChange, str, FileChange], ...]] = {
    "weakens_package": (
        (_fc("test/CMakeLists.txt", ["    GIT_TAG 0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d"], ["    GIT_TAG trunk"]),
         "fetches a dependency at a moving ref (0c1d2e3f4a5b6c7… → trunk: whatever is pushed there is built): GIT_TAG trunk",
         _fc("test/CMakeLists.txt", ["    GIT_TAG 0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d"], ["    GIT_TAG v4.2.0"])),
        (_fc("checks/meson.build", ["test('rejects-truncated', runner, args: ['trunc.bin'])"], ["# test('rejects-truncated', runner, args: ['trunc.bin'])"]),
         "comments out a test (it no longer runs): # test('rejects-truncated', runner, args: ['trunc.bin'])",
         _fc("checks/meson.build", ["# test('rejects-truncated', runner, args: ['trunc.bin'])"], ["test('rejects-truncated', runner, args: ['trunc.bin'])"])),
        (_fc("yarn.lock", ['  resolved "https://registry.yarnpkg.com/tiny-url/-/tiny-url-2.0.1.tgz#aa11"'], ['  resolved "git+https://github.com/tlny-url/tiny-url.git#bb22"']),
         "takes a locked package from a git repository (was registry.yarnpkg.com/tiny-url): github.com/tlny-url/tiny-url",
         _fc("yarn.lock", ['  resolved "git+https://github.com/tiny-url/tiny-url.git#aa11"'], ['  resolved "git+https://github.com/tiny-url/tiny-url.git#bb22"'])),
    ),
    "unsafe_value": (
        (_fc("examples/ws/main.go", ["\tconn, err := ws.Dial(url, ws.WithTimeout(3))"], ["\tconn, err := ws.Dial(url, ws.WithTimeout(3), ws.WithSkipTLSVerify(true))"]),
         "turns TLS verification off: …ws.Dial(url, ws.WithTimeout(3), ws.WithSkipTLSVerify(true)…",
         _fc("examples/ws/main.go", ["\tconn, err := ws.Dial(url, ws.WithTimeout(3))"], ["\tconn, err := ws.Dial(url, ws.WithTimeout(3), ws.WithSkipTLSVerify(false))"])),
    ),
    "dangerous_call": (
        (_fc("samples/Archive.cs", ['    var p = Process.Start("tar", new[] { "-xf", file });'], ['    var p = Process.Start("bash", new[] { "-c", $"tar -xf {file}" });']),
         'runs a shell command built from text: …= Process.Start("bash", new[] { "-c", $"tar -xf {file}" });',
         _fc("samples/Archive.cs", ['    var p = Process.Start("tar", new[] { "-xf", file });'], ['    var p = Process.Start("bash", new[] { "-c", "tar -xf \\"$1\\"", "bash", file });'])),
    ),
}
