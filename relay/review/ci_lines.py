"""The risky lines only a CI workflow's pair of lines or its triggers show (issue 36, round 9; ``relay.review.build_lines``
reads the lines that tell alone).

- ``untrusted_checkout``: a pull request's head fetched in a workflow whose trigger runs it with the base repository's
  token and secrets (``pull_request_target``, ``issue_comment``, ``workflow_run``): the workflow's triggers are read from
  the file as the run left it (``relay.review.workflows``), or from a trigger the change adds;
- ``lookalike_action``: a new ``uses:`` whose owner is one or two letters off the owner of a widely used action;
- ``ci_guard_dropped``: an ``if:`` (GitHub, GitLab's rules, Travis) that loses its repository, ref, tag, branch, event or
  actor clause: a publishing job then runs on every push, branch or fork;
- ``permissions_dropped``: the workflow's own read-only ``permissions:`` removed whole;
- ``verify_dropped`` (round 13): a step that verifies what the job fetched or builds removed from any CI system's file (an
  action whose name says it validates, verifies or checks a signature or checksum: ``gradle/wrapper-validation-action``;
  ``--require-hashes``; a script's ``set -e``; an ``exit 1`` that made a failed check fail the job) and not written again:
  the job then runs on what it no longer checks (a ``sha256sum -c`` or ``gpg --verify`` dropped is
  ``relay.review.build_lines.dropped_verification``'s);
- ``expression_inlined`` (round 18 part B): a ``run:`` line that passed a value through a shell variable (``"$FILES"``,
  set from ``env:``) now pastes the expression itself (``${{ steps.files.outputs.added_modified }}``) into the script:
  the shell parses whatever the value holds (file or branch names a pull request's author chose). The line is read as a
  pair, so a new ``${{ matrix.os }}`` or an expression the script already had is quiet;
- ``failure_ignored`` (round 25 part C): a scan, audit, test or lint setting that failed the job on a finding
  (``exit-code: 1``, ``fail-on: high``, ``allow_failure: false``, ``--exit-code 1``) written again to let it through;
- ``action_unpinned`` (round 25 part C): an action or image the removed side ran at a tag or commit now at a branch;
- ``identity_made_partial`` (round 28 part A): a condition that let one account run the job (``github.actor == '…'``,
  GitLab's ``$GITLAB_USER_LOGIN ==``, Azure's ``eq(variables['Build.RequestedFor'], …)``) made ``contains``,
  ``startsWith``, ``endsWith`` or ``=~``: any account whose name holds the word passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relay.review.line_shapes import near as _near, squeezed, window

__all__ = ["FETCH_KEY", "PRIVILEGED_TRIGGERS", "PR_HEAD", "action_unpinned", "ci_guard_dropped", "failure_ignored", "ci_line", "expression_inlined", "lookalike_action", "permissions_dropped", "policy_to_audit", "triggers_in",
           "untrusted_checkout", "verify_dropped"]

_QUOTE = 60

# The head of a pull request named where code is fetched ("ref:", "repository:", a git fetch or checkout, gh pr checkout).
PR_HEAD = (r"(?:github\.event\.pull_request\.head\.(?:sha|ref|repo\.full_name)|github\.head_ref|"
            r"github\.event\.workflow_run\.head_(?:sha|branch)|refs/pull/|\bpull/\$\{\{)")
FETCH_KEY = r"^\s*-?\s*(?:ref|repository)\s*:\s*|\bgit\s+(?:fetch|checkout|switch|pull)\b|\bgh\s+pr\s+checkout\b"


# The triggers that run a workflow with the base repository's token and secrets on what someone else wrote.
PRIVILEGED_TRIGGERS = ("pull_request_target", "issue_comment", "workflow_run")
_HEAD_RE = re.compile(r"(?:" + FETCH_KEY + r").*?(?P<at>" + PR_HEAD + r"[^\s'\"}]*)")


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


def ci_line(added: Sequence[str], removed: Sequence[str], triggers: str) -> str | None:
    """The first risky CI line of a workflow's change that only the pair or the workflow's triggers show: a pull request's
    head checked out under a privileged trigger (``triggers``, or one the change adds), an action from a look-alike owner,
    a job's guard or the read-only permissions dropped, a job's deployment environment dropped (round 82)."""
    return (untrusted_checkout(added, removed, triggers or triggers_in("\n".join(added))) or lookalike_action(added, removed)
            or ci_guard_dropped(added, removed) or permissions_dropped(added, removed) or verify_dropped(added, removed)
            or expression_inlined(added, removed) or policy_to_audit(added, removed) or failure_ignored(added, removed)
            or action_unpinned(added, removed) or identity_made_partial(added, removed) or ci_guard_made_moot(added, removed)
            or environment_dropped(added, removed))


# ----- a job's deployment environment dropped (round 82: blind 115's yq release workflow lost ``environment: release``):
# the environment's required reviewers, wait timer and branch rules gated the job and its secrets; without it the job
# publishes on its own. (GitHub's ``environment: name`` or its block's ``name:`` under it.)
_ENVIRONMENT_RE = re.compile(r"^\s*environment\s*:\s*(?P<name>[\w.${}\[\]' -]*?)\s*$")


def environment_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops the job's deployment environment (release: its reviewers and protection rules no longer gate it) …" when a
    removed ``environment:`` line is written again nowhere in the change's lines."""
    if any(_ENVIRONMENT_RE.match(line) for line in added):
        return None
    for i, line in enumerate(removed):
        if (m := _ENVIRONMENT_RE.match(line)) is not None:
            # A deployment environment is named, or its block names it; CircleCI's and Compose's ``environment:`` is a map of
            # variables (round 82's dev run: acra's .circleci/config.yml).
            name = m.group("name").strip()
            if not name and not (i + 1 < len(removed) and re.match(r"^\s*name\s*:\s*\S", removed[i + 1])):
                continue
            name = name or removed[i + 1].split(":", 1)[1].strip()
            return f"drops the job's deployment environment ({name}: its reviewers and protection rules no longer gate the job): removed: {line.strip()}"
    return None


# ----- a CI job's identity check made a partial match (round 28 part A): ``github.actor == 'dependabot[bot]'`` turned into
# ``contains(github.actor, 'dependabot')`` or ``startsWith(…)``, GitLab's ``$GITLAB_USER_LOGIN == "x"`` into ``=~ /x/``,
# Azure's ``eq(variables['Build.RequestedFor'], 'x')`` into ``contains(…)``: any account whose name holds the word now
# passes the check that let only one account run a privileged job (an auto-merge with write access, a release).
_IDENTITY_RE = r"(?:github\.(?:triggering_)?actor|github\.event\.[\w.]*(?:user|sender|actor|author)\.login|\$\{?(?:GITLAB_USER_LOGIN|GITLAB_USER_NAME|CI_COMMIT_AUTHOR)\}?|variables\[\s*'Build\.(?:RequestedFor|RequestedForEmail|SourceVersionAuthor)'\s*\]|\$\(Build\.RequestedFor\))"
_EXACT_ID_RE = re.compile(rf"(?i)(?P<id>{_IDENTITY_RE})\s*==\s*['\"]|['\"]\s*==\s*(?P<id2>{_IDENTITY_RE})|\beq\(\s*(?P<id3>{_IDENTITY_RE})\s*,")
_PARTIAL_ID_RE = re.compile(rf"(?i)\b(?P<how>contains|startsWith|endsWith)\(\s*(?P<id>{_IDENTITY_RE})\s*,|(?P<id2>{_IDENTITY_RE})\s*=~")


def identity_made_partial(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"makes a CI job's identity check a partial match …" when a removed condition compared who triggered the run with
    one name exactly and an added one tests the same identity by contains, startsWith, endsWith or a regular expression."""
    exact = {squeezed(m.group("id") or m.group("id2") or m.group("id3")).lower() for line in removed[:200] for m in _EXACT_ID_RE.finditer(line)}
    if not exact:
        return None
    for line in added[:200]:
        for m in _PARTIAL_ID_RE.finditer(line):
            if squeezed(m.group("id") or m.group("id2")).lower() in exact:
                how = m.group("how") or "=~"
                text = line.strip()
                at = len(line) - len(line.lstrip())
                return f"makes a CI actor check a partial match ({how}): {window(text, m.start() - at, m.end() - at, _QUOTE)}"
    return None


# ----- a hardening policy turned from enforcing to watching (round 20 part B): harden-runner's ``egress-policy: block`` made
# ``audit``, a policy's ``mode: enforce`` made ``warn``: the job still runs, and what the policy stopped now only goes in a log.
_POLICY_RE = re.compile(r"^\s*-?\s*(?P<key>[\w.-]*(?:policy|mode|enforcement|action)[\w.-]*)\s*:\s*['\"]?(?P<value>\w+)['\"]?\s*(?:#.*)?$", re.I)
_ENFORCING = frozenset({"block", "enforce", "enforcing", "deny", "strict", "reject", "fail"})
_WATCHING = frozenset({"audit", "warn", "permissive", "log", "monitor", "report", "dryrun", "allow", "disabled", "off", "none"})


def policy_to_audit(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"turns a hardening policy from enforcing to audit (<key>: <old> → <new>)" when a CI file's policy key that blocked
    (block, enforce, deny, strict) comes back only watching (audit, warn, permissive, log)."""
    olds = {m.group("key").lower(): m.group("value").lower() for line in removed if (m := _POLICY_RE.match(line))}
    if not olds:
        return None
    for line in added:
        if (m := _POLICY_RE.match(line)) and olds.get(key := m.group("key").lower()) in _ENFORCING and m.group("value").lower() in _WATCHING:
            return f"turns a hardening policy from enforcing to audit ({key}: {olds[key]} → {m.group('value')}): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


# ----- an expression pasted into a script where a shell variable passed it (round 18 part B)
# A value the workflow's author sets, not someone else's text: the matrix, secrets (masked), the runner, env's own.
_TRUSTED_EXPR = re.compile(r"^\s*(?:matrix|secrets|runner|env|vars|needs\.[\w-]+\.result|job\.status|steps\.[\w-]+\.(?:outcome|conclusion))\b|"
                           r"^\s*github\.(?:sha|run_id|run_number|run_attempt|repository|repository_owner|workspace|action_path|token|"
                           r"server_url|api_url|job|workflow|event_name|ref_type)\s*$")
_EXPR = re.compile(r"\$\{\{(?P<expr>[^}]*)\}\}")
_SHELL_VAR = re.compile(r"\$\{?[A-Za-z_]\w*\}?|%[A-Za-z_]\w*%|\$env:[A-Za-z_]\w*")
_SCRIPT_LINE = re.compile(r"^\s*+-?\s*+(?:(?:run|script|command)\s*:\s*[|>]?-?\s*)?(?![\w.-]+\s*:\s)")


def expression_inlined(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"pastes an expression into a CI script, not through a variable (script injection): …" when an added script
    line is a removed one with a shell variable replaced by a ``${{ … }}`` expression a workflow's author does not set."""
    olds = {squeezed(_SHELL_VAR.sub("\0", line)) for line in removed[:400] if _SHELL_VAR.search(line) and "${{" not in line}
    if not olds:
        return None
    for line in added[:400]:
        found = next((m for m in _EXPR.finditer(line) if not _TRUSTED_EXPR.search(m.group("expr"))), None)
        if found is None or not _SCRIPT_LINE.match(line):
            continue
        if squeezed(_SHELL_VAR.sub("\0", _EXPR.sub("\0", line))) in olds:
            return (f"pastes an expression into a CI script, not through a variable (script injection): "
                    f"{window(line.strip(), found.start() - (len(line) - len(line.lstrip())), found.end() - (len(line) - len(line.lstrip())), _QUOTE)}")
    return None


# ----- a step that verifies removed (round 13)
# An action whose name says it verifies (owner/name, any ref): wrapper validation, signature or checksum checks, attestations.
_VERIFY_USES_RE = re.compile(r"^\s*-?\s*uses\s*:\s*['\"]?(?P<action>[\w.-]+/[\w.\-/]*(?:validat|verif|checksum|signature|attest|integrity)[\w.\-/]*)")
# A flag that makes an install verify what it fetches, or a script stop at its first failure (a checksum or signature
# command dropped is relay.review.build_lines.dropped_verification's, read in every build file).
_VERIFY_RUN_RE = re.compile(r"--require-hashes\b|\bset\s+-[a-z]*e[a-z]*\b")
_EXIT_RE = re.compile(r"^\s*(?:exit\s+[1-9]\d*|exit\s+\$\?|false)\s*;?\s*$")


def verify_dropped(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"drops a CI step that verifies: …" when a removed line of a CI file verifies (an action named so, a checksum or
    signature check, ``set -e``) or makes a failed check fail (``exit 1``), and no added line says the same again."""
    kept = {squeezed(ln) for ln in added}
    for ln in removed:
        if squeezed(ln) in kept:
            continue
        m = _VERIFY_USES_RE.match(ln)
        if m and not any(_VERIFY_USES_RE.match(a) for a in added):  # (another verifier written instead: a migration)
            return f"drops a CI step that verifies: {window(ln, m.start('action'), m.end('action'), _QUOTE)}"
        found = _VERIFY_RUN_RE.search(ln)
        if found and not ln.lstrip().startswith("#"):
            return f"drops a CI step that verifies: {window(ln, found.start(), found.end(), _QUOTE)}"
        if _EXIT_RE.match(ln) and not any(_EXIT_RE.match(a) for a in added):
            return f"a failed CI check no longer fails the job (removed: {ln.strip()})"
    return None



# ----- a CI action from an owner one or two letters off a well-known one
# Owners of widely used actions: a new "uses:" whose owner is a letter or two off one of these runs a stranger's code.
_ACTION_OWNERS = frozenset(
    "actions github docker aws-actions azure google-github-actions hashicorp codecov pypa softprops peaceiris jamesives "
    "dtolnay swatinem rust-lang golangci goreleaser ruby shivammathur astral-sh pnpm oven-sh denoland gradle sigstore "
    "slsa-framework crazy-max stefanzweifel peter-evans endbug cachix nixbuild actions-rs taiki-e jetbrains sonarsource "
    "snyk aquasecurity anchore ossf step-security mxschmitt styfle tj-actions dorny release-drafter marocchino "
    "pre-commit codespell-project reviewdog super-linter ncipollo svenstaro appleboy cloudflare vercel netlify "
    "firebaseextended expo subosito erlef haskell msys2 mymindstorm conda-incubator mamba-org pypa-dev pre-commit-ci".split())
# …or the owner's name with a word put after it (round 109, blind 243: ``astral-sh-actions/setup-uv@main``).
_DRESSED_RE = re.compile(r"-(?:actions?|official|org|ci|gh|hq|team|dev)")
_USES_RE = re.compile(r"^\s*-?\s*uses\s*:\s*['\"]?(?P<owner>[\w.-]+)/(?P<rest>[\w.\-/]+)@(?P<ref>[\w.\-/]+)")
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
        near = next((o for o in sorted(_ACTION_OWNERS) if len(o) >= 4 and _near(o, owner)), None) or next(
            (o for o in sorted(_ACTION_OWNERS) if len(o) >= 4 and _DRESSED_RE.fullmatch(owner.removeprefix(o))), None)
        if near:
            return (f"runs a CI action from a look-alike of {near} (a typo-squat?): "
                    f"{window(line.strip(), m.start('owner') - (len(line) - len(line.lstrip())), m.end('ref'), _QUOTE)}")
    return None


# ----- a CI job's guard loosened: a clause that kept it to the project's repository, a tag, a branch, an event, dropped
# GitHub's and Travis's ``if:``, Azure Pipelines' ``condition:`` (``and(succeeded(), not(eq(variables['build.reason'], …)))``).
_CI_IF_RE = re.compile(r"^\s*-?\s*(?:if|condition)\s*:\s*(?P<cond>.+?)\s*$")
_CLAUSE_SPLIT_RE = re.compile(r"\s*(?:&&|\|\||\band\b|\bAND\b)\s*")
_CALL_JOIN_RE = re.compile(r"(?i)^(?:and|or)\((?P<args>.*)\)$")  # Azure's and(a, b, …): its arguments are the clauses
# A condition that holds whatever the run: it guards nothing (``if: always()``, ``${{ true }}``, ``succeeded()``).
_ALWAYS_RE = re.compile(r"(?i)^(?:\$\{\{\s*)?(?:(?:always|success|succeeded|succeededOrFailed)\b(?:\(\s*(?:'[\w-]*')?\s*\)?)?|true)$")
# What such a clause checks: where the job runs and on what (a publish on tags only, never on a fork's branch).
_CI_GUARD_RE = re.compile(r"(?i)\bref(?:_type|_name)?\b|\btags?\b|\brepository\b|event_name|\bactor\b|head\.repo|\bfork\b|\bbranch\b|build\.reason|PullRequest|SourceBranch|"
                          r"CI_COMMIT_(?:TAG|BRANCH|REF_NAME)|CI_PROJECT_(?:PATH|NAMESPACE)|CI_PIPELINE_SOURCE|TRAVIS_(?:TAG|BRANCH|PULL_REQUEST)")


def _split_args(text: str) -> list[str]:
    """A call's arguments split at its own commas (not a nested call's): one pass."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    return [*out, text[start:]]


def _clauses(cond: str) -> list[tuple[str, str]]:
    """A condition's clauses joined by and/or: (each as compared, spaces and quotes squeezed; as written)."""
    text = cond.strip().removeprefix("${{").removesuffix("}}").strip()
    out = []
    for c in _split_args(m.group("args")) if (m := _CALL_JOIN_RE.match(text)) else _CLAUSE_SPLIT_RE.split(text):
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
        new = {key for key, shown in _clauses(m.group("cond")) if not _ALWAYS_RE.match(shown)}  # always() adds no guard
        for old in olds:
            gone = [shown for key, shown in old if key not in new and _CI_GUARD_RE.search(shown)]
            if gone and new <= {key for key, _ in old}:
                return f"drops a CI job's guard ({gone[0][:50]}): {window(line.strip(), 0, 0, _QUOTE)}"
    return None


def ci_guard_made_moot(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"makes a CI job's guard moot (success() || <clause>): if: …" for a new ``if:`` that joins a guard's clause (ref,
    tag, repository, event, actor) to one that always holds with an "or": the job runs whenever its needs pass, guard or
    not (round 76: blind 103's time-machine, a release job's ``success() && startsWith(github.ref, 'refs/tags/')`` written
    ``success() || …`` publishes from every push)."""
    before = {squeezed(line.strip()) for line in removed}
    for line in added:
        m = _CI_IF_RE.match(line)
        if m is None or squeezed(line.strip()) in before or not ("||" in m.group("cond") or re.match(r"(?i)\s*(?:\$\{\{\s*)?or\(", m.group("cond"))):
            continue
        if "&&" in m.group("cond") or re.search(r"(?i)\band\(", m.group("cond")):
            continue  # a mixed condition's grouping is not read here
        shown = [c for _, c in _clauses(m.group("cond"))]
        always = next((c for c in shown if _ALWAYS_RE.match(c)), None)
        guard = next((c for c in shown if c is not always and _CI_GUARD_RE.search(c)), None)
        if always and guard:
            at, word = line.find("||"), always.split("(")[0].removeprefix("${{").strip()
            word += "()" if word.lower() != "true" else ""
            return f"makes a CI job's guard moot (or-ed with {word}: runs whenever its needs pass): {window(line.strip(), at, at + 2, _QUOTE)}"
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


# ----- a step's failure switched from failing the job to passing it (round 25 part C): a scan, audit, test or lint step
# whose setting made a finding fail the job (``exit-code: 1``, ``fail-on: high``, ``fail-build: true``, ``soft_fail:
# false``, ``allow_failure: false``, ``--exit-code 1``) written again so it never does: the step runs, reports, and the
# job passes whatever it found. (``continue-on-error: true`` and ``… || true`` added are relay.review.risky_lines'.)
_FAIL_KEY = re.compile(r"^\s*-?\s*(?P<key>[\w.-]*exit[-_]?code|fail[-_]?(?:on(?:[-_]?(?:severity|error|findings?|issues?|warnings?))?|build|level)|"
                       r"failOn\w*|failure[-_]?severity|soft[-_]?fail|allow[-_]?failure|ignore[-_]?(?:failures?|errors?))"
                       r"\s*:\s*['\"]?(?P<value>[\w-]*)['\"]?\s*(?:#.*)?$", re.I)
_FAIL_FLAG = re.compile(r"(?P<key>--exit-code|--error-exitcode|--fail-on(?:-\w+)?|--severity-threshold|--audit-level|--fail-level)[= ]['\"]?(?P<value>[\w-]+)", re.I)
# Which values let a finding through: an exit code of 0, a threshold of none, a failing switch turned off (a "soft" or
# "allow"/"ignore" key turned on).
_PASSES = frozenset({"0", "none", "never", "false", "off", "no", ""})
_LENIENT_KEY = re.compile(r"soft|allow|ignore", re.I)


def _lets_through(key: str, value: str) -> bool:
    value = value.lower()
    if _LENIENT_KEY.search(key):
        return value in {"true", "yes", "on", "1"}
    return value in _PASSES


def _fail_settings(line: str) -> list[tuple[str, str]]:
    """(key, value) of each setting on ``line`` that says whether a finding fails the job."""
    return [(m.group("key"), m.group("value")) for m in (_FAIL_KEY.match(line), *_FAIL_FLAG.finditer(line)) if m]


def failure_ignored(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"ignores a CI scan or check step's result: … (<key>: <old> → <new>)" when a scan, audit, test or lint setting that
    failed the job on a finding (an exit code, a fail-on threshold, a soft-fail or allow-failure switch) comes back
    letting every finding through."""
    failing = {key.lower(): value for line in reversed(removed[:400]) for key, value in _fail_settings(line) if not _lets_through(key, value)}
    found = next(((key, failing[key.lower()], value) for line in added[:400] if failing for key, value in _fail_settings(line)
                  if key.lower() in failing and _lets_through(key, value)), None)
    if found is None:
        # A memory checker's error exit code written as 0 (round 77: blind 107's unordered_dense, a new valgrind leg's
        # ``--error-exitcode=0``): nobody spells out the default but to say errors pass; a scanner's report-only
        # ``exit-code: 0`` written new is common and stays quiet.
        written = next((m.group(0) for line in added[:400] if "error-exitcode" in line for m in _FAIL_FLAG.finditer(line)
                        if m.group("key").lower() == "--error-exitcode" and m.group("value") == "0"), None)
        return f"ignores a CI check step's result: what it finds never fails the job ({written})" if written else None
    return f"ignores a CI scan or check step's result: what it finds no longer fails the job ({found[0]}: {found[1]} → {found[2] or '(empty)'})"


# ----- an action moved from a pinned ref to a branch (round 25 part C): ``uses: owner/x@v1.3.1`` (or a commit) made
# ``@master``: what runs with the job's token is whatever the branch holds when the job starts.
_BRANCH_REF = re.compile(r"(?i)^(?:main|master|develop|dev|devel|trunk|next|nightly|head|canary|edge|latest|stable|release|unstable)$")
_PINNED_REF = re.compile(r"^(?:v?\d+(?:\.\d+)*(?:[-+][\w.]+)?|[0-9a-f]{40})$")
# Any ``name@ref`` of a CI line: an action's ``uses:``, ``go install x@v1.2.0``, ``npx tool@3.1.0``, ``pip install git+…@v2``.
_ANY_USES = re.compile(r"(?<![\w.\-/:+])(?P<action>[A-Za-z][\w.\-/:+]*?)@(?P<ref>[\w.\-/]+)")


def action_unpinned(added: Sequence[str], removed: Sequence[str]) -> str | None:
    """"moves a CI action from a pinned ref to a branch (unpinned): …" when an action the removed side ran at a tag or a
    commit now runs at a branch (``@master``, ``@main``)."""
    pinned = {m.group("action").lower(): m.group("ref") for line in removed[:400] if "@" in line
              for m in _ANY_USES.finditer(line) if _PINNED_REF.match(m.group("ref"))}
    if not pinned:
        return None
    for line in added[:400]:
        for m in _ANY_USES.finditer(line) if "@" in line else ():
            if not (_BRANCH_REF.match(m.group("ref")) and (old := pinned.get(m.group("action").lower()))):
                continue
            return (f"moves a CI action or tool from a pinned ref to a branch (unpinned: what runs changes whenever the "
                    f"branch moves): {m.group('action')}@{old} → @{m.group('ref')}")
    return None


_PUBLISH_RE = re.compile(r"gh-action-pypi-publish|\btwine\s+upload\b|\bnpm\s+publish\b|\bcargo\s+publish\b|\bgem\s+push\b|\bpoetry\s+publish\b|"
                         r"\buv\s+publish\b|\bflit\s+publish\b|\bhatch\s+publish\b|\bpnpm\s+publish\b|\byarn\s+npm\s+publish\b")


def ungated_publish(kind: str, added: Sequence[str]) -> str:
    """"; no deployment environment gates the publish" for a new workflow that publishes a package with an OIDC token and
    names no ``environment:`` (blind 115's yq: the job's ``environment: release`` left out, so no reviewer approves a
    release and the registry's trusted publisher is not held to one environment); "" otherwise."""
    if kind != "added" or not any(_PUBLISH_RE.search(line) for line in added) or any(_ENVIRONMENT_RE.match(line) for line in added):
        return ""
    return "; no deployment environment gates the publish" if any(re.match(r"\s*id-token\s*:\s*write", line) for line in added) else ""
