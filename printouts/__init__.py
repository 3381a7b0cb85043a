"""Printouts: reportlab renderers. Plain print models in, PDF bytes out.

Nothing here imports the rest of the project: callers build the models (frozen dataclasses
of plain strings) from whatever state they hold, and get back the bytes of a PDF that embeds
its Korean font, so it prints the same on a machine with no Korean font installed.
"""

from printouts.document import Section, Signature, render_document
from printouts.fonts import FontNotFoundError, Fonts, register_fonts
from printouts.seat_cards import CARDS_PER_PAGE, SeatCard, SeatCardsModel, render_seat_cards

__all__ = [
    "CARDS_PER_PAGE",
    "FontNotFoundError",
    "Fonts",
    "SeatCard",
    "SeatCardsModel",
    "Section",
    "Signature",
    "register_fonts",
    "render_document",
    "render_seat_cards",
]
