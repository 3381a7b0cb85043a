"""Referee and broadcast dashboard for live, in-person game shows."""

__version__ = "0.1.0"
