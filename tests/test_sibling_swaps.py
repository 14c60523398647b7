"""relay.review.sibling_swaps (round 33): an edited pair whose one difference is a name swapped for its sibling where it
decides (a condition, a comparison, a return, a setting passed, a computed bound's factor), or a format call's literal
dropped so the input becomes the format; read in several languages, with the look-alikes that must stay quiet (the same
pair turned the safe way, a rename, a plain variable passed to a call, a comment, a test file, a case-only change)."""

from __future__ import annotations

import pytest

from relay.core.contracts import FileChange
from relay.review.deciding_tokens import deciding_turned
from relay.review.facts import RiskContext
from relay.review.meaning import same_meaning
from relay.review.risk import assess


def _said(new: list[str], old: list[str]) -> str:
    return deciding_turned(new, old) or ""


@pytest.mark.parametrize(("new", "old", "kind"), [
    # a type's member or a constant passed as a setting: Java, C++, Python default, Go
    (["    ok := scan(buf, Anchor.START);"], ["    ok := scan(buf, Anchor.WHOLE);"], "in a setting passed (WHOLE → START)"),
    (["  queue q(n, drop_policy::drop_newest);"], ["  queue q(n, drop_policy::wait);"], "in a setting passed (wait → drop_newest)"),
    (["    def fetch(self, mode=Verify.OFF):"], ["    def fetch(self, mode=Verify.FULL):"], "in a setting passed (FULL → OFF)"),
    (["\tcfg := tls.Config{MinVersion: TLS_V10}"], ["\tcfg := tls.Config{MinVersion: TLS_V13}"], ""),  # a map value: not a call's argument
    # a variable swapped for its processed copy's source in a condition: Java, Python, C# (two swaps, each the same way)
    (["      if (a && up == 'x' && c3 == 'y') {"], ["      if (a && up == 'x' && lc3 == 'y') {"], "in a condition (lc3 → c3)"),
    (["    if path.startswith(root):"], ["    if safe_path.startswith(root):"], "in a condition (safe_path → path)"),
    (["        if (kind == 1 && c4 == 'q' && c5 == 'r')"], ["        if (kind == 1 && lc4 == 'q' && lc5 == 'r')"], "+1 more"),
    # a flag swapped for its opposite and negated: PowerShell, Ruby, TypeScript
    (["    if ($quiet -or !$askEach -or $n) {"], ["    if ($quiet -or $skipEach -or $n) {"], "and negates it"),
    (["    return unless !allow_remote && ready"], ["    return unless deny_remote && ready"], "in a condition"),
    (["  if (opts.strictMode || !isLoose) {"], ["  if (opts.strictMode || isTight) {"], ""),  # no family: isLoose / isTight
    # a returned value swapped for its sibling: Rust, Kotlin
    (["    return raw_len;"], ["    return checked_len;"], "in a returned value (checked_len → raw_len)"),
    # a computed bound's factor: TypeScript, C, Python
    (["  const needed = k * (count + 2);"], ["  const needed = chunkBytes * (count + 2);"], "a computed bound's factor (chunkBytes → k)"),
    (["    size_t cap = width * rows;"], ["    size_t cap = stride * rows;"], "a computed bound's factor (stride → width)"),
    (["    if used * n > limit:"], ["    if used * per_item > limit:"], "a computed bound's factor"),
])
def test_a_sibling_swapped_where_it_decides_is_said(new: list[str], old: list[str], kind: str) -> None:
    said = _said(new, old)
    if kind:
        assert "swaps a name for its sibling" in said and kind in said
    else:
        assert "swaps a name for its sibling" not in said


@pytest.mark.parametrize(("new", "old", "kind"), [
    # a format literal dropped so the input is the format: C, Java, Python, Go, C++
    (['    syslog(prio, line);'], ['    syslog(prio, "%s", line);'], "in syslog)"),
    (['        log.warn(String.format(msg));'], ['        log.warn(String.format("%s", msg));'], "in String.format)"),
    (['    logger.info(payload)'], ['    logger.info("%s", payload)'], "in logger.info)"),
    (['\tfmt.Printf(body)'], ['\tfmt.Printf("%v", body)'], "in fmt.Printf)"),
    (['  spdlike::info(text);'], ['  spdlike::info("{}", text);'], "in spdlike::info)"),
])
def test_a_format_literal_dropped_makes_input_the_format(new: list[str], old: list[str], kind: str) -> None:
    assert kind in _said(new, old)


@pytest.mark.parametrize(("new", "old"), [
    # the safe way: the processed copy put in, a format literal put in
    (["      if (a && up == 'x' && lc3 == 'y') {"], ["      if (a && up == 'x' && c3 == 'y') {"]),
    (["    if safe_path.startswith(root):"], ["    if path.startswith(root):"]),
    (['    syslog(prio, "%s", line);'], ['    syslog(prio, line);']),
    (['    log.info("%s: %d", name, n)'], ['    log.info("%s", name)']),  # still a literal format
    # a plain variable passed to a call, a function swapped, a case-only change, unrelated names
    (["    send(conn, reply)"], ["    send(conn, request)"]),
    (["    if matchAll(x):"], ["    if matchAny(x):"]),
    (["    if (userId == 0) {"], ["    if (userID == 0) {"]),
    (["    while i < n and ok:"], ["    while j < n and ok:"]),
    # a package's type or an object's field swapped (an upgrade, a refactor): Go, Python
    (["\tcase tea.KeyPressMsg:"], ["\tcase tea.KeyMsg:"]),
    (["        return len(self._as_list)"], ["        return len(self._dict)"]),
    # a type swapped, a misspelt constant corrected, a word in a string, an error's reason code, a pointer's type
    (["    return SHA3Digest.size"], ["    return SHA2Digest.size"]),
    (["    return box(KEY_BYTES_SECRET)"], ["    return box(KEY_BYTES_SECRT)"]),
    (["    if (x) return fail('Access Failed');"], ["    if (x) return fail('Access Faild');"]),
    (["    PUT_ERROR(CODEC, CODEC_R_TOO_SHORT);"], ["    PUT_ERROR(CODEC, CODEC_R_TOO_LONG);"]),
    (["	m := map[string]*Entry{}"], ["	m := map[string]*File{}"]),
    (["    if [[ -n $CI && $X ]]; then"], ["    if [[ -n $TRAVIS && $X ]]; then"]),
    # a log line's level or argument: Java, Python, Go
    (["        if (logger.isLoggable(Level.DEBUG)) {"], ["        if (logger.isLoggable(Level.FINE)) {"]),
    (["    log.write(LOG_WARN, msg)"], ["    log.write(LOG_INFO, msg)"]),
    (["	if logLevel == LevelInfo {"], ["	if logLevel == LevelDebug {"]),
    # comments
    (["    // if (c3 == 'y') use the raw char"], ["    // if (lc3 == 'y') use the raw char"]),
    (["    # return raw_len"], ["    # return checked_len"]),
])
def test_quiet_look_alikes_are_not_said(new: list[str], old: list[str]) -> None:
    said = _said(new, old)
    assert "sibling" not in said and "format string" not in said


def test_a_rename_is_not_a_swap() -> None:
    # the new name declared by the change
    new = ["    lower_name = name.lower()", "    if lower_name == 'admin':"]
    old = ["    lname = name.lower()", "    if lname == 'admin':"]
    assert "sibling" not in _said(new, old)
    # the same swap made everywhere, the old name gone
    new = ["  if (countTotal > 3) {", "    log(countTotal);", "  return countTotal;"]
    old = ["  if (count > 3) {", "    log(count);", "  return count;"]
    assert "sibling" not in _said(new, old)


def test_a_member_turned_everywhere_is_no_rename() -> None:
    # a type's value chosen in every place it stands is not "names changed only"; a field renamed still is
    assert same_meaning(["  run(q, Policy::drop_new);", "  x = Policy::drop_new;"], ["  run(q, Policy::block);", "  x = Policy::block;"]) is None
    assert same_meaning(["  run(Mode.LAX);", "  m = Mode.LAX;"], ["  run(Mode.STRICT);", "  m = Mode.STRICT;"]) is None
    assert same_meaning(["  run(q, self.total);", "  x = self.total;"], ["  run(q, self.count);", "  x = self.count;"]) == "names changed only"


def test_the_file_is_worth_a_look_and_a_test_file_is_not() -> None:
    def change(path: str) -> FileChange:
        return FileChange(path=path, additions=1, deletions=1, removed_lines=["    ok := scan(buf, Anchor.WHOLE)"],
                          added_lines=["    ok := scan(buf, Anchor.START)"])
    risk = assess(change("scan/gate.go"), RiskContext())
    assert risk.risk == "medium" and "swaps a name for its sibling" in " ".join(risk.reasons)
    assert assess(change("scan/gate_test.go"), RiskContext()).risk == "low"


def test_a_riskless_quote_of_the_line_gives_way() -> None:
    c = FileChange(path="src/Clean.java", additions=1, deletions=1, removed_lines=["      if (a && up == 'x' && lc3 == 'y') {"],
                   added_lines=["      if (a && up == 'x' && c3 == 'y') {"])
    ctx = RiskContext(apart={"src/Clean.java": "edit apart from the change: … && up == 'x' && lc3 == 'y') { → … && up == 'x' && c3 == 'y') {"})
    risk = assess(c, ctx)
    assert risk.risk == "medium" and "swaps a name for its sibling" in " ".join(risk.reasons)


def test_the_object_a_method_runs_on_put_in_anothers_place_is_no_rename() -> None:
    # round 90 (blind 134's mem): a per-instance cache keyed by `this` keyed by the shared `target`; `self` in Python
    # and Rust likewise. A local name renamed everywhere is still a rename.
    this = ["\t\tif (!cache.has(this)) {", "\t\t\tcache.set(this, value);", "\t\treturn cache.get(this);"]
    assert same_meaning([line.replace("this", "target") for line in this], this) is None
    assert same_meaning(["    key = id(target)", "    return store[target]"], ["    key = id(self)", "    return store[self]"]) is None
    assert same_meaning([line.replace("cache", "store") for line in this], this) == "names changed only"
