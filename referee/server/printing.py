"""Print models built from a show, handed to the reportlab renderers in ``printouts``.

The table sheets are documents a referee signs: a header block (show, table, game, seats with
names, options, when it started and ended, the result), then the sheet itself, page numbers,
and a signature line. The audit report is the dealer's log in words: each entry's time, who
acted and what happened, as the log rows say it (``who`` and ``what``, see
``referee.table.runtime``); voided entries stay, marked and set in grey, and the corrections
are listed again with their reasons. A show program (a table of tables) prints through the same
code: its results are its own sheet, its seats are the show's players.

`sheet_pdf` needs only a Table, so it works on any store; `table_sheet_pdf` is the server's
entry (it checks that the table belongs to the show).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from printouts.document import Section, Signature, render_document
from printouts.seat_cards import SeatCard, SeatCardsModel, render_seat_cards
from referee.kernel import Audience, RuleError, place
from referee.table import Table

from .service import COMMON_SHEETS, Service

STARTED, FINISHED, VOIDED = "table.started", "table.finished", "table.voided"
SIGNATURE_NOTE = {
    "audit": "위 기록이 이 테이블의 실제 진행과 같음을 확인합니다. / I confirm that this record is what happened at "
             "this table.",
    "results": "위 결과를 확인합니다. / I confirm the result above.",
}


def seat_cards_pdf(service: Service, show: str, player: int | None = None) -> bytes:
    """One card per player of the show (or only `player`'s, after a re-issue): name, seat, QR
    of the phone link, fallback code."""
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
        if player is None or link["player"] == player
    )
    return render_seat_cards(SeatCardsModel(show_name=info["name"], cards=cards, join_url=f"{service.base_url()}/join"))


def table_sheet_pdf(service: Service, show: str, table_id: str, sheet: str, browser_zone: str | None = None) -> bytes:
    """A printable sheet of one table: the audit report, the results, or a game's own sheet.
    Its times in the show's time zone, else `browser_zone` (the printing console's), else the
    server machine's."""
    if table_id not in service.shows.tables(show):
        raise RuleError("show/no_table", f"이 쇼의 테이블이 아닙니다: {table_id!r}", f"Not a table of this show: {table_id!r}")
    table = service.table(table_id)
    crowd = crowd_sections(service, show, None if table.game.program else table_id) if sheet == "results" else []
    info = service.shows.info(show)
    return sheet_pdf(table, sheet, info["name"], crowd, zone=info["settings"]["time_zone"] or browser_zone)


def crowd_sections(service: Service, show: str, table_id: str | None) -> list[Section]:
    """The hall's predictions for a results sheet (issue 28): each question's split and answer
    (a program's sheet: every question of the evening; a match's: the questions about it), and
    the audience's top 10. Empty when the hall asked nothing."""
    desk = service.crowd
    if desk is None:
        return []
    # Questions typed by hand belong to the evening: on the program's sheet, or on every match's
    # sheet of a show without a program.
    loose = table_id is None or service.shows.info(show)["program"] is None
    def belongs(q: dict[str, Any]) -> bool:
        return loose if q["source"] is None else table_id is None or q["source"]["table"] == table_id

    questions = [q for q in desk.crowd.questions(show, last=200) if belongs(q)]
    if not questions:
        return []
    rows: list[tuple[str, ...]] = [("질문 / Question", "보기별 예측 / Predictions", "정답 / Answer")]
    for q in questions:
        split = "\n".join(f"{_both(label)}: {n} ({round(100 * n / q['total']) if q['total'] else 0}%)"
                           for label, n in zip(q["options"], q["counts"], strict=True))
        answer = ", ".join(_both(q["options"][i]) for i in q["answer"]) if q["answer"] else "—"
        rows.append((_both(q["text"]), f"{split}\n= {q['total']}", answer))
    board: list[tuple[str, ...]] = [("순위 / Rank", "관객 / Audience", "점수 / Points")]
    for b in desk.crowd.board(show, devices=True):
        name = b["nickname"] or _both(b["guest"])
        rank = _both(place(b["rank"], b["shared"]).to_json())
        board.append((rank, name + (" (숨김 / hidden)" if b["hidden"] else ""), str(b["points"])))
    return [
        Section(heading="관객 예측", heading_en="The audience's predictions", table=tuple(rows), column_weights=(3, 4, 2),
                small=True),
        Section(heading="관객 순위", heading_en="Audience leaderboard",
                paragraphs=(f"참여 {desk.crowd.payload(show)['players']}명, 맞힌 예측 1점, 동점은 더 빨리 맞힌 순 / "
                            "One point per right prediction; ties go to the faster right answers",),
                table=tuple(board) if len(board) > 1 else None, column_weights=(1.2, 4, 1.2)),
    ]


def sheet_pdf(table: Table, sheet: str, show_name: str, extra: Sequence[Section] = (), zone: str | None = None) -> bytes:
    """The PDF of one sheet of `table` ("audit", "results" or one of the game's own sheets);
    `extra`: sections a results sheet ends with (the hall's predictions); `zone`: the show's
    time zone (None: the server machine's)."""
    view = table.view(Audience.dealer())
    log = table.log(Audience.dealer())
    times = Times(zone)
    own = (view["state"].get("sheets") or {}) if isinstance(view["state"], dict) else {}
    facts = header_facts(table, view, log, show_name, times)
    subtitle = f"{show_name} · {_both(view['title'])} · {table.id}"
    if sheet == "audit":
        return render_document(_pair(COMMON_SHEETS["audit"]), audit_sections(log, times), subtitle=subtitle, facts=facts,
                               signature=_signature("audit", log, times))
    if sheet == "results" and "results" not in own:
        return render_document(_pair(COMMON_SHEETS["results"]), results_sections(view) + list(extra), subtitle=subtitle,
                               facts=facts, signature=_signature("results", log, times))
    if sheet not in own:
        raise RuleError("print/no_sheet", f"이 테이블에는 {sheet!r} 인쇄물이 없습니다", f"This table has no sheet {sheet!r}",
                        sheet=sheet)
    # A game's own sheet (a run sheet, a score sheet) or a program's own results.
    sections = [
        Section(heading=_both(part.get("heading")),
                paragraphs=tuple(_both(p) for p in part.get("paragraphs", ())),
                table=tuple(tuple(_both(c) for c in row) for row in part["table"]) if part.get("table") else None)
        for part in own[sheet]["sections"]
    ] + (list(extra) if sheet == "results" else [])
    signature = _signature("results", log, times) if sheet == "results" else None
    return render_document(_both(own[sheet]["title"]), sections, subtitle=subtitle, facts=facts, signature=signature)


# -- words --------------------------------------------------------------------------------------


def _both(text: Any) -> str:
    """A {ko, en} text as "ko / en" (one of them when they are the same); anything else as is."""
    if isinstance(text, dict):
        ko, en = text.get("ko", ""), text.get("en", "")
        return ko if not en or en == ko else f"{ko} / {en}"
    if isinstance(text, tuple | list) and len(text) == 2 and all(isinstance(t, str) for t in text):
        return _pair(text)
    return "" if text is None else str(text)


def _pair(pair: Sequence[str]) -> str:
    ko, en = pair
    return ko if ko == en else f"{ko} / {en}"


def _lines(text: Mapping[str, str]) -> str:
    """A {ko, en} sentence on two lines, Korean first; one line when they say the same."""
    ko, en = text.get("ko", ""), text.get("en", "")
    return ko if not en or en == ko else f"{ko}\n{en}"


def _who(text: Mapping[str, str]) -> str:
    # "3번 박지호" and "3 박지호" say the same: one line. "딜러" and "the dealer": both.
    ko, en = text.get("ko", ""), text.get("en", "")
    return ko if en == ko.replace("번 ", " ") else _lines(text)


class Times:
    """Times as a sheet prints them: in the show's time zone (a show setting, set from the
    console's browser), else the server machine's (its TZ or /etc/localtime); every sheet names
    the zone, so a venue laptop left on UTC prints UTC and says so, never a bare "local time"."""

    def __init__(self, zone: str | None = None) -> None:
        self.zone = ZoneInfo(zone) if zone else None

    def local(self, t: float) -> dt.datetime:
        return dt.datetime.fromtimestamp(t, self.zone) if self.zone else dt.datetime.fromtimestamp(t).astimezone()

    def zone_name(self, t: float) -> str:
        """The zone of the printed times: "UTC+09:00 KST", "UTC+00:00"."""
        local = self.local(t)
        offset = local.strftime("%z")
        name = local.strftime("%Z")
        utc = f"UTC{offset[:3]}:{offset[3:]}"
        # A zone with no letters of its own (Etc/UTC is "UTC", some zones print "+04"): the offset says it all.
        return utc if not name or name == "UTC" or name[0] in "+-" else f"{utc} {name}"

    def clock(self, t: float) -> str:
        return self.local(t).strftime("%H:%M:%S")

    def moment(self, t: float) -> str:
        return f"{self.local(t).strftime('%Y-%m-%d %H:%M:%S')} ({self.zone_name(t)})"

    def of_log(self, log: list[dict[str, Any]]) -> str:
        """The zone of a log's times (its last entry's: a show does not cross a clock change)."""
        return self.zone_name(log[-1]["t"] if log else dt.datetime.now().timestamp())


def _seat(names: Sequence[str], seat: int) -> str:
    return f"{seat + 1}번 {names[seat]}" if 0 <= seat < len(names) else f"{seat + 1}번"


# -- the header block ---------------------------------------------------------------------------


def header_facts(table: Table, view: dict[str, Any], log: list[dict[str, Any]], show_name: str,
                 times: Times) -> list[tuple[str, str]]:
    """What a referee checks before signing: which table, who sat where, under which options,
    when it ran and how it ended."""
    game, header = table.game, table.header
    names = list(header["seats"])
    program = game.program
    facts = [
        ("쇼 / Show", show_name),
        ("테이블 / Table", f"{table.id} · v{view['version']} (기록 {len(log)}건 / {len(log)} entries)"),
        ("프로그램 / Program" if program else "게임 / Game",
         f"{game.title.ko} / {game.title.en} · 규칙 v{header['rules']} / rules v{header['rules']}"),
        ("출연자 / Players" if program else "자리 / Seats", ", ".join(_seat(names, i) for i in range(len(names)))),
        ("옵션 / Options", _options(table, view["options"])),
        ("추첨 / Draws", _draws(header.get("seed"))),
        ("시작 / Started", _started(log, times)),
        ("종료 / Ended", _ended(log, view, times)),
        ("결과 / Result", _result_line(view, names)),
    ]
    if program and isinstance(view["state"], dict) and view["state"].get("stages"):
        facts.append(("경기 / Matches", "\n".join(_stage_line(s, names) for s in view["state"]["stages"])))
    return facts


def _options(table: Table, options: Mapping[str, Any]) -> str:
    """Each option as its label says it, with the value chosen: Korean lines, then English."""
    if not options:
        return "없음 / none"
    specs = {spec.name: spec for spec in table.game.options}
    ko, en = [], []
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            ko.append(f"{name} → {value}")
            continue
        default = value == spec.default
        ko.append(f"{spec.label.ko} → {value}" + (" (기본)" if default else ""))
        if spec.label.en != spec.label.ko:
            en.append(f"{spec.label.en} → {value}" + (" (default)" if default else ""))
    return "\n".join(ko + en)


def _draws(seed: Any) -> str:
    if seed is None:
        return "실전: 운영체제의 암호학적 난수 / live: the operating system's cryptographic generator"
    return f"리허설: 시드 {seed} (누구나 같은 추첨을 재현 가능) / rehearsal: seed {seed} (anyone can repeat the draws)"


def _live(log: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [row for row in log if row["event"]["type"] == kind and not row.get("voided_by")]


def _started(log: list[dict[str, Any]], times: Times) -> str:
    started = _live(log, STARTED)
    return times.moment(started[0]["t"]) if started else "시작 전 / not started"


def _ended(log: list[dict[str, Any]], view: dict[str, Any], times: Times) -> str:
    finished = _live(log, FINISHED)
    if finished:
        reason = finished[-1]["event"].get("reason") or ""
        return times.moment(finished[-1]["t"]) + (f" · {reason}" if reason else "")
    if view.get("result") is not None and log:
        return (f"결과 확정 {times.moment(log[-1]['t'])}, 테이블은 아직 닫히지 않음 / result reached "
                f"{times.moment(log[-1]['t'])}, table not yet closed")
    return "진행 중 / still running" if _live(log, STARTED) else "—"


def _result_line(view: dict[str, Any], names: Sequence[str]) -> str:
    result = view.get("result")
    if result is None:
        return "아직 없음 / none yet"
    placed = []
    ranks = Counter(s["rank"] for s in result["standings"])
    for s in sorted(result["standings"], key=lambda s: (s["rank"], s["seat"])):
        score = "" if s.get("score") is None else f" ({s['score']})"
        placed.append(f"{place(s['rank'], ranks[s['rank']] > 1).ko} {_seat(names, s['seat'])}{score}")
    return f"{', '.join(placed)}\n{_both(result.get('decided_by'))}"


def _stage_line(stage: Mapping[str, Any], names: Sequence[str]) -> str:
    players = ", ".join(names[p] for p in stage.get("players", ()) if 0 <= p < len(names))
    status = "확정 / confirmed" if stage.get("status") == "confirmed" else "진행 / running"
    return f"{_both(stage.get('title'))}: {players} ({status})"


# -- the audit report ---------------------------------------------------------------------------


def audit_sections(log: list[dict[str, Any]], times: Times) -> list[Section]:
    """Every entry in words, then the corrections with their reasons."""
    rows: list[tuple[str, ...]] = [("#", "시각\nTime", "누가\nWho", "무엇\nWhat")]
    muted = []
    for row in log:
        said = _lines(row["what"])
        if row.get("voided_by"):
            by = row["voided_by"]
            said = f"무효 (v{by}에서) / voided at v{by}\n{said}"
            muted.append(len(rows))
        rows.append((f"v{row['v']}", times.clock(row["t"]), _who(row["who"]), said))
    voids = [row for row in log if row["event"]["type"] == VOIDED]
    on_behalf = sum(1 for row in log if row["actor"].startswith("dealer>"))
    return [
        Section(heading="모든 행동, 정정, 공개", heading_en="Every action, correction and reveal", table=tuple(rows),
                column_weights=(0.7, 0.95, 1.7, 6.2), muted_rows=tuple(muted), small=True,
                paragraphs=(f"기록 {len(log)}건, 무효 처리 {len(voids)}건, 딜러 대리 입력 {on_behalf}건. "
                            f"시각은 현지 시각 {times.of_log(log)}. / "
                            f"Entries: {len(log)}; voids: {len(voids)}; entered by the dealer for a seat: {on_behalf}. "
                            f"Times are local, {times.of_log(log)}.",)),
        _corrections(log, voids, times),
    ]


def _corrections(log: list[dict[str, Any]], voids: list[dict[str, Any]], times: Times) -> Section:
    if not voids:
        return Section(heading="정정", heading_en="Corrections", paragraphs=("무효 처리 없음 / no voids",))
    rows: list[tuple[str, ...]] = [("#", "시각\nTime", "누가\nWho", "무효로 한 기록과 사유\nVoided entries and reason")]
    for void in voids:
        voided = [row for row in log if row.get("voided_by") == void["v"]]
        listed = "\n".join(f"v{row['v']} {_who(row['who'])}: {row['what'].get('ko', '')}" for row in voided)
        reason = void["event"].get("reason", "")
        rows.append((f"v{void['v']}", times.clock(void["t"]), _who(void["who"]),
                     f"{listed}\n사유 / reason: {reason}".strip()))
    return Section(heading="정정", heading_en="Corrections", table=tuple(rows), column_weights=(0.7, 0.95, 1.7, 6.2),
                   small=True)


# -- the results --------------------------------------------------------------------------------


def results_sections(view: dict[str, Any]) -> list[Section]:
    result = view["result"]
    if result is None:
        return [Section(heading="아직 결과가 없습니다", heading_en="No result yet")]
    names = view["seats"]
    rows: list[tuple[str, ...]] = [("순위 / Rank", "자리 / Seat", "선수 / Player", "점수 / Score")]
    ranks = Counter(s["rank"] for s in result["standings"])
    for s in sorted(result["standings"], key=lambda s: (s["rank"], s["seat"])):
        player = names[s["seat"]] if 0 <= s["seat"] < len(names) else ""
        rows.append((_both(place(s["rank"], ranks[s["rank"]] > 1).to_json()), f"{s['seat'] + 1}번 / {s['seat'] + 1}", player,
                     "—" if s.get("score") is None else str(s["score"])))
    decided = f"결정 기준 / Decided by: {_both(result.get('decided_by'))}"
    return [Section(heading="순위", heading_en="Standings", paragraphs=(decided,), table=tuple(rows),
                    column_weights=(1.2, 1, 3, 1.2))]


def _signature(sheet: str, log: list[dict[str, Any]], times: Times) -> Signature:
    """The signature line; the date is the day the match was played (its last entry)."""
    date = times.local(log[-1]["t"]).strftime("%Y-%m-%d") if log else ""
    return Signature(date=date, note=SIGNATURE_NOTE[sheet])
