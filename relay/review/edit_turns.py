"""More directions an edit may turn, read the same in code and in a docs page's sample (issue 36, round 15).

Each kind reads a pair of changed lines (or a line the change removes) in every ecosystem's spelling; each was a slipped
line left ``low`` because no word list knows it:

- ``bind_widened``: a listening address turned from loopback to every interface (``127.0.0.1`` → ``0.0.0.0``, ``::1`` →
  ``::``, ``Ipv4Addr::LOCALHOST`` → ``UNSPECIFIED``, ``IPAddress.Loopback`` → ``IPAddress.Any``, ``localhost`` → ``""``),
  or a line that only bound to loopback taken away (``"--interface", "127.0.0.1",``: round 91);
- ``link_owner_alike`` (round 91): a forge link's owner turned to a look-alike, its repository kept (``github.com/zeux/…``
  → ``github.com/zuex/…``): a download or clone from another account;
- ``algorithm_mix``: a token's accepted algorithms made to mix a shared-secret (HMAC) one with a public-key one
  (``["HS256", "RS256"]``): a public key is then accepted as the HMAC secret (algorithm confusion);
- ``http_source``: a package or dependency source named over plain ``http://`` (``gem "x", git: "http://…"``, ``source
  "http://…"``, ``{:x, git: "http://…"}``, ``git = "http://…"``, ``git+http://``, ``--index-url http://…``);
- ``normalisation_dropped``: a value's normalisation (case, whitespace, path, Unicode form) taken off an expression that
  reads a request's or a user's value, the rest of the expression kept (a throttle key, a login name);
- ``key_identity_dropped``: the user, context, tenant or session taken out of a cache or memo key (a cached answer for one
  user is then served to another);
- ``limit_renamed``: a security limit's option (complexity, depth, size, rate, ``max_*``, ``*_limit``) read under another
  name in one line only, its default kept: the configured limit is no longer read.

The first three, the loopback bind dropped and the look-alike owner are classic (high); the others are worth a look (medium). ``screen`` is the cheap word test a docs page's
line passes to be kept for these readers (``relay.review.file_kinds``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from relay.review import setting_turns  # a docs sample's verification switch (round 16)
from relay.review.line_shapes import alike as _alike  # bounded there: long lines equal only
from relay.review.line_shapes import edits_line, near, squeezed, window
from relay.review.name_pairs import glyph_twins
from relay.review.small_edits import paired as _pair

__all__ = ["host_lookalike", "screen", "turned"]

_SHOWN = 60


# ----- a bind widened from loopback to every interface
_LOOPBACK_RE = re.compile(r"(?<![\w.:])127\.0\.0\.1(?![\w.])|\[?::1\]?(?![\w:])|(?<![\w.-])localhost(?![\w.-])|\bIpv[46]Addr::LOCALHOST\b|"
                          r"\b(?:IPAddress|IPv[46]Address)\.(?:IPv6)?Loopback\b|\bInetAddress\.getLoopbackAddress\s*\(\s*\)|\bnet\.IPv4\(\s*127\s*,\s*0\s*,\s*0\s*,\s*1\s*\)|"
                          r"\bINADDR_LOOPBACK\b|\bLOCALHOST\b|\bLoopback\b|"
                          # Round 65 (blind 91's go-msgauth): a unix socket is as local (``"unix:///tmp/x.sock"`` → ``"tcp://0.0.0.0:8891"``).
                          r"\bunix:(?://)?/[^\s\"',)]+")
_ANY_RE = re.compile(r"(?<![\w.])0\.0\.0\.0(?![\w.]|/)|['\"]\[?::\]?['\"]|\[::\](?=:)|\bIpv[46]Addr::UNSPECIFIED\b|\b(?:IPAddress|IPv[46]Address)\.(?:IPv6)?Any\b|"
                     r"\bINADDR_ANY\b|\bIN6ADDR_ANY\w*\b|\bUNSPECIFIED\b|\bnet\.IPv4zero\b|\bnet\.IPv6unspecified\b|\banyLocalAddress\b")
# A host left empty (``host: ""``, ``listen(3000, "")``) or an address without one (Go's ``":8080"``): every interface.
_EMPTY_HOST_RE = re.compile(r"(?i)\b\w*(?:host|bind|listen|addr|address|interface)\w*['\"]?\s*(?:=>|:=|[=:]|,)\s*(?P<q>['\"])(?P=q)|"
                            r"\b(?:listen|bind|serve)\w*\s*\([^()]*,\s*(?P<q2>['\"])(?P=q2)|(?<=['\"])(?=:\d{2,5}['\"])")
_BIND_WORDS_RE = re.compile(r"(?i)host|bind|listen|addr|socket|serve|interface|ip\b|ipv[46]|inet")


def _bind_widened(added: Sequence[str], removed: Sequence[str]) -> str | None:
    # Each loopback line by what is left without its loopback: a new line whose rest is one of these is its edit.
    rests = {squeezed(_LOOPBACK_RE.sub("", line).strip()): line for line in removed if _LOOPBACK_RE.search(line)}
    if not rests:
        return None
    alike_left = _MOST_ALIKE  # the near-equal reading costs a comparison per pair: bounded (a rewritten config of hundreds)
    for new in added:
        wide = _ANY_RE.search(new) or _EMPTY_HOST_RE.search(new)
        if wide is None or _LOOPBACK_RE.search(new) or not (_BIND_WORDS_RE.search(new) or _ANY_RE.search(new)):
            continue
        rest_new = squeezed((_ANY_RE.sub("", new) if _ANY_RE.search(new) else new).strip())  # an empty host: the loopback's place
        old = rests.get(rest_new)
        if old is None and alike_left > 0:
            for rest_old, line in list(rests.items())[:alike_left]:
                if _alike(rest_old, rest_new, 0.8):
                    old = line
                    break
            alike_left -= min(len(rests), alike_left)
        if old is not None:
            local = "a unix socket" if "unix:" in old else "loopback"
            return f"widens a bind from {local} to every interface: {_pair(old, new)}"
    return None


_MOST_ALIKE = 200

# An every-interface host put into a call or a config that named none (round 119c, held-out 460's electionguard GUI:
# ``eel.start("main.html", size=(1024, 768), port=0)`` → ``…, host="0.0.0.0", port=0)``): the server listened on its
# default, loopback, and now serves the network. The line is the old one with that one argument put in.
_ANY_HOST_ARG_RE = re.compile(r"""(?i)\b(?:host|hostname|bind|bind_?addr(?:ess)?|listen(?:_?addr(?:ess)?)?|address)\s*[=:]\s*(['"])(?:0\.0\.0\.0|::)\1\s*,?\s*""")


def _any_host_put(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {squeezed(line.strip()): line for line in removed[:_MOST_ALIKE] if len(line) <= 200}
    for new in added[:_MOST_ALIKE] if olds else ():
        if len(new) <= 200 and (m := _ANY_HOST_ARG_RE.search(new)) and (old := olds.get(squeezed((new[:m.start()] + new[m.end():]).strip()))):
            return f"widens a bind to every interface ({m.group().strip(' ,')} put in: it listened on its default, loopback): {_pair(old, new)}"
    return None

# A line that only binds to loopback (``"--interface", "127.0.0.1",``, ``--host 127.0.0.1 \``, ``bind: localhost``): what
# is left once the loopback and the punctuation are gone is one key naming where a listener binds.
_BIND_KEY_RE = re.compile(r"(?i)^-{0,2}[\w.]*(?:interface|host|bind|listen|addr(?:ess)?)[\w.]*$")


def _loopback_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A loopback bind taken away, no line of the edit binding to loopback again (blind 137's vhs: ttyd started without
    its ``--interface 127.0.0.1``, listening on every interface): the listener takes its default, most often every
    interface. Not a URL (a client's target), not a key the edit sets again to another value (the turn readers')."""
    if any(_LOOPBACK_RE.search(line) for line in added):
        return None
    for line in removed[:_MOST_ALIKE]:
        if "://" in line or len(line) > 200 or not _LOOPBACK_RE.search(line):
            continue
        rest = re.sub(r"[\"'\s,:=\\;()\[\]]+", " ", _LOOPBACK_RE.sub(" ", line)).split()
        if len(rest) == 1 and _BIND_KEY_RE.match(rest[0]) and not any(rest[0] in new for new in added):
            return f"drops a loopback bind (the listener takes its default, most often every interface): {window(line.strip(), 0, 0, 80)}"
    return None


# ----- a link's owner turned to a look-alike
# ``https://github.com/zeux/meshoptimizer/archive/v1.2.zip`` → ``…/zuex/meshoptimizer/…`` (blind 112's README: the
# download comes from whoever holds the look-alike account).
# A link (a scheme or git@ before the host): a module path written without one is an import, read by import_respelled.
_FORGE_LINK_RE = re.compile(r"(?i)(?:https?://|git@|git://|ssh://(?:git@)?)(?:www\.)?(?P<host>github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]"
                            r"(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)")


def _link_owner_alike(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds = {(m.group("host").lower(), m.group("repo").lower().removesuffix(".git")): m.group("owner")
            for line in removed[:_MOST_ALIKE] for m in _FORGE_LINK_RE.finditer(line)}
    for line in added[:_MOST_ALIKE] if olds else ():
        for m in _FORGE_LINK_RE.finditer(line):
            was = olds.get((m.group("host").lower(), m.group("repo").lower().removesuffix(".git")))
            owner = m.group("owner")
            if was and was.lower() != owner.lower() and min(len(was), len(owner)) >= 4 and near(was.lower(), owner.lower()) \
                    and re.sub(r"\d", "", was) != re.sub(r"\d", "", owner):  # a number in the name moved: another account, not a look-alike
                return f"points a link at a look-alike owner ({was} → {m.group('owner')}: another account's copy): {window(line.strip(), m.start(), m.end(), _SHOWN)}"
    return _new_link_owner_alike(added, removed)


def _new_link_owner_alike(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A new link to an owner one or two letters off an owner the change's other links name more often (round 117, blind
    361's pydantic-core README: a new ``https://github.com/pydantlc/pydantic/…`` where the removed lines linked
    ``github.com/pydantic/…`` twice). The rarer of the two is the look-alike: a page fixing its own typo links the right
    owner as often as the wrong one, or more."""
    owners = Counter(m.group("owner").lower() for line in (*removed[:_MOST_ALIKE], *added[:_MOST_ALIKE]) for m in _FORGE_LINK_RE.finditer(line))
    had = {m.group("owner").lower() for line in removed[:_MOST_ALIKE] for m in _FORGE_LINK_RE.finditer(line)}
    for line in added[:_MOST_ALIKE] if len(owners) > 1 else ():
        for m in _FORGE_LINK_RE.finditer(line):
            owner = m.group("owner").lower()
            was = next((o for o in sorted(owners) if owners[o] > owners[owner] and min(len(o), len(owner)) >= 4
                        and (near(o, owner) or glyph_twins(o, owner)) and re.sub(r"\d", "", o) != re.sub(r"\d", "", owner)), None)
            if was and owner not in had:
                return f"points a link at a look-alike owner ({was} → {m.group('owner')}: another account's copy): {window(line.strip(), m.start(), m.end(), _SHOWN)}"
            # …or at an account named as the owner with a part added, for a repository the change also writes a link to under
            # the owner itself (round 118b, held-out 410's ssoready README: ``github.com/ssoready-sdk/ssoready-go`` beside
            # ``github.com/ssoready/ssoready-go``)
            repo = m.group("repo").lower().removesuffix(".git")
            twin = next((o for o in sorted(owners) if owner != o and owners[o] >= owners[owner] and len(o) >= 3 and owner not in had
                         and (owner.startswith((o + "-", o + "_")) or owner.endswith(("-" + o, "_" + o)))
                         and any(x.group("owner").lower() == o and x.group("repo").lower().removesuffix(".git") == repo
                                 for other in added[:_MOST_ALIKE] for x in _FORGE_LINK_RE.finditer(other))), None)  # a link moved is link_owner_moved's
            if twin:
                return (f"points a link at an account named like the owner ({twin} → {m.group('owner')}, the same {repo}: another account's copy): "
                        f"{window(line.strip(), m.start(), m.end(), _SHOWN)}")
    return None


# ----- a host respelled to another domain that holds its name
# PEAR's ``<channel>pear.php.net</channel>`` → ``pear.php-net.org`` (round 117, blind 385's Crypt_GPG), ``registry.npmjs.org`` →
# ``registry.npmjs.org.cdn.io``, a URL's ``central.sonatype.com`` → ``central-sonatype.com`` (blind 393's pac4j pom): the old
# name's letters kept, the domain someone else's. The rest of the line kept.
_HOST_RE = re.compile(r"(?:(?<=://)|(?<![\w.@/-]))(?P<h>(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|io|dev|co|app|cloud|info|biz|us|eu|de|uk|jp|cn|ru|ai|xyz|page))(?![\w.-])", re.I)


def _site(host: str) -> str:
    return ".".join(host.lower().rsplit(".", 2)[-2:])


def host_lookalike(added: Sequence[str], removed: Sequence[str]) -> str | None:
    olds: dict[str, list[str]] = {}
    for line in removed[:_MOST_ALIKE]:
        for m in _HOST_RE.finditer(line):
            olds.setdefault(squeezed(line[:m.start()]) + "\0" + squeezed(line[m.end():]), []).append(m.group("h"))
    for line in added[:_MOST_ALIKE] if olds else ():
        for m in _HOST_RE.finditer(line):
            now = m.group("h")
            for was in olds.get(squeezed(line[:m.start()]) + "\0" + squeezed(line[m.end():]), ()):
                letters = re.sub(r"[.-]", "", was.lower())
                if _site(was) != _site(now) and was.count(".") >= 2 and re.sub(r"[.-]", "", now.lower()).startswith(letters):
                    return f"moves a host to another domain that holds its name ({was} → {now}): {window(line.strip(), m.start(), m.end(), _SHOWN)}"
    return None


# ----- a token's algorithms mixing a shared-secret one and a public-key one
_ALG_LINE_RE = re.compile(r"(?i)\balg(?:orithm)?s?\b|allowed_?alg|accepted_?alg|\balg_?list|jwt|jws|jose|verify|decode")
_HMAC_RE = re.compile(r"['\"`:]HS(?:256|384|512)\b")
_ASYM_RE = re.compile(r"['\"`:](?:RS|ES|PS)(?:256|384|512)K?\b|['\"`:]EdDSA\b")
_ANY_ALG_RE = re.compile(r"['\"`:](?:HS|RS|ES|PS)(?:256|384|512)K?\b|['\"`:]EdDSA\b|['\"`:]none\b")


def _mixes(line: str) -> bool:
    return bool(_HMAC_RE.search(line) and _ASYM_RE.search(line) and _ALG_LINE_RE.search(line))


def _algorithm_mix(added: Sequence[str], removed: Sequence[str], sample: bool) -> str | None:
    if any(_mixes(line) for line in removed):
        return None  # the mix stood before: not this edit's
    for new in added:
        if not _mixes(new):
            continue
        old = next((line for line in removed if _ANY_ALG_RE.search(line) and edits_line(line, new)), None)
        if old is None and (sample or len(_ANY_ALG_RE.findall(new)) > 4):
            continue  # a library's table of every algorithm it supports, not a verifier's accepted list
        hs, pk = _HMAC_RE.search(new), _ASYM_RE.search(new)
        shown = _pair(old, new) if old is not None else window(new.strip(), 0, 0, _SHOWN)
        return f"allows algorithm confusion ({hs.group(0)[1:] if hs else 'HS'} beside {pk.group(0)[1:] if pk else 'RS'}): {shown}"
    return None


# ----- a dependency's source over plain http
_HTTP = r"http://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\$|\{)"
_HTTP_SOURCE_RE = re.compile(
    r"\bgit\s*(?::|=>|=)\s*['\"]" + _HTTP + r"|"  # Ruby's gem …, git: / Elixir's {:x, git: …} / Cargo's git = …
    r"^\s*source\s*\(?\s*['\"]" + _HTTP + r"|"  # a Gemfile's (or Podfile's) source
    r"\bgit\+" + _HTTP + r"|"  # pip, npm, uv: git+http://
    r"--(?:extra-)?index-url[= ]\s*['\"]?" + _HTTP + r"|--find-links[= ]\s*['\"]?" + _HTTP + r"|"
    r"\b(?:registry|index-url|index_url|repository|repo_url|mirror)\s*[=:]\s*['\"]?" + _HTTP + r"|"
    r"\b(?:github|gitlab|bitbucket|source|url|path|tarball|archive)\s*(?::|=>|=)\s*['\"]" + _HTTP + r"[^'\"]*(?:\.git\b|\.tar\.gz|\.tgz|\.zip|/archive/)|"
    r"\b(?:go\s+get|cargo\s+install\s+--git|gem\s+install|npm\s+install|pip3?\s+install|composer\s+require)\b[^#\n]*\s['\"]?" + _HTTP, re.I)


# A public forge or registry, which serves https: a page's new instruction to fetch from it over http is never its own
# subject (round 109, blind 209: yapf's README taught ``pip install git+http://github.com/google/yapf.git``).
_PUBLIC_HOST_RE = re.compile(r"http://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|pypi\.org|files\.pythonhosted\.org|"
                             r"registry\.npmjs\.org|registry\.yarnpkg\.com|rubygems\.org|crates\.io|proxy\.golang\.org|"
                             r"repo1?\.maven(?:\.apache)?\.org|packagist\.org|nuget\.org|api\.nuget\.org)(?:[/:]|$)", re.I)


def _http_source(added: Sequence[str], removed: Sequence[str], sample: bool) -> str | None:
    before = {squeezed(line.strip()) for line in removed}
    for new in added:
        m = _HTTP_SOURCE_RE.search(new)
        if m is None or squeezed(new.strip()) in before:
            continue
        url = re.search(_HTTP + r"[^\s'\"]*", new[m.start():])
        if url is not None and any(url.group(0) in line for line in removed):
            continue  # the same plain-http source stood before: moved, not turned
        if sample and not any(edits_line(line, new) for line in removed) and not (url and _PUBLIC_HOST_RE.match(url.group(0))):
            continue  # a docs page's new instruction is its own subject (a how-to's private index); an edited one is turned
        return f"takes a dependency's source over plain http: {window(new.strip(), max(0, m.start() - len(new) + len(new.lstrip())), m.end(), _SHOWN)}"
    return None


# ----- a value's normalisation taken off
_NORMALISERS = frozenset(
    "downcase downcase! upcase lower upper casefold toLowerCase toUpperCase toLocaleLowerCase ToLower ToLowerInvariant ToUpper "
    "ToUpperInvariant to_lowercase to_ascii_lowercase lowercase uppercase strip strip! lstrip rstrip trim trimStart trimEnd Trim "
    "TrimSpace squish gsub normalize normalize_path normpath realpath abspath Clean canonicalize canonical NFKC NFC "
    "unicode_normalize unicodedata strip_tags squeeze".split())
_IDENT_RE = re.compile(r"[A-Za-z_]\w*[!?]?")
_INPUT_RE = re.compile(r"(?i)param|request|\breq\b|query|form|header|email|user_?name|login|username|discriminator|\bkey\b|_key\b|path_info|"
                       r"\bpath\b|host|handle|slug")


def _normalisation_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if len(added) > 40 or len(removed) > 40:
        return None  # a rewrite, not a slip
    for old in removed:
        old_ids = _IDENT_RE.findall(old)
        gone_norm = {name for name in old_ids if name in _NORMALISERS}
        if not gone_norm or not _INPUT_RE.search(old):
            continue
        for new in added:
            new_ids = _IDENT_RE.findall(new)
            dropped = [name for name in old_ids if name in _NORMALISERS and name not in new_ids]
            # The new line is the old one with only normalisers taken off: its names a sub-list of the old line's.
            if not dropped or not new_ids or not set(new_ids) <= set(old_ids) or len(set(new_ids)) < 2:
                continue
            if [n for n in old_ids if n not in _NORMALISERS and n in new_ids] != [n for n in new_ids if n not in _NORMALISERS]:
                continue
            return f"drops a value's normalisation ({', '.join(dict.fromkeys(dropped))}): {_pair(old, new)}"
    return None


# ----- the user or context taken out of a cache key
_IDENTITY_RE = re.compile(r"(?i)\b(?P<name>\w*(?:user|context|tenant|account|owner|principal|session|viewer|actor|organi[sz]ation|org_id|"
                          r"member|customer|subject|locale|role)\w*)\b")
_KEYED_RE = re.compile(r"(?i)cache|memo")
_BARE_ARG_RE = re.compile(r"^\s*[\w.:@$]+(?:\(\s*\))?\s*[,)]?\s*$")


def _key_identity_dropped(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    if len(removed) > 20:
        return None
    # The names the new side holds, as words (a name matched by _IDENTITY_RE is a whole word): one set, not a search of
    # every added line per name (20 removed lines of 50 names each against 500 long added lines: 6.7 s).
    after_words = set(_WORD_RE.findall(" ".join(added)))
    keyed_file = bool(_KEYED_RE.search(path.rsplit("/", 1)[-1]))
    for old in removed:
        gone = [m.group("name") for m in _IDENTITY_RE.finditer(old) if m.group("name") not in after_words]
        if not gone:
            continue
        name = gone[0]
        if _BARE_ARG_RE.match(old) and (keyed_file or _KEYED_RE.search(old)):
            return f"builds a cache key without {name} (one user's cached answer served to another?): removed: {old.strip()[:_SHOWN]}"
        key_line = _KEYED_RE.search(old) and re.search(r"(?i)key", old)
        new = next((line for line in added if _KEYED_RE.search(line) and _alike(line, old, 0.6)), None) if key_line else None
        if new is not None:
            return f"builds a cache key without {name} (one user's cached answer served to another?): {_pair(old, new)}"
    return None


_WORD_RE = re.compile(r"\w+")


# ----- a security limit's option read under another name
_LIMIT_NAME = r"\w*(?:max|limit|depth|complexity|size|rate|throttle|quota|burst)\w*"
_OPTION_RE = re.compile(r"(?P<q>:|['\"])(?P<name>" + _LIMIT_NAME + r")['\"]?", re.I)


def _limit_renamed(added: Sequence[str], removed: Sequence[str]) -> str | None:
    if len(added) > 40:
        return None
    after, before = " ".join(added), " ".join(removed)
    # One line, one option's name changed, every other character the same: each new option's line without its name,
    # looked up by each old option's line without its own (a lookup, not every old option against every new one: 100
    # removed and 40 added lines of 20 options each took 26 s), the names' conditions checked on a hit only.
    renamed: dict[str, list[tuple[str, str]]] = {}
    for new in added:
        if len(new) <= _OPTION_LINE_CHARS:
            for n in _OPTION_RE.finditer(new):
                renamed.setdefault(squeezed(new[:n.start("name")] + new[n.end("name"):]), []).append((new, n.group("name")))
    fresh: dict[str, bool] = {}  # a new name found nowhere before and once after: decided once a name (each scans `before`)
    for old in removed:
        if len(old) > _OPTION_LINE_CHARS:
            continue
        for m in _OPTION_RE.finditer(old):
            name = m.group("name")
            for new, other in renamed.get(squeezed(old[:m.start("name")] + old[m.end("name"):]), ()):
                if other == name or name in after or not fresh.setdefault(other, other not in before and after.count(other) <= 1):
                    continue
                return f"reads a limit under another name ({name} → {other}: the configured limit is no longer read): {_pair(old, new)}"
    return None


_OPTION_LINE_CHARS = 400  # an option's line; a longer one is data, not the slip this reads


# A docs line these readers read, and the old side of one: a dependency or install line (``gem "x"``, ``{:x, "~> 1.0"}``,
# ``$ pip install x``) is kept so the edit that turns it has both sides.
_SCREEN_RE = re.compile(r"(?i)127\.0\.0\.1|localhost|0\.0\.0\.0|github\.com/|gitlab\.com/|\bHS\d{3}\b|git\s*[:=]|git\+http|source\s|index-url|downcase|lower|strip|"
                        r"trim|normali|casefold|cache|memo|^\s*(?:\$\s*)?(?:gem|pod|pip3?|pipx|npm|yarn|pnpm|cargo|go|composer|uv|poetry|bundle)\s|"
                        r"^\s*\{:\w+,")


def screen(line: str) -> bool:
    """Whether a docs page's line may be one these readers read (kept for the rules: its sample is code)."""
    return _SCREEN_RE.search(line) is not None or setting_turns.screen(line)


def turned(path: str, added: Sequence[str], removed: Sequence[str], *, sample: bool = False) -> tuple[str, bool] | None:
    """The first of these kinds the edit turns, with whether it is classic (high). ``sample``: a docs page's lines, read
    only as edits of lines the page stood with."""
    for found in (_bind_widened(added, removed) or _any_host_put(added, removed), _algorithm_mix(added, removed, sample), _http_source(added, removed, sample),
                  _loopback_dropped(added, removed), _link_owner_alike(added, removed), host_lookalike(added, removed)):
        if found:
            return found, True
    for found in (_normalisation_dropped(added, removed), _key_identity_dropped(path, added, removed), _limit_renamed(added, removed)):
        if found:
            return found, False
    return None
