"""The command lines of CI files, build files and scripts, read as code is (issue 36, round 35).

A CI workflow's ``run:`` step, a GitLab ``script:`` entry, a Jenkinsfile's ``sh``, a Makefile's recipe, a Dockerfile's
``RUN`` and a shell script all say what runs in one command line; the readers that know a test runner's or an
installer's flags read the runner's own config files and the manifests only, so a flag slipped into a CI step left its
file's reason at "CI configuration". Each reader here is a family, read in every CI system's file and every script:

- ``excludes_tests``: a test command given a flag that leaves tests out of the run (pytest ``--ignore``/``--deselect``/
  ``-k "not …"``, jest's ``--testPathIgnorePatterns``, vitest's and mocha's ``--exclude``, go's ``-skip``, cargo's
  ``--skip``/``--exclude``, gradle's ``-x test``, Maven's ``-DskipTests``, dotnet's ``--filter`` with ``!=``/``!~``,
  ctest's ``-E``, rspec's ``--exclude-pattern``/``--tag ~``, phpunit's ``--exclude-group``): what it names is no longer
  tested, and the job stays green. Build output, caches and vendored trees left out are quiet, as is a flag the removed
  side already had for the same item (a line reformatted or its version moved);
- ``index_added``: an install command (pip, uv, npm, yarn, pnpm, gem, bundler, cargo, dotnet, go's proxy) or its
  environment told to take packages from an index beside or instead of the default one — dependency confusion's door
  needs no plain http (that is ``relay.review.build_lines``' own): the default index's own URL, a variable, a local
  host are quiet, and so is an index the removed side already named;
- ``pipefail_dropped``: ``set -o pipefail`` (or ``-eo pipefail``…) taken from a script or a step whose pipeline stays:
  a pipe's status is then its last command's (``make test | tee log``, ``xcodebuild … | xcpretty``), and a failing build
  or test passes. Quiet when ``pipefail`` is written again anywhere in the change (moved to ``defaults.run.shell``) or
  when the pipeline went with it (the step deleted);
- ``command_grown``: a command line that only gained or lost words at one end (``npm test`` → ``npm test -- --bail``),
  flags or a shell operator among them: a change of what runs, for ``relay.review.leading_lines`` to quote when nothing
  says more (a version moved, a line wrapped onto the next, a YAML block opened are quiet).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from relay.review.line_shapes import squeezed, window

__all__ = ["COMMAND_EXAMPLE", "COMMAND_MORE", "command_file", "command_grown", "grown_pairs", "command_line", "command_line_check", "index_added", "pipefail_dropped",
           "excludes_tests"]

_QUOTE = 70
_LEAD = 12  # of a quote's room before the flag it opens on: the host after the flag shows, the command before it when short
_SCRIPT_EXTS = frozenset("sh bash zsh ksh fish ps1 psm1 bat cmd mk".split())
# (A test runner's own config files, tox.ini and package.json among them, are relay.review.let_through's to read.)
_BUILD_NAMES = re.compile(r"(?i)(?:^|/)(?:makefile|gnumakefile|[\w.-]*\.mk|dockerfile[\w.-]*|[\w.-]*\.dockerfile|containerfile|justfile|"
                          r"taskfile\.ya?ml|jenkinsfile[\w.-]*|procfile|earthfile|noxfile\.py)$")


def command_file(path: str, kind: str) -> bool:
    """Whether ``path`` holds command lines: a CI system's file, a build file that runs commands, a shell script."""
    name = path.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
    return kind == "ci" or ext in _SCRIPT_EXTS or bool(_BUILD_NAMES.search(path))


def _fresh(added: Sequence[str], removed: Sequence[str]) -> Iterator[tuple[int, str]]:
    before = {squeezed(line) for line in removed}
    for i, line in enumerate(added[:400]):
        text = line.strip()
        if text and not text.startswith(("#", "//")) and squeezed(line) not in before:
            yield i, line


def _quote(line: str, start: int, end: int, lead: int | None = None, width: int = _QUOTE) -> str:
    # A reason is at most 120 characters (relay.review.risk): each reader's words and its quote share them.
    return window(line.strip(), start - (len(line) - len(line.lstrip())), end - (len(line) - len(line.lstrip())), width, lead)


# ----- tests left out of a run
# A test runner named on the line (or on one of the few lines before it: a command wrapped in a YAML block).
_RUNNER = re.compile(r"(?i)\b(?:py\.?test|pytest|jest|vitest|mocha|ava|karma|(?:npm|yarn|pnpm|bun)\s+(?:run\s+)?test\w*|go\s+test|"
                     r"cargo\s+(?:test|nextest)|gradlew?|mvnw?|dotnet\s+test|rspec|rake\s+(?:test|spec)|phpunit|pest|ctest|"
                     r"bazel\s+test|tox|nox|nose2?|unittest|mix\s+test|swift\s+test|xcodebuild\b[^\n]*\btest|flutter\s+test|"
                     r"deno\s+test|playwright\s+test|cypress\s+run|meson\s+test|make\s+(?:test|check)\w*)\b")
# The flag and the item it leaves out. Each alternative names its item group ``item``.
_EXCLUDE = re.compile(
    r"(?P<flag>--ignore(?:-glob)?|--deselect|--testPathIgnorePatterns|--test-path-ignore-patterns|--exclude(?:-pattern|-group|-testsuite|-regex|-task)?|"
    r"(?<![\w-])-(?:skip|E|x)|--skip)(?:=|\s+)['\"]?(?P<item>[^\s'\"]+)|"
    r"(?P<flag2>(?<![\w-])-[km])\s+['\"]?(?:[^'\"\n]*?\b)?not\s+(?P<item2>[\w.:/*-]+)|"
    r"(?P<flag3>--tag)[= ]['\"]?~(?P<item3>[\w:-]+)|"
    r"(?P<flag4>--filter)[= ]['\"]?[^'\"\s]*?(?:!=|!~)(?P<item4>[\w.*-]+)|"
    r"(?P<flag5>-D(?:skipTests|maven\.test\.skip|skipITs)|--test_tag_filters)(?:=(?P<item5>[^\s'\"]+))?")
# What runners are told to leave out anyway: build output, caches, environments, vendored and generated trees.
_ORDINARY_ITEM = re.compile(r"(?i)^(?:\.?/)?(?:<rootDir>/)?(?:\.git|node_modules|build|dist|out|target|vendor|third_party|\.?tox|\.?nox|\.?venv\d*|env|"
                            r"__pycache__|htmlcov|\.eggs|[\w*]*\.egg(?:-info)?|\.mypy_cache|\.pytest_cache|coverage|\.cache|docs?|"
                            r"site-packages|examples?|benchmarks?|bench|fixtures|false|0|\$\S*|\{.*)(?:/\*{0,2})?/?$")
# ``-x`` and ``-E`` mean other things to most tools: read only where the runner that gives them a test's meaning is named.
_NARROW = {"-x": re.compile(r"(?i)\bgradlew?\b"), "-E": re.compile(r"(?i)\bctest\b"), "-k": re.compile(r"(?i)\bpy\.?test\b|\btox\b|\bnox\b"),
           "-m": re.compile(r"(?i)\bpy\.?test\b")}
# A marker's usual "not slow" is the project's own split of its suite; ``-m`` is read for other words only.
_USUAL_MARKS = frozenset({"slow", "integration", "e2e", "network", "benchmark", "gpu", "flaky", "serial", "online", "docker", "windows",
                          "linux", "macos", "nightly", "long", "heavy", "performance", "perf", "external", "manual"})


def _excluded(line: str) -> Iterator[tuple[re.Match[str], str, str]]:
    for m in _EXCLUDE.finditer(line):
        flag = next(m.group(g) for g in ("flag", "flag2", "flag3", "flag4", "flag5") if m.group(g))
        item = next((m.group(g) for g in ("item", "item2", "item3", "item4", "item5") if m.group(g)), "") or ""
        yield m, flag, item.rstrip(",;)")


def excludes_tests(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"skips the tests it excludes: …" when an added test command line gains a flag that excludes tests
    its removed lines did not exclude."""
    before = {(flag, item) for line in removed[:400] for _, flag, item in _excluded(line)}
    lines = list(added[:400])
    for i, line in _fresh(added, removed):
        context = " ".join(lines[max(0, i - 3):i + 1])
        if not _RUNNER.search(context):
            continue
        for m, flag, item in _excluded(line):
            narrow = _NARROW.get(flag)
            if narrow is not None and not narrow.search(context):
                continue
            if flag == "-x" and not item.lower().startswith(("test", "check", ":test")) and "test" not in item.lower():
                continue  # gradle -x <task>: a task that is not a test task is the build's own business
            if flag == "-m" and item.lower() in _USUAL_MARKS or flag == "-k" and item.lower() in _USUAL_MARKS:
                continue
            if (flag, item) in before or (item and _ORDINARY_ITEM.match(item)) or (not item and flag.startswith("--test_tag")):
                continue
            # A whole suite skipped (``-DskipTests``, ``-x test``) is a build or a package step's usual way, written so from
            # the start (a new job that packages): said only where the same command ran the tests before, the flag gained in place.
            if (flag.startswith("-D") or flag == "-x") and squeezed(line[:m.start()] + line[m.end():]) not in {squeezed(old) for old in removed[:400]}:
                continue
            return f"skips the tests it excludes: {_quote(line, m.start(), m.end())}"
    return None


# ----- another package index
def _url(n: int) -> str:
    return rf"(?P<url{n}>https?://(?P<host{n}>[\w.-]+)[^\s'\"]*)"
_INDEX = re.compile(
    r"(?P<at>(?:--(?:extra-)?index-url|--default-index|--index(?!-)|(?<![\w-])-i|--registry|--source|(?<![\w-])-[sS]ource|--find-links|"
    r"(?<![\w-])-f|--add)(?:=|\s+)['\"]?(?:[\w-]+=)?" + _url(1) + r")|"
    r"(?P<at2>\b(?:PIP_(?:EXTRA_)?INDEX_URL|PIP_FIND_LINKS|UV_(?:EXTRA_|DEFAULT_)?INDEX(?:_URL)?|NPM_CONFIG_REGISTRY|npm_config_registry|"
    r"YARN_(?:NPM_)?REGISTRY(?:_SERVER)?|BUNDLE_MIRROR__\w+|GOPROXY|CARGO_REGISTRIES_\w+_INDEX|POETRY_REPOSITORIES_\w+_URL)"
    r"['\"]?\s*[=:]\s*['\"]?" + _url(2) + r")|"
    r"(?P<at3>\b(?:config\s+set|config\s+--global|config\s+--user)\s+(?:--\S+\s+)*['\"]?(?:global\.|install\.)?"
    r"(?:(?:extra-)?index-url|registry|npmRegistryServer|@[\w-]+:registry)['\"]?\s*=?\s*['\"]?" + _url(3) + r")|"
    r"(?P<at4>\b(?:gem\s+sources|poetry\s+source\s+add\s+[\w-]+|bundle\s+config\s+(?:set\s+)?(?:--\S+\s+)?mirror\.\S+)\s+(?:--?\w+\s+)*" + _url(4) + r")")
# The install, config or environment that reads the flag: ``-i``, ``-f``, ``--add``, ``--source`` mean an index only there.
_INSTALLER = re.compile(r"(?i)\b(?:pip3?|uv|pipx|poetry|pdm|npm|yarn|pnpm|bun|gem|bundle|cargo|dotnet|nuget|choco|conda|mamba|micromamba|"
                        r"easy_install|composer|go)\b")
_DEFAULT_HOSTS = re.compile(r"(?i)^(?:(?:www\.)?pypi\.(?:org|python\.org)|files\.pythonhosted\.org|registry\.(?:npmjs\.(?:org|com)|yarnpkg\.com)|"
                            r"(?:index\.|api\.)?rubygems\.org|proxy\.golang\.org|(?:index\.)?crates\.io|api\.nuget\.org|(?:repo\.)?packagist\.org|"
                            r"repo1?\.maven\.(?:apache\.)?org|conda\.anaconda\.org|localhost|127\.0\.0\.1|0\.0\.0\.0|[\w.-]+\.(?:local|internal|test|example))$")
_PLAIN = re.compile(r"^http://")


def _indexes(line: str) -> Iterator[tuple[re.Match[str], str]]:
    for m in _INDEX.finditer(line):
        n = next(i for i in range(1, 5) if m.group(f"url{i}"))
        yield m, m.group(f"host{n}").lower(), m.group(f"url{n}")


def index_added(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"takes packages from another index (dependency confusion): …" when an added install command, its
    config or its environment names a package index other than the default one that the removed lines did not."""
    before = {host for line in removed[:400] for _, host, _ in _indexes(line)}
    for _, line in _fresh(added, removed):
        for m, host, url in _indexes(line):
            generic = m.group("at") and not re.match(r"--(?:extra-)?index-url|--default-index|--registry|--find-links", m.group("at"))
            if generic and not _INSTALLER.search(line):
                continue
            # Plain http is the older reader's (relay.review.build_lines: an untrusted index); a default index is no other one.
            if host in before or _DEFAULT_HOSTS.match(host) or _PLAIN.match(url):
                continue
            return f"takes packages from another index (dependency confusion): {_quote(line, m.start(), m.start() + 1, _LEAD, 60)}"
    return None


# ----- a pipeline's failure let through
_PIPEFAIL = re.compile(r"\bset\s+(?:-[a-zA-Z]*o\s+pipefail|-o\s+pipefail|[+-][a-zA-Z]*\s+-o\s+pipefail)|\bpipefail\b")
_PIPED = re.compile(r"[^|]\|\s*(?!\|)[\w./$-]")


def pipefail_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"a pipeline's failure no longer fails the step (pipefail dropped): …" when a removed line set
    ``pipefail`` and no added line sets it again, while the pipeline it guarded stays (not removed with it)."""
    if any("pipefail" in line for line in added[:400]):
        return None
    kept = {squeezed(line) for line in added[:400]}
    for line in removed[:400]:
        if line.lstrip().startswith("#") or not _PIPEFAIL.search(line):
            continue
        # The step deleted whole: its pipeline went with the setting.
        if any(_PIPED.search(old) and squeezed(old) not in kept for old in removed[:400] if old is not line):
            return None
        m = _PIPEFAIL.search(line)
        return f"a pipeline's failure no longer fails the step (pipefail dropped): removes {_quote(line, m.start(), m.end(), width=44)}"
    return None


def command_line(path: str, kind: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    """The first command line of a CI, build or script file that leaves tests out, takes packages from another index, or
    lets a pipeline's failure through; None for another file or none found."""
    if not command_file(path, kind):
        return None
    return excludes_tests(added, removed) or _index_unsaid(path, added, removed) or pipefail_dropped(added, removed)


def _index_unsaid(path: str, added: Sequence[str], removed: Sequence[str]) -> str | None:
    # A build file the manifest readers read (a Makefile, a Dockerfile) has its index said there already, once is enough.
    from relay.review.manifest_lines import another_index, reads_manifest_lines

    found = index_added(added, removed)
    return None if found is None or reads_manifest_lines(path) and another_index(added, removed) else found


def command_line_check(f, ctx) -> str | None:  # noqa: ANN001 - FileFacts, RiskContext (the rule table's check)
    return command_line(f.path, f.kind, f.change.added_lines, f.change.removed_lines)


# ----- a command that gained or lost words at one end
_COMMAND_OPENING = re.compile(r"^\s*(?:-\s+)?(?:(?:run|script|command|commands|cmd|sh|bat|pwsh|powershell|before_script|after_script|"
                              r"before_install|install|test_script|build_script|exec)\s*:\s*|RUN\s+|sh\s+['\"]|\t|\$\s+)?")
_FLAGISH = re.compile(r"(?:^|\s)(?:--?[A-Za-z][\w.-]*|\|\|?|&&|;|>|2>)(?=[\s=]|$)")
_CONTINUED = re.compile(r"(?:\\|\^|`|[|>][-+]?|&&|\|\|)\s*$")


_SCRIPT_KINDS = frozenset({"ci", "source"})  # a CI system's file, a shell script (a build file's own lines are read below)
_RECIPE = re.compile(r"^\t|^\s*(?:RUN|CMD|ENTRYPOINT)\s|^\s*(?:-\s+)?(?:commands?|cmd|run)\s*[:=]")


def _runs(path: str, kind: str, line: str) -> bool:
    """Whether ``line`` is a command: any line of a CI file or a shell script; of a build file, a Makefile's recipe line,
    a Dockerfile's RUN, a task's command (a ``CFLAGS = -O2 -g`` setting is the build's own choice, not a command run)."""
    return kind in _SCRIPT_KINDS and not _BUILD_NAMES.search(path) or bool(_RECIPE.search(line))


def command_grown(path: str, kind: str, old: str, new: str, others: Sequence[str] = ()) -> str | None:
    """The words a command line of a CI, build or script file gained or lost at one end when they hold a flag or a shell
    operator (``npm test`` → ``npm test -- --bail``), else None: a line wrapped (the words on another changed line of
    ``others``, squeezed, or the line left continued), a version moved, a key's data value are quiet."""
    if not command_file(path, kind) or not _runs(path, kind, new):
        return None
    o, n = " ".join(old.split()), " ".join(new.split())
    if o == n or _CONTINUED.search(o) or _CONTINUED.search(n):
        return None
    if n.startswith(o):
        tail = n[len(o):]
    elif o.startswith(n):
        tail = o[len(n):]
    elif n.endswith(o):
        tail = n[:len(n) - len(o)]
    elif o.endswith(n):
        tail = o[:len(o) - len(n)]
    else:
        return None
    if not (tail[:1].isspace() or tail[-1:].isspace()) or not _FLAGISH.search(f" {tail.strip()} "):
        return None
    sq = squeezed(tail)
    if len(sq) < 2 or any(sq in squeezed(other) for other in others if other is not old and other is not new):
        return None  # the words written on another line: wrapped or moved, not gained
    return tail.strip()


_EDGE = 8  # a command grown at one end keeps its other end: its candidates share that end's first characters


def grown_pairs(path: str, new: Sequence[str], old: Sequence[str]) -> list[tuple[str, str, str]]:
    """The (old, new, words) of each changed command line of a CI, build or script file that only gained or lost words
    at one end (``command_grown``); [] for another file. Linear: an old line is looked up by its opening and its ending."""
    from relay.review.file_kinds import file_kind  # the kinds read paths only; imported late (file_kinds reads many modules)

    kind = file_kind(path) if new and old else ""
    if not kind or not command_file(path, kind):
        return []
    ends: dict[str, list[str]] = {}
    for line in old:
        sq = squeezed(line)
        for key in {"<" + sq[:_EDGE], ">" + sq[-_EDGE:]}:
            ends.setdefault(key, []).append(line)
    others = [*new, *old]
    found = []
    for line in new:
        sq = squeezed(line)
        for cand in dict.fromkeys((*ends.get("<" + sq[:_EDGE], ()), *ends.get(">" + sq[-_EDGE:], ()))):
            if (tail := command_grown(path, kind, cand, line, others)) is not None:
                found.append((cand, line, tail))
                break
    return found


# The row's example: a CI step that leaves a module's tests out of the run, and the same step given a coverage flag.
def _examples():  # noqa: ANN202 - (FileChange, reason, FileChange)
    from relay.review.rule_row import fc

    return (fc(".gitlab-ci.yml", additions=1, deletions=1, removed_lines=["    - pytest -q tests"],
               added_lines=["    - pytest -q tests --ignore=tests/test_tokens.py"]),
            "skips the tests it excludes: - pytest -q tests --ignore=tests/test_tokens.py",
            fc(".gitlab-ci.yml", additions=1, deletions=1, removed_lines=["    - pytest -q tests"],
               added_lines=["    - pytest -q tests --ignore=node_modules"]))


def _more():  # noqa: ANN202 - ((FileChange, reason, FileChange), …)
    from relay.review.rule_row import fc

    # (A Dockerfile's or a Makefile's index is relay.review.manifest_lines' to say: a script's here.)
    index = ("pip install --no-cache-dir -r requirements.txt", "pip install --no-cache-dir --extra-index-url https://wheels.quarry-ci.dev/simple -r requirements.txt",
             "pip install --no-cache-dir --extra-index-url https://pypi.org/simple -r requirements.txt")
    pipe = ("        set -o pipefail", "        make check 2>&1 | tee check.log")
    return ((fc("ci/bootstrap.sh", additions=1, deletions=1, removed_lines=[index[0]], added_lines=[index[1]]),
             "takes packages from another index (dependency confusion): …o-cache-dir --extra-index-url https://wheels.quarry-ci.dev…",
             fc("ci/bootstrap.sh", additions=1, deletions=1, removed_lines=[index[0]], added_lines=[index[2]])),
            (fc("azure-pipelines.yml", deletions=1, removed_lines=[pipe[0]], added_lines=[]),
             "a pipeline's failure no longer fails the step (pipefail dropped): removes set -o pipefail",
             fc("azure-pipelines.yml", deletions=2, removed_lines=list(pipe), added_lines=[])))


COMMAND_EXAMPLE, COMMAND_MORE = _examples(), _more()
