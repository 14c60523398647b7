"""What the worker really changed: git run safely (git), the workspace before the run (snapshot), the
change set after it (changes: the observer; diff: one file's lines in Python; patch: git's patches;
reported: the worker's own list), each run's change kept as a git patch (run_patch), what kind each file is and which changed lines are kept
(file_kinds), and what those lines say (code_reading: tests and mechanical edits; security_reading;
line_shapes, what both share).
"""

__all__: list[str] = []
