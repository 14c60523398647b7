"""What a check decides, read from its edited pair (relay.review.bound_turns, round 21 part A): a security bound moved
the unsafe way, a predicate made constant, quoting dropped or an escaped expansion made live, a check pointed at
another operand, a collection narrowed to its first element; each in several languages, with look-alikes that stay
quiet. Every case is synthetic; none names a project."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.code_reading import mechanical_verdict
from relay.review.file_kinds import line_filter
from relay.review.meaning import same_meaning
from relay.review.subtle_turns import subtle_turned

TURNS = [
    # a bound raised or lowered the way that lets more through
    ("kdf/limits.go", ["\tmaxWorkFactor: 30, // about 2s"], ["\tmaxWorkFactor: 22, // about 2s"], "raises a security bound"),
    ("src/Auth/Setup.cs", ["        o.Lockout.MaxFailedAccessAttempts = 500;"], ["        o.Lockout.MaxFailedAccessAttempts = 5;"], "raises a security bound"),
    ("Sources/Jwt.swift", ["    let leeway: TimeInterval = 86400"], ["    let leeway: TimeInterval = 30"], "raises a security bound"),
    ("config/auth.yml", ["    max_failed_attempts: 500"], ["    max_failed_attempts: 5"], "raises a security bound"),
    ("lib/cipher.ex", ["  @tag_length 4"], ["  @tag_length 16"], "lowers a security bound"),
    ("src/seal.rs", ["pub const MIN_TAG_LEN: usize = 4;"], ["pub const MIN_TAG_LEN: usize = 16;"], "lowers a security bound"),
    # a bound multiplied in place
    ("src/Totp.php", ["        for ($i = 0; $i <= $window * $this->getPeriod(); ++$i) {"], ["        for ($i = 0; $i <= $window; ++$i) {"],
     "multiplies a security bound"),
    ("otp/check.go", ["\tfor i := -t.window; i <= t.window * t.period; i++ {"], ["\tfor i := -t.window; i <= t.window; i++ {"], "multiplies a security bound"),
    # a length test taken out of a deciding line
    ("lib/enc.ex", ["         {:ok, tag} <-"], ["         {:ok, tag} when bit_size(tag) === 128 <-"], "drops a length check"),
    ("sig/valid.go", ["\treturn ed25519.Verify(pub, msg, sig)"], ["\treturn len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, msg, sig)"],
     "drops a length check"),
    # a predicate made constant
    ("src/Map.cs", ["        Should = cfg.Should ?? (p => true);"], ["        Should = cfg.Should ?? (p => p.IsPublic());"], "predicate constant"),
    ("src/Pin.kt", ["    val trusted: (Cert) -> Boolean = { true }"], ["    val trusted: (Cert) -> Boolean = { it.issuer == ca }"], "predicate constant"),
    ("Sources/Nav.swift", ["    var mayOpen: (String) -> Bool = { _ in true }"], ["    var mayOpen: (String) -> Bool = { host in hosts.contains(host) }"],
     "predicate constant"),
    ("src/acl.rs", ["    docs.iter().filter(|_| true).collect()"], ["    docs.iter().filter(|d| d.owner == user.id).collect()"], "predicate constant"),
    ("lib/docs.ex", ["    Enum.filter(docs, fn _ -> true end)"], ["    Enum.filter(docs, fn d -> d.owner_id == user.id end)"], "predicate constant"),
    ("src/Post.php", ["        if ($this->policy->owns($user, $post) || true) {"], ["        if ($this->policy->owns($user, $post)) {"], "always true"),
    # quoting dropped, an escaped expansion made live
    ("lib/runner.rb", ['      file_list.join(" ")'], ['      file_list.map { |fn| "\\"#{fn}\\"" }.join(" ")'], "drops the quoting"),
    ("themes/base.theme.bash", ['\t\tBRANCH="${PREFIX}$(_ref)$(_remote)"'], ['\t\tBRANCH="${PREFIX}\\$(_ref)$(_remote)"'], "escaped expansion"),
    # a check pointed at another operand that stood in the code
    ("src/Gen.java", ["            if (!overwrite && checkExists(commandScript)) {"], ["            if (!overwrite && checkExists(completionScript)) {"],
     "another operand"),
    ("src/Docs.kt", ["        if (!acl.canWrite(owner, doc)) throw Forbidden()"], ["        if (!acl.canWrite(actor, doc)) throw Forbidden()"], "another operand"),
    # a collection narrowed to its first element
    ("src/context.ts", ["          return [withValue[0] || instances[0]];"], ["          return withValue.length ? withValue : [instances[0]];"], "first element"),
]

QUIET = [
    ("ui/layout.go", ["\tmaxWidth: 120,"], ["\tmaxWidth: 80,"]),
    ("config/http.yml", ["    max_retries: 5"], ["    max_retries: 3"]),
    ("lib/cipher.ex", ["  @tag_length 16"], ["  @tag_length 12"]),  # raised: stricter
    ("ui/window.ts", ["  const window = 20;"], ["  const window = 10;"]),  # a window that bounds nothing of security
    ("src/menu.ts", ["const items = all.filter(i => i.visible && !i.hidden);"], ["const items = all.filter(i => i.visible);"]),
    ("src/Flags.cs", ["    public Func<bool> Enabled { get; init; } = () => true;"], []),
    ("src/Load.java", ["        if (Files.exists(config)) {", "            read(config);"], ["        if (Files.exists(file)) {", "            read(file);"]),
    ("src/title.ts", ["  return parts[0] ?? '';"], ["  return parts.shift() ?? '';"]),
    # a parameter renamed where the old name still names a local: the swap is the rename's
    ("src/Markup.cs", ["    public static string Escape(string? markup)", "        if (string.IsNullOrWhiteSpace(markup))", "        var text = markup.Trim();"],
     ["    public static string Escape(string? text)", "        if (string.IsNullOrWhiteSpace(text))"]),
    ("scripts/build.sh", ['echo "\\$HOME is $HOME"'], ['echo "\\$HOME is $HOME"  ']),
]


@pytest.mark.parametrize(("path", "added", "removed", "said"), TURNS)
def test_turn_is_said_medium(path: str, added: list[str], removed: list[str], said: str) -> None:
    found = subtle_turned(path, added, removed)
    assert found is not None and said in found[0], found
    assert found[1] is False  # medium, never classic high


@pytest.mark.parametrize(("path", "added", "removed"), QUIET)
def test_look_alike_is_quiet(path: str, added: list[str], removed: list[str]) -> None:
    assert subtle_turned(path, added, removed) is None


def test_an_escape_dropped_is_neither_reformatting_nor_typing() -> None:
    removed, added = ['\tPS1="\\u@\\h \\$(__git_ps1) \\$ "'], ['\tPS1="\\u@\\h $(__git_ps1) \\$ "']
    change = FileChange(path="themes/prompt.bash", kind="modified", additions=1, deletions=1, added_lines=added, removed_lines=removed)
    assert mechanical_verdict(change) is None
    assert same_meaning(added, removed) is None
    # a continuation backslash moved by a formatter is still reformatting
    wrapped = FileChange(path="build.sh", kind="modified", additions=2, deletions=1, added_lines=["cc -o app \\", "  main.c"],
                         removed_lines=["cc -o app main.c"])
    assert mechanical_verdict(wrapped) == "reformatted only"


@pytest.mark.parametrize("line", ["    max_failed_attempts: 500", "  leeway: 86400"])
def test_settings_lines_are_kept_for_the_readers(line: str) -> None:
    assert line_filter("config/auth.yml")(line)


def test_the_readers_that_pair_a_files_lines_alike_measure_each_likeness_once(monkeypatch):
    # bound_turned, decision_turned, flipped and loosened pair the same removed and added lines (bound_turns._pairs),
    # each with its own least likeness; difflib's ratio was most of the review's CPU in tests/test_plant_matrix.py
    # (60,831 measures for 762 cells), four times over for each file. Each pair is measured once now, and what each
    # reader finds is what it found alone (checked on a fresh process of the readers below).
    from relay.review import bound_turns
    from relay.review.bound_turns import bound_turned
    from relay.review.decision_turns import decision_turned
    from relay.review.flipped_lines import flipped
    from relay.review.loosened_lines import loosened

    measured: list[int] = []

    class Counting(bound_turns.SequenceMatcher):
        def ratio(self) -> float:
            measured.append(1)
            return super().ratio()

    monkeypatch.setattr(bound_turns, "SequenceMatcher", Counting)
    removed = [f"    if user.role_{n} == expected_role_{n} and token_{n}.valid(): return allow_{n}()" for n in range(30)]
    added = [line.replace("==", "!=") if n % 3 == 0 else line.replace("valid()", "valid(strict=False)")
             for n, line in enumerate(removed)]
    removed, added = [*removed, "    max_failed_attempts = 5"], [*added, "    max_failed_attempts = 500"]
    alone = []
    for read in (lambda: bound_turned("src/auth.py", added, removed), lambda: decision_turned("src/auth.py", added, removed),
                 lambda: flipped(added, removed), lambda: loosened("src/auth.py", added, removed)):
        bound_turns._measured.cache_clear()
        alone.append(read())
    bound_turns._measured.cache_clear()
    measured.clear()
    together = [bound_turned("src/auth.py", added, removed)]
    once = len(measured)
    together += [decision_turned("src/auth.py", added, removed), flipped(added, removed), loosened("src/auth.py", added, removed)]
    assert once >= 30 and len(measured) == once, (once, len(measured))
    assert together == alone and together[0] and together[3], together
