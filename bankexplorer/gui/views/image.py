"""An RGBA picture in data coordinates: the cell grids of the tile, banks, matrix and timeline.

pyqtgraph's ImageItem is built for data images (levels, lookup tables, downsampling): for a
ready-made RGBA picture it still re-derives a QImage on each ``setImage`` and re-checks levels on
each paint. The views' pictures are RGBA already and often the very same array again (the tile
and bank maps are cached per layout), so the QImage is made once per array and drawn as is.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

_QIMAGES: "OrderedDict[int, tuple[np.ndarray, QImage]]" = OrderedDict()


def to_qimage(rgba: np.ndarray) -> QImage:
    """A premultiplied QImage of an (h, w, 4) uint8 array (the raster engine's own format: no
    conversion on every draw), remembered for the last few arrays."""
    hit = _QIMAGES.get(id(rgba))
    if hit is not None and hit[0] is rgba:
        _QIMAGES.move_to_end(id(rgba))
        return hit[1]
    a = np.ascontiguousarray(rgba, dtype=np.uint8)
    h, w = a.shape[:2]
    img = QImage(a.data, w, h, 4 * w, QImage.Format.Format_RGBA8888).convertToFormat(
        QImage.Format.Format_ARGB32_Premultiplied)  # converting copies: ``a`` may go
    _QIMAGES[id(rgba)] = (rgba, img)
    while len(_QIMAGES) > 24:
        _QIMAGES.popitem(last=False)
    return img


class RGBAImage(pg.GraphicsObject):
    """``setImage(rgba)`` then ``setRect(rect)``: the picture stretched over ``rect`` (nearest
    pixel, so cells stay sharp). Keeps ImageItem's names for what the views call."""

    def __init__(self):
        super().__init__()
        self.image: np.ndarray | None = None
        self._qimage: QImage | None = None
        self._rect = QRectF()

    def setImage(self, image: np.ndarray, autoLevels: bool = False) -> None:  # noqa: N802,N803 - ImageItem's names
        if image is self.image:
            return
        self.image = image
        self._qimage = to_qimage(image)
        self.update()

    def setRect(self, rect: QRectF) -> None:  # noqa: N802 - ImageItem's name
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = QRectF(rect)
            self.informViewBoundsChanged()
            self.update()

    def clear(self) -> None:
        if self.image is not None:
            self.image = None
            self._qimage = None
            self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return QRectF(self._rect) if self._qimage is not None else QRectF()

    def paint(self, p, *args) -> None:
        img = self._qimage
        if img is None or img.isNull() or self._rect.isEmpty():
            return
        # through a scaled transform, as ImageItem does: drawImage into a target rectangle
        # samples differently and left some grid lines a pixel thinner than their neighbours
        r = self._rect
        p.save()
        p.translate(r.x(), r.y())
        p.scale(r.width() / img.width(), r.height() / img.height())
        p.drawImage(QRectF(0, 0, img.width(), img.height()), img)
        p.restore()
