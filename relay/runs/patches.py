"""``gravity-relay runs revert``: undo a run by reverse-applying its patch, all or nothing.

The patch (``relay.observe.run_patch``) holds the worker's change only, so reversing it brings
back exactly what the workspace held before the run, the user's own earlier edits included.
``git apply -R --check`` runs first and nothing is written unless the whole patch applies; when
a file moved on since the run (edited, deleted, recreated), the refusal names it. A patch that
does not hold the whole run (its header says ``not in this patch`` or ``cut``) is refused too:
a revert that restores part of a run would be a new state nobody asked for.

git runs as everywhere in the relay (``relay.observe.git``): pinned safe config, no inherited ``GIT_*``, its
own group. Outside a repository ``git apply`` works as a plain patch tool; inside one, from its top level with
``--directory`` set to the workspace's folder (a git patch's paths are top-level relative), touching the work
tree only, and reading no config of the repository's (``relay.observe.configless``: a worker running meanwhile
may write that config; your line-ending settings are read and passed on).
"""

from __future__ import annotations

import os
import re
import contextlib
import shlex
import subprocess
from functools import partial
from pathlib import Path

import msgspec

from relay.core.contracts import RunRecord, Status
from relay.core.errors import Busy, InvalidInput, InvalidWorkspace, NotFound, RelayError
from relay.core.files import read_regular
from relay.core.settings import Settings, load_settings
from relay.core.workspace import recorded_workspace
from relay.observe.permissions import kept_sizes
from relay.isolate.apply_temps import ledgered_temps
from relay.observe.restore import restore_endings
from relay.observe.snapshot import load_snapshot
from relay.observe.configless import configless
from relay.observe.git import GitError, git_answer, run_git
from relay.observe.git_dir import planted, put_back
from relay.observe.run_patch import Section, split_patch, unquote_path
from relay.runs.made_repos import check_made, made_folders, remove_made
from relay.runs.results import status_of
from relay.runs.store import RunStore

__all__ = ["RevertResult", "revert_run", "revert_actions"]


class RevertResult(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What a revert did (or, with ``dry_run``, would do), one line per file."""

    run_id: str
    workspace: str
    patch: str
    dry_run: bool = False
    reverted: bool = False
    actions: list[str] = []


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def revert_actions(sections: list[Section]) -> list[str]:
    """What reversing each file section does, in words."""
    actions = []
    for s in sections:
        head = s.head
        if b"\nnew file mode " in head:
            actions.append(f"delete {s.path} (the run created it)")
            continue
        if b"\ndeleted file mode " in head:
            actions.append(f"restore {s.old_path} (the run deleted it)")
            continue
        parts = []
        if s.path != s.old_path:
            parts.append(f"rename {s.path} back to {s.old_path}")
        mode = re.search(rb"\nold mode (\d+)\n", head)
        if mode:
            parts.append(f"set the mode of {s.old_path} back to {mode.group(1).decode()}")
        if s.binary is not None:
            parts.append(f"restore the earlier bytes of {s.old_path} (binary, {s.binary[0]:,} bytes)")
        elif s.hunks:
            parts.append(f"undo {_count(len(s.hunks), 'hunk')} in {s.old_path}")
        actions.append("; ".join(parts) or f"{s.path}: nothing to undo")
    return actions


_FAILED = [
    re.compile(r"^error: patch failed: (?P<name>.+):\d+$"),
    re.compile(r"^error: (?P<name>.+): (?:patch does not apply|already exists in working directory|No such file or "
               r"directory|does not exist in index|wrong type|has type \d+, expected \d+|does not match index)$"),
    re.compile(r"^error: the patch applies to '(?P<name>.+)' \([0-9a-f]+\), which does not match the current contents\.$"),
]


def _failed_files(stderr: str) -> list[str]:
    names: list[str] = []
    for line in stderr.splitlines():
        for pattern in _FAILED:
            match = pattern.match(line.strip())
            if match:
                name = match.group("name")
                if name.startswith('"'):
                    name = os.fsdecode(unquote_path(os.fsencode(name)))
                if name not in names:
                    names.append(name)
                break
    return names


def _where(workspace: Path) -> tuple[Path, list[str], bool]:
    """(where git apply runs, its --directory option, whether that is a repository's top level): the repository's
    top level when the workspace is in one, else the workspace itself."""
    try:
        out = run_git(workspace, "rev-parse", ["--show-toplevel", "--show-prefix"])
    except GitError:
        return workspace, [], False
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) < 2 or not lines[0]:
        return workspace, [], False
    top, prefix = Path(lines[0]), lines[1]
    return top, [f"--directory={prefix}"] if prefix else [], True


def _apply(cwd: Path, options: list[str], in_repo: bool, patch: bytes) -> subprocess.CompletedProcess:
    """``git apply`` of ``patch`` (on stdin) in ``cwd``; in a repository, reading no config of the repository's."""
    try:
        with contextlib.ExitStack() as stack:
            env, config = stack.enter_context(configless(cwd)) if in_repo else (None, [])
            code, out, err = git_answer(cwd, "apply", ["--whitespace=nowarn", *options], config=config, env=env,
                                        input=patch)
    except (GitError, OSError) as exc:
        raise RelayError(Status.SPAWN_ERROR, f"git apply could not run in {cwd}: {exc}",
                         "Nothing was written if the check did not run. Install git if it is missing; a revert is "
                         "`git apply -R`; then try again.") from None
    return subprocess.CompletedProcess(["git", "apply", *options], code, out, err)


def _refuse_while_a_worker_runs_there(store: RunStore, workspace: str) -> None:
    """A worker editing the workspace while its files are put back would leave neither state."""
    for other in store.active_ids():
        try:
            record = store.read(other)
        except RelayError:
            continue
        if record.plan.workspace == workspace and status_of(record) is Status.RUNNING:
            raise Busy(f"run {other} is working in {workspace} now; a revert would race its edits",
                       "Revert after that run ends (or antigravity_cancel it first). Nothing was changed.")


def _by_hand(cwd: Path, directory: list[str], patch: Path, *options: str) -> str:
    """The git command that does by hand what the refusal would not."""
    return shlex.join(["git", "-C", str(cwd), "apply", "-R", *options, *directory, str(patch)])


def _what_to_reverse(store: RunStore, record: RunRecord) -> tuple[bytes | None, Path]:
    """(the patch a revert reverses, its file): the run's own, or, when `runs apply` brought the run's whole chain
    of continues, what that apply wrote (kept then: the run's own patch holds only its own turn, issue 34)."""
    if not record.isolation.applied_from:
        return store.read_patch(record.run_id), store.patch_path(record.run_id)
    path = store.applied_patch_path(record.run_id)
    try:
        return read_regular(path), path
    except OSError as exc:
        raise NotFound(f"run {record.run_id} was applied with the runs it continues (from "
                       f"{record.isolation.applied_from}), but what that apply wrote ({path}) cannot be read: "
                       f"{exc.strerror or exc}",
                       "Nothing was changed. Undo the applied files by hand (git checkout / your backup).") from None


def revert_run(store: RunStore, run_id: str, *, dry_run: bool = False, settings: Settings | None = None) -> RevertResult:
    """Reverse-apply run ``run_id``'s patch to its workspace; refuse, changing nothing, when it does not apply whole.
    ``settings``: what workspaces the relay accepts (default: this process's environment's)."""
    record = store.read(run_id)
    if status_of(record) is Status.RUNNING:
        raise Busy(f"run {run_id} is still running", "Revert it after it ends (or antigravity_cancel it first).")
    if record.isolation.applied_with:
        # Later runs of the chain build on this one's change: reversing it alone would cut under theirs.
        raise InvalidInput(f"run {run_id}'s change reached {record.plan.workspace} with the apply of run "
                           f"{record.isolation.applied_with}, which continues it: the two are one change there",
                           f"Nothing was changed. Revert that run: `gravity-relay runs revert "
                           f"{record.isolation.applied_with}` undoes the whole chain's change.")
    if record.isolation.branch and not record.isolation.applied_at:
        # An isolated run's change is on its branch only: the user's tree never had it (issue 10, worktree).
        raise RelayError(Status.INVALID_WORKSPACE,
                         f"run {run_id} ran in a worktree and was never applied: its change is only on branch "
                         f"{record.isolation.branch}, so there is nothing to revert in {record.plan.workspace}",
                         "Nothing was changed. To drop the change, leave it unapplied (retention deletes the branch) "
                         f"or delete it: git branch -D {record.isolation.branch}")
    patch, patch_path = _what_to_reverse(store, record)
    if patch is None:
        why = "it changed no files" if not record.observation.changes else (
            "it ran before patches were kept, its changes came from the worker's report only, or patches were off "
            "(GRAVITY_RELAY_PATCH_MAX_SIZE=0)")
        raise NotFound(f"run {run_id} has no patch ({patch_path}): {why}",
                       "Nothing to revert from the relay's side; `gravity-relay runs show RUN_ID --detail full` lists "
                       "the files it changed.")
    if not record.plan.workspace or not os.path.isdir(record.plan.workspace):
        raise InvalidWorkspace(f"run {run_id}'s workspace {record.plan.workspace!r} is not a folder any more",
                               "Nothing was changed. Restore the folder first, or apply the patch by hand: "
                               f"git apply -R {patch_path}")
    settings = settings or load_settings()
    recorded_workspace(run_id, record.plan.workspace, settings)
    cwd, directory, in_repo = _where(Path(record.plan.workspace))
    header, sections = split_patch(patch)
    made, partial = made_folders(header)  # a repository the run made in a new folder: removed whole (made_repos)
    if partial:
        raise RelayError(Status.INVALID_WORKSPACE,
                         f"run {run_id}'s patch does not hold the whole run, so it cannot undo it: {'; '.join(partial)}"[:2000],
                         "Nothing was changed. Restore those files yourself (git checkout / your backup); the rest can "
                         f"be reversed by hand: {_by_hand(cwd, directory, patch_path)}")
    result = RevertResult(run_id=run_id, workspace=record.plan.workspace, patch=str(patch_path), dry_run=dry_run,
                          actions=revert_actions(sections) + [f"remove {f}/ (a repository the run made)" for f in made])
    if made:
        _refuse_while_a_worker_runs_there(store, record.plan.workspace)
        check_made(store, record, made)
    if not sections:
        if made and not dry_run:
            result.reverted = True
            result.actions = _git_dir_back(store, record) + remove_made(record.plan.workspace, made)
        return result
    _refuse_while_a_worker_runs_there(store, record.plan.workspace)
    check = _apply(cwd, ["-R", "--check", *directory], in_repo, patch)
    if check.returncode != 0:
        stderr = check.stderr.decode("utf-8", "replace")
        forward = _apply(cwd, ["--check", *directory], in_repo, patch)
        if forward.returncode == 0:
            raise RelayError(Status.INVALID_WORKSPACE,
                             f"run {run_id} looks reverted already: its patch applies forward, not backward, in "
                             f"{record.plan.workspace}", "Nothing was changed.")
        prefix = directory[0].split("=", 1)[1] if directory else ""
        # Named as the packet names them: relative to the workspace, not to the repository's top.
        files = [f[len(prefix):] if prefix and f.startswith(prefix) else f for f in _failed_files(stderr)]
        named = ", ".join(files[:20]) + (f" (+{len(files) - 20} more)" if len(files) > 20 else "")
        detail = f"these files changed since the run: {named}" if files else \
            f"git apply -R --check refused: {' '.join(stderr.split())[:600]}"
        raise RelayError(Status.INVALID_WORKSPACE, f"cannot revert run {run_id}: {detail}",
                         "Nothing was changed. Undo the later edits to those files, then run the revert again; or "
                         f"reverse what still applies by hand: {_by_hand(cwd, directory, patch_path, '--reject')} "
                         "(it leaves a .rej file beside each file it could not undo).")
    if dry_run:
        return result
    done = _apply(cwd, ["-R", *directory], in_repo, patch)
    if done.returncode != 0:  # the check passed a moment ago: something wrote in between
        stderr = " ".join(done.stderr.decode("utf-8", "replace").split())[:600]
        raise RelayError(Status.INVALID_WORKSPACE, f"cannot revert run {run_id}: git apply -R refused after its check "
                         f"passed ({stderr})", "git apply writes all or nothing; check the workspace and try again.")
    result.reverted = True
    result.actions += [f"put back the line endings {p} had before the run"
                       for p in _endings(store, record, sections, settings.data_dir)]
    result.actions += _git_dir_back(store, record)
    if made:
        result.actions = [a for a in result.actions if not a.endswith("(a repository the run made)")]
        result.actions += remove_made(record.plan.workspace, made)
    return result


def _git_dir_back(store: RunStore, record: RunRecord) -> list[str]:
    """What the run planted in the repository's git dir (a hook, a key that runs a program: no patch holds them),
    given back its bytes from before the run; only the files its record names (a hook you added since stays)."""
    folder = str(store.trees_path(record.run_id))
    named = {c.path for c in record.observation.changes}
    restored, left = put_back(folder, [p.path for p in planted(folder) if p.path in named])
    return ([f"put back {p} as it was before the run (the run planted in the git dir)" for p in restored]
            + [f"could not put back {p} ({why}): look at it yourself" for p, why in left.items()])


def _endings(store: RunStore, record: RunRecord, sections: list[Section], data_dir: Path) -> list[str]:
    """git apply wrote each file as git checks it out with your settings; the files whose bytes before the run
    differed from that in line endings only (CRLF kept under ``core.autocrlf``, mixed endings) get them back from
    the run's snapshot (issue 37, W11). Not for a worktree run: its snapshot is of its worktree."""
    snapshot = load_snapshot(store.trees_path(record.run_id))
    if snapshot is None or not any(r.converts for r in snapshot.repos()) or \
            os.path.realpath(snapshot.workspace) != os.path.realpath(record.plan.workspace):
        return []
    paths = [s.old_path for s in sections if b"\nnew file mode " not in s.head]
    return restore_endings(snapshot, paths, kept_sizes(str(store.trees_path(record.run_id))),
                           temps=partial(ledgered_temps, data_dir))  # a revert killed mid-write: cleanup removes its temps
