"""A plot the views can afford to make: a view box and the axes it shows, nothing else.

pyqtgraph's ``PlotItem`` also builds, for every plot, a settings form and its context menus
(transforms, averaging, downsampling...), four axes whether shown or not, a title and an
auto-range button: most of the 6 ms each of the window's seven plots took to make, and none of
it is used here (the views have no context menus and draw their own titles). :class:`Plot`
keeps the part of ``PlotItem``'s interface the views call, with the same layout grid, so a view
reads the same with either.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsGridLayout, QGraphicsItem, QGraphicsWidget, QSizePolicy

from .axis import FastAxis

#: where each axis sits in the plot's grid (the view box is at row 2, column 1), as in PlotItem
AXIS_CELLS = {"top": (1, 1), "bottom": (3, 1), "left": (2, 0), "right": (2, 2)}


class Plot(pg.GraphicsWidget):
    def __init__(self, viewBox: pg.ViewBox | None = None, axisItems: dict | None = None,  # noqa: N803 - pyqtgraph's names
                 enableMenu: bool = False, parent=None, axes: tuple[str, ...] = ("left", "bottom")):  # noqa: N803
        """``axes``: the sides made now (PlotItem's left and bottom by default; a view that shows
        others names them, and an axis never shown is never made)."""
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        lay = self.layout = QGraphicsGridLayout()
        lay.setContentsMargins(1, 1, 1, 1)
        lay.setHorizontalSpacing(0)
        lay.setVerticalSpacing(0)
        self.setLayout(lay)
        self.vb = viewBox if viewBox is not None else pg.ViewBox(parent=self, enableMenu=enableMenu)
        if viewBox is not None:
            viewBox.setMenuEnabled(enableMenu)
        lay.addItem(self.vb, 2, 1)
        for i in range(4):
            lay.setRowPreferredHeight(i, 0)
            lay.setRowMinimumHeight(i, 0)
            lay.setRowSpacing(i, 0)
            lay.setRowStretchFactor(i, 1)
        for i in range(3):
            lay.setColumnPreferredWidth(i, 0)
            lay.setColumnMinimumWidth(i, 0)
            lay.setColumnSpacing(i, 0)
            lay.setColumnStretchFactor(i, 1)
        lay.setRowStretchFactor(2, 100)
        lay.setColumnStretchFactor(1, 100)
        # a row or column with no axis takes no room (in PlotItem a hidden axis, or the hidden
        # title, holds it at 0): an empty cell holds a widget that cannot grow
        self._empty: dict[tuple[int, int], QGraphicsWidget] = {}
        for cell in ((0, 1), *AXIS_CELLS.values()):
            self._empty[cell] = w = QGraphicsWidget(self)
            w.setMaximumSize(0, 0)
            lay.addItem(w, *cell)
        self.axes: dict[str, dict] = {}
        given = dict(axisItems or {})
        # the axes asked for and whatever it is given; the others are made only if a view asks
        for side in (*axes, *given):
            if side not in self.axes:
                self._place(side, given.get(side))

    def _place(self, side: str, axis: pg.AxisItem | None = None) -> pg.AxisItem:
        if side not in AXIS_CELLS:
            raise KeyError(f"no axis {side!r} (axes: {', '.join(AXIS_CELLS)})")
        axis = axis if axis is not None else FastAxis(side)
        empty = self._empty.pop(AXIS_CELLS[side], None)
        if empty is not None:
            self.layout.removeItem(empty)
            empty.setParentItem(None)
            if empty.scene() is not None:
                empty.scene().removeItem(empty)
        axis.linkToView(self.vb)
        self.axes[side] = {"item": axis, "pos": AXIS_CELLS[side]}
        self.layout.addItem(axis, *AXIS_CELLS[side])
        axis.setZValue(0.5)  # above images (z 0), below marks that want to cover the axes
        axis.setFlag(QGraphicsItem.GraphicsItemFlag.ItemNegativeZStacksBehindParent)
        return axis

    # ---- PlotItem's interface, the part the views use ------------------------------------------
    def getViewBox(self) -> pg.ViewBox:  # noqa: N802
        return self.vb

    def getAxis(self, name: str) -> pg.AxisItem:  # noqa: N802
        ax = self.axes.get(name)
        if ax is not None:
            return ax["item"]
        axis = self._place(name)
        axis.hide()  # as PlotItem's top and right axes: there, hidden, until shown
        return axis

    def showAxis(self, axis: str, show: bool = True) -> None:  # noqa: N802
        if show or axis in self.axes:  # (hiding an axis never made: nothing to do)
            self.getAxis(axis).setVisible(show)

    def hideAxis(self, axis: str) -> None:  # noqa: N802
        self.showAxis(axis, False)

    def setLabel(self, axis: str, *args, **kwargs) -> None:  # noqa: N802
        self.getAxis(axis).setLabel(*args, **kwargs)
        self.showAxis(axis)

    def addItem(self, item, *args, **kwargs) -> None:  # noqa: N802
        self.vb.addItem(item, *args, **kwargs)

    def setMenuEnabled(self, enableMenu: bool = True, enableViewBoxMenu="same") -> None:  # noqa: N802, N803
        self.vb.setMenuEnabled(enableMenu if enableViewBoxMenu == "same" else bool(enableViewBoxMenu))

    def hideButtons(self) -> None:  # noqa: N802 - there are none
        pass

    def setMouseEnabled(self, *args, **kwargs) -> None:  # noqa: N802
        self.vb.setMouseEnabled(*args, **kwargs)

    def setXRange(self, *args, **kwargs) -> None:  # noqa: N802
        self.vb.setXRange(*args, **kwargs)

    def setYRange(self, *args, **kwargs) -> None:  # noqa: N802
        self.vb.setYRange(*args, **kwargs)

    def setXLink(self, view) -> None:  # noqa: N802
        self.vb.setXLink(view.vb if isinstance(view, Plot) else view)
