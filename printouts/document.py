"""A plain A4 document of titled sections: paragraphs and tables, Korean and English.

The common ground of the run sheets, score sheets, results and audit reports: they differ in
what they say, not in how it is set, so each builds a list of `Section`s and calls
`render_document`. A document a referee signs also has a header block of facts (show, table,
game, seats, when, the result) above the sections and a `Signature` line after them; every
page is numbered "page/pages" in its footer.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from printouts.fonts import Fonts, register_fonts


@dataclass(frozen=True)
class Section:
    """`heading` is the Korean (or only) heading, `heading_en` its English counterpart, set
    beside it. `table` rows are lists of cell texts; with `header_row` the first is the header."""

    heading: str
    paragraphs: tuple[str, ...] = ()
    table: tuple[tuple[str, ...], ...] | None = None
    heading_en: str = ""
    header_row: bool = True
    column_weights: tuple[float, ...] = ()  # relative column widths; equal when empty
    muted_rows: tuple[int, ...] = ()  # rows (counted with the header row) set in grey: voided entries
    small: bool = False  # a long table of many rows (an audit trail): smaller type


@dataclass(frozen=True)
class Signature:
    """The line a referee signs at the end of a document. An empty `date` leaves a blank to fill."""

    label: str = "심판 서명 / Referee signature"
    date_label: str = "날짜 / Date"
    date: str = ""
    note: str = ""  # what the signature confirms, set above the line


MARGIN = 15 * mm
GREY = Color(0.4, 0.4, 0.4)
RULE = Color(0.6, 0.6, 0.6)
HEADER_FILL = Color(0.9, 0.9, 0.9)


def _styles(fonts: Fonts) -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=fonts.regular, fontSize=10, leading=14, alignment=TA_LEFT, spaceAfter=4)
    return {
        "title": ParagraphStyle("title", parent=base, fontName=fonts.bold, fontSize=18, leading=23, spaceAfter=8),
        "heading": ParagraphStyle("heading", parent=base, fontName=fonts.bold, fontSize=13, leading=17, spaceBefore=10),
        "body": base,
        "cell": ParagraphStyle("cell", parent=base, fontSize=9, leading=12, spaceAfter=0),
        "head_cell": ParagraphStyle(
            "head_cell", parent=base, fontName=fonts.bold, fontSize=9, leading=12, spaceAfter=0
        ),
        "small_cell": ParagraphStyle("small_cell", parent=base, fontSize=8, leading=10.5, spaceAfter=0),
        "muted_cell": ParagraphStyle("muted_cell", parent=base, fontSize=8, leading=10.5, spaceAfter=0,
                                     textColor=GREY),
        "fact_label": ParagraphStyle("fact_label", parent=base, fontName=fonts.bold, fontSize=9, leading=12,
                                     spaceAfter=0),
    }


def _text(text: str) -> str:
    """Plain text for a Paragraph, which otherwise reads it as markup."""
    return escape(text).replace("\n", "<br/>")


def render_document(title: str, sections: Sequence[Section], *, subtitle: str = "",
                    facts: Sequence[tuple[str, str]] = (), signature: Signature | None = None) -> bytes:
    """`title` (and `subtitle`) over a header block of `facts` (label, value) and `sections`,
    ending with the `signature` line if any, as A4 portrait PDF bytes; each page's footer holds
    the title and "page/pages"."""
    fonts = register_fonts()
    styles = _styles(fonts)
    story: list[Flowable] = [Paragraph(_text(title), styles["title"])]
    if subtitle:
        story.append(Paragraph(_text(subtitle), ParagraphStyle("subtitle", parent=styles["body"], textColor=GREY)))
    if facts:
        story.append(_facts(facts, styles, fonts))
        story.append(Spacer(0, 3 * mm))
    for section in sections:
        heading = _text(section.heading)
        if section.heading_en:
            heading += f' <font name="{fonts.regular}" color="#666666">{_text(section.heading_en)}</font>'
        body = [Paragraph(_text(p), styles["body"]) for p in section.paragraphs]
        if section.table:
            body.append(_table(section, styles, fonts))
        # A heading never ends a page alone. A table runs on from where it starts (its header
        # row repeats on each page), so a long one never leaves the page before it empty.
        story.append(CondPageBreak(30 * mm))
        if body and isinstance(body[0], Paragraph):
            story.append(KeepTogether([Paragraph(heading, styles["heading"]), body[0]]))
            story.extend(body[1:])
        else:
            story.append(Paragraph(heading, styles["heading"]))
            story.extend(body)
        story.append(Spacer(0, 2 * mm))
    if signature is not None:
        story.append(Spacer(0, 6 * mm))
        story.append(_signature(signature, styles, fonts))

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 4 * mm,
        title=title,
        author="referee",
        invariant=True,
        initialFontName=fonts.regular,  # else an unembedded Helvetica is named on every page
    )
    doc.build(story, canvasmaker=_numbered(title, fonts))
    return buffer.getvalue()


def _numbered(title: str, fonts: Fonts) -> type[Canvas]:
    """A canvas that holds its pages until the end, so each footer can say "page/pages"."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003 - reportlab's signature
            super().__init__(*args, **kwargs)
            self._held: list[dict] = []

        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            self._held.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._held)
            for number, page in enumerate(self._held, 1):
                self.__dict__.update(page)
                self.saveState()
                self.setFont(fonts.regular, 8)
                self.setFillColor(GREY)
                self.drawString(MARGIN, MARGIN, title)
                self.drawRightString(A4[0] - MARGIN, MARGIN, f"{number}/{total}")
                self.restoreState()
                super().showPage()
            super().save()

    return NumberedCanvas


def _facts(facts: Sequence[tuple[str, str]], styles: dict[str, ParagraphStyle], fonts: Fonts) -> Table:
    usable = A4[0] - 2 * MARGIN
    cells = [[Paragraph(_text(label), styles["fact_label"]), Paragraph(_text(value), styles["cell"])]
             for label, value in facts]
    table = Table(cells, hAlign="LEFT", colWidths=[usable * 0.24, usable * 0.76])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
        ("BOX", (0, 0), (-1, -1), 0.8, RULE),
        ("LINEBELOW", (0, 0), (-1, -2), 0.3, RULE),
        ("BACKGROUND", (0, 0), (0, -1), HEADER_FILL),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    return table


def _signature(signature: Signature, styles: dict[str, ParagraphStyle], fonts: Fonts) -> Flowable:
    usable = A4[0] - 2 * MARGIN
    date = Paragraph(_text(signature.date), styles["body"]) if signature.date else ""
    cells = [[Paragraph(_text(signature.label), styles["fact_label"]), "",
              Paragraph(_text(signature.date_label), styles["fact_label"]), date]]
    table = Table(cells, hAlign="LEFT", colWidths=[usable * 0.27, usable * 0.37, usable * 0.14, usable * 0.22])
    style = [("FONTNAME", (0, 0), (-1, -1), fonts.regular), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
             ("TOPPADDING", (0, 0), (-1, -1), 14), ("LINEBELOW", (1, 0), (1, 0), 0.8, GREY)]
    if not signature.date:
        style.append(("LINEBELOW", (3, 0), (3, 0), 0.8, GREY))  # a blank to fill by hand
    table.setStyle(TableStyle(style))
    parts: list[Flowable] = []
    if signature.note:
        parts.append(Paragraph(_text(signature.note), styles["body"]))
    parts.append(table)
    return KeepTogether(parts)


def _table(section: Section, styles: dict[str, ParagraphStyle], fonts: Fonts) -> Table:
    rows = section.table or ()
    width = max(len(r) for r in rows)
    muted = set(section.muted_rows)

    def style_of(n: int) -> str:
        if section.header_row and n == 0:
            return "head_cell"
        if n in muted:
            return "muted_cell"
        return "small_cell" if section.small else "cell"

    cells = [
        [Paragraph(_text(row[i]) if i < len(row) else "", styles[style_of(n)]) for i in range(width)]
        for n, row in enumerate(rows)
    ]
    weights = section.column_weights if len(section.column_weights) == width else (1.0,) * width
    usable = A4[0] - 2 * MARGIN
    widths = [usable * w / sum(weights) for w in weights]
    table = Table(cells, repeatRows=1 if section.header_row else 0, hAlign="LEFT", colWidths=widths)
    style = [
        # The cells are Paragraphs, but a Table still selects its own font (Helvetica, unembedded).
        ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2 if section.small else 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2 if section.small else 3),
    ]
    if section.header_row:
        style.append(("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL))
    table.setStyle(TableStyle(style))
    return table
