"""One call, top to bottom: the profile turned into a plan (policy), then the steps of DESIGN.md's path
in order (orchestrate: record, auth, queue, snapshot, worker, observe, verify, review, record).
"""

__all__: list[str] = []
