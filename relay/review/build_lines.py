"""The risky lines of what builds, tests and ships the code: CI steps, build and install files, scripts (issue 36, round 9).

A worker can slip a risky line into a CI workflow, a Makefile, a release script kept among the tests or a README's
install line as easily as into the source; the line runs with the project's credentials, on every developer's machine
or on every reader's. Each entry is a family read by the shape of the line, whatever the CI system, build tool or shell:

- values (``VALUES``, read before ``relay.review.risky_lines``' own, so the more precise name wins): a signature or
  checksum check whose failure is swallowed (``gpg --verify … || true``), a package manager or git told to skip TLS or
  to fetch over plain HTTP (``http.sslVerify false``, ``NPM_CONFIG_STRICT_SSL``, ``pip install -i http://…``), an
  image layer fetched over plain HTTP (``ADD http://…``), a CI secret printed into the log;
- calls (``CALLS``, read before the other dangerous calls): untrusted text of a pull request, issue or comment
  pasted into a CI shell step (script injection), a pull request's head checked out under a trigger that runs it with
  the base repository's token, an npm lifecycle hook that downloads or runs code;
- ``untrusted_checkout``: the head of a pull request checked out in a workflow whose trigger hands it the project's
  token (``pull_request_target``, ``issue_comment``, ``workflow_run``), read with the workflow's own triggers;
- ``git_source``: a dependency taken from a git repository or a URL instead of its registry (Cargo, npm, pip, Bundler,
  Poetry), the shape of a fork under a look-alike owner;
- ``pipe_host``: a ``curl … | sh`` line whose host changed, named with both hosts;
- ``lookalike_action``, ``lookalike_host``: a CI action's owner or a download's host one or two letters off a well-known one;
- ``dropped_safety_flag``: ``--frozen-lockfile``, ``--require-hashes``, ``--ignore-scripts``… dropped from the install that had it;
- ``ci_guard_dropped``, ``permissions_dropped``: a CI job's ``if:`` losing its repository, ref or tag clause; a workflow's
  read-only ``permissions:`` removed whole;
- ``compromised_release``: a dependency pinned at a release known to have shipped malware (``debug 4.4.2``).

Every pattern stays narrow for ordinary history: a secret piped into ``docker login``, an event's text in an ``env:``
value, ``ref: ${{ github.event.pull_request.head.sha }}`` under ``pull_request``, ``ADD https://…`` stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import near as _near, squeezed, window

__all__ = ["CALLS", "PRIVILEGED_TRIGGERS", "SCRIPT_EXTS", "VALUES", "ci_guard_dropped", "ci_line", "compromised_release", "dropped_safety_flag", "git_source", "lookalike_action", "lookalike_host",
           "permissions_dropped", "pipe_host", "script_among_tests", "triggers_in", "untrusted_checkout", "with_hosts"]

_QUOTE = 60

# Scripts among the tests: what runs them is a shell, a CI job or a release, not a test runner (php-encryption's
# test/phpunit.sh fetches and verifies the test runner itself). A test's own code and fixtures stay test code.
SCRIPT_EXTS = frozenset("sh bash zsh ksh fish ps1 psm1 bat cmd".split())
_SCRIPT_DIRS = {"ci", "scripts", "script", "bin", "tools", "release", ".ci"}
_SCRIPT_NAME_RE = re.compile(r"(?:^|[-_.])(?:ci|release|deploy|install|publish|bootstrap|provision|download)(?:[-_.]|$)")


def script_among_tests(path: str, *, is_test_name: bool, code_exts: frozenset[str]) -> bool:
    """Whether a file kept among the tests is a script or CI helper (a shell script; a program in a ci/, scripts/ or
    bin/ folder, or named for a release, an install or CI) rather than a test (``is_test_name``: test_*.py, *_spec.rb…)."""
    parts = path.lower().split("/")
    name = parts[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if ext in SCRIPT_EXTS:
        return True
    if is_test_name or ext not in code_exts | {""}:
        return False
    return any(d in _SCRIPT_DIRS for d in parts[:-1]) or bool(_SCRIPT_NAME_RE.search(name.rsplit(".", 1)[0]))
# A URL that leaves the machine over plain HTTP (a local address is a developer's own server).
_HTTP = r"http://(?!localhost\b|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|\$|\{)"
# A line that is a YAML key's value other than a script's ("name:", "env:"'s variables, "group:"): text there is data.
_NOT_SCRIPT_KEY = r"^(?!\s*-?\s*(?!run\b|script\b|before_script\b|after_script\b|command\b|commands\b|shell\b)[\w.-]+\s*:\s)"

VALUES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("ignores a failed signature or checksum check", ("gpg", "cosign", "minisign", "signify", "sha1sum", "sha224sum", "sha256sum",
                                                     "sha384sum", "sha512sum", "shasum", "md5sum", "b2sum", "dgst", "slsa-verifier",
                                                     "attestation"), re.compile(
        # The check runs, and its failure is thrown away: the download it guards is used either way.
        r"(?P<at>\b(?:gpgv?2?|cosign|minisign|signify|sha(?:1|224|256|384|512)?sum|md5sum|b2sum|openssl\s+dgst|slsa-verifier|"
        r"gh\s+attestation)\b(?:\s+-*[\w-]+)?)[^|#\n]*?(?:\|\|\s*(?:true|exit\s+0|:)(?=\s*(?:$|[;&)#'\"]))|\s2?>\s*/dev/null\s*;\s*(?:true|:)\b)", re.I)),
    ("turns TLS verification off", ("sslverify", "strict_ssl", "strict-ssl", "curl", "pythonhttpsverify", "ca_bundle",
                                    "curlopt_ssl_verify", "insecure-skip-tls-verify", "no-verify-ssl", "insecure-registr"), re.compile(
        r"(?P<at>\bhttp\.sslVerify)\s*(?:=\s*|\s+)(?:false|0|no)\b|"
        r"(?P<at2>\b\w*STRICT_SSL)\s*[=:]\s*['\"]?(?:false|0|no)\b|"
        r"(?P<at3>\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:--\S+\s+)*strict-ssl)\s+(?:false|0)\b|"
        r"(?P<at4>\bcurl\b[^|;&#\n]*\s-[a-zA-Z]*k[a-zA-Z]*)\b|"
        r"(?P<at5>\bPYTHONHTTPSVERIFY)\s*[=:]\s*['\"]?0\b|(?P<at6>\b(?:CURL|REQUESTS)_CA_BUNDLE)\s*=\s*(?:\"\"|''|$)|"
        # PHP's curl options as an array, kubectl and kubeconfig, the AWS CLI, a container registry trusted over HTTP.
        r"(?P<at7>\bCURLOPT_SSL_VERIFY(?:PEER|HOST))\s*(?:=>|,)\s*(?:false|0)\b|"
        r"(?P<at8>--insecure-skip-tls-verify)\b(?!\s*=\s*false)|(?P<at9>\binsecure-skip-tls-verify)\s*:\s*true\b|"
        r"(?P<at10>--no-verify-ssl)\b|(?P<at11>--insecure-registry|[\"']insecure-registries[\"']\s*:\s*\[\s*[\"'])", re.I)),
    ("turns SSH host key checking off", ("stricthostkeychecking", "userknownhostsfile"), re.compile(
        r"(?P<at>\bStrictHostKeyChecking)\s*[= ]\s*['\"]?(?:no|off)\b|(?P<at2>\bUserKnownHostsFile)\s*[= ]\s*['\"]?/dev/null\b", re.I)),
    ("runs a container with the host's privileges", ("privileged:true", "--privileged", "cap_add", "cap-add", "sys_admin", "docker.sock", "unconfined",
                                                     "allowprivilegeescalation", "hostpid"), re.compile(
        # Root on the host for whatever runs inside: compose, Kubernetes, docker run, CI service containers.
        r"^\s*-?\s*privileged\s*:\s*true\b|(?<![\w-])--privileged\b(?!\s*=\s*false)|\bcap[-_]add\b\W+(?:ALL|SYS_ADMIN)\b|"
        r"^\s*-\s*['\"]?(?:CAP_)?SYS_ADMIN['\"]?\s*$|/var/run/docker\.sock\s*:|\b(?:seccomp|apparmor)[:=]unconfined\b|"
        r"\ballowPrivilegeEscalation\s*:\s*true\b|\bhostPID\s*:\s*true\b")),
    ("turns a host's firewall or SELinux off", ("setenforce", "selinux=disabled", "ufwdisable", "firewalld"), re.compile(
        r"\bsetenforce\s+0\b|\bSELINUX\s*=\s*disabled\b|\bufw\s+disable\b|\bsystemctl\s+(?:stop|disable|mask)\s+firewalld\b")),
    ("fetches packages from an untrusted index", ("-ihttp://", "index-url", "index_url", "registry", "goproxy", "bundle_mirror",
                                                  "composer_repo", "gemsources", "trusted-host"), re.compile(
        # A package index, registry or module proxy reached over plain HTTP: anyone on the path serves the packages.
        r"(?P<at>(?:\s-i|--(?:extra-)?index-url|--registry|(?:PIP_(?:EXTRA_)?INDEX_URL|NPM_CONFIG_REGISTRY|npm_config_registry|"
        r"GOPROXY|UV_(?:EXTRA_)?INDEX_URL|BUNDLE_MIRROR\w*|COMPOSER_REPO\w*|\w*REGISTRY(?:_URL)?))\s*[=: ]\s*['\"]?" + _HTTP + r")|"
        r"(?P<at2>\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:--\S+\s+)*registry\s+['\"]?" + _HTTP + r")|"
        r"(?P<at3>\bgem\s+sources\s+(?:-a|--add)\s+" + _HTTP + r")|(?P<at4>\b(?:global|install)\.trusted-host)\b", re.I)),
    ("fetches code over plain HTTP", ("gitclone", "gitfetch", "gitpull", "gitsubmoduleadd", "gitremoteadd", "helmrepoadd"), re.compile(
        r"(?P<at>\b(?:git\s+(?:clone|fetch|pull|submodule\s+add|remote\s+add\s+\S+)|helm\s+repo\s+add\s+\S+)\b[^|;&#\n]*?\s['\"]?" + _HTTP + r")")),
    ("adds a file to the image over plain HTTP", ("addhttp://", "add--", "add'http://", 'add"http://'), re.compile(
        r"(?P<at>^\s*ADD\s+(?:--(?!checksum)\S+\s+)*['\"]?" + _HTTP + r")")),
    ("leaves the workflow's token in the checkout", ("persist-credentials",), re.compile(
        r"(?P<at>^\s*persist-credentials\s*:\s*['\"]?true\b)")),
    ("prints a CI secret into the log", ("secrets.",), re.compile(
        # Echoed where the log shows it (not into a file or a login's stdin), or encoded past the log's masking.
        r"(?P<at>\b(?:echo|printf|Write-(?:Host|Output))\b[^|>\n]*\$\{\{\s*secrets\.\w+\s*\}\})(?=[^|>\n]*$)|"
        r"(?P<at2>\$\{\{\s*secrets\.\w+\s*\}\}[^|>\n]*\|\s*(?:base64|xxd|od|rev|hexdump)\b)", re.I)),
)

# An event's field a pull request's, an issue's or a comment's author writes (GitHub's list of untrusted inputs).
_UNTRUSTED = (r"\$\{\{\s*(?:github\.event\.(?:issue|pull_request|comment|review|review_comment|head_commit|discussion|"
              r"discussion_comment|pages|commits|workflow_run)\b[\w.\[\]*]*?\.(?:title|body|message|name|ref|label|email|"
              r"page_name|head_branch|default_branch)\b|github\.head_ref\b)[^}]*\}\}")
# The head of a pull request named where code is fetched ("ref:", "repository:", a git fetch or checkout, gh pr checkout).
_PR_HEAD = (r"(?:github\.event\.pull_request\.head\.(?:sha|ref|repo\.full_name)|github\.head_ref|"
            r"github\.event\.workflow_run\.head_(?:sha|branch)|refs/pull/|\bpull/\$\{\{)")
_FETCH_KEY = r"^\s*-?\s*(?:ref|repository)\s*:\s*|\bgit\s+(?:fetch|checkout|switch|pull)\b|\bgh\s+pr\s+checkout\b"

CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs untrusted text in a CI step (script injection)", ("github.event", "head_ref"), re.compile(
        _NOT_SCRIPT_KEY + r".*?(?P<at>" + _UNTRUSTED + r")")),
    ("checks out untrusted PR code with the workflow's token", ("refs/pull", "workflow_run", "pull/${{", "issue.number"),
     re.compile(
         # Only the event of an issue comment or another workflow's run names a pull request this way: both run with the
         # base repository's token and secrets, so the head checked out runs with them.
         r"(?:" + _FETCH_KEY + r").*?(?P<at>refs/pull/\$\{\{\s*github\.event\.issue\.number\s*\}\}/(?:head|merge)|"
         r"\bpull/\$\{\{\s*github\.event\.issue\.number\s*\}\}/head|\$\{\{\s*github\.event\.workflow_run\.head_(?:sha|branch)\s*\}\}|"
         r"\$\{\{\s*github\.event\.issue\.number\s*\}\})")),
    ("pipes a download into a shell", ("$(curl", "$(wget", "<(curl", "<(wget"), re.compile(
        # The download run by the shell without a pipe: eval "$(curl …)", source <(curl …), python -c "$(curl …)".
        r"(?P<at>\beval\s+['\"]?\$\(\s*(?:curl|wget)\b|(?:\bsource|(?:^|[;&|(]\s*)\.)\s+<\(\s*(?:curl|wget)\b|"
        r"\b(?:python3?|perl|ruby|node|bash|sh|zsh)\s+-c\s+['\"]?\$\(\s*(?:curl|wget)\b)")),
    ("adds an install hook that downloads or runs code", ("install", "prepare", "prepublish"), re.compile(
        # npm runs these on every install of the package (prepare: on every git install); one that fetches or evaluates
        # code runs what the network serves on every developer's and CI's machine.
        r"^\s*\"(?P<at>(?:pre|post)?install|prepare|prepublish)\"\s*:\s*\"(?![^\"]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b)[^\"]*(?:\b(?:curl|wget|iwr|Invoke-WebRequest)\b|https?://|"
        r"\bnode\s+-e\b|\beval\b|\|\s*(?:ba)?sh\b)")),
)

# The triggers that run a workflow with the base repository's token and secrets on what someone else wrote.
PRIVILEGED_TRIGGERS = ("pull_request_target", "issue_comment", "workflow_run")
_HEAD_RE = re.compile(r"(?:" + _FETCH_KEY + r").*?(?P<at>" + _PR_HEAD + r"[^\s'\"}]*)")


def untrusted_checkout(added: Sequence[str], removed: Sequence[str], triggers: str) -> str | None:
    """"checks out untrusted PR code under <trigger>: …" when an added line fetches a pull request's head in a
    workflow ``triggers`` says runs on a privileged trigger (read from the workflow, or a trigger the change adds)."""
    if not triggers:
        return None
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        if squeezed(line.strip()) in before:
            continue
        m = _HEAD_RE.search(line)
        if m:
            return (f"checks out untrusted PR code under {triggers}: "
                    f"{window(line.strip(), m.start('at'), m.end('at'), _QUOTE)}")
    return None


_TRIGGER_RE = re.compile(r"\b(" + "|".join(PRIVILEGED_TRIGGERS) + r")\b")


def triggers_in(text: str) -> str:
    """The first privileged trigger a workflow's text names ("" if none)."""
    m = _TRIGGER_RE.search(text)
    return m.group(1) if m else ""


# ----- a dependency taken from a git repository or a URL instead of its registry
_GIT_SOURCES = (
    # Cargo and Poetry: name = { git = "…" }; Cargo's [patch] too.
    re.compile(r"^\s*(?P<name>[\w.-]+)\s*=\s*\{[^}]*\bgit\s*=\s*['\"](?P<url>[^'\"]+)['\"]"),
    # npm: "name": "github:owner/repo", "git+https://…", "owner/repo#branch", a tarball URL.
    re.compile(r"^\s*\"(?P<name>[@\w./-]+)\"\s*:\s*\"(?P<url>(?:github:|gitlab:|bitbucket:|git\+|git://|https?://)[^\"]+|"
               r"[\w.-]+/[\w.-]+#[^\"]+)\""),
    # pip: name @ git+https://…, or a bare VCS URL.
    re.compile(r"^\s*(?P<name>[\w.\[\]-]+)\s*@\s*(?P<url>(?:git\+|hg\+|svn\+|https?://)\S+)"),
    # Bundler: gem "name", git: "…" / github: "owner/repo".
    re.compile(r"^\s*gem\s+['\"](?P<name>[\w.-]+)['\"][^#\n]*?\b(?:git|github)(?::|\s*=>)\s*['\"](?P<url>[^'\"]+)['\"]"),
)


def _git_deps(lines: Sequence[str]) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for line in lines:
        for pattern in _GIT_SOURCES:
            m = pattern.search(line)
            if m:
                out.setdefault(m.group("name").lower(), (m.group("url"), line))
                break
    return out


def _names(lines: Sequence[str]) -> set[str]:
    return {m.group(1).lower() for line in lines if (m := re.match(r"""^\s*(?:gem\s+)?['"]?([@\w.\[\]/-]+)['"]?\s*(?:[=:,@<>~!]|$)""", line))}


def git_source(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"takes a dependency from a git repository instead of its registry: name ← url" when a manifest line the change
    writes fetches a dependency the removed lines took from the registry (or a new one) from a git repository or a URL:
    nobody reviewed that source, and a fork under a look-alike owner reads the same."""
    name = path.rsplit("/", 1)[-1].lower()
    if not (name in ("cargo.toml", "package.json", "pyproject.toml", "gemfile", "pipfile") or name.endswith((".gemfile", ".gemspec"))
            or re.search(r"requirements.*\.(?:txt|in)$|constraints.*\.txt$", name)):
        return None
    new, old = _git_deps(added), _git_deps(removed)
    for dep, (url, line) in new.items():
        if dep in old and old[dep][0] == url:
            continue  # the same source as before (a branch or revision moved)
        if "${" in url or url.startswith(("file:", "link:", "workspace:", "./", "../")):
            continue
        was = f" (was {old[dep][0][:40]})" if dep in old else ""
        at = line.find(url)
        return (f"takes a dependency from a git repository instead of its registry{was}: "
                f"{window(line.strip(), max(at - len(line) + len(line.lstrip()), 0), max(at, 0) + len(url), _QUOTE)}")
    return None


def ci_line(added: Sequence[str], removed: Sequence[str], triggers: str) -> str | None:
    """The first risky CI line of a workflow's change that only the pair or the workflow's triggers show: a pull request's
    head checked out under a privileged trigger (``triggers``, or one the change adds), an action from a look-alike owner,
    a job's guard or the read-only permissions dropped."""
    return (untrusted_checkout(added, removed, triggers or triggers_in("\n".join(added))) or lookalike_action(added, removed)
            or ci_guard_dropped(added, removed) or permissions_dropped(added, removed))


_PIPE = "pipes a download into a shell"


def with_hosts(found: str | None, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """A dangerous call's reason, with both hosts where a pipe-to-shell line replaced one from another host."""
    if found and found.startswith(_PIPE) and (moved := pipe_host(added, removed)):
        return f"{_PIPE} ({moved}){found[len(_PIPE):]}"
    return found


# ----- a pipe-to-shell install line whose host changed
_PIPE_HOST_RE = re.compile(r"\b(?:curl|wget|iwr|Invoke-WebRequest|irm)\b[^|\n]*?https?://(?P<host>[\w.-]+)[^|\n]*\|")


def pipe_host(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"(host a → b)" when an added pipe-to-shell line fetches from another host than the removed one it replaces."""
    before = [m.group("host").lower() for line in removed if (m := _PIPE_HOST_RE.search(line))]
    if not before:
        return None
    for line in added:
        m = _PIPE_HOST_RE.search(line)
        if m and m.group("host").lower() not in before:
            return f"host {before[0]} → {m.group('host').lower()}"
    return None


# ----- a CI action or a download host one or two letters off a well-known one
# Owners of widely used actions: a new "uses:" whose owner is a letter or two off one of these runs a stranger's code.
_ACTION_OWNERS = frozenset(
    "actions github docker aws-actions azure google-github-actions hashicorp codecov pypa softprops peaceiris jamesives "
    "dtolnay swatinem rust-lang golangci goreleaser ruby shivammathur astral-sh pnpm oven-sh denoland gradle sigstore "
    "slsa-framework crazy-max stefanzweifel peter-evans endbug cachix nixbuild actions-rs taiki-e jetbrains sonarsource "
    "snyk aquasecurity anchore ossf step-security mxschmitt styfle tj-actions dorny release-drafter marocchino "
    "pre-commit codespell-project reviewdog super-linter ncipollo svenstaro appleboy cloudflare vercel netlify "
    "firebaseextended expo subosito erlef haskell msys2 mymindstorm conda-incubator mamba-org pypa-dev".split())
_USES_RE = re.compile(r"^\s*-?\s*uses\s*:\s*['\"]?(?P<owner>[\w.-]+)/(?P<rest>[\w.\-/]+)@(?P<ref>[\w.\-/]+)")
# Hosts packages, images and install scripts come from.
_KNOWN_HOSTS = frozenset(
    "registry.npmjs.org registry.yarnpkg.com pypi.org files.pythonhosted.org pypi.python.org upload.pypi.org test.pypi.org "
    "rubygems.org repo.maven.apache.org repo1.maven.org plugins.gradle.org services.gradle.org crates.io static.crates.io "
    "index.crates.io proxy.golang.org sum.golang.org api.nuget.org www.nuget.org nuget.org repo.packagist.org packagist.org "
    "hex.pm repo.hex.pm pub.dev github.com raw.githubusercontent.com objects.githubusercontent.com codeload.github.com "
    "api.github.com uploads.github.com gist.githubusercontent.com gitlab.com bitbucket.org ghcr.io docker.io "
    "registry-1.docker.io quay.io gcr.io deb.debian.org archive.ubuntu.com security.ubuntu.com dl-cdn.alpinelinux.org "
    "deb.nodesource.com rpm.nodesource.com sh.rustup.rs static.rust-lang.org astral.sh get.docker.com download.docker.com "
    "bun.sh deno.land nodejs.org golang.org dl.google.com npmjs.com www.npmjs.com cdn.jsdelivr.net unpkg.com "
    "cdnjs.cloudflare.com get.rvm.io codecov.io uploader.codecov.io cli.codecov.io install.python-poetry.org "
    "bootstrap.pypa.io get.sdkman.io sdkman.io brew.sh apt.llvm.org download.java.net repo.anaconda.com conda.anaconda.org "
    "github.io githubusercontent.com gitlab.io googleapis.com storage.googleapis.com amazonaws.com".split())
_URL_HOST_RE = re.compile(r"\bhttps?://(?P<host>[A-Za-z0-9.-]+\.[A-Za-z]{2,})(?=[/:'\"\s)]|$)")


def lookalike_action(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"runs a CI action from a look-alike owner …" when an added ``uses:`` names an owner one or two letters off the owner
    of a widely used action (``actoins/checkout@main``): the workflow runs a stranger's code with its token."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        m = _USES_RE.match(line)
        if m is None or squeezed(line.strip()) in before:
            continue
        owner = m.group("owner").lower()
        if owner in _ACTION_OWNERS or len(owner) < 4:
            continue
        near = next((o for o in sorted(_ACTION_OWNERS) if len(o) >= 4 and _near(o, owner)), None)
        if near:
            return (f"runs a CI action from a look-alike of {near} (a typo-squat?): "
                    f"{window(line.strip(), m.start('owner') - (len(line) - len(line.lstrip())), m.end('ref'), _QUOTE)}")
    return None


def _lookalike_of(host: str) -> str | None:
    host = host.lower().rstrip(".")
    if host in _KNOWN_HOSTS or any(host.endswith("." + k) for k in _KNOWN_HOSTS):
        return None
    labels = host.split(".")
    for known in sorted(_KNOWN_HOSTS):
        other = known.split(".")
        if len(other) != len(labels):
            continue
        differ = [i for i, (a, b) in enumerate(zip(labels, other)) if a != b]
        # One name one or two letters off, the rest (the top-level domain above all) the same.
        if len(differ) == 1 and differ[0] != len(labels) - 1 and min(len(labels[differ[0]]), len(other[differ[0]])) >= 5 \
                and _near(labels[differ[0]], other[differ[0]]):
            return known
    return None


def lookalike_host(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"fetches from a look-alike of <host> …" when an added line's URL names a host one or two letters off a registry,
    code host or installer's (``raw.githubusercontnet.com``, ``registry.npmjs.orq``): packages or scripts from a stranger."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        if "://" not in line or squeezed(line.strip()) in before:
            continue
        for m in _URL_HOST_RE.finditer(line):
            near = _lookalike_of(m.group("host"))
            if near:
                return (f"fetches from a look-alike of {near} (a typo-squat?): "
                        f"{window(line.strip(), m.start('host') - (len(line) - len(line.lstrip())), m.end('host'), _QUOTE)}")
    return None


# ----- a safety flag dropped from a command that kept it
# Flags that make an install reproducible or inert: the lockfile enforced, hashes required, install scripts not run,
# downloads kept to HTTPS. Dropped from the command that carried them, the install takes whatever the network serves.
_SAFETY_FLAGS = ("--ignore-scripts", "--require-hashes", "--frozen-lockfile", "--immutable", "--locked", "--frozen",
                 "--proto '=https'", "--proto =https", "--proto=https", '--proto "=https"', "--only-binary")
_INSTALLS = frozenset({"install", "i", "ci", "add", "sync", "update", "upgrade"})
_COMMAND_RE = re.compile(r"\b(npm|yarn|pnpm|bun|pip3?|uv|poetry|cargo|bundle|gem|composer|go|curl)\b(?:\s+(\w[\w-]*))?")


def _command(line: str) -> tuple[str, str] | None:
    m = _COMMAND_RE.search(line)
    return (m.group(1).rstrip("3"), (m.group(2) or "")) if m else None


def dropped_safety_flag(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a safety flag from a command (--frozen-lockfile): …" when a removed command line carried a flag that keeps
    an install reproducible or inert and the added line of the same command (same tool and subcommand) does not; also
    ``npm ci`` turned into ``npm install`` (the lockfile no longer enforced)."""
    written = " ".join(added)
    for old in removed:
        old_cmd = _command(old)
        if old_cmd is None:
            continue
        flags = [f for f in _SAFETY_FLAGS if f in old and f not in written
                 and (f != "--ignore-scripts" or old_cmd[1] in _INSTALLS)]  # npm test --ignore-scripts only skips its own hooks
        ci_to_install = old_cmd == ("npm", "ci")
        if not flags and not ci_to_install:
            continue
        for new in added:
            new_cmd = _command(new)
            if new_cmd is None or new_cmd[0] != old_cmd[0]:
                continue
            if ci_to_install and new_cmd[1] in ("install", "i") and "npm ci" not in written:
                return f"drops a safety flag from a command (npm ci → npm {new_cmd[1]}: the lockfile no longer enforced): {window(new.strip(), 0, 0, _QUOTE)}"
            if flags and new_cmd[1] == old_cmd[1]:
                return f"drops a safety flag from a command ({flags[0]}): {window(new.strip(), 0, 0, _QUOTE)}"
    return None


# ----- a release known to have shipped malicious code, pinned
# Releases pulled after they were found to carry malware (npm's September 2025 takeover of debug, chalk and their
# neighbours; event-stream, ua-parser-js, coa, rc, node-ipc, eslint-scope, colors, faker; @ctrl/tinycolor and nx; the
# @solana/web3.js and lottie-player takeovers; rest-client and strong_password on RubyGems; ultralytics on PyPI).
_COMPROMISED: dict[str, frozenset[str]] = {name: frozenset(versions.split()) for name, versions in {
    "debug": "4.4.2", "chalk": "5.6.1", "ansi-styles": "6.2.2", "strip-ansi": "7.1.1", "ansi-regex": "6.2.1",
    "supports-color": "10.2.1", "color-convert": "3.1.1", "color-name": "2.0.1", "wrap-ansi": "9.0.1", "slice-ansi": "7.1.1",
    "error-ex": "1.3.3", "is-arrayish": "0.3.3", "simple-swizzle": "0.2.3", "has-ansi": "6.0.1", "chalk-template": "1.1.1",
    "backslash": "0.2.1", "color-string": "2.1.1", "event-stream": "3.3.6", "flatmap-stream": "0.1.1",
    "ua-parser-js": "0.7.29 0.8.0 1.0.0", "coa": "2.0.3 2.0.4 2.1.1 2.1.3 3.0.1 3.1.3", "rc": "1.2.9 1.3.9 2.3.9",
    "colors": "1.4.1 1.4.2 1.4.44-liberty-2", "faker": "6.6.6", "node-ipc": "9.2.2 10.1.1 10.1.2 10.1.3", "eslint-scope": "3.7.2",
    "eslint-config-prettier": "8.10.1 9.1.1 10.1.6 10.1.7", "eslint-plugin-prettier": "4.2.2 4.2.3", "@ctrl/tinycolor": "4.1.1 4.1.2",
    "nx": "20.9.0 20.10.0 20.11.0 20.12.0 21.5.0 21.6.0 21.7.0 21.8.0", "@solana/web3.js": "1.95.6 1.95.7",
    "@lottiefiles/lottie-player": "2.0.5 2.0.6 2.0.7", "rest-client": "1.6.10 1.6.11 1.6.12 1.6.13", "strong_password": "0.0.7",
    "bootstrap-sass": "3.2.0.3", "ultralytics": "8.3.41 8.3.42 8.3.45 8.3.46",
}.items()}
_COMPROMISED_RE = re.compile(r"(?<![\w@/.-])(?P<name>" + "|".join(re.escape(n) for n in sorted(_COMPROMISED, key=len, reverse=True))
                             + r")(?![\w.-])['\"]?\s*(?::|==|=|,|@|\s)\s*['\"]?\s*(?:=\s*)?v?(?P<version>\d[\w.-]*)")


def compromised_release(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"pins a release known to be compromised (malicious): name version" for an added dependency line that names one."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        if squeezed(line.strip()) in before:
            continue
        for m in _COMPROMISED_RE.finditer(line):
            if m.group("version") in _COMPROMISED[m.group("name")]:
                return f"pins a release known to be compromised (malicious): {m.group('name')} {m.group('version')}"
    return None


# ----- a CI job's guard loosened: a clause that kept it to the project's repository, a tag, a branch, an event, dropped
_CI_IF_RE = re.compile(r"^\s*-?\s*if\s*:\s*(?P<cond>.+?)\s*$")
_CLAUSE_SPLIT_RE = re.compile(r"\s*(?:&&|\|\||\band\b|\bAND\b)\s*")
# What such a clause checks: where the job runs and on what (a publish on tags only, never on a fork's branch).
_CI_GUARD_RE = re.compile(r"(?i)\bref(?:_type|_name)?\b|\btags?\b|\brepository\b|event_name|\bactor\b|head\.repo|\bfork\b|\bbranch\b|"
                          r"CI_COMMIT_(?:TAG|BRANCH|REF_NAME)|CI_PROJECT_(?:PATH|NAMESPACE)|CI_PIPELINE_SOURCE|TRAVIS_(?:TAG|BRANCH|PULL_REQUEST)")


def _clauses(cond: str) -> list[tuple[str, str]]:
    """A condition's clauses joined by and/or: (each as compared, spaces and quotes squeezed; as written)."""
    text = cond.strip().removeprefix("${{").removesuffix("}}").strip()
    out = []
    for c in _CLAUSE_SPLIT_RE.split(text):
        if not c.strip("()'\" "):
            continue
        shown = " ".join(c.split()).strip(" ()")
        for q in "'\"":
            shown = shown.strip(q) if shown.count(q) % 2 else shown  # a quote the whole condition opened or closed
        out.append((squeezed(c).strip("()'\" "), shown))
    return out


def ci_guard_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a CI job's guard (<clause>): if: …" when an ``if:`` condition comes back with a clause about the repository,
    ref, tag, branch, event or actor gone and nothing new: a publishing job then runs on every push, branch or fork."""
    olds = [_clauses(m.group("cond")) for line in removed if (m := _CI_IF_RE.match(line))]
    if not olds:
        return None
    for line in added:
        m = _CI_IF_RE.match(line)
        if m is None:
            continue
        new = {key for key, _ in _clauses(m.group("cond"))}
        for old in olds:
            gone = [shown for key, shown in old if key not in new]
            if gone and new and new <= {key for key, _ in old} and _CI_GUARD_RE.search(gone[0]):
                return f"drops a CI job's guard ({gone[0][:50]}): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


# ----- a workflow's read-only permissions taken away whole: its token falls back to the repository's default (often write)
# The workflow's own (top-level) block: a job's permissions go with the job when the job is removed.
_PERMISSIONS_RE = re.compile(r"^permissions\s*:\s*(?:read-all|\{\s*\}|\{[^}]*read[^}]*\})?\s*(?:#.*)?$")
_WRITE_SCOPE_RE = re.compile(r"^\s*[\w-]+\s*:\s*write\b|write-all")
_READ_SCOPE_RE = re.compile(r"^\s*[\w-]+\s*:\s*(?:read|none)\b")


def permissions_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops the workflow's read-only permissions: …" when the workflow's own ``permissions:`` block of read or none scopes
    is removed and no ``permissions:`` line is written again: its jobs' token then has whatever the repository grants."""
    gone = [line for line in removed if _PERMISSIONS_RE.match(line)]
    if not gone or any(line.strip().startswith("permissions") for line in added):
        return None
    if "read" not in gone[0] and "{" not in gone[0] and not any(_READ_SCOPE_RE.match(line) for line in removed):
        return None
    if any(_WRITE_SCOPE_RE.search(line) for line in removed):
        return None  # a block that granted write: what it falls back to is not wider
    return f"drops the workflow's read-only permissions (the token falls back to the repository's default): removes {gone[0].strip()}"
