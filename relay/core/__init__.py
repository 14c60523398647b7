"""The ground every part stands on: the typed contracts (tool inputs, profiles, run records, packets),
the error type, settings read once from the environment, JSON schemas, child processes and their
identity, atomic file writes, redaction. Imports nothing else of the relay.
"""

__all__: list[str] = []
