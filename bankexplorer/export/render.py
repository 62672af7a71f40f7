"""Paint a picture into PNG bytes (a QImage at 1x..4x) or SVG bytes (QSvgGenerator: real <rect>,
<path> and <text>), and write either atomically.

The picture's draw code is the same for both; only the device differs. A QGuiApplication is
enough (no widgets), so this runs headless: :func:`ensure_gui_app` picks the offscreen platform.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..io.atomic import atomic_write
from ..io.atomic import check_writable as _check_writable
from ..model.pattern import Pattern
from .canvas import Canvas
from .figure import VIEWS, Picture, picture
from .scene import ExportError, make_scene

FORMATS = ("png", "svg")
MAX_SCALE = 4
MAX_PIXELS = 150_000_000  # ~600 MB of image memory: far beyond any figure the panels lay out


def _generic_family(m: re.Match) -> str:
    families = m.group(1)
    generic = "monospace" if "Mono" in families else "sans-serif"
    return m.group(0) if generic in families else f'font-family="{families},{generic}"'


def ensure_gui_app():
    """The running Q(Gui)Application (the window's), or a new QGuiApplication on the offscreen
    platform: drawing a figure needs fonts, not a display, and a stale or missing $DISPLAY (ssh,
    CI) must not stop an export. An explicit QT_QPA_PLATFORM is respected."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QGuiApplication(["bankexplorer-export"])
    return app


def pixel_size(pic: Picture, scale: int) -> tuple[int, int]:
    return int(round(pic.width * scale)), int(round(pic.height * scale))


def to_image(pic: Picture, scale: int = 1):
    """A QImage of ``pic`` at ``scale`` (its size is exactly :func:`pixel_size`)."""
    from PySide6.QtGui import QImage, QPainter

    ensure_gui_app()
    check_scale(scale)
    w, h = pixel_size(pic, scale)
    if w * h > MAX_PIXELS:
        raise ExportError(f"the picture would be {w:,} x {h:,} pixels at scale {scale}: too large for a PNG; "
                          f"use a smaller --scale or an .svg file")
    img = QImage(w, h, QImage.Format.Format_RGB32)  # not filled: the picture paints its background
    dpm = round(96 * scale / 0.0254)  # the 1x picture is 96 dpi: a 4x PNG prints at the same size
    img.setDotsPerMeterX(dpm)
    img.setDotsPerMeterY(dpm)
    p = QPainter(img)
    try:
        p.scale(scale, scale)
        pic.draw(Canvas(p))
    finally:
        p.end()
    return img


def to_png(pic: Picture, scale: int = 1, quality: int = 80) -> bytes:
    """PNG bytes. Qt maps ``quality`` to zlib's level: 80 (level 1) is several times faster than
    the default and flat-colour figures compress nearly as well; 0 is the smallest file."""
    from PySide6.QtCore import QBuffer, QIODevice

    img = to_image(pic, scale)
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG", quality):
        raise ExportError("could not encode the PNG")
    return bytes(buf.data())


def to_svg(pic: Picture) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice, QRect, QSize
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator

    ensure_gui_app()
    w, h = pixel_size(pic, 1)
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QSize(w, h))
    gen.setViewBox(QRect(0, 0, w, h))
    gen.setResolution(96)
    gen.setTitle(getattr(pic, "title", None) or pic.scene.title)  # a comparison has its own title
    gen.setDescription(f"BankExplorer: {pic.scene.heading()}")
    p = QPainter(gen)
    try:
        pic.draw(Canvas(p))
    finally:
        p.end()
    svg = bytes(buf.data()).decode("utf-8")
    # browsers and Inkscape without DejaVu fall back to a similar sans-serif, not to Times
    svg = re.sub(r'font-family="([^"]*)"', _generic_family, svg)
    return xml_safe(svg).encode("utf-8")


#: characters XML 1.0 does not allow, even written as a character reference (``&#x1b;``)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CHAR_REF = re.compile(r"&#(x[0-9a-fA-F]+|[0-9]+);")


def xml_safe(svg: str) -> str:
    """The SVG with the control characters a pattern's or instruction's name may hold (a terminal
    escape, a bell) shown as ``\\x1b`` text: Qt writes them as character references, which no XML
    reader accepts, so the file would not open."""
    def ref(m: re.Match) -> str:
        code = int(m.group(1)[1:], 16) if m.group(1)[0] == "x" else int(m.group(1))
        return f"\\x{code:02x}" if code < 0x110000 and _NOT_XML.match(chr(code)) else m.group()

    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", _CHAR_REF.sub(ref, svg))


def check_scale(scale: int) -> None:
    if not isinstance(scale, int) or not 1 <= scale <= MAX_SCALE:
        raise ExportError(f"--scale must be an integer from 1 to {MAX_SCALE}, got {scale}")


def suffix_format(path: str | os.PathLike, accepted: tuple[str, ...], hint: str, what: str = "format") -> str:
    """The file's extension if it is one of ``accepted``, else an ExportError that says what is."""
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in accepted:
        got = f"'.{ext}'" if ext else "no extension"
        raise ExportError(f"{path}: cannot tell the {what} from {got}; use {hint}")
    return ext


def format_of(path: str | os.PathLike) -> str:
    """``png`` or ``svg`` from the file name, or an ExportError that says what is accepted."""
    return suffix_format(path, FORMATS, "a .png or .svg file name")


def check_writable(path: str | os.PathLike, inputs=()) -> None:
    """Fail before rendering when the output cannot be written (no folder, no permission) or is
    one of the ``inputs`` (:func:`bankexplorer.io.atomic.check_writable`)."""
    _check_writable(path, inputs, ExportError)


def render(pattern: Pattern, view: str, fmt: str, scale: int = 1, style: str | None = None,
           instruction: int | None = None, warp: int = 0, iteration: int = 0, title: str | None = None, an=None) -> bytes:
    """The bytes of one export (PNG or SVG)."""
    if view not in VIEWS:
        raise ExportError(f"unknown view {view!r} (views: {', '.join(VIEWS)})")
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    check_scale(scale)
    ensure_gui_app()  # fonts are measured while laying out
    scene = make_scene(pattern, style, instruction, warp, iteration, title, an=an)
    pic = picture(scene, view)
    return to_png(pic, scale) if fmt == "png" else to_svg(pic)


def export(pattern: Pattern, view: str, out: str | os.PathLike, scale: int = 1, style: str | None = None,
           instruction: int | None = None, warp: int = 0, iteration: int = 0, title: str | None = None, an=None) -> int:
    """Render and write ``out`` (its extension picks the format) all at once; returns bytes written.

    The file appears complete or not at all: rendering happens in memory and the write goes to a
    temporary file in the same folder that is then renamed over ``out``."""
    fmt = format_of(out)
    check_writable(out)
    data = render(pattern, view, fmt, scale, style, instruction, warp, iteration, title, an)
    try:
        atomic_write(out, data)
    except PermissionError:
        raise ExportError(f"{out}: permission denied")
    except OSError as e:
        raise ExportError(f"{out}: could not write ({e.strerror or e})")
    return len(data)
