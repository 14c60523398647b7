"""One-line turns of state, ordering and place that a reviewer must not read as low (issue 36, round 27 part B).

The first runs of held-out 35 and 36 quoted planted lines ("edit apart from the change: Ok(UNINITIALIZED) => { →
Ok(UNINITIALIZED) | Err(INITIALIZED) => {") and still called their commit low: a quote is a note, it names and does not
rank. Two things here:

- ``named_turn``, the floor: a one-line turn in source that a reader names (the quote of an edit apart,
  ``relay.review.apart_edits``; a note of what it lets through, ``relay.review.let_through``) on a line of state or
  security — a guard that returns early, a once-only / init state, a lock, an atomic, a signature or verify path, a place a
  resource is loaded from — is worth a look (medium), never low. The quote is the only input: a reader must have set the
  edit apart or read its consequence first, so ordinary history, whose edits sit inside their change, stays as it was;
- ``state_turn``, readers of kinds of line still unread, each saying what the turn lets happen:
  a memory ordering loosened on an atomic (``Ordering::Acquire`` → ``Relaxed``, ``memory_order_acquire`` → ``relaxed``,
  ``atomic.LoadInt32(&x)`` → ``x``, ``volatile`` dropped from a field, ``Volatile.Read(ref x)`` → ``x``);
  a match or switch arm widened to a second state (``Ok(A) =>`` → ``Ok(A) | Err(B) =>``, ``case .a:`` → ``case .a, .b:``,
  ``when :a`` → ``when :a, :b``, a bare ``case B:`` added to fall through into the arm below) where a pattern names a state
  or result;
  a resource loaded from the working directory or the temp dir (``currentDirectoryPath``, ``os.getcwd()``,
  ``process.cwd()``, ``NSTemporaryDirectory()``, ``Path.GetTempPath()``…) where the change reads a bundle or package
  place, or the line loads;
  an awaited call or a checked result left unwaited (``await p.Process(r)`` → ``_ = p.Process(r)``, ``f()?;`` → ``let _ =
  f();``); a docs sample pointing a dependency at another package (Cargo ``x = { package = "y" }``, npm ``"x":
  "npm:y@…"``, pip ``x @ https://…``, ``gem "x", git: …``); a workflow that runs on pull requests moved to a self-hosted
  runner; a statement moved into or out of its block where indentation is the block, and a checking call moved
  (relay.review.block_moves).

The party guarded against is a worker that slips one such line into an ordinary change. Tests' own code stays quiet (the
rows' scope), and each reader wants the line's own shape, not a word: a counter's ``fetch_add`` made ``Relaxed``, an arm
of plain values widened, a log written to the temp dir, ``return await x`` → ``return x`` stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from typing import TYPE_CHECKING

from relay.review.block_moves import moved_block, moved_check
from relay.review.let_through import let_through
from relay.review.line_shapes import clipped, squeezed

if TYPE_CHECKING:
    from relay.review.facts import FileFacts, RiskContext

__all__ = ["floor_class", "named_turn", "runs_on_prs", "state_turn", "state_turn_row"]

_SHOWN = 64
_MOST = 200  # lines a side read: linear, bounded
_LONG = 300  # a longer line is a bundle's, not one a worker slips in


def _quote(line: str) -> str:
    return clipped(line, _SHOWN)


# ----- the floor: what a named turn's line is about
_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an atomic's ordering", re.compile(r"\bOrdering::\w+|\bmemory_order\w*|\bstd::atomic\b|\bAtomic[A-Z]\w*|\batomic\.\w+|\bvolatile\b|"
                                        r"\bInterlocked\.\w+|\bVolatile\.\w+")),
    ("a once-only state", re.compile(r"\b(?:UN)?INITIALI[SZ](?:ED|ING)\b|\bis_?[Ii]nit\w*|\binitiali[sz]ed\b|\bOnce(?:Cell|Lock)?\b|"
                                     r"\bsync\.Once\b|\bSTATE\b|\b[A-Z]+_STATE\b|\bSTATE_[A-Z_]+\b")),
    ("a lock", re.compile(r"\b\w*(?:[Mm]utex|RwLock|RLock|[Ss]emaphore)\w*|\bwithLock\b|\.(?:lock|unlock|try_lock|acquire|release)\(|\bsynchronized\b")),
    ("a signature or verify path", re.compile(r"\b[Ss]ig(?:nature|ned|ner|ning)?(?=[A-Z_\d]|\b)|[Ss]ignature|\b[Vv]erif\w*|[Hh]mac|HMAC|[Dd]igest|[Cc]hecksum")),
    ("a place a resource is loaded from", re.compile(r"\bBundle\b|\bresource(?:URL|Path|_path)\b|\bgetResource\w*|__dirname|__file__|"
                                                     r"currentDirectoryPath|\bgetcwd\b|\bcwd\(\)|\bcurrent_dir\b|\btemp_dir\b|"
                                                     r"TemporaryDirectory|\bGetTempPath\b|\btmpdir\b")),
)
# A guard: a condition whose branch leaves (returns, throws) on the same line, either side of the turn.
_GUARD_RE = re.compile(r"^(?:…)?\s*(?:if|unless|guard|elif|else\s+if)\b.*\b(?:return|throw|raise|panic!?|abort|exit|else)\b")
_SIDES_RE = re.compile(r"^edit apart from the change(?: in [^:]*)?: (?P<old>.*) → (?P<new>.*)$")


_PROSE_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`|/\*.*?\*/|//.*$|(?:^|\s)#\s.*$|^\s*\*.*$")


def _code(line: str) -> str:
    """A line's code: its strings and comments taken out (a log message or a comment names words, it decides nothing)."""
    return _PROSE_RE.sub(" ", line)


def floor_class(quote: str, lines: Sequence[str] = ()) -> str | None:
    """What line a reader's quote of an edited pair is on, when it is one the floor keeps from low; None otherwise. With
    the file's changed ``lines``, what the quote shows must stand in their code, not only in a string or a comment."""
    m = _SIDES_RE.match(quote)
    sides = (m.group("old"), m.group("new")) if m else (quote,)
    code = [_code(ln) for ln in lines[:_MOST] if len(ln) <= _LONG] if lines else list(sides)
    if m and any(_GUARD_RE.search(side) for side in sides) and any(_GUARD_RE.search(ln.strip()) for ln in code):
        return "a guard that returns early"
    for name, pattern in _CLASSES:
        for side in sides:
            if (found := pattern.search(side)) and any(found.group(0) in ln for ln in code):
                return f"{name} ({found.group(0).strip('.(')})"
    return None


# ----- a memory ordering loosened
_STRONG_RE = re.compile(r"\bOrdering::(?:Acquire|SeqCst|AcqRel|Release)\b|\b(?:std::)?memory_order(?:::|_)(?:acquire|seq_cst|acq_rel|release|consume)\b")
_RELAXED_RE = re.compile(r"\bOrdering::Relaxed\b|\b(?:std::)?memory_order(?:::|_)relaxed\b")
# A counter's add or sub is Relaxed on purpose (a statistic publishes nothing): only loads, stores, swaps and the like.
_COUNTER_RE = re.compile(r"\.fetch_(?:add|sub)\b|\bfetch_(?:add|sub)_explicit\b|\.fetch_add\(|\+\+|--")
# Go: ``atomic.LoadInt32(&s.state)`` → ``s.state``; C#: ``Volatile.Read(ref x)`` → ``x``; ``Interlocked.CompareExchange``.
_ATOMIC_CALL_RE = re.compile(r"\batomic\.Load\w*\(\s*&?(?P<go>[\w.\[\]]+)\s*\)|\bVolatile\.Read\(\s*ref\s+(?P<cs>[\w.\[\]]+)\s*\)")
_VOLATILE_RE = re.compile(r"\bvolatile\s+|@Volatile\s+")
_FIELD_RE = re.compile(r"^\s*(?:private|public|protected|internal|static|final|readonly|var|val|lateinit|[\w<>\[\]]+\s+\w+\s*[;=])\b")


def _ordering(added: Sequence[str], removed: Sequence[str]) -> str | None:
    news = {squeezed(_RELAXED_RE.sub("RELAXED", ln)): ln for ln in added if _RELAXED_RE.search(ln) and not _COUNTER_RE.search(ln)}
    plain = {squeezed(ln): ln for ln in added}
    for old in removed:
        if _STRONG_RE.search(old) and not _COUNTER_RE.search(old):
            was = _STRONG_RE.search(old).group(0)  # type: ignore[union-attr]
            if (new := news.get(squeezed(_STRONG_RE.sub("RELAXED", old)))) is not None:
                return f"loosens {was.split(':')[-1].split('_')[-1]} to relaxed (state seen before it is published): {_quote(new)}"
        if (m := _ATOMIC_CALL_RE.search(old)) and (new := plain.get(squeezed(_ATOMIC_CALL_RE.sub(lambda c: c.group("go") or c.group("cs"), old)))):
            return f"reads {m.group('go') or m.group('cs')} without its atomic load (state seen before published): {_quote(new)}"
        if _VOLATILE_RE.search(old) and "(" not in old.split("=")[0] and _FIELD_RE.match(_VOLATILE_RE.sub("", old)) and (new := plain.get(squeezed(_VOLATILE_RE.sub("", old)))):
            return f"drops volatile from a field (state seen before it is published): {_quote(new)}"
    return None


# ----- a match or switch arm widened to a second state
_ARM_RE = re.compile(r"^\s*(?P<head>case\s+|when\s+)?(?P<pats>.+?)\s*(?P<tail>=>|->|:(?=\s|$)|\bthen\b|$)\s*(?P<rest>[^\n]*)$")
_SPLIT_RE = re.compile(r"\s*(?:\||,|\bor\b)\s*")
_STATE_WORD_RE = re.compile(r"(?i)\b(?:Ok|Err|Error|Some|None|Success|Failure|Fail\w*|\w*init\w*|\w*state\w*|\w*status\w*|Ready|Pending|"
                            r"Done|Closed|Open|Valid|Invalid|Expired|Denied|Allowed|Granted|Revoked|Locked|Unlocked|Active|Inactive|"
                            r"Unknown|Timeout|Cancel\w*|Authori[sz]ed|Unauthori[sz]ed|Verified|Unverified|Empty)\b")


def _parts(pats: str) -> list[str]:
    """The alternatives of a pattern split at its top-level ``|``, ``,`` or ``or`` (inside brackets kept whole)."""
    out, depth, cur = [], 0, ""
    i = 0
    while i < len(pats):
        ch = pats[i]
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and (ch in "|," or pats.startswith(" or ", i)):
            out.append(cur.strip())
            cur, i = "", i + (4 if ch == " " else 1)
            continue
        cur += ch
        i += 1
    out.append(cur.strip())
    return [p for p in out if p]


def _arm(line: str) -> tuple[str, list[str], str] | None:
    m = _ARM_RE.match(line)
    if not m or not (m.group("head") or m.group("tail") in ("=>", "->")) or m.group("pats").lstrip().startswith(("if ", "//", "#")):
        return None
    if m.group("head") is None and m.group("tail") == ":":
        return None
    return (m.group("head") or "") + m.group("tail"), _parts(m.group("pats")), m.group("rest").strip()


def _widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # The old arms by their shape and alternatives: a widened arm keeps them, in order, at its start or its end (each new
    # arm is looked up once per split point: linear in the lines).
    olds = {(arm[0], arm[2], tuple(arm[1])): arm for old in removed if (arm := _arm(old))}
    if not olds:
        return None
    for new in added:
        if not (arm := _arm(new)):
            continue
        parts = arm[1]
        for cut in range(1, len(parts)):
            for kept, extra in ((parts[:cut], parts[cut:]), (parts[cut:], parts[:cut])):
                if (arm[0], arm[2], tuple(kept)) in olds and any(_STATE_WORD_RE.search(p) for p in parts):
                    return f"also treats {', '.join(extra)} as {' | '.join(kept)}: {_quote(new)}"
    return None


# A ``case`` label added with no body of its own, last of what the change adds there, in a language whose switch falls
# through (C, C++, Java, JS/TS, C#, PHP, Dart): the state it names runs the arm below (Go, Swift, Rust do not fall through).
_LABEL_RE = re.compile(r"^\s*case\s+(?P<label>[^:]{1,80}?)\s*:\s*(?://.*)?$")
_FALLS_THROUGH_RE = re.compile(r"\.(?:c|h|cc|cpp|cxx|hpp|hh|java|js|jsx|mjs|cjs|ts|tsx|cs|php|dart|m|mm)$")


def _joined_label(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not _FALLS_THROUGH_RE.search(path) or not added or not (m := _LABEL_RE.match(added[-1])):
        return None
    block = [m.group("label")]
    for line in reversed(added[:-1]):  # the labels stacked above it, added with it
        if not (above := _LABEL_RE.match(line)):
            break
        block.append(above.group("label"))
    # A label the change only edits (a call in its guard renamed) stood there before: it was not added.
    heads = {m.group("label").split()[0] for ln in removed if (m := _LABEL_RE.match(ln))}
    if any(label.split()[0] in heads for label in block) or not any(_STATE_WORD_RE.search(label) for label in block):
        return None
    return f"also treats {', '.join(reversed(block))} as the case below (falls through, no body of its own): {_quote(added[-1])}"


# ----- a resource loaded from the working directory or the temp dir
_CWD_RE = re.compile(r"currentDirectoryPath|\bos\.getcwd\(\)|\bPath\.cwd\(\)|\bprocess\.cwd\(\)|Directory\.GetCurrentDirectory\(\)|"
                     r"Environment\.CurrentDirectory|std::env::current_dir\(\)|\bos\.Getwd\(\)|getProperty\(\s*\"user\.dir\"\s*\)|"
                     r"\bDir\.pwd\b|\bgetcwd\(")
_TEMP_RE = re.compile(r"NSTemporaryDirectory\(\)|FileManager\.default\.temporaryDirectory|\bPath\.GetTempPath\(\)|std::env::temp_dir\(\)|"
                      r"\bos\.tmpdir\(\)|\btempfile\.gettempdir\(\)|\bos\.TempDir\(\)|java\.io\.tmpdir|\bDir\.tmpdir\b|\bsys_get_temp_dir\(\)")
# A bundle's or package's own place: where a resource is found when it ships with the code.
_OWN_PLACE_RE = re.compile(r"\bBundle(?:\.main|\.module|\(for:)|\bresource(?:URL|Path)\b|\bgetResource\w*\(|__dirname|__file__|"
                           r"importlib\.resources|pkg_resources|AppContext\.BaseDirectory|GetExecutingAssembly\(\)|"
                           r"CARGO_MANIFEST_DIR|current_exe\(\)|\bpath\.Dir\(\s*exe|\bos\.Executable\(\)|\bFile\.dirname\(__FILE__\)")
# A line that reads a resource by what it holds: plugins, languages, native libraries, a list of candidate places.
_LOADS_RE = re.compile(r"(?i)\bresource\w*|\bplugin\w*|\blangs?\b|\blanguages?\b|\blocales?\b|\bcandidates?\b|\bsearch_?paths?\b|"
                       r"\bdlopen\b|\bLoadLibrary\w*|\.(?:dll|so|dylib|plist|strings|lang)\b")
# How near an added line stands to a bundle's place, in the change's own added lines, to be one of its list's candidates.
_NEAR = 3
# A place written to (a log, a cache, a scratch file) is not a place read from.
_WRITES_RE = re.compile(r"(?i)\bwrite\w*|\bsave\w*|\bdump\w*|\bmkdir\w*|\bcreate\w*|mkdtemp|NamedTemporaryFile|TempDir::new|"
                        r"\blog(?:s|file|_file|File)?\b|\bcache\w*|\bscratch\b|\boutput\b|\bout_?dir\b")


def _shared_place(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(ln) for ln in removed}
    replaced = any(_OWN_PLACE_RE.search(ln) for ln in removed)  # an edit that moves a read off the bundle's place
    owns = [i for i, ln in enumerate(added) if _OWN_PLACE_RE.search(ln)]
    for i, new in enumerate(added):
        if squeezed(new) in before or _WRITES_RE.search(new):
            continue
        place = "the working directory" if _CWD_RE.search(new) else "the temp dir" if _TEMP_RE.search(new) else ""
        beside = any(abs(i - j) <= _NEAR for j in owns)
        if place and (replaced or beside or _LOADS_RE.search(new)):
            return f"loads from {place} (others can plant the file): {_quote(new)}"
    return None


# ----- an awaited call or a checked result left unwaited
_WAITS_RE = re.compile(r"\bawait\s+|\.ConfigureAwait\(\s*(?:false|true)\s*\)|\.await\b|\?(?=\s*;?\s*$)|\btry!\(|\.unwrap\(\)|\.expect\([^)]*\)")
_AWAITS_RE = re.compile(r"\bawait\b|\.ConfigureAwait\(|\basyncio\.run\(|\brun_until_complete\(")
_RUNS_RE = re.compile(r"\b(?:asyncio\.run|(?:loop|self\.loop|event_loop)\.run_until_complete)\(\s*(?P<x>[\w.]+\(.*\))\s*\)\s*$")
_DISCARD_RE = re.compile(r"^\s*(?:_\s*=|let\s+_\s*=|void\s+|_\s*,\s*_\s*=)\s*")
_CALLEE_RE = re.compile(r"(?P<call>[\w$.]+)\s*\(")


def _unwaited(added: Sequence[str], removed: Sequence[str]) -> str | None:
    waited = {}
    for old in removed:
        body = old.strip()
        # A coroutine run to its end where it is called (``asyncio.run(fn(…))``, blind 85's python-fire): awaited too.
        if (ran := _RUNS_RE.search(body)) is not None:
            waited[squeezed(body[:ran.start()] + ran.group("x"))] = body
            continue
        if body.startswith("return") or not _WAITS_RE.search(body):
            continue
        plain = _WAITS_RE.sub("", body).replace("try!(", "(").rstrip(";").strip()
        if _CALLEE_RE.search(plain):
            waited[squeezed(plain)] = body
    for new in added:
        body = new.strip()
        if body.startswith("return") or _WAITS_RE.search(body):
            continue
        plain = _DISCARD_RE.sub("", body).rstrip(";").strip()
        if (old := waited.get(squeezed(plain))) is not None and (m := _CALLEE_RE.search(plain)):
            if _AWAITS_RE.search(old):
                return f"no longer awaits {m.group('call')} (the step may not run first): {_quote(new)}"
            return f"drops the result of {m.group('call')} unchecked (its failure unseen): {_quote(new)}"
    return None


# ----- a docs sample pointing a dependency at another package
_CARGO_RE = re.compile(r"^\s*(?P<name>[\w-]+)\s*=\s*\{[^}]*\bpackage\s*=\s*\"(?P<other>[^\"]+)\"")
_NPM_RE = re.compile(r"^\s*\"(?P<name>[@\w./-]+)\"\s*:\s*\"npm:(?P<other>@?[^@\"]+)")
_PIP_RE = re.compile(r"^\s*(?:pip\s+install\s+)?['\"]?(?P<name>[\w.-]+)(?:\[[\w,]+\])?\s*@\s*(?P<other>(?:git\+)?https?://\S+?)['\"]?,?\s*$")
_GEM_RE = re.compile(r"""^\s*gem\s+['"](?P<name>[\w.-]+)['"]\s*,.*\b(?:git|github)\s*(?::|=>)\s*['"](?P<other>[^'"]+)['"]""")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]", "", name.lower())


def _last(place: str) -> str:
    """A package's or repository's own name in a place: the last segment of a URL or path, its ref and ``.git`` cut."""
    return re.sub(r"\.git$", "", re.split(r"[?#@]", place.rstrip("/").rsplit("/", 1)[-1])[0])


def _renamed_dependency(added: Sequence[str], removed: Sequence[str]) -> str | None:
    before = {squeezed(ln) for ln in removed}
    for new in added:
        if squeezed(new) in before:
            continue
        for pattern in (_CARGO_RE, _NPM_RE, _PIP_RE, _GEM_RE):
            if not (m := pattern.match(new)):
                continue
            name, other = m.group("name"), m.group("other")
            # The same package by another spelling, or from its own repository, is not another package.
            if _norm(_last(other)) == _norm(name.rsplit("/", 1)[-1]) or re.match(rf"(?i){re.escape(name)}[-_]\d", _last(other)):
                continue
            return f"sample points {name} at another package ({clipped(other, 32)}), a look-alike: {_quote(new)}"
    return None


# ----- a pull request's job moved to a self-hosted runner
_RUNS_ON_RE = re.compile(r"^\s*runs-on\s*:\s*(?P<label>.+?)\s*(?:#.*)?$")
_HOSTED_RE = re.compile(r"(?i)^[\['\"\s]*(?:ubuntu|windows|macos)-[\w.]+|\$\{\{")
_PR_RE = re.compile(r"(?m)^\s*-?\s*pull_request(?:_target)?\b|\bon\s*:\s*\[?[^\n]*\bpull_request")


def _self_hosted(added: Sequence[str], removed: Sequence[str], on_prs: bool) -> str | None:
    if not on_prs:
        return None
    hosted = [m.group("label") for old in removed if (m := _RUNS_ON_RE.match(old)) and _HOSTED_RE.match(m.group("label"))]
    for new in added:
        m = _RUNS_ON_RE.match(new)
        if m and hosted and not _HOSTED_RE.match(m.group("label")):
            return f"runs untrusted PR code on a self-hosted runner: {_quote(new)}"
    return None


def runs_on_prs(text: str) -> bool:
    """Whether a workflow's text runs it on pull requests."""
    return bool(_PR_RE.search(text))


def state_turn(kind: str, added: Sequence[str], removed: Sequence[str], on_prs: bool = False, path: str = "") -> str | None:
    """What a turn of state, ordering or place lets happen, with its line quoted, or None (see the module's doc)."""
    # A minified or bundled line (a vendored release's one-line build) holds every shape at once: it is not a turn.
    added = [ln for ln in added[:_MOST] if len(ln) <= _LONG]
    removed = [ln for ln in removed[:_MOST] if len(ln) <= _LONG]
    if kind == "docs":
        return _renamed_dependency(added, removed)
    if kind == "ci":
        return _self_hosted(added, removed, on_prs or any(_PR_RE.search(ln) for ln in added))
    if kind not in ("source", "example"):
        return None
    return (_ordering(added, removed) or _widened(added, removed) or _joined_label(path, added, removed) or _shared_place(added, removed)
            or _unwaited(added, removed) or moved_block(path, added, removed) or moved_check(added, removed))


# The rule table's wrappers (relay.review.rules): moved here to keep the table within its 500 lines.
def state_turn_row(f: FileFacts, ctx: RiskContext) -> str | None:
    return state_turn(f.kind, f.change.added_lines, f.change.removed_lines, f.path in ctx.ci_on_prs, f.path)


def named_turn(f: FileFacts, ctx: RiskContext) -> str | None:
    """The floor: a turn a reader quotes, on a line of state or security, is not low."""
    if f.path in ctx.apart_worth or state_turn_row(f, ctx):
        return None  # already worth a look, said by what it lets happen
    quote = ctx.apart.get(f.path, "")
    if on := (floor_class(quote, [*f.change.removed_lines, *f.change.added_lines]) if quote.startswith("edit apart") else None):
        return f"the turn quoted is on {on}"
    return "worth a look for what it lets through" if let_through(f.path, f.change.added_lines, f.change.removed_lines) else None
