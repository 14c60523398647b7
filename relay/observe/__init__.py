"""What the worker really changed: git run safely (git), the workspace before the run (snapshot), the
change set after it (changes), what kind each file is and which changed lines are kept (file_kinds,
code_reading).
"""

__all__: list[str] = []
