"""Lines a change adds, read alone: a check the new code writes so that it cannot decide (issue 36, round 25 part A).

The pair readers compare an edited line with the one it replaced. A slip written inside code the change itself adds
(a new function, a clause, a rewritten block) has no old line to pair with, so only the new lines can show it. Each
reader here reads one kind in every language where it is written the same way, linear in the added lines (screened
lines only, at most ``_MOST`` of them), and names the line; each is worth a look (medium), never high, since new code
is where a worker legitimately writes most:

- ``result_discarded``: a check's call put in an ``if``'s init statement with a literal condition (Go's ``if
  errors.As(err, target); false {``), a check's whole result thrown away (``_ = verifySignature(…)``, ``let _ =
  verify(…)``, ``verify(…).ok();``, ``try? validate(…)``, ``check!(x) rescue nil``), or a check in a ``try`` whose
  handler is empty (``except …: pass``, ``catch (e) {}``), or bound to a name no other added line reads while the block
  goes on in what the change writes (``ok = verify_signature(…)`` then ``process(req)``): its result decides nothing;
- ``literal_condition``: a condition joined with a literal that decides it (``… || true``, ``… or True``, ``… && false``,
  ``… and False``), or with its own negation (``a || !a``, ``a and not a``), on an ``if``/``while``/``assert`` line:
  the check always passes or never runs;
- ``absent_then_used``: a condition that tests a value is absent and then reads it (``!ok && v.Error()`` after ``v, ok
  := x.(error)``, ``x == nil && x.y``, ``x is None and x.y``, ``x != nil || x.y``): joined the wrong way, it can only
  pass or crash where the sibling form (``!ok || …``) fails;
- ``errors_unread``: failures collected into a name the change declares (``allErrs += err.Error()``, ``errs =
  append(errs, err)``, ``errors.append(e)``, ``errors << e``, ``errs.push(err)``) that no other added line reads: every
  failure is dropped and what failed goes on as valid;
- ``input_on_failure``: an error branch that hands back the function's own input as success (``if err != nil { return
  data, nil }``, ``rescue => e`` / ``html``, ``catch (e) { return input; }``) where the function, or the call that
  failed, checks, cleans or verifies (a decoder's fallback to its input is its idiom);
- ``band_unreachable``: an ``else if`` chain over one value whose bound does not move on (``< 1e8`` then ``< 1e7``):
  the later band can never be reached, and what it rated falls into the next;
- ``clauses_alike``: two clauses of one function the change adds with the same body, the later one's distinguishing
  parameter never read (Elixir's ``def``/``defp`` clauses): the case the clauses tell apart is not told apart; and an
  ``if`` whose ``else`` has the same body (brace languages): the condition decides nothing.

Look-alikes stay quiet: ``_ = fmt.Fprintf(…)``, ``defer f.Close()``, an ``or`` default in an assignment, an ordered band
chain, errors collected and returned (``errors.Join(errs...)``), a fallback value that is not the input. The readers ran
on the 25 latest commits of every mirror (25,072 code files): what fired there became a quiet case of the tests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import squeezed, window

__all__ = ["read_alone"]

_MOST = 600  # added lines read
_LONGEST = 300  # longer lines are data, not a statement
_SHOWN = 80
_MOST_NAMES = 8  # collectors (and lookups) followed a file: a generated table of thousands costs no more than eight

# ----- a check's result discarded by an init statement with a literal condition (Go)
_INIT_LITERAL_RE = re.compile(r"^\s*(?:\}\s*else\s+)?if\s+(?P<init>[^;{}]{1,200}\w\s*\([^;{}]{0,200});\s*(?P<lit>true|false)\s*\{")


# A call whose name says it checks (each part a whole word: a long line costs one pass a start).
_CHECK = r"(?i:verif|validat|check(?!_?output|out|box|sum|point)|authenticat|authori[sz]|signature|hmac|otp\b|totp)"
_CHECK_CALL = r"(?:[\w$]{1,60}(?:\.|::|->)){0,6}(?=\w{0,60}" + _CHECK + r")\w{1,60}\s*\("
# The whole result thrown away: Go's ``_ = …``/``_, _ = …``, Rust's ``let _ = …`` and ``….ok();``, Swift's ``try? …``
# as a statement, Ruby's ``… rescue nil``.
# A cryptographic step whose error is the check (round 79: blind 110's hkdf ``let _ = hkdf.expand(info, out);``, an
# AEAD's ``decrypt_inout_detached``: its tag's refusal): blanked, a failure leaves the output unwritten or unauthenticated.
_CRYPTO_STEP = r"(?:[\w$]{1,60}(?:\.|::|->)){0,6}(?=\w{0,60}(?i:decrypt|unseal|open_in_place|derive_key|expand))\w{1,60}\s*\("
_BLANKED_RE = re.compile(r"^\s*(?:_\s*(?:,\s*_\s*)*=|let\s+_\s*=|_\s*=\s*try\?|try\?)\s*(?:try\s+|await\s+)?(?P<call>" + _CHECK_CALL + "|" + _CRYPTO_STEP + r")"
                         r"|^\s*(?P<rust>" + _CHECK_CALL + r")[^;]{0,200}\)\s*\.ok\(\)\s*;\s*$|^\s*(?P<rb>" + _CHECK_CALL + r")[^\n]{0,200}\brescue\s+nil\s*$")
_TRY_RE = re.compile(r"^\s*try\s*(?::|\{)\s*(?P<inline>[^\n]*?)\s*$")
_EMPTY_HANDLER_RE = re.compile(r"^\s*(?:\}\s*)?(?:catch\b[^{]{0,80}\{\s*\}?|except\b[^:]{0,80}:\s*(?:pass)?|rescue\b[^\n]{0,60})\s*$")
_CALL_RE = re.compile(_CHECK_CALL)


def _result_discarded(lines: Sequence[str]) -> str | None:
    for i, line in enumerate(lines):
        if "if " in line and ";" in line and (m := _INIT_LITERAL_RE.match(line)):
            runs = "never runs, the check cannot fail" if m.group("lit") == "false" else "always runs, the check cannot pass"
            return f"discards a check's result (the branch {runs}): {_shown(line)}"
        if _BLANKED_RE.match(line) is not None and not _dummy(line):
            return f"discards a check's result (whatever it finds, the code goes on): {_shown(line)}"
        if "try" in line and (t := _TRY_RE.match(line)) is not None:
            # A try around a check whose handler is empty: the failure the check raises is swallowed.
            body = [t.group("inline")] if t.group("inline") else lines[i + 1:i + 3]
            # A check whose result is returned from the try is used: its failure falls to what follows the loop.
            body = [x for x in body if not x.lstrip().startswith("return")]
            if any(_CALL_RE.search(x) for x in body) and any(_EMPTY_HANDLER_RE.match(lines[k]) and _swallows(lines, k)
                                                             for k in range(i + 1, min(len(lines), i + 5))):
                call = next(x for x in body if _CALL_RE.search(x))
                return f"swallows a check's failure (an empty handler around it, the check cannot fail): {_shown(call)}"
    return None


# A check's verdict bound to a name no other added line reads (a name the old side held may be read by a kept line).
_VERDICT_RE = re.compile(r"^(?P<ind>\s*)(?:(?:let|const|var|val|my)\s+)?(?P<n>[A-Za-z_]\w{0,40})\s*(?::=|=(?!=))\s*(?:await\s+|try\s+)?"
                         r"(?P<call>" + _CHECK_CALL + r")")


def _verdict_unread(lines: Sequence[str], removed: Sequence[str]) -> str | None:
    for i, line in enumerate(lines):
        if "=" not in line or (m := _VERDICT_RE.match(line)) is None or m.group("n") == "_":
            continue
        name, depth = m.group("n"), len(m.group("ind"))
        # The block goes on in what the change writes (a later line as deep): a read would be written there too.
        rest = lines[i + 1:]
        if not any(x.strip() and len(x) - len(x.lstrip()) == depth for x in rest) or any(name in x for x in removed):
            continue
        word = re.compile(r"(?<![\w.$@])" + re.escape(name) + r"(?![\w$])")
        if not any(word.search(x) for x in rest) and not any(word.search(x) for x in lines[:i]):
            return f"binds a check's verdict to {name} and never reads it (whatever it finds, the code goes on): {_shown(line)}"
    return None


def _dummy(line: str) -> bool:
    """A call given one value twice (``_ = verifyString(a, a)``): work done for its time, its answer known."""
    inner = line[line.find("(") + 1:line.rfind(")")]
    parts = [p.strip() for p in inner.split(",")]
    return len(parts) >= 2 and len(set(parts)) == 1


def _swallows(lines: Sequence[str], at: int) -> bool:
    """The handler at ``at`` does nothing: its own line is empty (``catch (e) {}``), or its one line is ``pass``/``nil``
    and the block closes (or, Ruby, the method ends)."""
    head = lines[at].strip()
    if head.endswith("{}") or head.endswith("pass"):
        return True
    nxt = lines[at + 1].strip() if at + 1 < len(lines) else ""
    return nxt in ("pass", "nil", "end", "}")


# ----- a condition decided by a literal it is joined with
_COND_HEAD_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else\s*if|elseif|while|unless|until|assert|guard)\b|\bassert\w*\s*\(|\bexpect\s*\(|\brequire\s*\(")
# The literal is a whole operand: after the joiner (or an opening parenthesis before it), never a comparison's side
# (``x !== false && …``, ``v is True or …`` are checks of a value).
_NOT_OPERAND = r"(?!\s*(?:[.(\[]|[=!<>]=|&&|\|\||\band\b|\bor\b|===?|!==?))"
_ALWAYS_RE = re.compile(r"(?:\|\||\bor)\s*\(?\s*(?:true|True|TRUE)\b" + _NOT_OPERAND + r"|\(\s*(?:true|True|TRUE)\s*(?:\|\||or\b)")
_NEVER_RE = re.compile(r"(?:&&|\band)\s*\(?\s*(?:false|False|FALSE)\b" + _NOT_OPERAND + r"|\(\s*(?:false|False|FALSE)\s*(?:&&|and\b)")


_JOINER_RE = re.compile(r"\|\||&&|\bor\b|\band\b")
_HEAD_WORD_RE = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|else\s*if|elseif|while|unless|until|assert|guard)\b")
_OPERAND_RE = re.compile(r"(?:!|not\s+)?[A-Za-z_$][\w$]{0,40}(?:\.[A-Za-z_$][\w$]{0,40}){0,4}(?:\(\))?")


def _tautology(line: str) -> str | None:
    """``a || !a`` (always passes) or ``a && !a`` (never runs): one operand and its negation, joined one way only."""
    code = _HEAD_WORD_RE.sub("", _STRING_RE.sub('""', line), count=1)
    joiners = {j if j in ("||", "&&") else ("||" if j == "or" else "&&") for j in _JOINER_RE.findall(code)}
    if len(joiners) != 1:
        return None
    seen: dict[str, bool] = {}  # operand → negated
    for part in _JOINER_RE.split(code):
        part = part.strip().strip("(){}:; \t")
        if not _OPERAND_RE.fullmatch(part):
            continue
        negated = part.startswith(("!", "not "))
        bare = part.removeprefix("!").removeprefix("not ").strip()
        if seen.get(bare, negated) != negated:
            return "always passes" if joiners == {"||"} else "never runs"
        seen[bare] = negated
    return None


def _literal_condition(lines: Sequence[str]) -> str | None:
    for line in lines:
        if not _COND_HEAD_RE.search(line):
            continue
        if ("||" in line or "&&" in line or " or " in line or " and " in line) and (both := _tautology(line)):
            return f"writes a check that {both} (a value joined with its own negation): {_shown(line)}"
        if "true" not in line.lower() and "false" not in line.lower():
            continue
        code = _STRING_RE.sub('""', line)
        if _ALWAYS_RE.search(code):
            return f"writes a check that always passes (joined with a literal true): {_shown(line)}"
        if _NEVER_RE.search(code):
            return f"writes a check that never runs (joined with a literal false): {_shown(line)}"
    return None


_STRING_RE = re.compile(r"\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'")


# ----- a condition that tests a value absent and then reads it
_OK_BIND_RE = re.compile(r"(?P<v>[A-Za-z_]\w{0,40})\s*,\s*(?P<ok>[A-Za-z_]\w{0,40})\s*:?=\s*(?:<-\s*\S|[^=\n]{1,200}(?:\.\(\s*[\w.*\[\]]{1,60}\s*\)|\]))\s*$")
_NIL = r"(?:nil|null|None|undefined|NULL|nullptr)"
_ABSENT_USED_RE = re.compile(
    r"(?<![\w.$])(?P<x>[A-Za-z_$][\w$]{0,40}(?:\.[A-Za-z_$][\w$]{0,40}){0,3})\s*(?:===?\s*" + _NIL + r"\s*(?:&&|\band\b)|is\s+None\s+and\b|!==?\s*"
    + _NIL + r"\s*(?:\|\||\bor\b)|is\s+not\s+None\s+or\b)\s*\(?\s*(?P=x)\s*(?:\.\s*[A-Za-z_]|\[|->)"
    r"|(?<![\w.$!])!\s*(?P<y>[A-Za-z_$][\w$]{0,40}(?:\.[A-Za-z_$][\w$]{0,40}){0,3})\s*&&\s*\(?\s*(?P=y)\s*(?:\.\s*[A-Za-z_]|\[|->)")


def _absent_then_used(lines: Sequence[str]) -> str | None:
    bound: dict[str, str] = {}  # ok-name → the value bound with it
    for line in lines:
        if "," in line and "=" in line and (b := _OK_BIND_RE.search(line)):
            if len(bound) < _MOST_NAMES or b.group("ok") in bound:
                bound[b.group("ok")] = b.group("v")
        if not _COND_HEAD_RE.search(line) and "return" not in line:
            continue
        if ("nil" in line or "null" in line or "None" in line or "undefined" in line or "!" in line) and (m := _ABSENT_USED_RE.search(line)):
            name = m.group("x") or m.group("y")
            return f"tests that {name} is absent, then reads it (the check can only pass or crash): {_shown(line, m.start())}"
        for ok, v in bound.items():
            if "!" + ok in line.replace(" ", "") and re.search(r"!\s*" + re.escape(ok) + r"\s*&&[^|]{0,200}(?<![\w.])" + re.escape(v) + r"\s*[.\[]", line):
                return f"tests that a lookup failed, then reads what it left (the check can only pass or crash): {_shown(line)}"
    return None


# ----- failures collected and never read
_ERR = r"(?:err|errs?|error|exc|ex|e|failure|problem)\w{0,20}"
_COLLECT_RE = re.compile(
    r"(?<![\w.$@])(?P<a>[A-Za-z_]\w{0,40})\s*=\s*append\s*\(\s*(?P=a)\s*,[^\n]{0,200}\b" + _ERR + r"\b"
    r"|(?<![\w.$@])(?P<b>[A-Za-z_]\w{0,40})\s*\+=\s*[^\n]{0,200}\b" + _ERR + r"\b"
    r"|(?<![\w.$@])(?P<c>[A-Za-z_@$][\w.]{0,40})\s*\.\s*(?:append|push|add|Add|push_back|extend)\s*\(\s*[^\n]{0,200}\b" + _ERR + r"\b"
    r"|(?<![\w.$@])(?P<d>[A-Za-z_@$][\w.]{0,40})\s*<<\s*[^\n]{0,200}\b" + _ERR + r"\b")
_COLLECTOR_WORD_RE = re.compile(r"(?i)err|fail|problem|issue|exception")


def _declaration(name: str) -> re.Pattern[str]:
    # Declared, or given its empty start (``errs = []``): an assignment that appends is a use, not a declaration.
    return re.compile(r"(?:\b(?:var|let|const|my|local)\s+(?:mut\s+)?" + re.escape(name) + r"\b|^\s*" + re.escape(name)
                      + r"\s*(?::=|=\s*(?:\[\s*\]|\{\s*\}|\"\"|''|nil\b|None\b|null\b|list\(\)|set\(\)|Array\.new\b|new\s|\[\][\w.]*\{\})))")


def _errors_unread(lines: Sequence[str], removed: Sequence[str]) -> str | None:
    collectors: dict[str, str] = {}
    for line in lines:
        if (m := _COLLECT_RE.search(line)) is not None:
            name = next(g for g in m.groups() if g)
            if _COLLECTOR_WORD_RE.search(name) and name not in collectors and len(collectors) < _MOST_NAMES:
                collectors[name] = line
    for name, first in collectors.items():
        decl = _declaration(name)
        if any(name in line for line in removed) or not any(decl.search(line) for line in lines):
            continue  # a name the old side held, or declared where the change does not write: read elsewhere perhaps
        word = re.compile(r"(?<![\w.$@])" + re.escape(name) + r"(?![\w$])")
        if not any(word.search(line) and not _COLLECT_RE.search(line) and not decl.search(line) for line in lines):
            return f"collects failures in {name} and never reads them (what failed goes on as valid): {_shown(first)}"
    return None


# ----- an error branch that hands back the input as success
_HEAD_RE = re.compile(r"^\s*(?:(?:pub|public|private|protected|static|async|export)\s+)*(?:func|def|defp|function|fn)\b\s*(?:\([^()]{0,80}\)\s*)?(?P<name>[\w.$!?]{0,60})\s*\((?P<params>[^()]{0,300})\)"
                      r"|\bfunc\s*\((?P<lit>[^()]{0,300})\)|\((?P<arrow>[^()]{0,200})\)\s*=>")
_GO_FAIL_RE = re.compile(r"^\s*if\s+(?:[^{}]{0,100};\s*)?err\s*!=\s*nil\s*\{\s*$")
_GO_RETURN_RE = re.compile(r"^\s*return\s+(?P<v>[A-Za-z_]\w{0,40})(?:\.\w+\(\))?\s*,\s*nil\s*$")
_CATCH_RE = re.compile(r"^\s*(?:\}\s*)?(?:except\b[^:]{0,120}:|rescue\b[^\n]{0,120}|catch\s*(?:\([^()]{0,80}\))?\s*\{)\s*$")
_GUARD_WORD_RE = re.compile(r"(?i)verif|validat|check|sanitiz|clean|escap|purif|filter|authori|authenticat|signature|decrypt")
_PLAIN_RETURN_RE = re.compile(r"^\s*(?:return\s+)?(?P<v>[A-Za-z_]\w{0,40})\s*;?\s*$")


def _params(m: re.Match[str]) -> set[str]:
    text = m.group("params") or m.group("lit") or m.group("arrow") or ""
    names = set()
    for part in text.split(","):
        if "=" in part:
            continue  # a parameter with a default is the fallback, not the input
        words = re.findall(r"[A-Za-z_$][\w$]*", part.split("=")[0].split(":")[0])
        if words:
            names.add(words[0])  # Go's ``a, b reflect.Value``: the name first, its type after
    return names - {"self", "cls", "this", "ctx", "context"}


def _input_on_failure(lines: Sequence[str]) -> str | None:
    params: set[str] = set()
    checks = False  # the function's name says it checks, cleans or verifies
    for i, line in enumerate(lines):
        if (h := _HEAD_RE.search(line)) is not None:
            params, checks = _params(h), bool(_GUARD_WORD_RE.search(h.group("name") or ""))
            continue
        if not params or i + 1 >= len(lines):
            continue
        nxt = lines[i + 1]
        if _GO_FAIL_RE.match(line):
            m = _GO_RETURN_RE.match(nxt)
        elif _CATCH_RE.match(line):
            m = _PLAIN_RETURN_RE.match(nxt)
            if m and "return" not in nxt and not line.lstrip().startswith("rescue"):
                m = None  # a bare name is a value only where the branch's last expression is its result (Ruby)
        else:
            continue
        # A decoder's fallback to its input (``catch { return str }`` around decodeURIComponent) is its idiom: read only
        # where the function, or the call that failed, checks, cleans or verifies.
        if m and m.group("v") in params and (checks or any(_GUARD_WORD_RE.search(x) for x in lines[max(0, i - 3):i])):
            return f"on failure, hands back its input as success (unchecked): {_shown(line.strip() + ' ' + nxt.strip())}"
    return None


# ----- an else-if chain whose bound does not move on
_BAND_RE = re.compile(r"^\s*(?:\}\s*)?(?P<kw>if|elif|elsif|else\s*if|elseif|case|when)\b\s*\(?\s*(?P<lhs>[$@]?[A-Za-z_][\w.$>-]{0,60})\s*"
                      r"(?P<op><=?|>=?)\s*(?P<num>\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])(?P<rest>[^{:\n]{0,80})")


def _band_unreachable(lines: Sequence[str]) -> str | None:
    chains: dict[tuple[str, str, str], tuple[float, str, str]] = {}
    for line in lines:
        if "switch" in line:
            chains.clear()
        if not any(ch.isdigit() for ch in line) or (m := _BAND_RE.match(line)) is None:
            continue
        try:
            num = float(m.group("num").replace("_", ""))
        except ValueError:
            continue
        key = (m.group("lhs"), m.group("op")[0], squeezed(m.group("rest")).rstrip(")"))
        if m.group("kw") == "if":
            # A plain if starts a chain but is not read as one's member: an else-if after it in the added lines may
            # continue another if, whose head is a line the change keeps (``if v > 2 {…}`` then ``match … else if v > 3``).
            chains.pop(key, None)
            continue
        prior = chains.get(key)
        if prior is not None:
            before, op, written = prior
            blocked = num < before if key[1] == "<" else num > before
            # The same bound written again is most often a second chain's line (a hunk's context unseen between
            # them); ``<= 10`` then ``< 10`` is one chain's.
            if blocked or (num == before and op.endswith("=") and not m.group("op").endswith("=")):
                return (f"writes a band that can never be reached ({m.group('op')} {m.group('num')} after {op} {written}, "
                        f"what it rated falls into the next): {_shown(line)}")
        chains[key] = (num, m.group("op"), m.group("num"))
    return None


# ----- two clauses of one function alike, the later one's distinguishing parameter unread
_CLAUSE_RE = re.compile(r"^(?P<ind>\s*)defp?\s+(?P<name>[A-Za-z_]\w{0,60}[?!]?)\s*\((?P<args>[^()]{0,200})\)\s*(?:when\b[^\n]{0,120})?\s*do\s*$")


def _clauses_alike(lines: Sequence[str]) -> str | None:
    last: tuple[str, list[str], list[str]] | None = None  # (name, args, body) of the clause before
    i = 0
    while i < len(lines):
        m = _CLAUSE_RE.match(lines[i])
        if m is None:
            i += 1
            continue
        # The body: the lines indented deeper than the head (its ``end`` may be a line the change keeps, not one it adds).
        depth = len(m.group("ind"))
        body, j = [], i + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > depth) and len(body) < 40:
            if lines[j].strip():
                body.append(_spaced(lines[j]))
            j += 1
        args = [a.strip() for a in m.group("args").split(",")]
        if last and last[0] == m.group("name") and len(last[1]) == len(args) and body and body == last[2]:
            for a, b in zip(last[1], args):
                if a != b and re.fullmatch(r"[a-z]\w*", b) and not any(re.search(r"(?<![\w:])" + b + r"\b", x) for x in body):
                    return f"writes two clauses of {m.group('name')} that do the same ({b} is never read): {_shown(lines[i])}"
        last = (m.group("name"), args, body)
        i = j
    return None


# ----- an if and its else with the same body (brace languages)
# Not Swift's or Rust's ``if let``/``if case``: the same text in its two branches reads differently bound names.
_IF_OPEN_RE = re.compile(r"^(?P<ind>\s*)(?:\}\s*else\s+)?if\b(?!\s+(?:let|var|case)\b)[^{}]{1,200}\{\s*$")
_ELSE_RE = re.compile(r"^\s*\}\s*else\s*\{\s*$")


def _branches_alike(lines: Sequence[str]) -> str | None:
    for i, line in enumerate(lines):
        if "if" not in line or (m := _IF_OPEN_RE.match(line)) is None:
            continue
        depth = len(m.group("ind"))
        first, j = [], i + 1
        while j < len(lines) and len(first) < 20 and len(lines[j]) - len(lines[j].lstrip()) > depth:
            first.append(_spaced(lines[j]))
            j += 1
        if not first or j >= len(lines) or not _ELSE_RE.match(lines[j]):
            continue
        second, k = [], j + 1
        while k < len(lines) and len(second) < 20 and len(lines[k]) - len(lines[k].lstrip()) > depth:
            second.append(_spaced(lines[k]))
            k += 1
        if [x for x in first if x] == [x for x in second if x] and any(first):
            return f"writes an if whose branches do the same (the condition decides nothing): {_shown(line)}"
    return None


def _spaced(line: str) -> str:
    # Bodies compare as written, spaces aside: squeezing brackets away would make ``({:?})`` and ``{:?}`` one body.
    return " ".join(line.split())


def _shown(line: str, at: int = 0) -> str:
    text = line.strip()
    start = max(0, at - (len(line) - len(line.lstrip())))
    return window(text, start, min(len(text), start + 20), _SHOWN, lead=10 if at else None)


def read_alone(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first of these kinds the change's added lines hold, as a reason that quotes the line; None when none."""
    lines = [line for line in added[:_MOST] if len(line) <= _LONGEST]
    if not lines:
        return None
    for read in (_result_discarded, _absent_then_used, _literal_condition, _band_unreachable, _input_on_failure, _clauses_alike,
                 _branches_alike):
        if found := read(lines):
            return found
    return _errors_unread(lines, removed) or _verdict_unread(lines, removed)
