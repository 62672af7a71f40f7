"""Before vs after in the window: a snapshot of the document and a "Before" pane showing it.

*Set as Before* keeps the current pattern; the edits that follow change the document, and the
Before pane (a column beside the tile) shows the snapshot's tile and physical banks (same instruction and warp as the
window's selection) under a line of what changed: ``before → now: 32 → 1 wavefronts · 1,056 →
64 per block · +128 B shared memory``. The comparison exports as one figure (the same as
``bankexplorer export BEFORE --compare AFTER``).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from ..model.errors import BankExplorerError
from ..model.pattern import Pattern
from .document import Document
from .views.banks import BanksView
from .views.tile import TileView

if TYPE_CHECKING:
    from ..export.compare import Change


class Snapshot(QObject):
    """The "before" pattern (None until one is set) as a read-only Document of its own."""

    changed = Signal()

    def __init__(self, doc: Document, parent: QObject | None = None):
        super().__init__(parent)
        self.doc = doc
        self._before: Document | None = None
        self.pattern: Pattern | None = None
        doc.selectionChanged.connect(self._follow)
        doc.analysisChanged.connect(self.changed)

    @property
    def before(self) -> Document:
        """The before's Document, made when first needed (most sessions compare nothing)."""
        if self._before is None:
            self._before = Document(Pattern(), self)
        return self._before

    def set(self, pattern: Pattern | None = None) -> None:
        """Keep ``pattern`` (the document's current one by default) as the before."""
        self.pattern = self.doc.pattern if pattern is None else pattern
        self.before.set_pattern(self.pattern)
        self._follow()
        self.changed.emit()

    def clear(self) -> None:
        self.pattern = None
        self.changed.emit()

    def pair(self) -> tuple[int, int]:
        """(before instruction, after instruction): the window's selection, clamped to the before."""
        k = self.doc.selection.instruction
        n = len(self.pattern.instructions) if self.pattern is not None else 0
        return (min(k, max(n - 1, 0)), k)

    def _follow(self) -> None:
        if self.pattern is None:
            return
        s = self.doc.selection
        self.before.select(instruction=self.pair()[0], warp=min(s.warp, max(self.pattern.warps - 1, 0)),
                           iteration=s.iteration, lane=s.lane)
        self.changed.emit()

    def changes(self) -> list[Change]:
        """What changed from the snapshot to the document now ([] when either is not valid)."""
        from ..export.compare import changes  # the figure code loads with the first comparison
        from ..export.scene import make_scene

        if self.pattern is None or self.doc.analysis is None or self.before.analysis is None:
            return []
        kb, ka = self.pair()
        s = self.doc.selection
        try:
            sb = make_scene(self.pattern, None, kb, min(s.warp, self.pattern.warps - 1), an=self.before.analysis)
            sa = make_scene(self.doc.pattern, None, ka, s.warp, s.iteration, an=self.doc.analysis)
        except BankExplorerError:
            return []
        return changes(sb, sa)


class SnapshotTileView(TileView):
    """The before's tile: a record, not an editor (no padding or access drags); compact (the
    main tile beside it has the colour legend and the caption's key)."""

    compact = True

    def drag_begin(self, p, modifiers) -> str | None:
        return None


class SnapshotBanksView(BanksView):
    """The before's physical banks, with a one-line caption."""

    compact = True


class BeforePane(QWidget):
    """The Before dock's contents: what changed, then the snapshot's tile over its banks."""

    title = "Before"

    def __init__(self, snap: Snapshot, parent: QWidget | None = None):
        super().__init__(parent)
        self.snap = snap
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.header)
        split = QSplitter(Qt.Orientation.Vertical)
        self.tile = SnapshotTileView(snap.before)
        self.banks = SnapshotBanksView(snap.before)
        split.addWidget(self.tile)
        split.addWidget(self.banks)
        lay.addWidget(split, 1)
        snap.changed.connect(self.update_header)
        self.update_header()

    def update_header(self) -> None:
        snap = self.snap
        if snap.pattern is None:
            self.header.setText("No snapshot: <i>Tools › Compare › Set as Before</i> keeps the pattern as it is now.")
            return
        parts = []
        for c in snap.changes():
            color = "#1a7f37" if c.better else "#c62828" if c.better is False else "#333"
            parts.append(f"{html.escape(c.label)}: <b style='color:{color}'>{html.escape(c.before)} → "
                         f"{html.escape(c.after)}</b>" + (f" ({html.escape(c.delta)})" if c.delta else ""))
        self.header.setText(f"<b>Before:</b> {html.escape(snap.pattern.name)} &nbsp;·&nbsp; before → now: "
                            + (" &nbsp;·&nbsp; ".join(parts) if parts else "not comparable (a pattern is not valid)"))

    def header_text(self) -> str:
        """The header as plain text (tests read it)."""
        from PySide6.QtGui import QTextDocument

        d = QTextDocument()
        d.setHtml(self.header.text())
        return d.toPlainText()

    def refresh_now(self) -> None:
        self.tile.refresh()
        self.banks.refresh()
