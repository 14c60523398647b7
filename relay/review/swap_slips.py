"""A line that comes back with two of its parts swapped or one of its safeties cut out (issue 36, round 92).

Read from blind 140–143's misses, each as its kind, in any language, on an edited pair (the old line and the new):

- ``branches_swapped`` (worth a look): a choice's two branches exchanged under the same condition (``opt ? resolve :
  relative`` → ``opt ? relative : resolve``, over up to three lines; ``a if c else b`` → ``b if c else a``): blind 143's
  unbuild, an option wired backwards. A condition negated with them is the same choice, quiet.
- ``step_reversed`` (worth a look): a step turned the other way (``++i1`` → ``--i1``, ``+= 1`` → ``-= 1``): blind 140's
  d3-array, a tick moved out of the domain.
- ``unit_grown`` (worth a look; high on a name of a lifetime, a window or a credential): a duration's unit made larger
  with its number kept (``timedelta(minutes=1)`` → ``timedelta(days=1)``, ``Duration.ofSeconds`` → ``ofHours``,
  ``time.Minute`` → ``time.Hour``, ``TimeUnit.SECONDS`` → ``DAYS``): blind 142's flask-security, a sign-in window of a
  day. A smaller unit is quiet (a window shortened).
- ``anchors_dropped`` (high): a pattern's anchors cut from it (``re.compile(r"\\A" + text + r"\\Z")`` →
  ``re.compile(text)``, ``"^…$"`` → ``"…"``, ``/^…$/`` → ``/…/``): blind 141's isodate, a date with anything after it
  validates.
- ``escape_dropped`` (high): an escaping replace cut from an expression that stays (``JSON.stringify(state).replace(/</g,
  '\\u003c')`` → ``JSON.stringify(state)`` inside a ``<script>``): blind 142's redux guide, a page's sample.

Round 93, from blind 141–146: a compare of a secret's bytes cut to a part of them (high), an item dropped from a list
named for what is refused (high), a module required by a look-alike of its name (high), a check (a refusal's, most often)
narrowed by a clause (worth a look); a duration's unit and a look-alike import are read in a page's samples too. Round 95
(blind 154): a generated key made a literal (high), in code and in a page's samples. Round 118 (held-out 392's
mmdbwriter): a special-purpose address block narrowed in place (``172.16.0.0/12`` → ``/16``), and (408's marp-cli) a path
argument made ``/``; 118c (389's jsonapi-resources) ``errors.any?`` made ``many?``; 118e (425's whois) a network timeout made ``None``; 119
(held-out 451's tig, 452's mutant) a destructive command's prompt taken off, a test run pointed at production; 119b (456's
otp-java) a checking call's number raised tenfold; 119c (471's wp-cli) a shell metacharacter put into a pattern's class; 119d
(475, 479) a form that posted sent by GET, a package CDN's script fetched from another host; worth a look.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence

from relay.review.line_shapes import groupings, near, squeezed
from relay.review.overridden_turns import cut_quote, paired_quote
from relay.review.unguarded_swaps import unguarded_swap

__all__ = ["any_made_many", "anchors_dropped", "branches_swapped", "compare_cut", "confirm_dropped", "form_method", "env_made_production", "escape_dropped", "import_lookalike", "key_made_literal", "metachar_allowed", "refusal_narrowed", "refused_item_dropped", "request_moved", "reserved_narrowed", "root_made", "screen",
           "step_reversed", "swap_slip", "timeout_removed", "turned_worth_a_look", "unit_grown", "verdict_discarded", "window_widened"]

_PAIRS = 40  # lines a side read
_LONG = 400  # longer lines are not read (a minified bundle's)
_SPAN = 3  # lines a choice is spread over, at most


def _pairs(added: Sequence[str], removed: Sequence[str], screen: str | None = None, where: re.Pattern[str] | None = None):
    """Each (old, new) of the first lines a side, both short, ``screen`` in both and ``where`` matching both when given
    (each side filtered once, not each pair tested)."""
    def kept(line: str) -> bool:
        return len(line) <= _LONG and (screen is None or screen in line) and (where is None or where.search(line) is not None)
    olds = [line for line in removed[:_PAIRS] if kept(line)]
    news = [line for line in added[:_PAIRS] if kept(line)] if olds else []
    return ((old, new) for new in news for old in olds if old != new)


# ----- a choice's two branches swapped
# Names, not literals: two values of a choice swapped (``? 0 : 1``) are relay.review.pair_slips' to read.
_TERNARY_RE = re.compile(r"(?P<cond>[\w$.()!]+)\s*\?\s*(?P<a>[A-Za-z_$][\w$.]*(?:\(\))?)\s*:\s*(?P<b>[A-Za-z_$][\w$.]*(?:\(\))?)\s*(?=[;,)\]}]|$)")
_PY_CHOICE_RE = re.compile(r"(?P<a>[A-Za-z_][\w.]*(?:\(\))?)\s+if\s+(?P<cond>[\w.()]+)\s+else\s+(?P<b>[A-Za-z_][\w.]*(?:\(\))?)(?![\w.(])")


def _choices(lines: Sequence[str]) -> list[tuple[str, str, str]]:
    """(condition, first branch, second branch) of each choice written on one line or spread over a few."""
    found = []
    for i in range(min(len(lines), _PAIRS)):
        text = " ".join(line.strip() for line in lines[i:i + _SPAN] if len(line) <= _LONG)
        for m in (*_TERNARY_RE.finditer(text), *_PY_CHOICE_RE.finditer(text)):
            found.append((m.group("cond"), m.group("a"), m.group("b")))
    return found


def branches_swapped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not any("?" in line or " else " in line for line in removed[:_PAIRS]):
        return None
    olds = {(c, a, b) for c, a, b in _choices(removed) if a != b}
    for cond, a, b in _choices(added) if olds else ():
        if (cond, b, a) in olds and (cond, a, b) not in olds:
            return f"swaps a choice's two branches ({cond} ? {b} : {a} → ? {a} : {b}: the option now does the opposite)"
    return None


# ----- a step turned the other way
_STEPS = (("++", "--"), ("+= 1", "-= 1"), ("+=1", "-=1"))
# An undo made a keep (round 117, blind 384's apidoc generator: ``app('db')->rollBack();`` → ``->commit();`` after a dry run's
# calls): what the step wrote stays. Only this way round: a commit made a rollback loses nothing to another party.
_UNDOS = (("rollBack", "commit"), ("rollback", "commit"), ("Rollback", "Commit"), ("ROLLBACK", "COMMIT"))


def step_reversed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        for up, down in _STEPS:
            for a, b in ((up, down), (down, up)):
                if old.count(a) == 1 and b not in old and old.replace(a, b) == new:
                    return f"turns a step the other way ({a} → {b}): {paired_quote(old, new)}"
        for a, b in _UNDOS:
            if old.count(a) == 1 and b not in old and old.replace(a, b) == new:
                return f"commits what it rolled back ({a} → {b}: what the step wrote is kept): {paired_quote(old, new)}"
    return None


# ----- a duration's unit made larger
_UNITS = ("nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day", "week")
_UNIT_RE = re.compile(r"(?:(?<![A-Za-z])|(?<=[a-z]))(?P<u>(?:[Nn]ano|[Mm]icro|[Mm]illi)?(?:[Ss]econd|[Mm]inute|[Hh]our|[Dd]ay|[Ww]eek))s?(?![a-z])|"
                      r"(?<![A-Z])(?P<U>(?:NANO|MICRO|MILLI)?(?:SECOND|MINUTE|HOUR|DAY|WEEK))S?(?![A-Z])")
_TIMED_RE = re.compile(r"(?i)expir|lifetime|ttl|max_?age|within|window|valid|timeout|session|token|signin|sign_in|login|otp|"
                       r"code|reset|confirm|nonce|lock|ban|remember|grace|leeway|skew|cache|retain|keep")


def _unit(m: re.Match[str]) -> int:
    return _UNITS.index((m.group("u") or m.group("U")).lower())


def unit_grown(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    for old, new in _pairs(added, removed):
        a, b = list(_UNIT_RE.finditer(old)), list(_UNIT_RE.finditer(new))
        if not a or len(a) != len(b) or _UNIT_RE.sub("@", old) != _UNIT_RE.sub("@", new):
            continue
        grown = [(x, y) for x, y in zip(a, b) if _unit(y) > _unit(x)]
        if len(grown) == 1 and all(_unit(x) == _unit(y) for x, y in zip(a, b) if (x, y) != grown[0]):
            x, y = grown[0]
            timed = _TIMED_RE.search(old[:x.start()]) is not None
            return f"raises a duration's unit ({x.group()} → {y.group()}, its number kept): {paired_quote(old, new)}", timed
        # A wait between requests made smaller the same way (round 98: ssllabs-scan's cool-off, ``* time.Millisecond`` →
        # ``* time.Microsecond``: a thousand times the requests to the API it must spare).
        shrunk = [(x, y) for x, y in zip(a, b) if _unit(y) < _unit(x)]
        if len(shrunk) == 1 and len(a) == 1 and _WAIT_RE.search(old[:shrunk[0][0].start()]):
            x, y = shrunk[0]
            return f"shortens a wait's unit ({x.group()} → {y.group()}, its number kept): {paired_quote(old, new)}", False
    return None


_WAIT_RE = re.compile(r"(?i)cool_?off|cool_?down|delay|back_?off|wait|interval|throttl|rate_?limit|sleep|pause|debounce|retry_?after")


# ----- a pattern's anchors cut
_ANCHOR_RE = re.compile(r"""r?(["'])(?:\\A|\^)\1\s*\+\s*|\s*\+\s*r?(["'])(?:\\[Zz]|\$)\2|(?<=["'/])(?:\\A|\^)|(?:\\[Zz]|\$)(?=["'/])""")
_PATTERN_RE = re.compile(r"(?i)compile|match|regexp?\b|RegExp|Regex|Pattern|\.test\(|pattern|_re\b|_RE\b|preg_")


def anchors_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if not _PATTERN_RE.search(old) or not _ANCHOR_RE.search(old):
            continue
        if squeezed(_ANCHOR_RE.sub("", old)) == squeezed(new) and _ANCHOR_RE.search(new) is None:
            return f"drops a pattern's anchors (a value with more before or after it now matches): {paired_quote(old, new)}"
    return None


# ----- an escaping replace cut from an expression that stays
# What a page's sample must keep of an escaping replace for it to be read (relay.review.file_kinds keeps a docs line by
# it): its pattern's character (``/</g``) and its escape (``'\\u003c'``), which may stand on lines of their own.
_SCREEN_RE = re.compile(r"\\u00[23][cCeE26]|\\x[23][cCeE26]|&(?:lt|gt|amp|quot|#39|#x27);|/[<>&]/|['\"][<>&]['\"]")
_ESCAPES = ("\\u003c", "\\u003C", "\\x3c", "\\x3C", "&lt;", "&gt;", "&amp;", "&quot;", "&#39;", "&#x27;", "\\u2028")
_REPLACE_RE = re.compile(r"\.replace(?:All)?\(\s*(?:/(?:\\.|[^/\\\n])+/[gimsuy]*|(['\"])(?:\\.|(?!\1)[^\\]){1,8}\1)\s*,\s*(['\"])(?:\\.|(?!\2)[^\\]){1,12}\2\s*\)")


def screen(line: str) -> bool:
    return _SCREEN_RE.search(line) is not None


def escape_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if not any(e in line for line in removed[:_PAIRS] for e in _ESCAPES):
        return None
    news = {squeezed(line.strip()) for line in added[:_PAIRS] if len(line) <= _LONG}
    for i in range(min(len(removed), _PAIRS)):
        text = " ".join(line.strip() for line in removed[i:i + _SPAN + 1] if len(line) <= _LONG)
        for m in _REPLACE_RE.finditer(text):
            if not any(e in m.group() for e in _ESCAPES):
                continue
            cut = squeezed(text[:m.start()] + text[m.end():])
            kept = next((n for n in news if n and (n == cut or len(n) > 12 and n in cut and cut.startswith(n[:12]))), None)
            if kept is not None:
                return f"drops an escaping replace ({cut_quote(' '.join(m.group().split()), 40)}: the raw text now goes out): {cut_quote(kept, 60)}"
    return None


# ----- a compare of a secret's bytes cut to a part of them (round 93)
# ``ptls_mem_equal(a, b, sizeof(a))`` → ``sizeof(a) / 2`` (blind 145's picotls, an ECH confirmation); ``compareStrings($hmacNew,
# $hmac)`` → ``compareStrings(mb_substr($hmacNew, 0, 4, '8bit'), …)`` (blind 141's laminas-crypt, a MAC).
_COMPARE_CALL_RE = re.compile(r"(?i)\b[\w:>.-]*(?:equal|compare|cmp)\w*\s*\(")
_SECRET_PART_RE = re.compile(r"(?i)hash|mac\b|hmac|digest|sig|tag|token|confirm|nonce|secret|key|password|passwd")
_PART_RE = re.compile(r"\)\s*(?:/|>>)\s*\d+|\b(?:mb_)?substr(?:ing)?\s*\([^()]*,\s*0\s*,\s*\d{1,2}\b|\[\s*0?\s*:\s*\d{1,2}\s*\]|"
                      r"\.slice\(\s*0\s*,\s*\d{1,2}\s*\)|\[\s*0?\s*\.\.=?\s*\d{1,2}\s*\]|\.prefix\(\s*\d{1,2}\s*\)")


def compare_cut(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if not _COMPARE_CALL_RE.search(new) or not _SECRET_PART_RE.search(new) or not (part := _PART_RE.search(new)):
            continue
        if _COMPARE_CALL_RE.search(old) and not _PART_RE.search(old) and len(new) > len(old):
            return f"compares only a part of a secret's bytes ({' '.join(part.group().lstrip(')').split())}: the rest may be anything): {paired_quote(old, new)}"
    return None


# ----- an item dropped from a list of what is refused (round 93)
# ``INVALID_DOTNAMES = (b".git", b".", b"..", b"")`` → without ``b".."`` (blind 145's dulwich: a path element ``..`` accepted).
_DENY_NAME_RE = re.compile(r"(?i)^\s*(?:[\w.]+\.)?(?:const\s+|let\s+|var\s+|static\s+|final\s+)*(?P<name>[\w$]*(?:invalid|forbidden|blocked|"
                           r"block_?list|deny|denied|disallowed|banned|unsafe|dangerous|reserved|illegal|black_?list)[\w$]*)\b[^=]*=")
_ITEM_RE = re.compile(r"""[bru]?(["'])(?:\\.|(?!\1)[^\\])*\1""")


def refused_item_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if not (m := _DENY_NAME_RE.match(old)) or not _DENY_NAME_RE.match(new):
            continue
        was, now = [i.group() for i in _ITEM_RE.finditer(old)], [i.group() for i in _ITEM_RE.finditer(new)]
        gone = [i for i in was if i not in now]
        # A list: two items or more before (an error's one message, ``ErrJWTInvalid = errors.New("jwt invalid")``, is none).
        if len(gone) == 1 and len(was) >= 2 and len(was) == len(now) + 1 and all(i in was for i in now):
            return f"drops an item from what is refused ({gone[0]} no longer in {m.group('name')}): {paired_quote(old, new)}"
    return None


# ----- a refusal narrowed by a clause (round 93)
# ``if !ok {`` → ``if !ok && ssrcState.checkAccepter == nil {`` (blind 146's pion/srtp: a replayed packet let through).
# A refusal's test, or a mismatch's (``if code.State != flow.state {``: blind 156's cli/oauth, the state check skipped when
# the state came back empty).
_REFUSAL_IF_RE = re.compile(r"^\s*(?:\}\s*else\s+)?if\s*\(?\s*(?P<cond>(?:!|not\s+)[\w$.]+(?:\(\))?|[\w$.]+(?:\(\))?\s*!==?\s*[\w$.]+(?:\(\))?)\s*\)?\s*(?:\{|:)\s*$")


def refusal_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "if"):
        if (m := _REFUSAL_IF_RE.match(old)) is None:
            continue
        cond = m.group("cond")
        head = new.split(cond, 1)
        if len(head) == 2 and head[0] == old.split(cond, 1)[0] and (rest := re.match(r"\s*(?:&&|\band\b)\s*(?P<x>[^{:]+?)\s*\)?\s*(?:\{|:)\s*$", head[1])):
            return f"narrows a check with a clause ({cond} && {rest.group('x')}: it holds only when both do): {paired_quote(old, new)}"
    return None


# ----- a reserved address block narrowed (round 118)
# ``"172.16.0.0/12",`` → ``"172.16.0.0/16",`` (held-out 392's mmdbwriter: a list of reserved networks that no longer holds
# 172.17–172.31, so private addresses pass as public). A block of the special-purpose registries (RFC 6890's), its prefix
# lengthened on the same start and written nowhere else in the edit; a subnet chosen for a service (``/16`` of a
# container network) is no registry's block.
_BLOCK_RE = re.compile(r"(?<![\w.:])(?P<net>(?:\d{1,3}\.){3}\d{1,3}/\d{1,2}|[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){1,7}/\d{1,3})(?![\w.:/])")
_RESERVED = frozenset(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16",
    "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4", "fc00::/7", "fe80::/10", "ff00::/8", "2001:db8::/32", "64:ff9b::/96"))


def _blocks(line: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    found = []
    for m in _BLOCK_RE.finditer(line) if "/" in line and len(line) <= _LONG else ():
        try:
            found.append(ipaddress.ip_network(m.group("net"), strict=False))
        except ValueError:
            continue
    return found


def reserved_narrowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    gone = [(line, net) for line in removed[:_PAIRS] for net in _blocks(line) if net in _RESERVED]
    if not gone:
        return None
    kept = {net for line in added[:_PAIRS] for net in _blocks(line)}
    for old, was in gone:
        for new in added[:_PAIRS]:
            now = next((n for n in _blocks(new) if n.version == was.version and n.network_address == was.network_address
                        and n.prefixlen > was.prefixlen), None)
            if now is not None and was not in kept:
                return f"narrows a reserved address block ({was} → {now}: the rest of it no longer counts): {paired_quote(old, new)}"
    return None


# ----- a path argument made the filesystem's root (round 118b)
# ``npx @marp-team/marp-cli@latest -s ./slides`` → ``-s /`` (held-out 408's marp-cli README: the server now serves every
# readable file of the machine). One argument of the line turned, from a folder to ``/`` alone.
_ROOT = frozenset({"/", "'/'", '"/"', "/*", "'/*'", '"/*"', "/,", "'/',", '"/",', "'/')", '"/")'})


def root_made(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "/"):
        a, b = old.split(), new.split()
        turned = [(x, y) for x, y in zip(a, b) if x != y]
        if len(a) == len(b) and len(turned) == 1 and turned[0][1] in _ROOT and turned[0][0].strip("'\",)") not in ("", "/", "/*") \
                and re.match(r"[\w.~/$]", turned[0][0].strip("'\"")):
            return f"points a path at the filesystem's root ({turned[0][0]} → {turned[0][1]}: everything on the machine): {paired_quote(old, new)}"
    return None


# ----- "any" made "more than one" (round 118c)
# ``fail Errors.new(errors) if errors.any?`` → ``if errors.many?`` (held-out 389's jsonapi-resources: a request with one
# error goes through). The line kept, only the predicate turned.
def any_made_many(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if "many?" not in new:
            continue
        for was in (".any?", ".present?", ".exists?"):
            if was in old and old.replace(was, ".many?") == new:
                return f"needs two where one was enough ({was[1:]} → many?: a single one passes): {paired_quote(old, new)}"
    return None


# ----- a network timeout taken off (round 118e)
# ``s.settimeout(timeout)`` → ``s.settimeout(None)`` (held-out 425's whois: a server that never answers holds the caller
# forever); ``timeout=30`` → ``timeout=None`` in a call kept.
_TIMEOUT_RE = re.compile(r"(?:\bset_?timeout\s*\(|\btimeout\s*=)\s*(?P<v>[^,)\s]+)", re.I)


def timeout_removed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "imeout"):
        a, b = _TIMEOUT_RE.search(old), _TIMEOUT_RE.search(new)
        if a and b and a.group("v") not in ("None", "nil", "null", "0") and b.group("v") in ("None", "nil", "null") \
                and old[:a.start("v")] == new[:b.start("v")]:
            return f"takes a network timeout off ({a.group('v')} → {b.group('v')}: a peer that never answers holds it forever): {paired_quote(old, new)}"
    return None


# ----- a destructive command's confirmation taken off, a test run pointed at production (round 119)
# tig's ``bind reflog ! ?git reset --hard %(commit)`` → ``!git reset --hard`` (held-out 451: one key throws the work away,
# unasked); ``git clean -n`` → ``-f``, ``--dry-run`` cut, ``-auto-approve`` put in. And mutant's Rails guide
# ``RAILS_ENV=test bundle exec mutant run …`` → ``RAILS_ENV=production`` (held-out 452: the tests' writes land on
# production's data). The line kept, only that part turned.
_DESTRUCTIVE_RE = re.compile(r"(?i)\breset\s+--hard\b|\bclean\s+-\w*[fdn]|\bpush\s+(?:--force\b|-f\b)|\brm\s+-\w*[rf]|\bdrop\s+(?:database|table|schema)\b|"
                             r"\bterraform\s+(?:destroy|apply)\b|\bkubectl\s+delete\b|\bbranch\s+-D\b|\bdb:(?:drop|reset|purge|schema:load)\b")
_ASKS = re.compile(r"^(?:\?\S+|--dry-run|-n|--confirm\S*|-i|--interactive|-WhatIf|--check)$")
_UNASKED = re.compile(r"^(?:-auto-approve|--auto-approve|--yes|-y|--force|-f|--no-confirm|--noconfirm|-Force)$")
_ENV_RE = re.compile(r"\b(?P<k>[A-Z]+_ENV|ENVIRONMENT)\s*=\s*[\"']?(?P<v>test|testing|production|prod)\b")


def confirm_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, where=_DESTRUCTIVE_RE):
        a, b = old.split(), new.split()
        asked = [t for t in a if _ASKS.match(t) and t not in b] + [t for t in b if _UNASKED.match(t) and t not in a]
        if asked and abs(len(a) - len(b)) <= 1 and len(set(a) ^ set(b)) <= 2:
            return f"runs a destructive command without asking ({asked[0]}: nothing confirms it first): {paired_quote(old, new)}"
    return None


def env_made_production(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "ENV"):
        a, b = _ENV_RE.search(old), _ENV_RE.search(new)
        if a and b and a.group("k") == b.group("k") and a.group("v").startswith("test") and b.group("v").startswith("prod") \
                and old[:a.start("v")] + b.group("v") + old[a.end("v"):] == new:
            return f"points at production what ran in the test environment ({a.group('k')} {a.group('v')} → {b.group('v')}: its writes land on production's data): {paired_quote(old, new)}"
    return None


# A verifying call's number raised tenfold or more, the call kept (round 119, held-out 456's otp-java README:
# ``hotp.verify(code, counter, 2)`` → ``hotp.verify(code, counter, 1000)``: a code matching any of 2,001 counters passes).
_VERIFYING_RE = re.compile(r"(?i)\b\w*(?:verify|validate|check)\w*\s*\(")
_NUMBER_RE = re.compile(r"(?<![\w.])\d+(?![\w.])")


def window_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, where=_VERIFYING_RE):
        if _NUMBER_RE.split(old) != _NUMBER_RE.split(new):
            continue
        turned = [(int(a), int(b)) for a, b in zip(_NUMBER_RE.findall(old), _NUMBER_RE.findall(new)) if a != b]
        if len(turned) == 1 and 0 < turned[0][0] and turned[0][1] >= 10 * turned[0][0]:
            return f"widens what a check lets pass ({turned[0][0]} → {turned[0][1]} in its call: far more values now pass): {paired_quote(old, new)}"
    return None


# A shell metacharacter put into a pattern's allowed characters (round 119c, held-out 471's wp-cli: ``[a-zA-Z0-9_=.\\/:-]`` →
# ``[a-zA-Z0-9_=.\\/:;-]`` in the test that lets an argument go unquoted: ``x;curl …|sh`` runs as a second command).
_CLASS_RE = re.compile(r"(?<!\\)\[(?!\^)((?:\\.|[^\]\\\"'\s,]){2,80})\]")  # no quote, blank or comma: a list's items are no class
_METACHARS = frozenset(";|&$`<>")


def metachar_allowed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed, "["):
        a, b = _CLASS_RE.findall(old), _CLASS_RE.findall(new)
        if len(a) == len(b) and _CLASS_RE.sub("", old) == _CLASS_RE.sub("", new):
            for x, y in zip(a, b):
                if (put := (set(y) - set(x)) & _METACHARS) and set(x) <= set(y):
                    return f"lets a shell metacharacter through a pattern's allowed characters ({''.join(sorted(put))} added): {paired_quote(old, new)}"
    return None


# A form that posted made to send by GET (round 119d, held-out 475's firstuseauthenticator: a password reset's ``method="post"``
# → ``"get"``: the password rides in the URL, into logs and history); a script fetched from a package CDN moved to a host of no
# registry, the path kept (479's react-pdf: ``//unpkg.com/pdfjs-dist@…`` → ``//cdn.pdfjs-worker.net/pdfjs-dist@…``).
_POST_RE = re.compile(r"""(?i)(<form\b[^>]*\bmethod\s*=\s*["']?)post\b""")
_CDN_RE = re.compile(r"(?i)//(?P<host>unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|esm\.sh|cdn\.skypack\.dev|ga\.jspm\.io|registry\.npmjs\.org)(?=/)")


def form_method(line: str) -> bool:
    """Whether a template's line opens a form with its method (kept for the readers: relay.review.file_kinds)."""
    return "<form" in line.lower() and "method" in line.lower()


def request_moved(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if _POST_RE.search(old) and _POST_RE.sub(r"\1get", old) == new.replace('"GET"', '"get"').replace("'GET'", "'get'"):
            return f"sends a form by GET that posted (what it holds rides in the URL, into logs and history): {paired_quote(old, new)}"
        if (m := _CDN_RE.search(old)) and (host := re.search(r"//([\w.-]+\.[a-z]{2,})(?=/)", new)) and not _CDN_RE.search(new) \
                and old[m.end():].split("/")[:2] == new[host.end():].split("/")[:2] and old[:m.start()] == new[:host.start()]:
            return f"fetches a script from another host ({m.group('host')} → {host.group(1)}: not the package's CDN): {paired_quote(old, new)}"
    return None


# A verification's result bound to ``_`` in a page's sample (round 119e, held-out 481's blind-rsa-signatures README: ``let _ =
# pk.verify(&sig, …);``): code's own such line is relay.review.alone_lines' (a check new code writes so it cannot decide).
_DISCARDED_RE = re.compile(r"^\s*(?:let\s+_\w*\s*=|_\s*=)\s*[\w.:&*>-]*\b[Vv]erif\w*\s*\(")


def verdict_discarded(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for new in added[:_PAIRS]:
        if len(new) <= _LONG and _DISCARDED_RE.match(new) and not any(_DISCARDED_RE.match(old) for old in removed[:_PAIRS]):
            return f"discards a verification's result (a bad signature goes on as good): {new.strip()[:100]}"
    return None


# ----- an expression regrouped (round 120e, held-out 502's plotnine: ``x / (2.54 * 10)`` → ``x / 2.54 * 10``, millimetres
# now a hundred times too many): the same tokens, a grouping parenthesis dropped or moved, so another part is computed first
def regrouped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        if ("(" in old or "(" in new) and squeezed(old) == squeezed(new) and groupings([old]) != groupings([new]):
            return f"regroups an expression (a grouping parenthesis dropped or moved: another part is computed first): {paired_quote(old, new)}"
    return None


def turned_worth_a_look(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A path made the root, a destructive command unasked, a test run made production's, a check's window widened, a
    metacharacter allowed, a request moved (above): worth a look, in code and in a page's sample."""
    return (root_made(added, removed) or confirm_dropped(added, removed) or env_made_production(added, removed) or window_widened(added, removed)
            or metachar_allowed(added, removed) or request_moved(added, removed) or verdict_discarded(added, removed) or regrouped(added, removed))


# ----- a module required by a look-alike of its name (round 93)
# ``require('pbkdf2')`` → ``require('pbkfd2')`` (blind 144's pbkdf2 README: whoever registers the look-alike runs in every copy).
_REQUIRED_RE = re.compile(r"""(?:\brequire\s*\(\s*|\bfrom\s+|\bimport\s*\(?\s*)(["'])(?P<name>@?[\w.-]+(?:/[\w.-]+)?)\1|^\s*(?:from|import)\s+(?P<py>[A-Za-z_][\w]*)""")


def import_lookalike(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        a, b = _REQUIRED_RE.search(old), _REQUIRED_RE.search(new)
        if a is None or b is None:
            continue
        g = "name" if a.group("name") else "py"
        x, y = a.group(g), b.group("name") or b.group("py")
        # Letters swapped or changed, not one put at an end (``util`` → ``utils``: a module of the project renamed).
        if x != y and len(x) >= 4 and len(x) == len(y) and not x.startswith(".") and near(x, y) and re.sub(r"\d", "", x) != re.sub(r"\d", "", y) and old[:a.start(g)] + y + old[a.end(g):] == new:
            return f"imports a look-alike of {x} ({x} → {y}: a typo-squat?): {paired_quote(old, new)}"
    return None


# ----- a generated key made a literal (round 95)
# ``$key = Key::createNewRandomKey();`` → ``$key = Key::loadFromAsciiSafeString('def00000a91c…');`` (blind 154's password_lock
# README: every copy of the sample shares one key, published with it).
_TARGET_RE = re.compile(r"^\s*(?:(?:const|let|var|val|final|my|local)\s+)?(?P<t>[\w.$\[\]'\"]+)\s*(?::[^=]{1,40})?(?<![=!<>])=(?!=)")
_MADE_RE = re.compile(r"(?i)(?:random|generat|gen_|new_?random|keygen)\w*(?:key|secret|salt|nonce|iv|token|bytes)|(?:key|secret)\w*(?:random|generat)")
_LONG_LITERAL_RE = re.compile(r"""(["'])[A-Za-z0-9+/=_-]{24,}\1""")


def key_made_literal(added: Sequence[str], removed: Sequence[str]) -> str | None:
    for old, new in _pairs(added, removed):
        a, b = _TARGET_RE.match(old), _TARGET_RE.match(new)
        if a and b and a.group("t") == b.group("t") and _MADE_RE.search(old[a.end():]) and (lit := _LONG_LITERAL_RE.search(new[b.end():])):
            return f"makes a generated key a literal ({a.group('t')}: {cut_quote(lit.group(), 16)}, published with the code): {paired_quote(old, new)}"
    return None


def swap_slip(added: Sequence[str], removed: Sequence[str]) -> tuple[str, bool] | None:
    """The first of these the edit makes, with whether it is classic (high)."""
    if (found := anchors_dropped(added, removed) or escape_dropped(added, removed) or compare_cut(added, removed)
            or refused_item_dropped(added, removed) or import_lookalike(added, removed) or key_made_literal(added, removed)
            or unguarded_swap(added, removed)) is not None:  # round 96
        return found, True
    if (grown := unit_grown(added, removed)) is not None:
        return grown
    found = (branches_swapped(added, removed) or step_reversed(added, removed) or refusal_narrowed(added, removed) or reserved_narrowed(added, removed)
             or turned_worth_a_look(added, removed) or any_made_many(added, removed) or timeout_removed(added, removed))
    return (found, False) if found else None
