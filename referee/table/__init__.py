"""The runtime of one live table: commands, the log, corrections. No Flask, no Redis."""

from .runtime import Ack, Folded, Table, audience_log, audience_view, fold

__all__ = ["Ack", "Folded", "Table", "audience_log", "audience_view", "fold"]
