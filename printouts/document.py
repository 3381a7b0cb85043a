"""A plain A4 document of titled sections: paragraphs and tables, Korean and English.

The common ground of the run sheets, score sheets, results and audit reports: they differ in
what they say, not in how it is set, so each builds a list of `Section`s and calls
`render_document`.
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
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
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
    }


def _text(text: str) -> str:
    """Plain text for a Paragraph, which otherwise reads it as markup."""
    return escape(text).replace("\n", "<br/>")


def render_document(title: str, sections: Sequence[Section], *, subtitle: str = "") -> bytes:
    """`title` (and `subtitle`) over `sections`, as A4 portrait PDF bytes with page numbers."""
    fonts = register_fonts()
    styles = _styles(fonts)
    story: list[Flowable] = [Paragraph(_text(title), styles["title"])]
    if subtitle:
        story.append(Paragraph(_text(subtitle), ParagraphStyle("subtitle", parent=styles["body"], textColor=GREY)))
    for section in sections:
        heading = _text(section.heading)
        if section.heading_en:
            heading += f' <font name="{fonts.regular}" color="#666666">{_text(section.heading_en)}</font>'
        # A heading never ends a page alone: keep it with the first thing under it.
        body = [Paragraph(_text(p), styles["body"]) for p in section.paragraphs]
        if section.table:
            body.append(_table(section, styles, fonts))
        story.append(KeepTogether([Paragraph(heading, styles["heading"]), *body[:1]]))
        story.extend(body[1:])
        story.append(Spacer(0, 2 * mm))

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

    def footer(canvas, doc_):  # noqa: ANN001 - reportlab's callback signature
        canvas.saveState()
        canvas.setFont(fonts.regular, 8)
        canvas.setFillColor(GREY)
        canvas.drawString(MARGIN, MARGIN, title)
        canvas.drawRightString(A4[0] - MARGIN, MARGIN, f"{doc_.page}")
        canvas.restoreState()

    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def _table(section: Section, styles: dict[str, ParagraphStyle], fonts: Fonts) -> Table:
    rows = section.table or ()
    width = max(len(r) for r in rows)
    cells = [
        [
            Paragraph(
                _text(row[i]) if i < len(row) else "", styles["head_cell" if section.header_row and n == 0 else "cell"]
            )
            for i in range(width)
        ]
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
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if section.header_row:
        style.append(("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL))
    table.setStyle(TableStyle(style))
    return table
