"""Finds NanumGothic and registers it with reportlab, embedded, once per process.

reportlab's own Korean CID fonts (HYGothic-Medium) are not embedded, so a PDF using them
shows boxes on a machine without Korean fonts. A TrueType font is embedded (as a subset), and
NanumGothic from Debian's fonts-nanum is one reportlab reads (the Noto CJK files are CFF-based
and reportlab rejects them).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

ENV_FONT_DIR = "REFEREE_FONT_DIR"
DEBIAN_PACKAGE = "fonts-nanum"

# Where Debian's fonts-nanum puts them, then (searched recursively) where a hand install would.
SYSTEM_FONT_DIRS = (
    (Path("/usr/share/fonts/truetype/nanum"), False),
    (Path("/usr/local/share/fonts"), True),
    (Path("/usr/share/fonts"), True),
)

REGULAR_FILE = "NanumGothic.ttf"
BOLD_FILE = "NanumGothicBold.ttf"
# Optional: a monospaced face for short codes, so 0/O and 1/l/I stay apart. fonts-nanum ships it.
MONO_FILES = ("NanumGothicCodingBold.ttf", "NanumGothicCoding.ttf")

REGULAR = "NanumGothic"
BOLD = "NanumGothic-Bold"
MONO = "NanumGothicCoding-Bold"


class FontNotFoundError(RuntimeError):
    """The Korean font the printouts embed is not on this machine."""


@dataclass(frozen=True)
class FontFiles:
    regular: Path
    bold: Path
    mono: Path | None


@dataclass(frozen=True)
class Fonts:
    """reportlab font names to draw with; all three are embedded TrueType fonts."""

    regular: str
    bold: str
    mono: str


def _find_in(directory: Path, name: str, recursive: bool) -> Path | None:
    direct = directory / name
    if direct.is_file():
        return direct
    if recursive and directory.is_dir():
        return next((p for p in sorted(directory.rglob(name)) if p.is_file()), None)
    return None


def find_font_files(font_dir: str | os.PathLike[str] | None = None) -> FontFiles:
    """The font files to use: only in `font_dir` when given (an override must not silently
    fall back to other fonts), else in the system font folders."""
    if font_dir is not None:
        places = [(Path(font_dir), False)]
    else:
        places = list(SYSTEM_FONT_DIRS)
    for directory, recursive in places:
        regular = _find_in(directory, REGULAR_FILE, recursive)
        bold = regular and _find_in(regular.parent, BOLD_FILE, False)
        if regular and bold:
            mono = next((p for n in MONO_FILES if (p := _find_in(regular.parent, n, False))), None)
            return FontFiles(regular=regular, bold=bold, mono=mono)
    if font_dir is not None:
        raise FontNotFoundError(
            f"{REGULAR_FILE} and {BOLD_FILE} are not in {ENV_FONT_DIR}={font_dir}. Put them there, "
            f"or unset {ENV_FONT_DIR} to use the system's (Debian package {DEBIAN_PACKAGE}: "
            f"apt-get install {DEBIAN_PACKAGE})."
        )
    searched = ", ".join(str(d) for d, _ in SYSTEM_FONT_DIRS)
    raise FontNotFoundError(
        f"The Korean font NanumGothic ({REGULAR_FILE}, {BOLD_FILE}) was not found in {searched}. "
        f"Install the Debian package {DEBIAN_PACKAGE} (apt-get install {DEBIAN_PACKAGE}), "
        f"or set {ENV_FONT_DIR} to a folder holding both files."
    )


_lock = threading.Lock()
_registered: Fonts | None = None


def register_fonts() -> Fonts:
    """Registers the fonts with reportlab the first time; later calls return the same names.

    reportlab's font registry is per process, so the first call decides which files are used
    (REFEREE_FONT_DIR is read then).
    """
    global _registered
    with _lock:
        if _registered is not None:
            return _registered
        files = find_font_files(os.environ.get(ENV_FONT_DIR) or None)
        known = set(pdfmetrics.getRegisteredFontNames())
        wanted = {REGULAR: files.regular, BOLD: files.bold}
        if files.mono is not None:
            wanted[MONO] = files.mono
        for name, path in wanted.items():
            if name not in known:
                pdfmetrics.registerFont(TTFont(name, str(path)))
        # So that <b> in a platypus Paragraph picks the bold file.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
        _registered = Fonts(regular=REGULAR, bold=BOLD, mono=MONO if files.mono is not None else BOLD)
        return _registered
