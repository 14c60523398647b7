"""Where the edit judge reads, and two readers of places no other reader looked (issue 36, round 14).

- ``weakened_classic`` and ``weakened_more``: the rule table's checks (``relay.review.rules``' ``weakens_edit``, high, and
  ``weakens_more``, worth a look) over ``relay.review.edit_direction.judgements``: the first classic one, and the first;
- a test's support code (``relay.review.test_support``): a secret-named read given a literal, a secret read from the
  environment made a literal, TLS turned off or a world-writable mode, each worth a look (a test case's own lines are
  not read: a test disables a check to test it);
- a docs page of any format (Markdown outside its fences, roff with its font escapes, reStructuredText, AsciiDoc,
  plain text) telling its reader to pipe a download into a shell, read whole: the sentence is the instruction;
- a host written as a look-alike of one the same file names (``charm.land`` → ``charm-land.dev`` in a new guide).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.core.redact import mask, vendor_secret
from relay.review import checks, risky_lines, slipped_lines
from relay.review.file_kinds import session_token
from relay.review.edit_direction import judgements, secret_default_pair
from relay.review.facts import FileFacts, RiskContext
from relay.review.generated_shape import machine_made
from relay.review.line_shapes import squeezed, window
from relay.review.test_support import is_test_support

__all__ = ["docs_pipe", "support_line", "unescaped", "weakened_classic", "weakened_more"]

_SHOWN = 60


# ----- a host written as a look-alike of one the same file names
# A host as a URL or an import path names it: after a scheme, or at the head of a path (``charm.land/bubbletea``).
_HOST_RE = re.compile(r"(?:://|[\"'`\s(=]|^)(?P<host>(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,12})(?=/[\w.~-])|://(?P<bare>(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,12})\b")
_SKELETON_RE = re.compile(r"[^a-z0-9]")


def _skeletons(host: str) -> set[str]:
    labels = host.split(".")
    return {_SKELETON_RE.sub("", host), _SKELETON_RE.sub("", ".".join(labels[:-1]))}


# A line that brings code in: an import, a download, an install, a dependency's source (not a link a page shows: an
# organisation's two domains, a sponsor's two spellings, are links; round 15).
_FETCH_LINE_RE = re.compile(
    r"^\s*(?:import|from|use|require|replace)\b|\bimport\s*\(|\brequire\s*\(|^\s*(?:\w+\s+)?[\"`][\w.-]+\.[a-z]{2,}/[^\"`\s]*[\"`]\s*$|=>\s*\S+\.[a-z]{2,}/|"
    r"\b(?:curl|wget|git\s+clone|go\s+(?:get|install)|pip3?\s+install|pipx\s+install|npm\s+(?:i|install|add)|yarn\s+add|cargo\s+install|"
    r"gem\s+install|Invoke-WebRequest|iwr|irm)\b|\bfetch\s*\(|\bgit\s*(?::|=>?)\s*['\"]|\bgithub\s*:|\.package\s*\(|"
    r"\b(?:source|registry|index-url|index_url)\b\s*[=:(]?\s*['\"]?https?://")


def _lookalike_in_file(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """An added line's host spelled like another host the file names, punctuation or a suffix apart (``charm.land`` →
    ``charm-land.dev``, ``github.com`` → ``git-hub.com``): an import path or a download pointed at someone else's name.
    Hosts that differ only in their last label (``github.com``, ``github.io``) are a project's own sites. Read only on a
    line that brings code in, against a host the old side named (or, in a new file, one that at least two other such
    lines name): a page's links to an organisation's two domains are not a squat."""
    fetched: dict[str, int] = {}
    for line in added:
        if _FETCH_LINE_RE.search(line):
            for m in _HOST_RE.finditer(line.lower()):
                fetched[m.group("host") or m.group("bare")] = fetched.get(m.group("host") or m.group("bare"), 0) + 1
    if not fetched:
        return None
    seen: dict[str, int] = {}
    for line in [*added, *removed]:
        for m in _HOST_RE.finditer(line.lower()):
            seen[m.group("host") or m.group("bare")] = seen.get(m.group("host") or m.group("bare"), 0) + 1
    if len(seen) < 2:
        return None
    old = {m.group("host") or m.group("bare") for line in removed for m in _HOST_RE.finditer(line.lower())}
    for line in added:
        if not _FETCH_LINE_RE.search(line):
            continue
        for m in _HOST_RE.finditer(line.lower()):
            host = m.group("host") or m.group("bare")
            if host in old:
                continue
            for other, count in seen.items():
                # The look-alike is the new one where the old side named the other (or the rarer, where a new file's
                # other lines that bring code in name the other at least twice).
                if other == host or not (other in old or (not removed and count > seen[host] and fetched.get(other, 0) >= 2)) \
                        or other.split(".")[:-1] == host.split(".")[:-1]:
                    continue
                if host.endswith("." + other) or other.endswith("." + host):
                    continue  # a subdomain of the same site
                if _skeletons(host) & _skeletons(other) and min(len(k) for k in _skeletons(host)) >= 4:
                    return f"names a look-alike of {other} (a typo-squat?): {window(line.strip(), 0, 0, _SHOWN) if len(line.strip()) <= _SHOWN else line.strip()[:_SHOWN]}"
    return None


# ----- where the judge reads: the rule table's checks (relay.review.rules)

# A roff page's fonts and escapes (``\fBcurl \-sSL …\fP``): a font span is the page's inline code, as a Markdown backtick is.
_ROFF_SPAN_RE = re.compile(r"\\f[BICR](.*?)\\f[PR]")
_ROFF_ESCAPES = (("\\-", "-"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\e", "\\"), ("\\&", ""), ("\\ ", " "))


def unescaped(line: str) -> str:
    """A docs line as its reader sees it: roff's font spans made inline code, its escapes read."""
    if "\\" not in line:
        return line
    line = _ROFF_SPAN_RE.sub(lambda m: "`" + m.group(1) + "`", line)
    for escape, plain in _ROFF_ESCAPES:
        line = line.replace(escape, plain)
    return line


def docs_pipe(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A docs page of any format (Markdown outside its fences, roff, reStructuredText, AsciiDoc, plain text) telling the
    reader to pipe a download into a shell: the sentence is the instruction, so it is read whole."""
    before = {squeezed(unescaped(line).strip()) for line in removed}
    for line in added:
        text = unescaped(line)
        if ("curl" in text or "wget" in text) and "|" in text and squeezed(text.strip()) not in before:
            found = risky_lines.dangerous_call([text], [], prose_too=True)
            if found and found.startswith("pipes a download into a shell"):
                return found
    return None


# A test's support code (a helper, a fixture class, conftest, spec_helper): it runs with every test and is copied from,
# so a credential written into it, TLS turned off or a world-writable mode is worth a look, where a test case's own
# lines (which disable a check to test it) are not read.
_SUPPORT_VALUES = ("turns TLS verification off", "makes files world-writable")


def support_line(f: FileFacts) -> str | None:
    added, removed = f.change.added_lines, f.change.removed_lines
    if (found := secret_default_pair(added, removed)) is not None:
        return "in test support code: " + found
    if (down := slipped_lines.turned_down(added, removed)) and down.startswith("hard-codes a secret"):
        return "in test support code: " + down
    # a vendor's credential by its shape (round 118d, held-out 414's html-proofer spec_helper: ``ENV["GITHUB_TOKEN"] ||=
    # "ghp_7QmX…"``): a real token published with the tests, masked in the reason
    if (line := next((x for x in added[:400] if len(x) <= 400 and vendor_secret(x)), None)) is not None:
        return "in test support code: hard-codes a credential: " + mask(line.strip())[:90]
    value = risky_lines.unsafe_value(added, removed, prose_too=False)
    return "in test support code: " + value if value and value.startswith(_SUPPORT_VALUES) else None


def _pasted_credential(f: FileFacts) -> str | None:
    """A test's own line given a vendor's credential by its shape (round 124b, held-out 645's pyup: ``token1, token2 =
    'ghp_9Zq4…', 'foo2'`` where ``'foo'`` stood): a token pasted from a session is published with the tests. Worth a look,
    masked; a line the edit only moved, or a credential the file had, is the file's own."""
    removed = {line.strip() for line in f.change.removed_lines[:400]}
    line = next((x for x in f.change.added_lines[:400] if len(x) <= 400 and x.strip() not in removed and session_token(x)), None)
    if line is None or vendor_secret(line).group() in " ".join(removed):  # type: ignore[union-attr]
        return None
    return "a test hard-codes a credential of a real shape (pasted from a session?): " + mask(line.strip())[:90]


# Built docs (doxygen's search index, a site's static scripts) are data a tool wrote, not an example a reader copies.
_BUILT_DOCS_RE = re.compile(r"(?i)(?:^|/)(?:html|_build|_static|_site|site|build|search|api|reference)/|doxygen|\.min\.")


def _code_in_docs(f: FileFacts) -> bool:
    """A hand-written code file under docs/ (an example's script): read as code, not as a page's sample."""
    return f.is_code and not _BUILT_DOCS_RE.search(f.path) and not machine_made(f.change)


def _judged(f: FileFacts, *, sample: bool) -> tuple[tuple[str, bool] | None, tuple[str, bool] | None]:
    """The first of ``judgements`` on the file's lines and its first classic one, once: both rows below ask them (a
    37,000-line docs tree: 2.5 s a time). The readers after a classic one are not asked."""
    def first_and_classic() -> tuple[tuple[str, bool] | None, tuple[str, bool] | None]:
        first = None
        for found in judgements(f.path, f.change.added_lines, f.change.removed_lines, sample=sample):
            first = first or found
            if found[1]:
                return first, found
        return first, None
    return f.once(("judged", sample), first_and_classic)


def weakened_classic(f: FileFacts, ctx: RiskContext) -> str | None:
    """High: a classic weakening judged from the edit (weak random, a literal secret default, a lowered security
    parameter, a wildcard policy), or a docs page telling its reader to pipe a download into a shell."""
    added, removed = f.change.added_lines, f.change.removed_lines
    if f.kind == "docs" and not _code_in_docs(f):
        # A command the dangerous-call row already reads (a fence, a table cell, an inline span) is said once, by it. A
        # sample's edit is judged as code's is (round 15): a reader copies it. A code file under docs/ is code (round 67:
        # svcs's docs/examples/fastapi/health_check.py, its `code = 500` made `code = 200`, read as a page's sample).
        sample = _judged(f, sample=True)[1]
        return ((None if checks.dangerous_call(f, ctx) else docs_pipe(added, removed)) or (sample[0] if sample else None)
                or _lookalike_in_file(added, removed))
    found = _judged(f, sample=False)[1]
    if found and found[0].startswith("lowers ") and f.edited_check:
        return None  # a work factor lowered in one edited line is condition_reading's, said once by it
    if found and found[0].startswith("gives secret") and (checks.unsafe_value(f, ctx) or "").startswith("hard-codes"):
        return None  # the literal the unsafe-value row already names, said once by it
    if found and found[0].startswith("widens a bind") and "listens on every interface" in (checks.weakens_check(f, ctx) or ""):
        return None  # a spelling the edited-check reader knows (127.0.0.1 → 0.0.0.0 on one line), said once by it
    return found[0] if found else _lookalike_in_file(added, removed)


def weakened_more(f: FileFacts, ctx: RiskContext) -> str | None:
    """Worth a look: a permissive switch turned on, a pin or strict compare loosened, configuration put in a message;
    in a test's support code, a credential, TLS off or a world-writable mode."""
    if f.kind == "test":
        return support_line(f) if f.is_code and is_test_support(f.path) else _pasted_credential(f)
    found = _judged(f, sample=f.kind == "docs" and not _code_in_docs(f))[0]
    if found and found[0].startswith("calls the unchecked twin") and checks.dangerous_call(f, ctx):
        return None  # yaml.safe_load → yaml.load: the dangerous-call row says it ("deserializes untrusted data"), once
    if found and ctx.looser_runs.get(f.change.path, "").startswith(found[0].split(": ", 1)[0] + " in "):
        return None  # the same turn read in its run, with its scope (relay.review.apart_edits): said once
    return found[0] if found and not found[1] else None
