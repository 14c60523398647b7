"""Text a worker (or a repository, or a record) wrote, made safe to show: nothing in it drives a terminal or hides.

A file name, a summary or a line of a patch can carry what a terminal obeys (``ESC [2J`` clears it, ``ESC ]8;;…``
makes a link, ``ESC ]0;…`` retitles the window, a carriage return or a backspace overwrites what was printed) and what
a reader cannot see (a right-to-left override makes ``evil\u202egnp.sh`` read ``evilhs.png``; zero-width characters
make two names look alike). Every view the leader or a person reads (the packet, ``get_result``, the CLI's ``runs
show``, ``runs list``, ``execute --wait``, doctor) shows such a character as its escape (``\\x1b``, ``\\u202e``); the run
record keeps the truth. Tabs and newlines stay (free text has lines; JSON escapes them anyway), and a carriage
return right before a newline stays (a CRLF line).

A backslash the text holds is doubled where it would read as the start of an escape (before ``x``, ``u``, ``U``, or
an escaped character, with the backslashes right before it): a file the worker named ``a\\u202eb`` in plain letters
is shown ``a\\\\u202eb``, one with a real override ``a\\u202eb``. Elsewhere a backslash stays as written (``C:\\dir``,
``"\\n"`` in a line of code). Shown text is made once, from the record's truth: showing it again would double again.
"""

from __future__ import annotations

import re

__all__ = ["harmless", "one_line"]

# C0 controls but tab and newline, DEL and the C1 controls (an 8-bit CSI is U+009B), a carriage return not ending a
# line; Unicode's format characters (bidi embeddings, overrides and isolates, zero-width spaces and joiners, the word
# joiner and invisible operators, the BOM, interlinear annotations, tags), line and paragraph separators, the fillers
# that draw as blanks, and the rest of Unicode's default-ignorable characters, which draw nothing: the combining
# grapheme joiner (U+034F), the Khmer inherent vowels, the Mongolian free variation selectors, the variation selectors
# (U+FE00-FE0F, U+E0100-E01EF) and the reserved U+FFF0-FFF8 and U+E0000-E0FFF. With any of them unescaped two different
# names or tasks read the same (a folder `app` + U+FE0E read `app` on the person's confirmation form).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    "\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]|\r(?!\n)")
_LINE = re.compile("[\n\t]|\r\n")
# The backslashes right before what would read as an escape: x, u, U, or a character escaped (``_UNSAFE``, and in one
# line ``_LINE`` too).
_BACKSLASHES = re.compile(f"\\\\+(?=[xuU]|{_UNSAFE.pattern})")
_BACKSLASHES_IN_LINE = re.compile(f"\\\\+(?=[xuU]|{_UNSAFE.pattern}|{_LINE.pattern})")


def _escape(match: re.Match[str]) -> str:
    return "".join(f"\\x{o:02x}" if (o := ord(c)) < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"
                   for c in match.group(0))


def harmless(text: str) -> str:
    """``text`` with every character that drives a terminal or hides itself shown as its escape (see the module)."""
    if not text:
        return text
    return _UNSAFE.sub(_escape, _BACKSLASHES.sub(_doubled, text) if "\\" in text else text)


def one_line(text: str) -> str:
    """``harmless``, and its newlines and tabs escaped too: for a name printed on a line of its own."""
    if not text:
        return text
    return _LINE.sub(_escape, _UNSAFE.sub(_escape, _BACKSLASHES_IN_LINE.sub(_doubled, text) if "\\" in text else text))


def _doubled(match: re.Match[str]) -> str:
    return match.group(0) * 2
