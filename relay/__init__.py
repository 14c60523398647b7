"""Gravity Relay: delegate implementation to the Antigravity CLI, get back a compact review packet."""

__version__ = "0.1.0"

__all__ = ["__version__"]
