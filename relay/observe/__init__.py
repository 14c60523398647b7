"""What the worker really changed: git run safely (git), the workspace before the run (snapshot), the
change set after it (changes: the observer; diff: one file's lines in Python; patch: git's patches;
reported: the worker's own list), each run's change kept as a git patch (run_patch). Which of the
changed lines the ranking reads is review's business (relay.review.file_kinds).
"""

__all__: list[str] = []
