"""An imported kernel in the window: its source lines, its what-if, and re-running it as compiled.

* The **Source lines** dock (tabbed with the instruction list, shown when a kernel is imported or
  opened): the kernel's lines with shared-memory SASS, worst first, each with its instructions
  (:class:`~bankexplorer.gui.line_tree.LineTree`); the wavefronts follow the analysis, so a
  layout edit shows at once. Clicking a line selects its instructions (the document's selection:
  the instruction list marks them all, the views draw the costliest); clicking an instruction
  selects it.
* **What-if**: when an array is laid out otherwise than the kernel was compiled
  (``KernelSource.what_if``), the numbers are the recorded accesses through the new layout. The
  dock's banner, the status bar and the Summary say so, with the analysis's notes (a vector access
  the new layout breaks).
* **Tools > Re-run as Compiled** (and the banner's button): the padding written into the kernel's
  declaration (:mod:`bankexplorer.sass.whatif`), compiled and executed again in the background with
  the same launch, and the document's pattern replaced by the result (one undoable edit).
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..lazy_dock import LazyDock

if TYPE_CHECKING:
    from .host import ToolHost
    from ..kernel_runner import KernelRunner, Outcome

AMBER_BG = "#fff3d6"
#: the left column's width for an imported kernel's per-line view: its line, source, executed,
#: wavefronts, ideal and excess columns side by side with room for a line of code
LINES_WIDTH = 480
AMBER_INK = "#805000"


def what_if_text(pattern) -> str:
    """"" when the pattern's arrays are as compiled; else what differs, in one sentence."""
    k = pattern.kernel
    if k is None:
        return ""
    names = k.what_if(pattern.arrays)
    if not names:
        return ""
    compiled = {a.name: a for a in k.compiled_arrays}
    now = {a.name: a for a in pattern.arrays}
    parts = []
    for n in names:
        a, c = now[n], compiled[n]
        extra = [f"padding {a.padding}"] if a.padding != c.padding else []
        if a.transform != c.transform:
            extra.append(a.transform.kind if a.transform.kind != "none" else "no swizzle")
        if a.dims != c.dims or a.dtype != c.dtype:
            extra.append(f"{a.dtype} {'x'.join(map(str, a.dims))}")
        if a.base != c.base:
            extra.append(f"base {a.base}")
        parts.append(f"{n} ({', '.join(extra)}; compiled as {c.declaration()})")
    return "; ".join(parts)


def what_if_notes(an) -> list[str]:
    """The analysis's what-if notes beyond the what-if itself (a vector access the layout breaks),
    once each, with the instructions they are on."""
    if an is None:
        return []
    seen: dict[str, list[str]] = {}
    for k, note in sorted(an.instruction_notes.items()):
        if not note.startswith("what-if:"):
            continue
        # the analysis says "what-if: A is not laid out as ... (run it compiled again to confirm)",
        # then what the layout does to a vector access, if anything
        rest = note.split("to confirm)", 1)[1].lstrip("; ").strip() if "to confirm)" in note else ""
        if rest:
            seen.setdefault(rest, []).append(an.pattern.instructions[k].title())
    return [f"{', '.join(ts[:2])}{' …' if len(ts) > 2 else ''}: {text}" for text, ts in seen.items()]


class KernelLinesPanel(QWidget):
    title = "Source lines"

    def __init__(self, window: "ToolHost"):
        from ..line_tree import LineTree

        super().__init__()
        self.window_ = window
        self.doc = window.document
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(3)
        self.banner = QFrame()
        self.banner.setStyleSheet(f"QFrame {{ background:{AMBER_BG}; border:1px solid #e0b050; border-radius:3px; }}"
                                  f"QLabel {{ border:none; color:{AMBER_INK}; }}")
        # compact: the what-if in a line or two with its button beside it, the rows keep the room
        bl = QHBoxLayout(self.banner)
        bl.setContentsMargins(6, 2, 4, 2)
        self.banner_text = QLabel()
        self.banner_text.setWordWrap(True)
        self.banner_text.setTextFormat(Qt.TextFormat.RichText)
        self.rerun_button = QPushButton("Re-run as compiled")
        self.rerun_button.setToolTip("Write the padding into the kernel's declaration, compile and execute it again "
                                     "with the same launch, and show what it really does (Edit > Undo comes back)")
        bl.addWidget(self.banner_text, 1)
        bl.addWidget(self.rerun_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.banner.setVisible(False)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self.tree = LineTree(compact=True)
        lay.addWidget(self.banner)
        lay.addWidget(self.info)
        lay.addWidget(self.tree, 1)
        self.tree.linePicked.connect(self._line_picked)
        self.tree.sassPicked.connect(self._sass_picked)
        self.doc.analysisChanged.connect(self.refresh)
        self.doc.selectionChanged.connect(self._selection)
        self._dirty = True

    def showEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().showEvent(ev)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        if not self.isVisible():  # hidden (another tab, or no kernel): brought up to date when shown
            self._dirty = True
            return
        self._dirty = False
        p, an = self.doc.pattern, self.doc.analysis
        k = p.kernel
        if k is None:
            self.tree.set_stats([])
            self.info.setText("The pattern is not an imported kernel: <i>Tools &gt; Import CUDA…</i> compiles and "
                              "executes one.")
            self.banner.setVisible(False)
            return
        from ...sass.line_totals import stats_from_pattern

        stats = stats_from_pattern(p, an)
        self.tree.set_stats(stats, k.text.split("\n"))
        wf = sum(s.wavefronts for s in stats)
        ideal = sum(s.ideal for s in stats)
        where = f"{k.file or p.name}: block {'×'.join(map(str, p.block))}, index {','.join(map(str, k.block_index))}"
        flags = []
        if any(s.data for s in stats):
            flags.append("<span style='color:#7838aa'>data</span>: addresses that depend on a parameter's data")
        if k.timing_dependent:
            flags.append("<span style='color:#c86e00'>timing</span>: counts that depend on the GPU's timing")
        if any(s.schedule for s in stats):
            flags.append("<span style='color:#c86e00'>schedule</span>: counts a scheduling policy decided (not facts "
                         "of the code)")
        self.info.setText(f"{html.escape(where)} · <b>{wf:,}</b> wavefronts, ideal {ideal:,}"
                          + ("<br><small>" + " · ".join(flags) + "</small>" if flags else ""))
        text = what_if_text(p)
        self.banner.setVisible(bool(text))
        if text:
            notes = what_if_notes(an)
            self.banner_text.setText(
                f"<b>What-if:</b> {html.escape(text)}"
                + "".join(f"<br>⚠ {html.escape(n)}" for n in notes))
            self.banner_text.setToolTip(f"<p><b>What-if:</b> {html.escape(text)}. These numbers are the kernel's "
                                        f"recorded accesses through the new layout; the compiled code used the old "
                                        f"one.</p>")
        self._selection()

    def _line_picked(self, line: int) -> None:
        from ...sass.line_totals import instruction_lines

        ks = [k for k, ln in instruction_lines(self.doc.pattern).items() if ln == line]
        if ks:
            self.doc.select_group(ks)

    def _sass_picked(self, line: int, pc: int) -> None:
        k = next((j for j, ins in enumerate(self.doc.pattern.instructions) if ins.pc == pc), None)
        if k is not None:
            self.doc.select(instruction=k)

    def _selection(self) -> None:
        if not self.isVisible() or self.doc.pattern.kernel is None:
            return
        s = self.doc.selection
        p = self.doc.pattern
        if not 0 <= s.instruction < len(p.instructions):
            return
        from ...sass.line_totals import instruction_lines

        line = instruction_lines(p).get(s.instruction)
        self.tree.select_line(line, None if len(s.group) > 1 else p.instructions[s.instruction].pc)


class KernelTool:
    """The dock, the what-if marks and Re-run, for one window. The dock's panel and the runner are
    made when first needed (a kernel comes in, the dock is shown, Re-run): most sessions have no
    kernel, and the window starts faster without them."""

    def __init__(self, window: "ToolHost"):
        self.window = window
        self.doc = window.document
        dock = self.dock = LazyDock(KernelLinesPanel.title, self._make_panel, window)
        dock.setObjectName("dock_lines")
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        # a tab of the left column's tall pane (not of the instruction list under it): for an
        # imported kernel the per-line view is the main view, and the column widens for it
        window.tabifyDockWidget(window.docks["editor"], dock)
        window.docks["editor"].raise_()
        dock.hide()
        window.menus["view"].addAction(dock.toggleViewAction())
        self.action = QAction("Re-run as &Compiled", window)
        self.action.setStatusTip("An imported kernel with a padding what-if: write the padding into its source, "
                                 "compile and execute it again")
        self.action.triggered.connect(self.rerun)
        window.menus["tools"].addAction(self.action)
        self.status = QLabel()
        self.status.setStyleSheet(f"color:{AMBER_INK}; background:{AMBER_BG}; padding:0 4px;")
        self.status.setVisible(False)
        window.statusBar().addPermanentWidget(self.status)
        self._runner: KernelRunner | None = None
        self._pending: tuple | None = None  # (generation, pattern re-run, rewrites)
        self._shown_kernel = None
        self.doc.patternChanged.connect(self._pattern_changed)
        self._pattern_changed()

    def _make_panel(self) -> KernelLinesPanel:
        panel = KernelLinesPanel(self.window)
        panel.rerun_button.clicked.connect(self.rerun)
        panel.rerun_button.setEnabled(self.action.isEnabled())
        return panel

    @property
    def panel(self) -> KernelLinesPanel:
        return self.dock.content()

    @property
    def runner(self) -> "KernelRunner":
        if self._runner is None:
            from ..kernel_runner import KernelRunner

            self._runner = KernelRunner(self.window)
            self._runner.finished.connect(self._rerun_done)
        return self._runner

    @property
    def busy(self) -> bool:
        return self._runner is not None and self._runner.busy

    def _pattern_changed(self) -> None:
        p = self.doc.pattern
        k = p.kernel
        if k is not None and k is not self._shown_kernel:  # a kernel came in: show its lines
            first = self._shown_kernel is None
            self._shown_kernel = k
            self.dock.show()
            self.dock.raise_()
            if first:
                self.give_room()
                QTimer.singleShot(0, self.give_room)  # again once the window is laid out
        elif k is None and self._shown_kernel is not None:
            self._shown_kernel = None
            self.dock.hide()
            self.window.docks["editor"].raise_()
            self._left_width(self.window.default_dock_sizes(self.window.width(), self.window.height())["left"])
        text = what_if_text(p)
        self.status.setText(f"what-if: {text.split(' (')[0]}" if text else "")
        self.status.setToolTip(f"What-if: {text}" if text else "")
        self.status.setVisible(bool(text))
        self.action.setEnabled(bool(text) and not self.busy)
        if self.dock.built:
            self.panel.rerun_button.setEnabled(bool(text) and not self.busy)

    def give_room(self) -> None:
        """The left column as wide as the per-line view's columns need (every column in view, the
        source text with them), the tile keeping its least width; the rows take its full height."""
        w = self.window
        if self.dock.isFloating() or w.dockWidgetArea(self.dock) != Qt.DockWidgetArea.LeftDockWidgetArea:
            return  # where the user put it, it stays
        from ..app import MIN_VIEW_SIZE

        right = w.docks["banks"].width() if w.docks["banks"].isVisible() else 0
        most = w.width() - right - MIN_VIEW_SIZE["tile"][0] - 20
        self._left_width(max(w.docks["editor"].width(), min(most, max(LINES_WIDTH, int(0.36 * w.width())))))

    def _left_width(self, px: int) -> None:
        self.window.resizeDocks([self.window.docks["editor"]], [px], Qt.Orientation.Horizontal)

    # ---- re-run --------------------------------------------------------------------------------
    def _inputs(self, k) -> tuple[dict[str, bytes], str | None, int | None]:
        """The attached arrays' bytes (kept from the import, else read beside the pattern file),
        the kernel's file and its extern size."""
        s = self.doc.launch_of(k)
        if s is not None:
            return dict(s.arrays), s.path, s.extern_bytes
        from ..cuda_dialog import load_npy

        folder = self.doc.path.parent if self.doc.path else None
        arrays = {}
        for param, fname in k.inputs:
            f = folder / fname if folder is not None else None
            if f is None or not f.is_file():
                raise ValueError(f"{param}'s data ({fname}) is not beside the pattern file: put it there, or import "
                                 f"the kernel again with its data (Tools > Import CUDA)")
            arrays[param] = load_npy(str(f))
        path = str(folder / k.file) if folder is not None and k.file and (folder / k.file).is_file() else None
        return arrays, path, None

    def rerun(self) -> bool:
        """Start the re-run (False, with the reason in the status bar, when it cannot)."""
        from ...sass.whatif import WhatIfError, rerun_source
        from ..kernel_runner import Launch

        p = self.doc.pattern
        k = p.kernel
        bar = self.window.statusBar()
        if k is None or not k.what_if(p.arrays):
            bar.showMessage("Re-run as compiled: the pattern is not an imported kernel with a what-if", 8000)
            return False
        try:
            text, rewrites = rerun_source(k.text, k.compiled_arrays, p.arrays)
            arrays, path, extern = self._inputs(k)
        except (WhatIfError, ValueError, OSError) as e:
            bar.showMessage(f"Cannot re-run as compiled: {e}", 15000)
            self.panel.banner_text.setText(self.panel.banner_text.text() + f"<br><b>Cannot re-run:</b> "
                                           f"{html.escape(str(e))}")
            return False
        launch = Launch(text, p.name, tuple(p.block), tuple(k.block_index), tuple(k.grid), tuple(k.defines),
                        tuple(sorted(arrays.items())), tuple(k.inputs), k.arch, path, extern, "as imported")
        gen = self.runner.submit(launch)
        self._pending = (gen, p, rewrites)
        self.action.setEnabled(False)
        self.panel.rerun_button.setEnabled(False)
        self.panel.rerun_button.setText("Re-running…")
        bar.showMessage("Re-running as compiled: " + "; ".join(r.after for r in rewrites), 15000)
        return True

    def _rerun_done(self, gen: int, out: "Outcome") -> None:
        from ...sass.line_totals import instruction_lines
        from ..document import KernelLaunch

        pending, self._pending = self._pending, None
        self.panel.rerun_button.setText("Re-run as compiled")
        self._pattern_changed()
        bar = self.window.statusBar()
        if pending is None or pending[0] != gen:
            return
        _g, before, rewrites = pending
        if self.doc.pattern is not before:
            bar.showMessage("Re-run dropped: the pattern changed while it ran (run it again)", 10000)
            return
        if out.pattern is None:
            bar.showMessage(f"Re-run as compiled failed: {out.message}", 15000)
            self.panel.banner_text.setText(self.panel.banner_text.text() + f"<br><b>Re-run failed:</b> "
                                           f"{html.escape(out.message)}")
            return
        line = instruction_lines(before).get(self.doc.selection.instruction)
        new = replace(out.pattern, name=before.name, description=before.description, figure=before.figure,
                      hardware=before.hardware)
        what = ", ".join(r.after.split()[-1] for r in rewrites)
        if not self.doc.apply(new, f"Re-run as compiled ({what})"):
            where, msg = self.doc.errors[0]
            bar.showMessage(f"Re-run not applied: {where}: {msg}", 15000)
            return
        self.doc.remember_launch(new.kernel, KernelLaunch(dict(out.launch.arrays), out.launch.path,
                                                          out.launch.extern_bytes))
        ks = [j for j, ln in instruction_lines(new).items() if ln == line]
        if ks:
            self.doc.select_group(ks)
        bar.showMessage(f"Re-run as compiled: {'; '.join(str(r) for r in rewrites)} (Edit > Undo goes back to the "
                        f"what-if)", 15000)


def install(window: "ToolHost") -> KernelTool:
    return KernelTool(window)
