"""Print models built from a show, handed to the reportlab renderers in ``printouts``."""

from __future__ import annotations

from printouts.seat_cards import SeatCard, SeatCardsModel, render_seat_cards

from .service import Service


def seat_cards_pdf(service: Service, show: str) -> bytes:
    """One card per player of the show: name, seat, QR of the phone link, fallback code."""
    info = service.shows.info(show)
    seats: dict[str, str] = {}
    for table_id in info["tables"]:  # the latest table that seats a player names the seat
        table = service.table(table_id)
        for seat, name in enumerate(table.seats):
            seats[name] = f"{seat + 1}번 자리 · {table.game.title.ko} / Seat {seat + 1} · {table.game.title.en}"
    cards = tuple(
        SeatCard(
            player=link["name"],
            seat_label=seats.get(link["name"], f"{link['player'] + 1}번 선수 / Player {link['player'] + 1}"),
            table_label=info["name"],
            url=link["url"],
            code=link["code"],
        )
        for link in service.links(show)
    )
    return render_seat_cards(SeatCardsModel(show_name=info["name"], cards=cards, join_url=f"{service.base_url()}/join"))
