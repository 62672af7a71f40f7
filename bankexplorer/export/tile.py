"""Tile panel: the shared array as the program indexes it, each cell in the colour of its bank,
padding hatched, the selected warp instruction's cells outlined with their lane numbers and its
bank conflicts marked with a triangle (shape as well as colour, for readers who cannot tell the
colours apart).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..palette import ink_on
from ..model.layout import SharedArray
from .canvas import Canvas, font, text_width
from .panel import ACCESSED, BANKS, BROADCAST, CONFLICT, PADDING, Panel, lh, tick_step, tw
from .scene import Scene

MAX_ROWS = 64  # rows drawn; a taller array shows the rows the instruction touches
MAX_COLS = 128  # columns drawn, likewise
#: pixels a cell needs for its lane number to be read; a tall narrow tile whose accessed rows fit
#: in fewer rows shows just those rows (example 28's half A[128][8]: 10-pixel cells, numbers in
#: 4-pixel type) rather than shrinking every cell
READABLE_CELL = 18


@dataclass
class TileCells:
    """The array as rows x columns of cells, padding columns included (the window's tile view)."""

    rows: int
    cols: int
    bank: np.ndarray  # (rows, cols) bank of the cell's first word; -1 padding, -2 past the end

    @staticmethod
    def of(arr: SharedArray, hw) -> "TileCells":
        if arr.ndim == 1:  # one row per bank row: 32 floats, 16 doubles, 64 halves
            cols = max(1, min(arr.dims[0], hw.row_bytes // arr.elem_size))
            rows = -(-arr.dims[0] // cols)
        else:
            cols, rows = arr.pitch, int(np.prod(arr.dims[:-1]))
        bank = np.full((rows, cols), -2, np.int64)
        idx = arr.all_indices()
        r, c = cell_of(arr, cols, np.stack(idx, axis=1))
        if arr.ndim > 1:
            bank[:, arr.dims[-1]:] = -1
        bank[r, c] = (arr.byte_addresses(idx) // hw.bank_width) % hw.banks
        return TileCells(rows, cols, bank)


def cell_of(arr: SharedArray, cols: int, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, col) of element indices ``index`` (n, ndim) in the tile."""
    if arr.ndim == 1:
        return index[:, 0] // cols, index[:, 0] % cols
    r = np.zeros(index.shape[0], np.int64)
    for d in range(arr.ndim - 1):
        r = r * arr.dims[d] + index[:, d]
    return r, index[:, arr.ndim - 1]


@dataclass
class Run:
    """Cells of one row that one access covers (a float4 is 4 cells), and the lanes that use it;
    ``down``: cells of one column instead (an M-major tile read along its rows' index)."""

    row: int
    col: int
    length: int
    lanes: list[int]
    conflict: bool
    shared: bool
    down: bool = False

    @property
    def rows(self) -> range:
        return range(self.row, self.row + (self.length if self.down else 1))

    @property
    def label(self) -> str:
        return str(self.lanes[0]) if len(self.lanes) == 1 else f"{self.lanes[0]}+{len(self.lanes) - 1}"


def access_runs(scene: Scene, arr: SharedArray, cols: int) -> list[Run]:
    """The cells the selected warp instruction touches in ``arr``, grouped per access."""
    an, det, row = scene.an, scene.det, scene.row
    ins = scene.ins
    if det is None or row is None or ins is None or ins.array != arr.name:
        return []
    li = an.lane_index[row]
    lanes = np.flatnonzero((li[:, 0] >= 0) & (det.lane_addr >= 0))
    if not lanes.size:
        return []
    r, c = cell_of(arr, cols, li[lanes, : arr.ndim])
    span = max(1, int(an.batch.width[row]) // arr.elem_size)
    down = runs_down(arr, li[lanes, : arr.ndim], det.lane_addr[lanes], span)
    groups: dict[tuple[int, int, int, bool], list[int]] = {}
    for ln, rr, cc, dn in zip(lanes.tolist(), r.tolist(), c.tolist(), down.tolist()):
        if arr.ndim == 1:  # a 1-D access may wrap onto the next tile row
            flat, left = rr * cols + cc, span
            while left > 0:
                rr, cc = divmod(flat, cols)
                n = min(left, cols - cc)
                groups.setdefault((rr, cc, n, False), []).append(ln)
                flat, left = flat + n, left - n
        else:
            groups.setdefault((rr, cc, span, dn), []).append(ln)
    out = []
    for (rr, cc, n, dn), ls in sorted(groups.items()):
        shared = len(ls) > 1 or bool(det.lane_shared[ls].any())
        out.append(Run(rr, cc, n, ls, bool(det.lane_conflict[ls].any()), shared, dn))
    return out


def runs_down(arr: SharedArray, index: np.ndarray, addr: np.ndarray, span: int) -> np.ndarray:
    """Per lane (``index`` (n, ndim), byte ``addr`` (n,)): True where the ``span`` elements the
    lane's bytes are run down the tile's column (along the dimension before the last: an M-major
    tile), so the cells to outline are below the first one, not beside it."""
    from ..model.analysis import vector_dims

    if span <= 1 or arr.ndim < 2 or not len(addr):
        return np.zeros(len(addr), bool)
    idx = tuple(index[:, d] for d in range(arr.ndim))
    return vector_dims(arr, idx, addr, np.ones(len(addr), bool), span) == arr.ndim - 2


class TilePanel(Panel):
    name = "tile"

    def __init__(self, scene: Scene, max_w: float = 900.0, max_h: float = 900.0):
        super().__init__(scene)
        f = self.f
        self.arr = arr = scene.array
        self.head = self._head_text()
        self.head_h = lh(f.bold) + lh(f.small) + 4
        if arr is None:
            self.cells, self.runs = None, []
            self.width, self.height = max(320.0, tw(self.head, f.bold)), self.head_h + lh(f.body)
            return
        self.cells = cells = TileCells.of(arr, scene.hw)
        self.runs = access_runs(scene, arr, cells.cols)
        # rows shown: all, or a window of MAX_ROWS starting at the first row the instruction touches
        self.r0, self.r1 = 0, cells.rows
        if cells.rows > MAX_ROWS:
            first = min((r.row for r in self.runs), default=0)  # a run down a column starts there too
            self.r0 = max(0, min(first, cells.rows - MAX_ROWS))
            self.r1 = self.r0 + MAX_ROWS
        self.c0, self.c1 = 0, cells.cols
        if cells.cols > MAX_COLS:
            first = min((r.col for r in self.runs if self.r0 <= r.row < self.r1 or r.down), default=0)
            self.c0 = max(0, min(first, cells.cols - MAX_COLS))
            self.c1 = self.c0 + MAX_COLS
        shown, ncols = self.r1 - self.r0, self.c1 - self.c0
        if self.runs and max_h / shown < min(READABLE_CELL, max_w / ncols):  # the rows are what shrink the cells
            first = min(r.row for r in self.runs) // 8 * 8  # whole groups of 8 rows
            last = max(r.rows[-1] for r in self.runs)
            need = max(8, -(-(last - first + 1) // 8) * 8)
            if need < shown:
                self.r0 = max(0, min(first, cells.rows - need))
                self.r1 = self.r0 + need
                shown = need
        self.cell = float(int(max(9, min(34, max_w / ncols, max_h / shown))))
        c = self.cell
        self.left = tw(str(self.r1 - 1), f.axis) + 8
        self.top = self.head_h + lh(f.axis) + 2
        self.col_step = tick_step(ncols, c, tw(str(self.c1 - 1), f.axis))
        self.row_step = tick_step(shown, c, lh(f.axis, 1.0) - 2)
        self.grid_w, self.grid_h = ncols * c, shown * c
        parts = ([f"rows {self.r0}–{self.r1 - 1} of {cells.rows}"] if shown < cells.rows else []) + \
            ([f"columns {self.c0}–{self.c1 - 1} of {cells.cols}"] if ncols < cells.cols else [])
        self.note = " and ".join(parts) + " shown" if parts else ""
        foot = lh(f.small) + 2 if self.note else 0
        self.width = max(self.left + self.grid_w + 2, tw(self.head, f.bold), tw(self._sub_text(), f.small))
        self.height = self.top + self.grid_h + foot

    def _head_text(self) -> str:
        arr = self.scene.array
        return arr.declaration() if arr is not None else "no shared array"

    def _sub_text(self) -> str:
        arr = self.arr
        if arr is None:
            return ""
        parts = [f"{arr.elem_size} B elements"]
        if arr.padding:
            parts.append(f"padding {arr.padding}")
        if arr.transform.kind != "none":
            parts.append(arr.transform.describe())
        return " · ".join(parts)

    def legend_entries(self) -> list[str]:
        e = [BANKS, ACCESSED, CONFLICT, BROADCAST]
        if self.arr is not None and self.arr.padding:
            e.append(PADDING)
        return e

    # geometry the tests use too -------------------------------------------------------------
    def cell_rect(self, r: int, c: int) -> tuple[float, float, float, float]:
        """Rectangle of tile cell (row ``r``, column ``c``) in panel coordinates (gap excluded)."""
        g = self.gap
        return (self.left + (c - self.c0) * self.cell + g / 2, self.top + (r - self.r0) * self.cell + g / 2,
                self.cell - g, self.cell - g)

    @property
    def gap(self) -> float:
        return max(1.0, self.cell * 0.06)

    def draw(self, cv: Canvas) -> None:
        st, f, ink = self.st, self.f, self.st.ink
        cv.text(0, 0, self.head, f.bold, ink)
        cv.text(0, lh(f.bold), self._sub_text(), f.small, st.colors.faint)
        if self.cells is None:
            return
        cells, c = self.cells, self.cell
        # axes: column numbers on top, row numbers on the left
        ty = self.top - 2
        for k in range(self.c0, self.c1, self.col_step):
            cv.text(self.left + (k - self.c0 + 0.5) * c, ty, str(k), f.axis, st.colors.faint, align="center",
                    valign="bottom")
        for r in range(self.r0, self.r1, self.row_step):
            cv.text(self.left - 5, self.top + (r - self.r0 + 0.5) * c, str(r), f.axis, st.colors.faint,
                    align="right", valign="center")
        bank = cells.bank[self.r0:self.r1, self.c0:self.c1]
        rr, cc = np.nonzero(bank >= 0)
        b = bank[rr, cc]
        for v in np.unique(b).tolist():
            sel = b == v
            rects = [self.cell_rect(int(r) + self.r0, int(k) + self.c0) for r, k in zip(rr[sel], cc[sel])]
            cv.fill_many(rects, st.bank_rgb(v))
        pr, pc = np.nonzero(bank == -1)
        if pr.size:
            cv.fill_many([self.cell_rect(int(r) + self.r0, int(k) + self.c0) for r, k in zip(pr, pc)],
                         st.colors.padding)
            p0 = max(self.arr.dims[-1], self.c0)
            cv.hatch(self.left + (p0 - self.c0) * c, self.top, (self.c1 - p0) * c, self.grid_h, st.colors.faint,
                     step=max(4.0, c / 3), width=max(1.0, c / 16))
        self._draw_runs(cv)
        if self.note:
            cv.text(self.left, self.top + self.grid_h + 2, self.note, f.small, st.colors.faint)

    def _draw_runs(self, cv: Canvas) -> None:
        st, c = self.st, self.cell
        ow = max(1.5, st.outline * min(1.0, c / 22))
        badge = c * 0.36
        for run in self.runs:
            if run.down:  # cells of one column
                if not self.c0 <= run.col < self.c1 or run.row + run.length <= self.r0 or run.row >= self.r1:
                    continue
                row0, row1 = max(run.row, self.r0), min(run.row + run.length, self.r1)
                col0 = run.col
                x, y, _, _ = self.cell_rect(row0, col0)
                g = self.gap
                w, h = c - g, (row1 - row0) * c - g
            else:
                if not self.r0 <= run.row < self.r1 or run.col + run.length <= self.c0 or run.col >= self.c1:
                    continue
                col0, col1 = max(run.col, self.c0), min(run.col + run.length, self.c1)
                row0 = run.row
                x, y, _, _ = self.cell_rect(run.row, col0)
                g = self.gap
                w, h = (col1 - col0) * c - g, c - g
            color = st.colors.conflict if run.conflict else st.ink
            cv.outline(x - g / 2, y - g / 2, w + g, h + g, color, ow)
            fill = st.bank_rgb(int(self.cells.bank[row0, col0]))
            px = min(c * (0.5 if run.length == 1 or run.down else 0.62), (w - 2 * ow) / max(0.62 * len(run.label), 1.0))
            lf = font(px, bold=True)
            if text_width(run.label, lf) > w - 2:  # too narrow even so: shrink to fit
                lf = font(px * (w - 2) / text_width(run.label, lf), bold=True)
            cy = y + h / 2 + (badge * 0.12 if (run.conflict or run.shared) and not run.down else 0)  # clear of the badges
            cv.text(x + w / 2, cy, run.label, lf, ink_on(fill), align="center", valign="center")
            if run.conflict:
                cv.triangle(x + w - badge * 0.5, y + badge * 0.42, badge, st.colors.conflict, border=st.background)
            if run.shared:
                cv.dot(x + badge * 0.4, y + badge * 0.4, badge * 0.28, st.colors.broadcast, border=st.background)
