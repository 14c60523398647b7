"""relay.review.quiet_turns (round 31): quiet turns read as general shapes, each in several languages, with the
look-alikes that must stay quiet (the same shape turned the safe way, a reflow, a rename, a line beside the old one)."""

from __future__ import annotations

import pytest

from relay.review.file_kinds import SKIP_RE
from relay.review.quiet_turns import quiet_turned, sample_turned


def _said(new: list[str], old: list[str]) -> str | None:
    found = quiet_turned(new, old)
    return found[0] if found else None


@pytest.mark.parametrize(("new", "old"), [
    (['        System.err.println("cannot open config at " + where);'], ['        throw new ConfigException("cannot open config at " + where);']),
    (['        logger.warning("bad signature for %s", key_id)'], ['        raise SignatureError("bad signature for %s" % key_id)']),
    (['\t\tlog.Printf("decode: %v", err)'], ['\t\treturn nil, err']),
    (['      warn "token expired for #{user}"'], ['      raise TokenExpired, "token expired for #{user}"']),
    (['    console.error(`rejected origin ${origin}`);'], ['    throw new Error(`rejected origin ${origin}`);']),
    (['    let a = 1', '        print("step \\(label) failed: \\(error)")', '    let b = 2'], ['        self.recordStepFailure(error, label: label, at: site)']),
])
def test_an_error_made_a_message_is_read_in_each_language(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("turns an error into a message and goes on: ")


@pytest.mark.parametrize(("new", "old"), [
    (['    log.error("x failed: " + id);', '    throw new XFailed("x failed: " + id);'], ['    throw new XFailed("x failed: " + id);']),  # logged beside it
    (['    throw new XFailed(', '        "x failed: " + id);'], ['    throw new XFailed("x failed: " + id);']),  # a reflow
    (['    raise XFailed("x failed: %s" % ident)'], ['    raise XFailed("x failed: %s" % id)']),  # reworded, still raised
    (['    print("done")'], ['    print("finished")']),  # no error path on either side
])
def test_an_error_kept_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize("added", [
    ['    } catch (IOException e) {', '      System.err.println("cannot read " + p);', '    }'],
    ['\tif err != nil {', '\t\tfmt.Println("read:", err)', '\t}'],
    ['    except OSError as exc:', '        print(f"cannot read {p}: {exc}")', '    return cfg'],
])
def test_a_new_handler_that_only_prints_is_read(added: list[str]) -> None:
    assert (_said(added, []) or "").startswith("catches an error and only prints it (goes on): ")


@pytest.mark.parametrize("added", [
    ['    except OSError as exc:', '        print(f"cannot read {p}: {exc}")', '        raise'],  # printed, then raised again
    ['    } catch (IOException e) {', '      System.err.println("cannot read " + p);', '      throw e;'],
    ['    } catch (IOException e) {', '      log.warn("cannot read " + p);', '    }'],  # a logger the project configures: policy
])
def test_a_handler_that_does_more_than_print_is_quiet(added: list[str]) -> None:
    assert _said(added, []) is None


@pytest.mark.parametrize(("new", "old"), [
    (['    if mac_a[..4].ct_eq(&mac_b[..4]).into() {'], ['    if mac_a.ct_eq(&mac_b).into() {']),
    (['    return hmac.compare_digest(got[:8], want[:8])'], ['    return hmac.compare_digest(got, want)']),
    (['  return crypto.timingSafeEqual(sig.subarray(0, 6), exp.subarray(0, 6));'], ['  return crypto.timingSafeEqual(sig, exp);']),
    (['    return hash_equals(substr($known, 0, 8), substr($given, 0, 8));'], ['    return hash_equals($known, $given);']),
])
def test_a_compare_cut_to_a_prefix_is_high(new: list[str], old: list[str]) -> None:
    assert quiet_turned(new, old) is not None and quiet_turned(new, old)[1] is True  # type: ignore[index]


@pytest.mark.parametrize(("new", "old"), [
    (['    print(digest[:8])'], ['    print(digest)']),  # shown, not compared
    (['    return hmac.compare_digest(got, want)'], ['    return hmac.compare_digest(got[:8], want[:8])']),  # the safe way
])
def test_a_prefix_not_compared_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize(("new", "old"), [
    (['        return mb_strlen($payload);'], ["        return mb_strlen($payload, '8bit');"]),
    (['    size = len(body)'], ['    size = len(body.encode())']),
    (['  const n = text.length;'], ['  const n = Buffer.byteLength(text);']),
    (['    n = data.size'], ['    n = data.bytesize']),
])
def test_a_byte_count_made_a_character_count_is_read(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("counts characters where bytes were counted: ")


def test_a_character_count_made_a_byte_count_is_quiet() -> None:
    assert _said(["        return mb_strlen($payload, '8bit');"], ['        return mb_strlen($payload);']) is None
    assert _said(['    $n = strlen($s);'], ['    $n = \\strlen($s);']) is None  # a namespace's backslash dropped: bytes still


@pytest.mark.parametrize(("new", "old"), [
    (['    default_mode = ALL_ACCESS'], ['    default_mode = OWNER_RW']),
    (['DEFAULT_FILE_MODE = 0o666'], ['DEFAULT_FILE_MODE = 0o600']),
    (['\tdefaultPerm = 0777'], ['\tdefaultPerm = 0700']),
    (['  static final int CREATE_PERMS = PERMS_WORLD;'], ['  static final int CREATE_PERMS = PERMS_OWNER;']),
])
def test_a_default_permission_widened_is_high(new: list[str], old: list[str]) -> None:
    found = quiet_turned(new, old)
    assert found is not None and found[0].startswith("widens a default permission") and found[1] is True


@pytest.mark.parametrize(("new", "old"), [
    (['    default_mode = OWNER_RW'], ['    default_mode = ALL_ACCESS']),  # narrowed
    (['    default_mode = READ_ONLY'], ['    default_mode = OWNER_RW']),
    (['    mode = call(fn)'], ['    mode = OWNER_RW']),
])
def test_a_permission_narrowed_or_not_widened_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize(("new", "old"), [
    (['  if ($n->kind === NODE_KIND_ELEMENT_DECL) {'], ['  if ($n->kind === NODE_KIND_COMMENT) {']),
    (['    if (hdr->type == MSG_TYPE_PING)'], ['    if (hdr->type == MSG_TYPE_AUTH)']),
    (['    if kind is TokenKind::end_of_input:'], ['    if kind is TokenKind::eof_x:']),
])
def test_a_sibling_constant_in_a_check_is_read(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("swaps a check's constant for a sibling: ")


@pytest.mark.parametrize(("new", "old"), [
    (['    if (x == MAX_SIZE_V2)'], ['    if (x == MAX_SIZE)']),  # a name lengthened: a rename
    (['    mode = MSG_TYPE_AUTH;'], ['    mode = MSG_TYPE_PING;']),  # an assignment, not a check
    (['    if (a == MSG_TYPE_AUTH)', 'MSG_TYPE_AUTH = 3'], ['    if (a == MSG_TYPE_PING)', 'MSG_TYPE_PING = 3']),  # the family renamed
])
def test_a_constant_renamed_or_assigned_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize(("new", "old"), [
    (['  s = s.replace(/"/, "&quot;");'], ['  s = s.replace(/"/g, "&quot;");']),
    (['    out = name.replaceFirst("\\\\.\\\\.", "");'], ['    out = name.replaceAll("\\\\.\\\\.", "");']),
    (['    v = v.sub("<", "&lt;")'], ['    v = v.gsub("<", "&lt;")']),
    (['\tp = strings.Replace(p, "../", "", 1)'], ['\tp = strings.ReplaceAll(p, "../", "")']),
])
def test_a_replace_of_all_made_first_only_is_read(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("replaces only the first occurrence")


@pytest.mark.parametrize(("new", "old"), [
    (['  s = s.replace(/"/gi, "&quot;");'], ['  s = s.replace(/"/g, "&quot;");']),  # still global
    (['  s = s.replace(/</g, "&lt;")'], ['  s = s.replaceAll("<", "&lt;")']),
])
def test_a_replace_still_global_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize(("new", "old"), [
    (['  n = read(fd, buf + off, sizeof(buf));'], ['  n = read(fd, buf + off, sizeof(buf) - off);']),
    (['    auto res = std::to_chars(std::begin(out), std::end(out), v);'], ['    auto res = std::to_chars(std::begin(out), std::end(out) - 1, v);']),
    (['  strncpy(dst, src, dst_size);'], ['  strncpy(dst, src, dst_size - 1);']),
    (['    n = sock.recv_into(view, buf.length)'], ['    n = sock.recv_into(view, buf.length - used)']),
])
def test_a_size_arguments_remainder_dropped_is_read_in_source_and_samples(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("drops a bound from a buffer's size")
    assert (sample_turned(new, old) or "").startswith("drops a bound from a buffer's size")


@pytest.mark.parametrize(("new", "old"), [
    (['  n = read(fd, buf + off, sizeof(buf) - off);'], ['  n = read(fd, buf + off, sizeof(buf));']),  # a bound added
    (['  x = total'], ['  x = total - used']),  # arithmetic, not a size argument
])
def test_a_remainder_added_or_plain_arithmetic_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


@pytest.mark.parametrize(("line", "skips"), [
    ('    xGiven("a tampered nonce") {', True),   # Kotest
    ('    xshould("refuse a forged token") {', True),
    ('  xdescribe("origin checks", () => {', True),
    ('    Given("a tampered nonce") {', False),
    ('    val xAxis = axis("left")', False),
])
def test_a_spec_dsl_block_disabled_by_its_x_prefix_is_a_skip(line: str, skips: bool) -> None:
    assert bool(SKIP_RE.search(line)) is skips


@pytest.mark.parametrize(("new", "old"), [
    (['        if (!$this->linesDiffer($a, $b)) {'], ['        if ($this->linesDiffer($a, $b)) {']),
    (['    if verbose_probe {'], ['    if !verbose_probe {']),
    (['            return found && self.settings.strict'], ['            return found && !self.settings.strict']),
    (['    if not session.is_fresh:'], ['    if session.is_fresh:']),
])
def test_a_negation_toggled_on_a_condition_is_read(new: list[str], old: list[str]) -> None:
    assert (_said(new, old) or "").startswith("inverts a condition (")


@pytest.mark.parametrize(("new", "old"), [
    (['    if !!flag {'], ['    if flag {']),  # a double negation: the same truth
    (['    let y = !x;'], ['    let y = x;']),  # a value, not a condition
    (['    if (!ready) {', '    if (!ready) {'], ['    if (!ready) {']),  # the line unchanged
    (['    if "X-Token" not in headers:'], ['            if "X-Token" in headers:']),  # a like check in a new function, moved
])
def test_a_negation_elsewhere_is_quiet(new: list[str], old: list[str]) -> None:
    assert _said(new, old) is None


def test_a_quiet_turn_an_older_reader_already_quotes_is_said_once() -> None:
    from relay.review.quiet_turns import said_by_another
    mine = 'turns an error into a message and goes on: log.warn("Refused token.") (was raise TokenError("Refused token.")'
    assert said_by_another(mine, ['no longer refuses (an error no longer raised): log.warn("Refused token.") (was raise TokenErr'])
    assert not said_by_another(mine, ["changes security-relevant code (credentials: token = read())"])
    assert not said_by_another("changes security-relevant code (x)", [mine])  # only the quiet readers' own reasons give way
