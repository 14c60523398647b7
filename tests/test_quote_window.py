"""A reason's quote window (line_shapes.window): what was found stays inside it, cut ends say so with "…", and a
window pinned to the line's end keeps the line's last character (it used to drop it and print "…" after it)."""

import pytest

from relay.review.line_shapes import window


def test_a_line_that_fits_is_quoted_whole_with_spaces_squeezed() -> None:
    assert window("  x  =   1  ", 2, 3, 40) == "x = 1"


def test_a_find_at_the_end_keeps_the_last_character_and_no_trailing_mark() -> None:
    line = "config = load(path); " + "a" * 60 + " verify=False"
    shown = window(line, line.index("verify"), len(line), 30)
    assert shown.endswith("verify=False")
    assert shown.startswith("…") and len(shown) == 30


def test_a_find_at_the_start_is_cut_after_with_a_mark() -> None:
    line = "verify=False; " + "b" * 80
    shown = window(line, 0, len("verify=False"), 30)
    assert shown.startswith("verify=False") and shown.endswith("…") and len(shown) == 30


@pytest.mark.parametrize("at", [0, 10, 40, 70, 95])
def test_the_found_text_is_always_inside_the_window_and_the_window_never_overflows(at: int) -> None:
    line = "".join(chr(ord("a") + i % 26) for i in range(100))
    shown = window(line, at, at + 5, 24)
    assert line[at:at + 5] in shown
    assert len(shown) <= 24
    assert shown.startswith("…") == (not shown.startswith(line[:3]))
    assert shown.endswith("…") == (not shown.endswith(line[-3:]))


# An edited pair's quote (small_edits.centred): a change that begins inside a token is that token's change, and the name
# before it is kept (round 34: "…10 → …10000" said nothing of what the number set).
@pytest.mark.parametrize(("old", "new", "kept"), [
    ("#  define PARSER_DEFAULT_DEPTH_LIMIT_FOR_INPUT 10", "#  define PARSER_DEFAULT_DEPTH_LIMIT_FOR_INPUT 10000", "DEPTH_LIMIT_FOR_INPUT 10"),
    ("  const MAX_UPLOAD_BYTES_ALLOWED_FOR_USERS = 1024;", "  const MAX_UPLOAD_BYTES_ALLOWED_FOR_USERS = 1048576;", "USERS = 1024"),
    ("    static const uint8_t accepted_ranges[] = {0x80, 0x9F, 0x80, 0xBF};", "    static const uint8_t accepted_ranges[] = {0x80, 0xBF, 0x80, 0xBF};", "{0x80, 0x9F"),
    ("    session.max_idle_seconds_before_logout = 900", "    session.max_idle_seconds_before_logout = 90000", "logout = 900"),
])
def test_a_token_edited_inside_is_quoted_whole_with_the_name_before_it(old: str, new: str, kept: str) -> None:
    from relay.review.small_edits import centred

    a, b = centred(old, new)
    assert kept in a and kept.rsplit(" ", 1)[0] in b, (a, b)
