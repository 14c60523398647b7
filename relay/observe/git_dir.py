"""What the worker planted in the repository's git dir: the files that decide what git runs the next time the
person (or the leader agent) uses git there.

Observation reads the workspace as git trees, and ``.git/`` is in no tree: a worker (in place, or in a worktree run,
whose worktree shares the user's repository's common dir) that writes a hook, or a key into ``.git/config`` that
names a program (``core.fsmonitor``, ``alias.x = !…``, a filter, a pager, a credential helper…), or wires a filter in
``.git/info/attributes``, changed nothing the trees show, and what it planted runs as the user at their next
``git commit`` or ``git status``. Before the run ``keep_git_dir`` keeps those files' bytes beside the snapshot
(they are small); after it ``planted`` compares and names each plant with what it runs and when; ``put_back``
gives back their bytes (a policy revert, ``runs revert``).

Watched: the common dir's ``config``, its ``hooks/`` (``*.sample`` never runs), ``info/attributes``,
``config.worktree`` (the common dir's and the worktree's), the same in each submodule's git dir (``modules/<name>``,
two deep), the folder a ``core.hooksPath`` set before the run names outside the work tree, a nested repository's
``.git`` (the parent's trees fold it), the ``.git`` a worker's ``git init`` makes at the top of a workspace outside
git (watched from nothing) or in any folder (relay.observe.made_git_dirs, ``watch_made``), the user's own
``~/.gitconfig``, XDG ``git/config`` and ``attributes`` and the system's ``/etc/gitconfig`` (named, never put back),
and the files those configs include before the run from outside the work tree (an include added during the run is
itself a finding; an included file of the work tree is observed as any file). Not watched, and never said: what git
writes for itself (the index, refs, objects, logs, ``HEAD``, ``FETCH_HEAD``, ``ORIG_HEAD``, ``COMMIT_EDITMSG``, packed
refs); a config key that names no program (``user.email``, a remote's URL, a branch's upstream).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from relay.core.files import own_folder, read_regular, replace_file, write_own
from relay.observe.git import GitError, run_git

__all__ = ["Plant", "keep_git_dir", "planted", "put_back", "watch_made"]

_log = logging.getLogger("relay.observe.git_dir")

_FOLDER = "git-dir"  # beside the snapshot (its trees folder), with the kept bytes
_MAX_BYTES = 1024 * 1024  # a file larger than this is compared by its hash only, and cannot be put back
_MAX_HOOKS, _MAX_MODULES, _NEVER_RUNS = 200, 64, ".sample"  # hooks and submodules' git dirs watched; never runs

# When git runs each hook: "runs when you next …".
_HOOK_WHEN = {
    "pre-commit": "commit", "prepare-commit-msg": "commit", "commit-msg": "commit", "post-commit": "commit",
    "pre-merge-commit": "merge", "post-merge": "merge or pull", "pre-rebase": "rebase", "post-rewrite": "amend or rebase",
    "post-checkout": "check out or switch a branch (or clone)", "pre-push": "push", "pre-auto-gc": "run a command that "
    "starts an automatic gc", "reference-transaction": "commit, fetch, check out or update any ref",
    "post-index-change": "run a command that writes the index (add, status, checkout)",
    "fsmonitor-watchman": "run git status (with core.fsmonitor set)", "push-to-checkout": "receive a push",
    "applypatch-msg": "run git am", "pre-applypatch": "run git am", "post-applypatch": "run git am",
    "sendemail-validate": "run git send-email", "p4-pre-submit": "run git p4 submit",
}

# The config keys that name a program git runs (or more config that may), and when: (pattern, when).
_RUNNERS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), when) for p, when in (
    (r"core\.fsmonitor", "run git status, diff or add (any command that refreshes the index)"),
    (r"core\.hookspath", "commit, check out, merge or push (its hooks run instead)"),
    (r"core\.pager|pager\..+|color\.pager", "run a git command that pages its output (log, diff, show)"),
    (r"core\.editor|sequence\.editor", "commit, tag or rebase with an editor"),
    (r"core\.sshcommand|ssh\.variant", "fetch, pull or push over ssh"),
    (r"core\.askpass|credential(\..+)?\.helper", "fetch, pull or push with credentials"),
    (r"core\.gitproxy|core\.alternaterefscommand|remote\..+\.(uploadpack|receivepack|vcs|proxy)|protocol\..*allow",
     "fetch, pull or push"),
    (r"alias\..+", "run that alias"),
    (r"filter\..+\.(clean|smudge|process)", "add, check out, diff or status the files its attributes name"),
    (r"diff\.external|diff\..+\.(textconv|command)|interactive\.difffilter", "diff or show"),
    (r"merge\..+\.driver|mergetool\..+\.cmd|merge\.tool|difftool\..+\.cmd|diff\.tool", "merge, pull or rebase"),
    (r"gpg\.(.+\.)?program|gpg\.ssh\.defaultkeycommand|(commit|tag|push)\.gpgsign", "commit or tag (signing)"),
    (r"hook\..+", "run the git command whose event it names (git 2.54+)"),
    (r"include\.path|includeif\..+\.path", "run any git command there (it reads that file's keys as config)"),
    (r"uploadpack\.packobjectshook|receive\.procreceiverefs", "fetch from or push to this repository"),
    (r"submodule\..+\.update", "update submodules"),
    (r"(web\.browser|browser\..+\.(cmd|path)|man\.viewer|man\..+\.(cmd|path)|sendemail\..+)",
     "open help or send mail with git"),
    (r"core\.worktree|extensions\.worktreeconfig", "run any git command there (it changes what git reads)"),
))


@dataclass
class Plant:
    """One file of the git dir the run changed in a way that makes git run something: ``path`` as shown
    (``.git/hooks/pre-commit``), ``file`` its absolute name, ``said`` what it runs and when."""

    path: str
    file: str
    kind: str  # added | modified | deleted
    said: str


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _read(path: str) -> tuple[bytes | None, int]:
    """(its bytes, up to the cap and one more; None when absent or not a regular file, a FIFO never waited on), mode."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None, 0
    if stat.S_ISLNK(mode):
        with contextlib.suppress(OSError):
            return b"symlink:" + os.fsencode(os.readlink(path)), mode
        return None, 0
    try:
        return read_regular(path, _MAX_BYTES + 1), mode
    except OSError:
        return None, mode


def _git_dirs(workspace: str) -> tuple[str, str] | None:
    """(the repository's common dir, this work tree's own git dir), or None where git cannot say (rev-parse: it
    runs nothing the config names)."""
    try:
        out = run_git(Path(workspace), "rev-parse", ["--path-format=absolute", "--git-common-dir", "--absolute-git-dir"])
    except GitError:
        return None
    lines = os.fsdecode(out).splitlines()
    return (lines[0], lines[1]) if len(lines) >= 2 and lines[0] and lines[1] else None


def _config_files(common: str, own: str) -> list[str]:
    return list(dict.fromkeys([os.path.join(common, "config"), os.path.join(common, "config.worktree"),
                               os.path.join(own, "config.worktree")]))


def _entries(data: bytes | None, scratch: str) -> list[tuple[str, str]] | None:
    """(key, value) of a config file's bytes, read by git from a copy in ``scratch`` (no includes followed, nothing
    run); [] for no file, None when git cannot read it."""
    if not data:
        return []
    fd, copy = tempfile.mkstemp(prefix="config-", dir=scratch)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        out = run_git(Path(scratch), "config", ["-z", "--list", "--no-includes", f"--file={copy}"])
    except (GitError, OSError):
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(copy)
    entries = []
    for record in out.split(b"\0"):
        if record:
            key, _, value = os.fsdecode(record).partition("\n")
            entries.append((key, value))
    return entries


def _pointers(data: bytes | None, scratch: str) -> list[tuple[str, str]] | None:
    """``_entries`` of a config that may name other files (an include, a hooks folder); [] without git's help for
    one whose text names neither (most: a git call spared before every run)."""
    return _entries(data, scratch) if data and re.search(rb"(?i)include|hookspath", data) else []


def _includes(entries: list[tuple[str, str]] | None, config_file: str) -> list[str]:
    """The files a config's include keys name, as git resolves them (relative to the config's folder, ``~``)."""
    found = []
    for key, value in entries or []:
        if re.fullmatch(r"include\.path|includeif\..+\.path", key, re.IGNORECASE) and value:
            path = os.path.expanduser(value)
            found.append(os.path.normpath(os.path.join(os.path.dirname(config_file), path)))
    return found


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _runner(key: str) -> str | None:
    return next((when for pattern, when in _RUNNERS if pattern.fullmatch(key)), None)


def _shown(file: str, common: str, workspace: str) -> str:
    """A git dir file as the packet names it: from the workspace where it lies in it or in the repository around it
    (``.git/hooks/x``, ``vendor/lib/.git/config``; a sub-folder run's ``../.git/hooks/x``), else from the common dir's
    own name (a worktree run's ``.git/hooks/x``), else whole."""
    top = os.path.dirname(common.rstrip(os.sep)) if common else ""
    for base, head in ((workspace, ""), (common, os.path.basename(common.rstrip(os.sep)) + "/")):
        rel = os.path.relpath(file, base) if base else ".."
        if not rel.startswith("..") or (not head and top and _under(workspace, top) and _under(file, top)):
            return (head + rel).replace(os.sep, "/")
    home = os.path.expanduser("~")
    return "~/" + os.path.relpath(file, home).replace(os.sep, "/") if _under(file, home) and file != home else file


def _listed(folder: str) -> list[str]:
    """The files of a hooks folder (none through a link: that is said on its own)."""
    try:
        names = sorted(os.listdir(folder)) if not os.path.islink(folder) else []
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names[:_MAX_HOOKS]]


def _module_dirs(common: str) -> list[str]:
    """The git dirs of the submodules (``modules/<name>``, and theirs, two deep): their hooks run in the submodule."""
    found, stack = [], [(os.path.join(common, "modules"), 0)]
    while stack and len(found) < _MAX_MODULES:
        folder, depth = stack.pop()
        for sub in _listed(folder):
            if os.path.isfile(os.path.join(sub, "config")) and not os.path.islink(sub):
                found.append(sub)
                if depth < 1:
                    stack.append((os.path.join(sub, "modules"), depth + 1))
            elif os.path.isdir(sub) and not os.path.islink(sub) and depth < 2:
                stack.append((sub, depth + 1))  # a submodule named with a slash: modules/lib/x
    return found


def _layout(common: str, own: str, workspace: str, scratch: str) -> dict[str, list[str]]:
    """What to watch: the config files, the attributes files, the hooks folders (the common dir's, each submodule's,
    and the folder a ``core.hooksPath`` outside the work tree names), and the files the configs include from outside
    the work tree (a file of the work tree is in the trees: observed, policy-checked and reverted as any file)."""
    git_dirs = [common, *_module_dirs(common)]
    configs = list(dict.fromkeys([*_config_files(common, own), *(os.path.join(g, "config") for g in git_dirs[1:])]))
    tree = os.path.realpath(workspace)
    top = os.path.dirname(common.rstrip(os.sep)) if os.path.basename(common.rstrip(os.sep)) == ".git" else tree
    outside = lambda f: not _under(os.path.realpath(f), tree) or _under(f, common) or _under(f, own)  # noqa: E731
    includes, hook_dirs = [], [os.path.join(g, "hooks") for g in git_dirs]
    for config in configs:
        entries = _pointers(_read(config)[0], scratch)
        includes += [f for f in _includes(entries, config) if outside(f)]
        hook_dirs += [f for key, value in entries or [] if key.lower() == "core.hookspath" and value
                      and outside(f := os.path.normpath(os.path.join(top, os.path.expanduser(value))))]
    return {"configs": configs, "includes": list(dict.fromkeys(includes)), "hook_dirs": list(dict.fromkeys(hook_dirs)),
            "attributes": [os.path.join(g, "info", "attributes") for g in git_dirs]}


def _global_layout(scratch: str) -> dict[str, list[str]]:
    """The config every repository reads: the user's (``~/.gitconfig``, ``git/config`` under ``~/.config`` and
    ``$XDG_CONFIG_HOME``: the person's shell may read the other), the system's (``/etc/gitconfig``, ``GIT_CONFIG_SYSTEM``:
    a worker running as root plants there for all), the attributes files, what they include and the ``core.hooksPath``
    folder they name: a program named there runs at the user's next git command anywhere. A read each."""
    xdgs = list(dict.fromkeys(os.path.join(base, "git") for base in (os.path.expanduser("~/.config"),
                                                                      os.environ.get("XDG_CONFIG_HOME")) if base))
    configs = [os.path.expanduser("~/.gitconfig"), *(os.path.join(x, "config") for x in xdgs),
               os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
    includes, hook_dirs = [], []
    for config in configs:
        entries = _pointers(_read(config)[0], scratch)
        includes += _includes(entries, config)
        hook_dirs += [os.path.expanduser(value) for key, value in entries or []
                      if key.lower() == "core.hookspath" and os.path.isabs(os.path.expanduser(value))]
    return {"configs": configs, "includes": includes, "hook_dirs": hook_dirs,
            "attributes": [os.path.join(x, "attributes") for x in xdgs]}


def keep_git_dir(workspace: str, snapshot_dir: str, nested: list[str] | None = None,
                 resolved: dict[str, tuple[str, str]] | None = None, *, known: dict | None = None) -> None:
    """Before the run: the watched files of the workspace's git dir (and of the ``nested`` repositories' inside it,
    which the parent's trees fold), kept beside the snapshot. Never raises (the snapshot goes on): a git dir that could
    not be kept is not watched, and the log says so. ``known``: what the snapshot's rev-parse named."""
    try:
        _keep(workspace, snapshot_dir, [*(nested or []), *(resolved or {})], {**(known or {}), **(resolved or {})})
    except OSError as exc:
        _log.warning("the git dir of %s could not be kept before the run; its hooks and config are not watched: %s",
                     workspace, exc)


def _what_is(dot_git: str) -> str:
    """A top level's ``.git`` as git finds it: a folder, a file (``gitdir: …``, its text), a link (its target)."""
    with contextlib.suppress(OSError):
        if os.path.islink(dot_git):
            return "a link to " + os.readlink(dot_git)
        if os.path.isdir(dot_git):
            return "folder"
        return "a file saying " + read_regular(dot_git, 4096).decode("utf-8", "replace").strip()[:200]
    return "gone"


def _merge(layout: dict[str, list[str]], found: dict[str, list[str]]) -> None:
    """Each list of ``found`` added to ``layout``'s, in order, once."""
    for key, paths in found.items():
        layout[key] = list(dict.fromkeys([*layout[key], *paths]))


def _keep(workspace: str, snapshot_dir: str, nested: list[str], resolved: dict[str, tuple[str, str]]) -> None:
    keep = str(own_folder(Path(snapshot_dir, _FOLDER)))  # in the data dir: never a link planted in its place
    layout: dict[str, list[str]] = {"configs": [], "includes": [], "hook_dirs": [], "attributes": []}
    common, dot_gits = "", {}
    for root in [workspace, *nested]:  # ``resolved``: read as text (relay.observe.git_dirs_named), no git run
        dirs = resolved.get(root) or _git_dirs(root)
        if dirs is None:
            continue
        common = common or dirs[0]
        if os.path.basename(dirs[1].rstrip(os.sep)) == ".git":  # in place: the top's .git is the git dir itself
            dot_git = dirs[1].rstrip(os.sep)
            dot_gits[dot_git] = _what_is(dot_git)
        _merge(layout, _layout(*dirs, root, keep))
    if not common:  # no repository (yet): the .git a worker's `git init` makes at the top is watched from nothing
        common = dot_git = os.path.join(os.path.realpath(workspace), ".git")
        dot_gits[dot_git] = _what_is(dot_git)
        _merge(layout, _layout(common, common, workspace, keep))
    own_files = _global_layout(keep)  # the user's own: named, never put back (relay.observe.git_dir.put_back)
    _merge(layout, own_files)
    watched = [*layout["configs"], *layout["includes"], *layout["attributes"],
               *(f for folder in layout["hook_dirs"] for f in _listed(folder))]
    files: dict[str, dict] = {}
    for i, path in enumerate(dict.fromkeys(watched)):
        data, mode = _read(path)
        entry = {"sha": _digest(data), "mode": mode}
        if data is not None and len(data) <= _MAX_BYTES:
            write_own(os.path.join(keep, str(i)), data)
            entry["kept"] = str(i)
        files[path] = entry
    state = {"common": common, "workspace": os.path.realpath(workspace), "files": files, **layout, "dot_git": dot_gits,
             "users": [f for found in own_files.values() for f in found],
             "real": {folder: os.path.realpath(folder) for folder in layout["hook_dirs"]},
             "tops": [os.path.realpath(r) for r in [workspace, *nested] if os.path.lexists(os.path.join(r, ".git"))]}
    _save(keep, state)


def _save(keep: str, state: dict) -> None:
    write_own(tmp := os.path.join(keep, "state.json.tmp"), json.dumps(state).encode("utf-8"))
    replace_file(tmp, os.path.join(keep, "state.json"))


def watch_made(snapshot_dir: str, made: dict[str, tuple[str, str]]) -> None:
    """After the run: each ``.git`` the worker made in a folder of the workspace (relay.observe.made_git_dirs), with
    the (common, own) git dir it names, watched from nothing from now on (every file of it is "added"); the state
    says so, for ``runs revert`` too. A folder that held a ``.git`` before the run is not new."""
    state = _state(snapshot_dir)
    tops, dot_gits = set((state or {}).get("tops", [])), (state or {}).get("dot_git", {})
    new = {g: dirs for g, dirs in made.items()
           if g not in dot_gits and os.path.realpath(os.path.dirname(g)) not in tops}
    if state is None or not new:
        return
    keep = os.path.join(snapshot_dir, _FOLDER)
    layout = {key: list(state.get(key, [])) for key in ("configs", "includes", "hook_dirs", "attributes")}
    for dot_git, (common, own) in new.items():
        dot_gits[dot_git] = "gone"
        _merge(layout, _layout(common, own, os.path.dirname(dot_git), keep))
    state.update(layout, dot_git=dot_gits, real={f: state.get("real", {}).get(f) or os.path.realpath(f)
                                                 for f in layout["hook_dirs"]})
    _save(keep, state)


def _state(snapshot_dir: str) -> dict | None:
    try:
        with open(os.path.join(snapshot_dir, _FOLDER, "state.json"), encoding="utf-8") as fh:
            state = json.load(fh)
        return state if isinstance(state, dict) and isinstance(state.get("files"), dict) else None
    except (OSError, ValueError):
        return None


def _kept(snapshot_dir: str, entry: dict | None) -> bytes | None:
    name = (entry or {}).get("kept")
    if not isinstance(name, str) or not name.isdigit():
        return None
    try:
        return read_regular(os.path.join(snapshot_dir, _FOLDER, name))
    except OSError:
        return None


def _config_said(before: list[tuple[str, str]] | None, now: list[tuple[str, str]] | None,
                 included: list[tuple[str, str]], shown: str) -> str | None:
    """The sentence naming the keys that name a program, added or changed between two reads of one config file
    (None when no such key was): the keys first, then what the first runs and when."""
    if now is None:
        return f"changes {shown} so that git cannot read it (every git command there fails until it is fixed)"
    old = set(before or [])
    found: list[tuple[str, str, str]] = []
    for key, value in [*now, *included]:
        when = _runner(key)
        if when is None and value.startswith("!"):
            when = "run what names it (a shell command)"
        if when is not None and (key, value) not in old:
            found.append((key, value, when))
    if not found:
        return None
    keys = list(dict.fromkeys(k for k, _, _ in found))
    key, value, when = found[0]
    named = ", ".join(keys[:4]) + (f" (+{len(keys) - 4} more)" if len(keys) > 4 else "")
    return f"adds {named} to {shown}: {key} runs {value[:60]!r} when you next {when}"


def planted(snapshot_dir: str) -> list[Plant]:
    """After the run: each watched file whose change makes git run something, and what (see the module's doc)."""
    state = _state(snapshot_dir)
    if state is None:
        return []
    common, files, workspace = state["common"], state["files"], state.get("workspace", "")
    hook_dirs, attributes = state.get("hook_dirs", []), state.get("attributes", [])
    scratch = os.path.join(snapshot_dir, _FOLDER)
    found: list[Plant] = []
    for folder, real in state.get("real", {}).items():
        if os.path.islink(folder) or os.path.realpath(folder) != real:
            found.append(Plant(_shown(folder, common, workspace), folder, "modified",
                               f"hooks folder replaced by a link to {os.path.realpath(folder)}: its hooks run when you "
                               "next commit, check out, merge or push"))
    for dot_git, was in state.get("dot_git", {}).items():
        # git there now reads another repository's hooks and config (a .git gone runs nothing: said as deleted files)
        if (now := _what_is(dot_git)) != was and now.startswith(("a file", "a link")):
            shown = _shown(dot_git, common, workspace)
            what = f"adds {shown}, {now}" if was == "gone" else f"replaces {shown} ({was}) with {now}"
            found.append(Plant(shown, dot_git, "added" if was == "gone" else "modified", f"{what}: git there now runs "
                               "that repository's hooks and config when you next commit, check out or status"))
    listed = (f for folder in hook_dirs for f in _listed(folder))
    for path in dict.fromkeys([*files, *state.get("configs", []), *attributes, *listed]):
        entry = files.get(path)
        data, _ = _read(path)
        if _digest(data) == (entry or {}).get("sha"):
            continue
        kind = "added" if not (entry or {}).get("sha") else "deleted" if data is None else "modified"
        name, shown = os.path.basename(path), _shown(path, common, workspace)
        if os.path.dirname(path) in hook_dirs:
            if name.endswith(_NEVER_RUNS):
                continue
            when = _HOOK_WHEN.get(name, "run the git command that fires it")
            said = (f"removes the {name} hook (it ran when you {when})" if kind == "deleted" else
                    f"{'adds a' if kind == 'added' else 'changes the'} {name} hook: runs when you next {when}")
            found.append(Plant(shown, path, kind, said))
        elif path in attributes:
            lines = (data or b"").decode("utf-8", "replace").splitlines()
            old = set((_kept(snapshot_dir, entry) or b"").decode("utf-8", "replace").splitlines())
            wired = [ln.strip() for ln in lines if ln not in old and re.search(r"\b(filter|diff|merge)=", ln)]
            said = (f"wires {wired[0][:120]}: the program its config names runs when you next add, check out or diff "
                    "those files" if wired else "changes the attributes git applies to every file of the repository")
            found.append(Plant(shown, path, kind, said))
        elif data is not None and data.startswith(b"symlink:"):  # git follows it: its keys are another file's
            found.append(Plant(shown, path, kind, f"replaces {shown} with a link to {os.fsdecode(data[8:])[:120]}: git "
                               "reads that file's keys, whatever programs they name"))
        else:  # a config file, or a file one includes
            now = _entries(data, scratch)
            included = [e for inc in _includes(now, path) if inc not in files
                        for e in (_entries(_read(inc)[0], scratch) or [])]
            said = _config_said(_entries(_kept(snapshot_dir, entry), scratch), now, included, shown)
            if said:
                found.append(Plant(shown, path, kind, said))
    return found


def _own_folder(folder: str, common: str) -> bool:
    """Is ``folder`` where it was (no link on the way from the common dir, or none at all for a file outside it)?"""
    if os.path.islink(folder):
        return False
    rel = os.path.relpath(folder, common) if common else ".."
    if rel.startswith(".."):
        return True
    return os.path.realpath(folder) == os.path.normpath(os.path.join(os.path.realpath(common), rel))


def _git_dirs_of(state: dict) -> list[str]:
    """The git dirs the kept state names (the common dir, each top's ``.git``) that are git dirs now (a ``HEAD`` file
    in them): the only folders ``put_back`` writes in. The state file lies in the data dir: whoever writes it must not
    have a revert unlink or write a file elsewhere (an include or a hooks folder outside is named, never put back)."""
    named = [state.get("common"), *state.get("dot_git", {})]
    return [g for g in dict.fromkeys(named) if isinstance(g, str) and g and not os.path.islink(g)
            and os.path.isfile(os.path.join(g, "HEAD"))]


def put_back(snapshot_dir: str, shown: list[str]) -> tuple[list[str], dict[str, str]]:
    """Each plant named in ``shown`` (as ``planted`` names them) given back its bytes and mode from before the run (an
    added one removed): (put back, not put back: why). A file is written only in the folder it was in before the run
    (never through a link the worker made of a folder), and never in the user's own config (``~/.gitconfig``: they
    may have changed it meanwhile)."""
    state = _state(snapshot_dir) or {"files": {}}
    git_dirs = _git_dirs_of(state)
    restored: list[str] = []
    left: dict[str, str] = {}
    for plant in [p for p in planted(snapshot_dir) if p.path in shown]:
        entry = state["files"].get(plant.file)
        folder = os.path.dirname(plant.file)
        try:
            if (was := state.get("dot_git", {}).get(plant.file)) is not None:
                raise OSError("a .git the run made: not removed (remove it yourself)" if was == "gone" else
                              "the repository's .git was replaced: not put back (move your git dir back yourself)")
            if any(_under(plant.file, own) for own in state.get("users", [])):
                raise OSError("your own git config, outside the repository: not put back (look at it yourself)")
            if not any(_under(plant.file, g) for g in git_dirs):
                raise OSError("outside the repository's git dir: not put back (look at it yourself)")
            if not _own_folder(folder, state.get("common", "")):
                raise OSError("its folder was replaced by a link")
            if not (entry or {}).get("sha"):
                if os.path.lexists(plant.file):
                    os.unlink(plant.file)
            else:
                data = _kept(snapshot_dir, entry)
                if data is None:
                    raise OSError("its bytes were not kept (larger than 1 MB)")
                fd, tmp = tempfile.mkstemp(prefix=".gravity-relay-", dir=folder)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.chmod(tmp, stat.S_IMODE(entry.get("mode") or 0o644))
                replace_file(tmp, plant.file)
            restored.append(plant.path)
        except OSError as exc:
            left[plant.path] = str(exc.strerror or exc)
    return restored, left
