"""Isolation: the worker in a pooled git worktree, its change kept on a branch, applied on request.

repo     what a workspace's repository is (toplevel, common dir, HEAD), or why it cannot be isolated
pool     worktrees reused per repository, leased under a lock; the change recorded on the run's branch
pool_git the pool's git: the repository's config, none of the system's or the user's
leftovers what the pool holds that no run owns (doctor, cleanup)
trees    a run's kept before and after trees: the observed, checked change apply writes
merge    the three-way apply of a run's change into the user's tree (all or nothing)
"""

__all__: list[str] = []
