"""Seat cards: one card per player with the QR link to their phone page and a short fallback code.

A4 portrait, 2 x 4 cards a page between dashed cut lines. Each card: the QR on the left (the
thing a player must be able to scan in a dim room, so it is the biggest thing on the card),
the player's name and seat on the right with the typed fallback code, and the instructions in
Korean and English along the bottom.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import qrcode
from qrcode.constants import ERROR_CORRECT_Q
from reportlab.lib.colors import Color, black
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printouts.fonts import Fonts, register_fonts


@dataclass(frozen=True)
class SeatCard:
    player: str
    seat_label: str  # "1번 자리 / Seat 1"
    table_label: str  # "트리키 코인 / Tricky Coin"
    url: str  # the phone link the QR holds, e.g. http://192.168.1.20:5000/p/<token>
    code: str  # short fallback code the player can type, e.g. "K7Q-2MX"


@dataclass(frozen=True)
class SeatCardsModel:
    show_name: str
    cards: tuple[SeatCard, ...]
    join_url: str  # where a fallback code is typed, e.g. http://192.168.1.20:5000/join


COLUMNS = 2
ROWS = 4
CARDS_PER_PAGE = COLUMNS * ROWS

PAGE_W, PAGE_H = A4
MARGIN_X = 8 * mm
MARGIN_TOP = 12 * mm  # room for the page header
MARGIN_BOTTOM = 8 * mm
CARD_W = (PAGE_W - 2 * MARGIN_X) / COLUMNS  # 97 mm
CARD_H = (PAGE_H - MARGIN_TOP - MARGIN_BOTTOM) / ROWS  # 69.25 mm

# The QR's square, quiet zone included. With at least version 4 (33 modules + 2 x 4 quiet) the
# symbol itself is >= 56 * 33 / 41 = 45 mm wide; modules stay >= 1 mm up to ~90-character URLs.
QR_BOX = 56 * mm
QR_QUIET_ZONE = 4  # modules, the minimum the QR standard asks for
QR_MIN_VERSION = 4
QR_INSET = 1.5 * mm  # from the cut line to the quiet zone's edge
PAD = 3 * mm

INK = black
GREY = Color(0.35, 0.35, 0.35)
CUT = Color(0.55, 0.55, 0.55)

SCAN_LINE = "QR을 찍으세요 / Scan the QR code"


def _fallback_lines(join_url: str) -> tuple[str, str]:
    return f"또는 {join_url} 에서 코드 입력", f"or enter the code at {join_url}"


def page_count(cards: int) -> int:
    return max(1, math.ceil(cards / CARDS_PER_PAGE))


def render_seat_cards(model: SeatCardsModel) -> bytes:
    """The seat cards of a show as PDF bytes, in the order of `model.cards`."""
    if not model.cards:
        raise ValueError("no seat cards to print / 출력할 자리 카드가 없습니다")
    fonts = register_fonts()
    buffer = io.BytesIO()
    # invariant: no creation time or random id, so the same model gives the same bytes.
    # initialFontName: else reportlab names Helvetica on every page, a font the PDF does not embed.
    canvas = Canvas(buffer, pagesize=A4, invariant=True, pageCompression=1, initialFontName=fonts.regular)
    canvas.setTitle(f"{model.show_name} - 자리 카드 / Seat cards")
    canvas.setAuthor("referee")
    canvas.setSubject("Seat cards")
    pages = page_count(len(model.cards))
    for page in range(pages):
        on_page = model.cards[page * CARDS_PER_PAGE : (page + 1) * CARDS_PER_PAGE]
        _draw_page_header(canvas, fonts, model.show_name, page + 1, pages)
        cells = [_cell_origin(i) for i in range(len(on_page))]
        _draw_cut_lines(canvas, cells)
        for (x, y), card in zip(cells, on_page, strict=True):
            _draw_card(canvas, fonts, x, y, card, model)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _cell_origin(index: int) -> tuple[float, float]:
    """Bottom-left corner of the index-th card of a page, filled row by row from the top."""
    row, col = divmod(index, COLUMNS)
    return MARGIN_X + col * CARD_W, PAGE_H - MARGIN_TOP - (row + 1) * CARD_H


def _draw_page_header(canvas: Canvas, fonts: Fonts, show_name: str, page: int, pages: int) -> None:
    y = PAGE_H - MARGIN_TOP + 4 * mm
    canvas.setFillColor(GREY)
    canvas.setFont(fonts.bold, 9)
    left = f"{show_name} · 자리 카드 / Seat cards"
    canvas.drawString(MARGIN_X, y, _ellipsize(left, fonts.bold, 9, PAGE_W / 2))
    canvas.setFont(fonts.regular, 8)
    canvas.drawRightString(
        PAGE_W - MARGIN_X, y, f"점선을 따라 자르세요 / Cut along the dashed lines   {page} / {pages}"
    )


def _draw_cut_lines(canvas: Canvas, cells: list[tuple[float, float]]) -> None:
    # Each shared edge is drawn once, so dashes of neighbouring cards do not overprint.
    edges: set[tuple[float, float, float, float]] = set()
    for x, y in cells:
        x2, y2 = x + CARD_W, y + CARD_H
        for edge in ((x, y, x2, y), (x, y2, x2, y2), (x, y, x, y2), (x2, y, x2, y2)):
            edges.add(tuple(round(v, 3) for v in edge))  # type: ignore[arg-type]
    canvas.saveState()
    canvas.setStrokeColor(CUT)
    canvas.setLineWidth(0.6)
    canvas.setDash(4, 3)
    for x1, y1, x2, y2 in sorted(edges):
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _draw_card(canvas: Canvas, fonts: Fonts, x: float, y: float, card: SeatCard, model: SeatCardsModel) -> None:
    top = y + CARD_H
    qr_x, qr_y = x + QR_INSET, top - QR_INSET - QR_BOX
    draw_qr(canvas, card.url, qr_x, qr_y, QR_BOX)

    # Right column: who and where at the top, the code at the foot, level with the symbol's.
    col_x = qr_x + QR_BOX + 1 * mm
    col_w = x + CARD_W - PAD - col_x
    code_size = _fit_size(card.code, fonts.mono, 20, 9, col_w)
    code_base = qr_y + 6 * mm
    code_label_base = code_base + code_size * 1.05
    canvas.setFillColor(INK)
    canvas.setFont(fonts.mono, code_size)
    canvas.drawString(col_x, code_base, card.code)
    canvas.setFillColor(GREY)
    canvas.setFont(fonts.regular, 7)
    canvas.drawString(col_x, code_label_base, "코드 / Code")

    room = (top - PAD) - (code_label_base + 7 + 1.5 * mm)
    lines = column_layout(card, model.show_name, fonts, col_w, room)
    cursor = top - PAD
    for line in lines:
        cursor -= line.space_before + line.size * 0.95
        canvas.setFillColor(line.color)
        canvas.setFont(line.font, line.size)
        canvas.drawString(col_x, cursor, line.text)
        cursor -= line.size * 0.25

    # Bottom strip, full card width: how to use the card.
    strip_w = CARD_W - 2 * PAD
    korean, english = _fallback_lines(model.join_url)
    base = y + PAD - 0.5 * mm
    for text, font, size in ((english, fonts.regular, 7.5), (korean, fonts.regular, 7.5), (SCAN_LINE, fonts.bold, 8.5)):
        fitted = _fit_size(text, font, size, 5, strip_w)
        canvas.setFillColor(INK)
        canvas.setFont(font, fitted)
        canvas.drawString(x + PAD, base, _ellipsize(text, font, fitted, strip_w))
        base += size * 1.25


@dataclass(frozen=True)
class ColumnLine:
    text: str
    font: str
    size: float
    color: Color
    space_before: float

    @property
    def height(self) -> float:
        return self.space_before + self.size * 1.2


def column_layout(card: SeatCard, show_name: str, fonts: Fonts, width: float, room: float) -> list[ColumnLine]:
    """The lines of a card's text column, every one at most `width` wide, shrunk as a whole
    until they take at most `room` in height (long names and labels must not run into the code)."""
    scale = 1.0
    while True:
        lines = _column_lines(card, show_name, fonts, width, scale)
        if sum(line.height for line in lines) <= room or scale <= 0.5:
            return lines
        scale -= 0.05


def _column_lines(card: SeatCard, show_name: str, fonts: Fonts, width: float, scale: float) -> list[ColumnLine]:
    # (text, font, size, smallest size, colour, most lines, space before)
    items: list[tuple[str, str, float, float, Color, int, float]] = []
    for part in _bilingual_parts(show_name)[:2]:
        items.append((part, fonts.regular, 7.5, 6, GREY, 1, 0))
    items.append((card.player, fonts.bold, 22, 11, INK, 3, 2.5 * mm))
    # The seat is what a player looks for in the room: its first line stands out.
    for n, part in enumerate(_bilingual_parts(card.seat_label)):
        items.append(
            (part, fonts.bold, 11.5, 6.5, INK, 2, 1.5 * mm) if n == 0 else (part, fonts.regular, 9, 6, INK, 2, 0)
        )
    for n, part in enumerate(_bilingual_parts(card.table_label)):
        items.append((part, fonts.regular, 9, 6, GREY, 2, 1 * mm if n == 0 else 0))

    lines: list[ColumnLine] = []
    for text, font, size, min_size, color, max_lines, space_before in items:
        fitted = _fit_size(text, font, size * scale, min(min_size, size * scale), width)
        split = simpleSplit(text, font, fitted, width) or [""]
        if len(split) > max_lines:
            split = split[: max_lines - 1] + [" ".join(split[max_lines - 1 :])]
        for i, part in enumerate(split):
            gap = space_before * scale if i == 0 else 0
            lines.append(ColumnLine(_ellipsize(part, font, fitted, width), font, fitted, color, gap))
    return lines


def qr_matrix(data: str) -> list[list[bool]]:
    """The modules of `data`'s QR code, quiet zone included (True is dark). Level Q: a card
    survives a crease or a coffee ring."""
    qr = qrcode.QRCode(version=QR_MIN_VERSION, error_correction=ERROR_CORRECT_Q, border=QR_QUIET_ZONE)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


def draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float) -> None:
    """Draws `data` as a QR code in vectors (sharp at any print resolution) filling the square
    of side `size` at (x, y), the quiet zone included."""
    matrix = qr_matrix(data)
    module = size / len(matrix)
    # A hair of overlap between rows, so anti-aliased rendering shows no seams between modules.
    seam = 0.04
    path = canvas.beginPath()
    for r, row in enumerate(matrix):
        row_y = y + size - (r + 1) * module
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            path.rect(x + start * module, row_y - seam, (c - start) * module, module + seam)
    canvas.saveState()
    canvas.setFillColor(INK)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def _bilingual_parts(label: str) -> list[str]:
    """ "1번 자리 / Seat 1" is set on two lines, Korean over English."""
    return [part.strip() for part in label.split(" / ") if part.strip()] or [label]


def _fit_size(text: str, font: str, size: float, min_size: float, width: float) -> float:
    """The largest size up to `size` at which `text` fits in `width` (never below `min_size`)."""
    natural = stringWidth(text, font, size)
    if natural <= width:
        return size
    return max(min_size, size * width / natural)


def _ellipsize(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"
