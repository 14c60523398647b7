"""What runs on a developer's machine without being asked for: git hooks, editor tasks run when the folder opens, the
programs an editor's workspace settings name, a dev container's commands, a direnv script, the program a build tool's
own settings have it run at every command (yarn's yarnPath, cargo's runner, a JVM agent in Maven's jvm.config), a
submodule's update command, or its source moved to another owner.

The party: the worker. A git hook or a pre-commit config runs at the next commit; a VS Code task with ``"runOn":
"folderOpen"`` (in ``.vscode/tasks.json`` or a ``*.code-workspace``) runs its command when the person next opens the
folder; a workspace setting that names a program (``python.defaultInterpreterPath``, ``git.path``, ``eslint.runtime``,
``typescript.tsdk``, a terminal's ``env`` or shell) has the editor run the worker's program in a trusted folder; a
dev container's ``initializeCommand`` runs on the person's machine before the container is built, its other
lifecycle commands inside it with the workspace (and often credentials) mounted; direnv runs ``.envrc`` in the
person's shell each time they enter the folder (once allowed). Each was "new file", low: the worker's command, on
their machine, before they read a line of the change. The settings and lifecycle keys a change only removes, and
editor settings that name no program (tab size, excludes, extra analysis paths), stay quiet.
"""

from __future__ import annotations

import re

from relay.review.facts import FileFacts, RiskContext
from relay.review.file_kinds import HOOK_GLOBS, glob_any
from relay.review.small_edits import cut

__all__ = ["HOOKS", "runs_on_open"]

HOOKS = "git hook / pre-commit config (runs on every developer's machine)"
_TASK_FILES = (".vscode/tasks.json", "*.code-workspace")
_FOLDER_OPEN_RE = re.compile(r"[\"']?runOn[\"']?\s*:\s*[\"']folderOpen[\"']")
_SETTINGS_FILES = (".vscode/settings.json", "*.code-workspace")
# A setting whose value is a program the editor (or an extension) runs, or what its terminals start with.
_PROGRAM_SETTING_RE = re.compile(
    r"\"(?P<key>(?:[\w-]+\.)*(?:path|\w*Path|executable\w*|\w*Executable\w*|\w*Interpreter\w*|runtime\w*|\w*Runtime|tsdk|"
    r"home|alternateTools|\w*CommandLine)|terminal\.integrated\.(?:env|shell|shellArgs|profiles|automationProfile|"
    r"automationShell)[\w.]*)\"\s*:\s*[\"{\[]")
_DEVCONTAINER_FILES = (".devcontainer.json", ".devcontainer/devcontainer.json", ".devcontainer/*/devcontainer.json")
_LIFECYCLE_RE = re.compile(r"\"(?P<key>initializeCommand|onCreateCommand|updateContentCommand|postCreateCommand|"
                           r"postStartCommand|postAttachCommand)\"\s*:")
# direnv's own words and plain assignments: what an .envrc does without running a program of the worker's.
_DIRENV_QUIET_RE = re.compile(r"^\s*(?:#|$|export\s+\w+=|unset\s|\w+=|(?:use(?:_\w+)?|layout|PATH_add|path_add|PATH_rm|path_rm|dotenv|"
                              r"dotenv_if_exists|source_env|source_env_if_exists|source_up|source_up_if_exists|watch_file|"
                              r"watch_dir|log_status|log_error|strict_env|unstrict_env|require_allowed|env_vars_required|"
                              r"has|expand_path|find_up|load_prefix|on_git_branch|direnv_version)\b)")
# A build tool's own settings that name a program it runs for every ordinary command (yarn install, cargo test, mvn
# package): yarn's yarnPath (a release file of the usual shape is an upgrade, quiet), cargo's runner, wrappers, linker,
# rustc or rustdoc given as a path in the repository or a shared temporary folder (a tool on PATH — sccache, probe-rs,
# a cross linker — is quiet), a JVM agent in Maven's jvm.config or maven.config.
_YARN_RELEASE = r"[\"']?\.yarn/releases/yarn-(?:\d+\.\d+\.\d+(?:-[\w.]+)?|berry)\.c?js[\"']?\s*$"
_TOOL_SETTINGS = (
    ((".yarnrc.yml",), re.compile(rf"^\s*yarnPath\s*:\s*(?!{_YARN_RELEASE})\S")),
    ((".yarnrc",), re.compile(rf"^\s*yarn-path\s+(?!{_YARN_RELEASE})\S")),
    ((".cargo/config.toml", ".cargo/config", "*/.cargo/config.toml", "*/.cargo/config"),
     re.compile(r"^\s*(?:runner|rustc-wrapper|rustc-workspace-wrapper|linker|rustc|rustdoc)\s*=\s*\[?\s*[\"']"
                r"(?:\.|/tmp/|/var/tmp/|/dev/shm/|[^/\"'\s][^\"'\s]*/)")),
    ((".mvn/jvm.config", ".mvn/maven.config"), re.compile(r"-(?:javaagent|agentpath|agentlib):")),
)
# A submodule's ``update = !command`` runs at ``git submodule update``; its ``url`` moved to another host or owner
# (``acme/lib`` → ``acme-dev/lib``) fetches someone else's code there; an ``ext::`` URL runs a command (git refuses it
# unless protocol.ext.allow is set, which a person may have).
_SUBMODULE_UPDATE_RE = re.compile(r"^\s*update\s*=\s*!")
_SUBMODULE_URL_RE = re.compile(r"^\s*url\s*=\s*(?P<url>\S+)")
_OWNER_RE = re.compile(r"^(?:[\w+.-]+://)?(?:[^@/]+@)?(?P<host>[^/:]+)[/:](?P<owner>[^/]+)/")
_QUOTE = 80


def _direnv_quiet(line: str) -> bool:
    # A substitution runs a program, and a chain (``has nix && …``) runs what follows the quiet word.
    return _DIRENV_QUIET_RE.match(line) is not None and not any(c in line for c in ("$(", "`", "&&", "||", ";", "|"))


def _quoted(line: str) -> str:
    return cut(line.strip(), _QUOTE)


def runs_on_open(f: FileFacts, ctx: RiskContext) -> str | None:
    if glob_any(f.path, HOOK_GLOBS):
        return HOOKS
    added = f.change.added_lines
    if glob_any(f.path, _TASK_FILES) and any(_FOLDER_OPEN_RE.search(line) for line in added):
        return "an editor task that runs when the folder is opened (VS Code runOn: folderOpen)"
    if glob_any(f.path, _SETTINGS_FILES) and (line := next((x for x in added if _PROGRAM_SETTING_RE.search(x)), None)):
        return f"an editor setting that names a program the editor runs: {_quoted(line)}"
    if glob_any(f.path, _DEVCONTAINER_FILES) and (line := next((x for x in added if _LIFECYCLE_RE.search(x)), None)):
        where = "on your machine before the container is built" if "initializeCommand" in line else \
            "in the dev container, your workspace mounted"
        return f"a dev container command (runs {where}): {_quoted(line)}"
    if f.path.rsplit("/", 1)[-1] == ".gitmodules" and (found := _submodule_turn(added, f.change.removed_lines)):
        return found
    for files, setting in _TOOL_SETTINGS:
        if glob_any(f.path, files) and (line := next((x for x in added if setting.search(x)), None)):
            return f"a build tool setting that names a program it runs at every command: {_quoted(line)}"
    if f.path.rsplit("/", 1)[-1] == ".envrc" and (line := next((x for x in added if not _direnv_quiet(x)), None)):
        return f"a direnv script runs a command in your shell when you enter the folder: {_quoted(line)}"
    return None


def _owner(url: str) -> tuple[str, str] | None:
    m = _OWNER_RE.match(url.removesuffix(".git"))
    return (m.group("host").lower(), m.group("owner").lower()) if m else None


def _submodule_turn(added: list[str], removed: list[str]) -> str | None:
    if (line := next((x for x in added if _SUBMODULE_UPDATE_RE.match(x)), None)):
        return f"a submodule update command (git runs it at git submodule update): {_quoted(line)}"
    urls = [m.group("url") for x in added if (m := _SUBMODULE_URL_RE.match(x))]
    if (ext := next((u for u in urls if u.startswith("ext::")), None)):
        return f"a submodule URL that runs a command (ext::): {_quoted(ext)}"
    before = {o for x in removed if (m := _SUBMODULE_URL_RE.match(x)) and (o := _owner(m.group("url")))}
    for url in urls:
        if before and (now := _owner(url)) and now not in before and not any(now[1] == b[1] for b in before):
            old = next(iter(sorted(before)))
            return f"moves a submodule's source to another owner: {old[0]}/{old[1]} → {now[0]}/{now[1]} ({_quoted(url)})"
    return None
