"""`gravity-relay demo`: one real task through the whole relay with a scripted stand-in for agy (worker).
"""

__all__: list[str] = []
