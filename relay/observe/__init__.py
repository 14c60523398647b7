"""What the worker really changed: git run safely (git); the workspace before and after the run as git
trees written with a private index and object store (snapshot); git's diff of the two trees, read into
the change set (changes) and kept as the run's patch (run_patch; read back by patch); files put back
from the before tree (restore); the worker's own list (reported). Which changed lines the ranking
reads is review's business (relay.review.file_kinds).
"""

__all__: list[str] = []
