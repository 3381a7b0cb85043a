"""Print models built from a show, handed to the reportlab renderers in ``printouts``."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from printouts.document import Section, render_document
from printouts.seat_cards import SeatCard, SeatCardsModel, render_seat_cards
from referee.kernel import Audience, RuleError

from .service import COMMON_SHEETS, Service


def seat_cards_pdf(service: Service, show: str) -> bytes:
    """One card per player of the show: name, seat, QR of the phone link, fallback code."""
    info = service.shows.info(show)
    seats: dict[str, str] = {}
    for table_id in info["tables"]:  # the latest table that seats a player names the seat
        table = service.table(table_id)
        if table.game.program:
            continue  # a program seats everyone: the matches name the seats
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


def _both(text: Any) -> str:
    if isinstance(text, dict):
        ko, en = text.get("ko", ""), text.get("en", "")
        return ko if not en or en == ko else f"{ko} / {en}"
    return "" if text is None else str(text)


def table_sheet_pdf(service: Service, show: str, table_id: str, sheet: str) -> bytes:
    """A printable sheet of one table: the audit report, the results, or a game's own sheet."""
    if table_id not in service.shows.tables(show):
        raise RuleError("show/no_table", f"이 쇼의 테이블이 아닙니다: {table_id!r}", f"Not a table of this show: {table_id!r}")
    table = service.table(table_id)
    view = table.view(Audience.dealer())
    info = service.shows.info(show)
    subtitle = f"{info['name']} · {_both(view['title'])} · {table_id} · v{view['version']}"
    if sheet == "audit":
        return render_document(_both(COMMON_SHEETS["audit"]), _audit(table.log(Audience.dealer()), view), subtitle=subtitle)
    if sheet == "results":
        return render_document(_both(COMMON_SHEETS["results"]), _results(view), subtitle=subtitle)
    own = (view["state"].get("sheets") or {}).get(sheet)
    if own is None:
        raise RuleError("print/no_sheet", f"이 테이블에는 {sheet!r} 인쇄물이 없습니다", f"This table has no sheet {sheet!r}",
                        sheet=sheet)
    sections = [
        Section(heading=_both(part.get("heading")),
                paragraphs=tuple(_both(p) for p in part.get("paragraphs", ())),
                table=tuple(tuple(_both(c) for c in row) for row in part["table"]) if part.get("table") else None)
        for part in own["sections"]
    ]
    return render_document(_both(own["title"]), sections, subtitle=subtitle)


def _audit(log: list[dict[str, Any]], view: dict[str, Any]) -> list[Section]:
    rows = [("v", "시각 / time", "누가 / actor", "사건 / event", "내용 / details")]
    for entry in log:
        event = dict(entry["event"])
        kind = event.pop("type")
        when = dt.datetime.fromtimestamp(entry["t"]).strftime("%H:%M:%S")
        details = json.dumps(event, ensure_ascii=False, sort_keys=True)
        if entry.get("voided_by"):
            details = f"[무효 / voided by v{entry['voided_by']}] {details}"
        rows.append((str(entry["v"]), when, entry["actor"], kind, details))
    seats = ", ".join(f"{i + 1}. {name}" for i, name in enumerate(view["seats"]))
    return [
        Section(heading="테이블", heading_en="Table", paragraphs=(
            f"자리 / seats: {seats}", f"옵션 / options: {json.dumps(view['options'], ensure_ascii=False)}")),
        Section(heading="모든 행동, 정정, 공개", heading_en="Every action, correction and reveal", table=tuple(rows)),
    ]


def _results(view: dict[str, Any]) -> list[Section]:
    result = view["result"]
    if result is None:
        return [Section(heading="아직 결과가 없습니다", heading_en="No result yet")]
    rows = [("순위 / rank", "자리 / seat", "선수 / player", "점수 / score")]
    rows += [(str(s["rank"]), str(s["seat"] + 1), view["seats"][s["seat"]], "" if s["score"] is None else str(s["score"]))
             for s in result["standings"]]
    return [Section(heading="순위", heading_en="Ranking", paragraphs=(_both(result["decided_by"]),), table=tuple(rows))]
