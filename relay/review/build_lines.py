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
- (what only a workflow's pair of lines or its triggers show is ``relay.review.ci_lines``');
- ``git_source``: a dependency taken from a git repository or a URL instead of its registry (Cargo, npm, pip, Bundler,
  Poetry), the shape of a fork under a look-alike owner;
- ``pipe_host``: a ``curl … | sh`` line whose host changed, named with both hosts;
- ``lookalike_host``: a download's host one or two letters off a registry's, a code host's or an installer's;
- ``dropped_safety_flag``: ``--frozen-lockfile``, ``--require-hashes``, ``--ignore-scripts``… dropped from the install that had it;
- ``image_unpinned``, ``dropped_verification``: an image pinned by digest brought back to a tag; a signature or checksum
  step deleted; ``image_respelled`` (round 81): an image's owner respelled by a letter or two (``aquasec`` → ``aquasek``);
- ``compromised_release``: a dependency pinned at a release known to have shipped malware (``debug 4.4.2``).

Every pattern stays narrow for ordinary history: a secret piped into ``docker login``, an event's text in an ``env:``
value, ``ref: ${{ github.event.pull_request.head.sha }}`` under ``pull_request``, ``ADD https://…`` stay quiet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.ci_lines import FETCH_KEY
from relay.review.line_shapes import near as _near, squeezed, window

__all__ = ["CALLS", "IMAGE_LINE_RE", "SCRIPT_EXTS", "VALUES", "compromised_release", "dependency_source", "dropped_safety_flag", "dropped_verification", "git_source", "http_download",
           "image_respelled", "image_unpinned", "lookalike_host", "pair_line", "pipe_host", "script_among_tests", "with_hosts"]

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
    ("turns SSH host key checking off", ("stricthostkeychecking", "userknownhostsfile", "hostverifier", "insecureignorehostkey",
                                         "autoaddpolicy", "warningpolicy"), re.compile(
        r"(?P<at>\bStrictHostKeyChecking)\s*[= ]\s*['\"]?(?:no|off)\b|(?P<at2>\bUserKnownHostsFile)\s*[= ]\s*['\"]?/dev/null\b|"
        # A client's own: ssh2's verifier that says yes to every key, Go's callback that ignores it, paramiko's policy that
        # adds whatever key a host shows (round 56: blind 79's ssh2 README, ``hostVerifier: () => true``).
        r"(?P<at3>\bhostVerifier)\s*:\s*(?:\([^)]*\)|\w+)\s*=>\s*(?:true|1)\b|(?P<at4>\bhostVerifier)\s*:\s*function\s*\([^)]*\)\s*\{\s*return\s+true\b|"
        r"(?P<at5>\bssh\.InsecureIgnoreHostKey)\s*\(|(?P<at6>\bset_missing_host_key_policy)\s*\(\s*(?:paramiko\.)?(?:AutoAddPolicy|WarningPolicy)\b", re.I)),
    # Round 87 (development set 71's gpg): the web of trust skipped, every key taken as the recipient's or signer's own.
    ("turns signature trust checking off", ("trust-model", "always-trust", "trust_model"), re.compile(
        r"(?P<at>--trust-model[= ]+always|--always-trust)\b|(?P<at2>\btrust_model)\s*[=:]\s*['\"]?always\b", re.I)),
    ("runs a container with the host's privileges", ("privileged:true", "privileged=true", "--privileged", "cap_add", "cap-add", "sys_admin", "docker.sock", "unconfined",
                                                     "allowprivilegeescalation", "hostpid", "keep_caps"), re.compile(
        # Root on the host for whatever runs inside: compose, Kubernetes, docker run, CI service containers.
        # Go's and JavaScript's container config (``Privileged: true,`` in a HostConfig: blind 89's go-secure-stdlib), the Docker
        # SDK's ``privileged=True``; a YAML flow map's (round 117, blind 347's warpgate chart: ``securityContext: { privileged: true }``).
        r"(?:^\s*-?\s*|[{,]\s*)(?i:privileged)\s*:\s*true\b|\bprivileged\s*=\s*True\b|(?<![\w-])--privileged\b(?!\s*=\s*false)|\bcap[-_]add\b\W+(?:ALL|SYS_ADMIN)\b|"
        r"^\s*-\s*['\"]?(?:CAP_)?SYS_ADMIN['\"]?\s*$|/var/run/docker\.sock\s*:|\b(?:seccomp|apparmor)[:=]unconfined\b|"
        r"\ballowPrivilegeEscalation\s*:\s*true\b|\bhostPID\s*:\s*true\b|"
        # nsjail's own: a jail that keeps its capabilities (round 51, blind 71's nsjail sample config).
        r"^\s*keep_caps\s*:\s*true\b|(?<![\w-])--keep_caps\b")),
    ("bakes a secret into the image", ("token", "secret", "password", "passwd", "api_key", "private_key", "credentials"), re.compile(
        # An image's ENV (or a build argument copied into it) keeps the value in every layer anyone who pulls it can read.
        r"(?P<at>^\s*ENV\s+(?:\w+=\S*\s+)*\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIALS)\b)(?:\s*=\s*|\s+)['\"]?\$\{?\w")),
    ("makes a cloud resource public or unencrypted", ("publicly_accessible", "block_public", "ignore_public", "restrict_public",
                                                        "encrypted", "runasnonroot"), re.compile(
        r"(?P<at>\bpublicly_accessible)\s*[=:]\s*true\b|(?P<at2>\b(?:block_public_(?:acls|policy)|ignore_public_acls|restrict_public_buckets))"
        r"\s*[=:]\s*false\b|(?P<at3>\b(?:storage_)?encrypted)\s*=\s*false\b|(?P<at4>\brunAsNonRoot)\s*:\s*false\b")),
    ("turns a host's firewall or SELinux off", ("setenforce", "selinux=disabled", "ufwdisable", "firewalld"), re.compile(
        r"\bsetenforce\s+0\b|\bSELINUX\s*=\s*disabled\b|\bufw\s+disable\b|\bsystemctl\s+(?:stop|disable|mask)\s+firewalld\b")),
    ("turns a kernel hardening setting off", ("randomize_va_space", "ptrace_scope", "kptr_restrict", "dmesg_restrict", "mmap_min_addr", "fs.protected_"), re.compile(
        r"(?P<at>\b(?:kernel\.(?:randomize_va_space|yama\.ptrace_scope|kptr_restrict|dmesg_restrict)|vm\.mmap_min_addr|fs\.protected_\w+)\s*=\s*0\b|"
        r"\becho\s+0\s*>\s*/proc/sys/kernel/randomize_va_space\b)")),  # round 117: blind 366's hardened_malloc README
    ("fetches packages from an untrusted index", ("-ihttp://", "index-url", "index_url", "registry", "goproxy", "bundle_mirror",
                                                  "composer_repo", "gemsources", "trusted-host", "-source",
                                                  "-i','http://", '-i","http://'), re.compile(
        # A package index, registry or module proxy reached over plain HTTP: anyone on the path serves the packages.
        # The flag and its value as one word, or as two items of an argument list (nox's session.install("--index-url",
        # "http://…"), a subprocess list, a JSON array): round 24.
        r"(?P<at>(?:\s-i|(?<=['\"])-i(?=['\"])|--(?:extra-)?index-url|--registry|--(?:add-)?source|-Source|(?:global|install)\.(?:extra-)?index-url|"
        r"(?:PIP_(?:EXTRA_)?INDEX_URL|NPM_CONFIG_REGISTRY|npm_config_registry|"
        r"GOPROXY|UV_(?:EXTRA_)?INDEX_URL|BUNDLE_MIRROR\w*|COMPOSER_REPO\w*|\w*REGISTRY(?:_URL)?))(?:\s*[=: ]\s*['\"]?|['\"]\s*,\s*['\"])" + _HTTP + r")|"
        r"(?P<at2>\b(?:npm|yarn|pnpm)\s+config\s+set\s+(?:--\S+\s+)*registry\s+['\"]?" + _HTTP + r")|"
        r"(?P<at3>\bgem\s+sources\s+(?:-a|--add)\s+" + _HTTP + r")|(?P<at4>\b(?:global|install)\.trusted-host)\b", re.I)),
    ("fetches code over plain HTTP", ("gitclone", "gitfetch", "gitpull", "gitsubmoduleadd", "gitremoteadd", "helmrepoadd"), re.compile(
        r"(?P<at>\b(?:git\s+(?:clone|fetch|pull|submodule\s+add|remote\s+add\s+\S+)|helm\s+repo\s+add\s+\S+)\b[^|;&#\n]*?\s['\"]?" + _HTTP + r")")),
    ("adds a file to the image over plain HTTP", ("addhttp://", "add--", "add'http://", 'add"http://'), re.compile(
        r"(?P<at>^\s*ADD\s+(?:--(?!checksum)\S+\s+)*['\"]?" + _HTTP + r")")),
    ("leaves the workflow's token in the checkout", ("persist-credentials",), re.compile(
        r"(?P<at>^\s*persist-credentials\s*:\s*['\"]?true\b)")),
    ("prints a CI secret into the log", ("secrets.", "token", "secret", "password", "passwd", "api_key", "private_key"), re.compile(
        # Echoed where the log shows it (not into a file or a login's stdin), or encoded past the log's masking.
        r"(?P<at>\b(?:echo|printf|Write-(?:Host|Output))\b[^|>\n]*\$\{\{\s*secrets\.\w+\s*\}\})(?=[^|>\n]*$)|"
        r"(?P<at2>\$\{\{\s*secrets\.\w+\s*\}\}[^|>\n]*\|\s*(?:base64|xxd|od|rev|hexdump)\b)|"
        # A shell variable named for a secret, echoed where the log shows it.
        r"(?P<at3>\b(?:echo|printf)\b[^|>\n]*\$\{?[A-Z_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY)\b\}?)(?=[^|>\n]*$)")),
    # The whole environment or every secret sent to a host (round 16): a CI job's, a script's or a program's.
    ("sends the environment or the secrets out", ("env", "tojson(secrets"), re.compile(
        r"(?P<at>(?<![\w$.-])(?:env|printenv)\s*\|\s*(?:\S+\s*\|\s*)?(?:curl|wget|nc|ncat|netcat|socat|http|xh|https)\b)|"
        r"(?P<at2>\$\{\{\s*toJSON\s*\(\s*secrets\s*\)\s*\}\})|"
        r"(?P<at3>\b(?:curl|wget)\b[^\n]*(?:\$\(\s*(?:env|printenv)\s*\)|`(?:env|printenv)`|@?/proc/self/environ))|"
        r"(?P<at4>\b(?:fetch|axios\.\w+|request|post|put|send)\s*\([^\n]*JSON\.stringify\s*\(\s*process\.env\s*\))|"
        r"(?P<at5>\b(?:requests|httpx|session|client)\.(?:post|put)\s*\([^\n]*(?:json|data)\s*=\s*(?:dict\s*\(\s*)?os\.environ\b)")),
)

# An event's field a pull request's, an issue's or a comment's author writes (GitHub's list of untrusted inputs).
_UNTRUSTED = (r"\$\{\{\s*(?:github\.event\.(?:issue|pull_request|comment|review|review_comment|head_commit|discussion|"
              r"discussion_comment|pages|commits|workflow_run)\b[\w.\[\]*]*?\.(?:title|body|message|name|ref|label|email|"
              r"page_name|head_branch|default_branch)\b|github\.head_ref\b)[^}]*\}\}")
CALLS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("runs untrusted text in a CI step (script injection)", ("github.event", "head_ref"), re.compile(
        _NOT_SCRIPT_KEY + r".*?(?P<at>" + _UNTRUSTED + r")")),
    ("checks out untrusted PR code with the workflow's token", ("refs/pull", "workflow_run", "pull/${{", "issue.number"),
     re.compile(
         # Only the event of an issue comment or another workflow's run names a pull request this way: both run with the
         # base repository's token and secrets, so the head checked out runs with them.
         r"(?:" + FETCH_KEY + r").*?(?P<at>refs/pull/\$\{\{\s*github\.event\.issue\.number\s*\}\}/(?:head|merge)|"
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

# ----- a dependency taken from a git repository or a URL instead of its registry
_GIT_SOURCES = (
    # Cargo and Poetry: name = { git = "…" }; Cargo's [patch] too.
    re.compile(r"^\s*(?P<name>[\w.-]+)\s*=\s*\{[^}]*\bgit\s*=\s*['\"](?P<url>[^'\"]+)['\"]"),
    # npm: "name": "github:owner/repo", "git+https://…", "owner/repo#branch", a tarball URL.
    re.compile(r"^\s*\"(?P<name>[@\w./-]+)\"\s*:\s*\"(?P<url>(?:github:|gitlab:|bitbucket:|git\+|git://|https?://)[^\"]+|"
               r"[\w.-]+/[\w.-]+#[^\"]+)\""),
    # pip: name @ git+https://…, or a bare VCS URL.
    re.compile(r"^\s*(?P<name>[\w.\[\]-]+)\s*@\s*(?P<url>(?:git\+|hg\+|svn\+|https?://)\S+)"),
    # Cargo's and Poetry's table of one dependency (``[dependencies.name]`` / ``[target.'cfg(…)'.dependencies.name]``, then
    # ``git = "…"``): the name stands in the table's header, outside the changed lines.
    re.compile(r"^\s*(?P<name>)git\s*=\s*['\"](?P<url>[^'\"]+)['\"]\s*(?:#.*)?$"),
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


# ----- a download host one or two letters off a well-known one
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


# The real host written as a sub-domain of another domain (round 29): ``files.example.org.fast-mirror.net`` reads as
# example.org's file host and is served by whoever owns fast-mirror.net. A registrable name (a common top-level label) in the
# middle of a host, at least two labels after it; the clouds that name buckets that way (S3's virtual hosts) are quiet.
_EMBEDDED_RE = re.compile(r"^(?P<real>(?:[a-z0-9-]+\.)*[a-z0-9-]+\.(?:com|org|net|io|dev|sh|rs|pm|app|so|co|gg|me))\.(?P<owner>(?:[a-z0-9-]+\.)+[a-z]{2,})$")
_BUCKET_HOSTS_RE = re.compile(r"(?:^|\.)(?:amazonaws\.com(?:\.cn)?|cloudfront\.net|googleapis\.com|storage\.googleapis\.com|"
                              r"digitaloceanspaces\.com|backblazeb2\.com|r2\.dev|wasabisys\.com|linodeobjects\.com|in-addr\.arpa)$")
# A second-level label a country's registry sells under (example.com.au, example.org.uk): one domain, not two.
_COUNTRY_SECOND_RE = re.compile(r"^[a-z]{2}$")


def _embedded_host(host: str) -> tuple[str, str] | None:
    """(the real host, the domain that serves it) when ``host`` writes a registrable host as a sub-domain of another."""
    m = _EMBEDDED_RE.match(host.lower().rstrip("."))
    if not m or _BUCKET_HOSTS_RE.search(m.group("owner")) or _COUNTRY_SECOND_RE.match(m.group("owner").split(".")[0]):
        return None
    return m.group("real"), m.group("owner")


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
            if (inside := _embedded_host(m.group("host"))) is not None:
                return (f"fetches from a look-alike of {inside[0]} (its name as a sub-domain of {inside[1]}, another owner's host): "
                        f"{window(line.strip(), m.start('host') - (len(line) - len(line.lstrip())), m.end('host'), _QUOTE)}")
    return None


# ----- a download moved to plain HTTP, its checksum dropped
# An archive or installer a build fetches and unpacks or runs.
_HTTP_DOWNLOAD_RE = re.compile(r"\bhttp://(?P<host>[\w.-]+)(?::\d+)?/(?:[^\s'\"#?]*/)?(?P<file>[\w.+-]+\.(?:tar\.(?:gz|xz|bz2|zst)|tgz|tbz2?|txz|zip|"
                               r"jar|war|whl|gem|nupkg|crate|deb|rpm|apk|dmg|pkg|msi|exe|AppImage|sh|bin|run|7z))(?=[\s'\"#?)]|$)")
_HTTPS_FILE_RE = re.compile(r"\bhttps://[\w.-]+(?::\d+)?/(?:[^\s'\"#?]*/)?(?P<file>[\w.+-]+)(?P<sum>#[0-9a-fA-F]{32,}|[^\n]*\b(?:sha(?:1|256|512)|md5|checksum|integrity)\b)?")
_CHECKSUM_RE = re.compile(r"#[0-9a-fA-F]{32,}|\b(?:sha(?:1|256|512)|md5|checksum|integrity)\b", re.I)
_LOCAL_HOST_RE = re.compile(r"(?i)^(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.)|\.(?:local|localhost|test|internal|lan|example)$")


def _stem(name: str) -> str:
    return _DIGITS.sub("#", name.lower())


_DIGITS = re.compile(r"\d+(?:[._-]\d+)*")


def http_download(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"moves a download to plain HTTP …" when an added line fetches an archive over http:// that a removed line fetched
    over https (the same file, any version or host): fetched unencrypted, whoever sits on the path serves the build's
    code; "and drops its checksum" when the https line carried one and the new line none. A page link, a namespace, a
    version bump over https, a checksum updated stay quiet."""
    secure: dict[str, bool] = {}
    for line in removed[:400]:
        for m in _HTTPS_FILE_RE.finditer(line) if "https://" in line else ():
            secure[_stem(m.group("file"))] = secure.get(_stem(m.group("file")), False) or bool(m.group("sum") or _CHECKSUM_RE.search(line))
    if not secure:
        return None
    # A checksum on a line of its own (a formula's ``sha256 "…"``) dropped with the URL's change counts as the URL's.
    apart = any(_CHECKSUM_RE.search(line) for line in removed[:400]) and not any(_CHECKSUM_RE.search(line) for line in added[:400])
    for line in added[:400]:
        for m in _HTTP_DOWNLOAD_RE.finditer(line) if "http://" in line else ():
            if _LOCAL_HOST_RE.search(m.group("host")) or (had := secure.get(_stem(m.group("file")))) is None:
                continue
            dropped = " and drops its checksum (fetched unencrypted and unverified)" if (had or apart) and not _CHECKSUM_RE.search(line) else " (fetched unencrypted: anyone on the path can swap it)"
            return f"moves a download to plain HTTP{dropped}: {m.group()[:90]}"
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


# ----- an image pinned by its digest brought back to a tag; a signature or checksum step deleted
# A line that names an image (a Dockerfile's FROM, compose's or Kubernetes' image:): kept for this pair wherever it lives.
IMAGE_LINE_RE = re.compile(r"^\s*(?:FROM\s|-?\s*image\s*:|container\s*:)|@sha256:")
_IMAGE_RE = re.compile(r"(?:^\s*FROM\s+(?:--\S+\s+)*|\bimage\s*:\s*['\"]?|\bcontainer\s*:\s*['\"]?|docker://)(?P<name>[\w./-]+(?::\d+)?/?[\w./-]*?)"
                       r"(?P<pin>@sha256:[0-9a-f]{64}|:[\w.-]+)?(?=['\"\s]|$)")


def image_unpinned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"unpins an image from its digest: …" when an image a removed line pinned by ``@sha256:…`` comes back by a tag or
    by name alone: whoever can push that tag decides what runs."""
    pinned = {m.group("name") for line in removed if (m := _IMAGE_RE.search(line)) and (m.group("pin") or "").startswith("@sha256:")}
    if not pinned:
        return None
    for line in added:
        m = _IMAGE_RE.search(line)
        if m and m.group("name") in pinned and not (m.group("pin") or "").startswith("@sha256:"):
            return f"unpins an image from its digest: {window(line.strip(), 0, 0, _QUOTE)}"
    return None


def image_respelled(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"pulls an image from a look-alike of <owner> …" when an image comes back with one part of its path (an owner, a
    namespace; its name when six letters or more) one or two letters off the old one's, the rest kept (round 81: blind 113's
    kube-bench ``docker.io/aquasec/kube-bench`` → ``aquasek``): whoever holds that name decides what runs. A registry host
    is lookalike_host's; a tag bumped is no part of the path."""
    def path(line: str) -> list[str]:  # (a tag that starts with a digit is read by _IMAGE_RE as a port: ``node:22-alpine``)
        m = _IMAGE_RE.search(line) if IMAGE_LINE_RE.search(line) else None
        return re.sub(r":[\w.-]*$", "", m.group("name")).split("/") if m else []

    olds = [old for line in removed if (old := path(line))]
    for line in added if olds else ():
        parts = path(line)
        for old in olds:
            turned = [i for i, (a, b) in enumerate(zip(old, parts)) if a != b] if len(old) == len(parts) else []
            if len(turned) != 1:
                continue
            i = turned[0]
            if re.sub(r"\d", "", old[i]) == re.sub(r"\d", "", parts[i]):
                continue  # a version in the name moved (mio's .cirrus.yml: freebsd-14-3-release → freebsd-14-4-release)
            if "." not in old[i] and min(len(old[i]), len(parts[i])) >= (6 if i == len(parts) - 1 else 4) and _near(old[i], parts[i]):
                return f"pulls an image from a look-alike of {old[i]} (a typo-squat?): {'/'.join(old)} → {'/'.join(parts)}"
    return None


_VERIFY_STEP_RE = re.compile(r"(?i)\b(?:gpgv?2?\s+(?:--\S+\s+)*--verify|gpgv\b|cosign\s+verify\w*|minisign\s+-V|signify\s+-C|"
                             r"slsa-verifier\s+verify\w*|gh\s+attestation\s+verify|sha(?:1|256|512)?sum\s+(?:-\w+\s+)*(?:-c|--check)\b|"
                             r"shasum\s+(?:-a\s*\d+\s+)?(?:-\w+\s+)*(?:-c|--check)\b|Get-FileHash\b)|--checksum=sha256:|"
                             # an installer's own helper (godownloader's ``hash_sha256_verify``: round 117, blind 349's oauth2c)
                             r"(?<![\w$./-])\w*(?:sha(?:1|256|512)|checksum|signature|digest)_?(?:verify|check)\w*(?=[\s(]|$)")


def dropped_verification(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a signature or checksum check: removes …" when a removed line verified a download (gpg --verify, cosign verify,
    sha256sum -c, ADD --checksum=) and no added line verifies the same way again."""
    again = " ".join(added)
    for line in removed:
        m = _VERIFY_STEP_RE.search(line)
        if m and not _VERIFY_STEP_RE.search(again):
            return f"drops a signature or checksum check: removes {window(line.strip(), m.start() - (len(line) - len(line.lstrip())), m.end(), _QUOTE)}"
    return None


def pair_line(added: Sequence[str], removed: Sequence[str], *, commands: bool) -> str | None:
    """The first of these readers that names a line: a look-alike host, an image unpinned, and where the file's lines are
    commands (``commands``: not a docs file's prose and samples) a safety flag or a verification step dropped."""
    return (lookalike_host(added, removed) or http_download(added, removed) or image_unpinned(added, removed) or image_respelled(added, removed)
            or (dropped_safety_flag(added, removed) or dropped_verification(added, removed) if commands else None))


def dependency_source(path: str, added: Sequence[str], removed: Sequence[str], manifest: bool) -> str | None:
    """A dependency taken from a git repository instead of its registry, or (in a manifest) a release known to be compromised."""
    return git_source(path, added, removed) or (compromised_release(added, removed) if manifest else None)
