"""The light items the views paint with: the caption markup, the fixed-tick axis (it must place
labels where pyqtgraph's AxisItem does), the RGBA picture and the text label."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QRectF  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402

import bankexplorer.gui  # noqa: E402, F401 - the PySide6 workaround, before any widget
from bankexplorer.gui.views import richtext  # noqa: E402
from bankexplorer.gui.views.axis import FastAxis  # noqa: E402
from bankexplorer.gui.views.base import Caption, Label  # noqa: E402
from bankexplorer.gui.views.image import RGBAImage  # noqa: E402


def test_markup_parses_to_runs_and_plain_text():
    lines = richtext.parse("<b>32</b> wavefronts<br><span style='color:#d01010'>▲ conflict</span> &amp; "
                           "<code>float s[32][33]</code> Sw&lt;3,4,3&gt; <i>kept</i>")
    assert len(lines) == 2
    assert lines[0] == (richtext.Run("32", bold=True), richtext.Run(" wavefronts"))
    red = lines[1][0]
    assert red.text == "▲ conflict" and red.color == "#d01010" and not red.bold
    assert richtext.Run("float s[32][33]", mono=True) in lines[1]
    assert richtext.plain_text("a&nbsp;b<br>Sw&lt;3,4,3&gt; <i>kept</i>") == "a b\nSw<3,4,3> kept"
    # a bold run with its own colour, and closing tags restore the outer look
    (r0, r1), = richtext.parse("<b style='color:#112233'>7</b>x")
    assert (r0.bold, r0.color, r1.bold, r1.color) == (True, "#112233", False, None)


def test_layout_wraps_at_spaces_and_merges_a_run(qapp):
    fonts = richtext.Fonts(9)
    lines = richtext.parse("one two three four five six seven eight nine ten")
    pieces, n, widest = richtext.layout(lines, fonts, None)
    assert n == 1 and len(pieces) == 1 and pieces[0][2] == "one two three four five six seven eight nine ten"
    narrow = fonts.width(lines[0][0], "one two three") + 1
    pieces, n, widest = richtext.layout(lines, fonts, narrow)
    assert n >= 4 and widest <= narrow
    text_by_row: dict[int, str] = {}
    for x, row, text, _ in sorted(pieces, key=lambda p: (p[1], p[0])):
        text_by_row[row] = (text_by_row.get(row, "") + " " + text).strip()
    assert " ".join(text_by_row[r] for r in sorted(text_by_row)) == "one two three four five six seven eight nine ten"
    assert text_by_row[0] == "one two three"  # whole words, the first line as full as it fits


def test_caption_height_follows_its_lines(qapp):
    c = Caption((0, 0, 0), 9)
    c.resize(2000, 10)
    c.setText("one line")
    h1 = c.maximumHeight()
    c.setText("two<br>lines")
    assert c.maximumHeight() > h1
    assert c.text() == "two\nlines"


@pytest.mark.parametrize("side", ["top", "left", "bottom"])
def test_fast_axis_places_labels_where_pyqtgraph_does(qapp, side):
    """Same ticks, range and size: the same labels at the same places (to half a pixel)."""
    ticks = [[(i + 0.5, str(i)) for i in range(0, 64, 4)], []]
    out = {}
    for cls in (pg.AxisItem, FastAxis):
        w = pg.GraphicsLayoutWidget()
        w.resize(700, 500)
        axis = cls(side)
        plot = w.addPlot(axisItems={side: axis})
        plot.showAxis(side)
        axis.setTicks(ticks)
        plot.setXRange(-2, 70, padding=0)
        plot.setYRange(-2, 70, padding=0)
        w.show()
        qapp.processEvents()
        img = QImage(axis.boundingRect().size().toSize(), QImage.Format.Format_ARGB32_Premultiplied)
        p = QPainter(img)
        if cls is FastAxis:
            plan = axis._make_plan()
            _, _, lines, texts, _, _ = plan
            labels = [(st.text(), pt.x() + st.size().width() / 2, pt.y() + st.size().height() / 2) for pt, st in texts]
        else:
            _, tick_specs, text_specs = axis.generateDrawSpecs(p)
            labels = [(t, r.center().x(), r.center().y()) for r, _, t in text_specs]
        p.end()
        out[cls] = labels
        w.close()
    ref, fast = out[pg.AxisItem], out[FastAxis]
    assert [t for t, *_ in fast] == [t for t, *_ in ref] and len(ref) >= 8
    for (_, x0, y0), (_, x1, y1) in zip(ref, fast):
        assert abs(x0 - x1) <= 0.5
        if side in ("top", "bottom"):  # across the axis: centred on the line, not on the 0.8 box
            continue
        assert abs(y0 - y1) <= 0.5


def test_fast_axis_whole_number_ticks_keep_their_labels_apart(qapp):
    w = pg.GraphicsLayoutWidget()
    w.resize(400, 200)
    axis = FastAxis("bottom")
    plot = w.addPlot(axisItems={"bottom": axis})
    axis.set_integer_ticks(48)
    plot.setXRange(0, 1000, padding=0)
    w.show()
    qapp.processEvents()
    _, _, _, texts, _, _ = axis._make_plan()
    values = [int(st.text()) for _, st in texts]
    assert len(values) >= 3 and values[0] in (0, values[1] - values[0])  # 0 may not fit at the very edge
    steps = {b - a for a, b in zip(values, values[1:])}
    assert len(steps) == 1 and steps.pop() in (100, 200, 250, 500)
    xs = [pt.x() for pt, _ in texts]
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 48 * 0.9
    w.close()


@pytest.mark.parametrize("side", ["left", "top"])
def test_fast_axis_labels_that_would_touch_keep_every_2nd_or_4th(qapp, side):
    """32 lanes in a short panel: 0, 2, ... 30 printed one on another (the Thread -> bank view at
    1366 x 768); every 4th label is kept, evenly, and no two touch. Where they fit, all stay."""
    ticks = [[(i + 0.5, str(i)) for i in range(0, 32, 2)], []]
    for length, thinned in ((150, True), (700, False)):
        w = pg.GraphicsLayoutWidget()
        w.resize(length if side == "top" else 300, length if side == "left" else 300)
        axis = FastAxis(side)
        plot = w.addPlot(axisItems={side: axis})
        plot.showAxis(side)
        axis.setTicks(ticks)
        plot.setXRange(0, 32, padding=0)
        plot.setYRange(0, 32, padding=0)
        w.show()
        qapp.processEvents()
        _, _, lines, texts, _, _ = axis._make_plan()
        values = [int(st.text()) for _, st in texts]
        steps = {b - a for a, b in zip(values, values[1:])}
        assert len(values) >= 3 and len(steps) == 1, values  # evenly
        step = steps.pop()
        assert (step in (4, 8, 16) if thinned else step == 2) and values[0] % step == 0, values
        assert len(lines[0][1]) == 16  # every tick is still drawn
        boxes = sorted((pt.y(), pt.y() + st.size().height() * 0.8) if side == "left" else
                       (pt.x(), pt.x() + st.size().width()) for pt, st in texts)
        assert all(b[0] >= a[1] for a, b in zip(boxes, boxes[1:])), boxes
        w.close()


def test_rgba_image_draws_its_cells_sharp(qapp):
    rgba = np.zeros((2, 2, 4), np.uint8)
    rgba[..., 3] = 255
    rgba[0, 0, :3] = (255, 0, 0)
    rgba[1, 1, :3] = (0, 0, 255)
    it = RGBAImage()
    it.setImage(rgba)
    it.setRect(QRectF(0, 0, 20, 20))
    img = QImage(20, 20, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(0)
    p = QPainter(img)
    it.paint(p)
    p.end()
    assert img.pixelColor(5, 5).getRgb()[:3] == (255, 0, 0)
    assert img.pixelColor(15, 15).getRgb()[:3] == (0, 0, 255)
    assert img.pixelColor(15, 5).getRgb()[:3] == (0, 0, 0)
    assert it.boundingRect() == QRectF(0, 0, 20, 20)
    it.clear()
    assert it.image is None and it.boundingRect().isEmpty()


def test_label_anchors_its_box(qapp):
    lab = Label("bank 0: 32", anchor=(1.0, 0.5))
    r = lab.boundingRect()
    assert r.right() == pytest.approx(0.0) and r.center().y() == pytest.approx(0.0)
    assert r.width() > 2 * Label.MARGIN and lab.text() == "bank 0: 32"
    lab.setText("")
    lab.setAnchor((0, 0))
    assert lab.boundingRect().left() == 0


def test_fast_axis_title_is_laid_out_when_shown_with_its_latest_text(qapp):
    """The title's HTML is set only while it shows (most axes have none): a title given while
    hidden, or restyled, is the one shown."""
    ax = FastAxis("bottom")
    assert not ax.label.isVisibleTo(ax)
    ax.setPen("#ff0000")
    ax.labelText = "bank"  # as setLabel does, then shown
    ax.showLabel(True)
    assert ax.label.toPlainText().strip() == "bank"
    ax.setTextPen("#00aa00")
    assert "#00aa00" in ax.label.toHtml()
    ax.setLabel("lane")
    assert ax.label.toPlainText().strip() == "lane"
    ax.showLabel(False)
    ax.setLabel("words")  # shows it again, with the new text
    assert ax.label.isVisibleTo(ax) and ax.label.toPlainText().strip() == "words"
    # never an SI prefix: none of the views' axes has units
    ax.setRange(0, 5e6)
    assert ax.label.toPlainText().strip() == "words"


def test_fast_axis_title_is_centred_on_the_axis(qapp):
    ax = FastAxis("top")
    ax.setLabel("bank")
    for w in (300, 520, 410):
        ax.resize(w, 40)
        ax.setRange(0, 32)
        br = ax.label.mapRectToParent(ax.label.boundingRect())
        assert abs(br.center().x() - w / 2) <= 1.0, (w, br)
