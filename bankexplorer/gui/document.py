"""The window's state: one immutable Pattern, its Analysis, the undo stack, selection and hover.

Every view observes a Document and every editor changes it only through :meth:`Document.apply`,
so an edit is always one undo step, always re-analyzed, and never leaves the window showing a
pattern that does not validate (a rejected edit is reported in :attr:`Document.errors`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..model.analysis import Analysis
from ..model.errors import BankExplorerError
from ..model.pattern import Pattern
from .recorded_analysis import RecordedAnalyzer

#: every document's analyses; an imported kernel's distinct executions are found once (see
#: :mod:`.recorded_analysis`), so an edit re-analyzes only those
_ANALYZER = RecordedAnalyzer()


def analyze(p: Pattern) -> Analysis:
    return _ANALYZER.analyze(p)


@dataclass(frozen=True)
class Selection:
    """What the user picked: a warp instruction (pattern instruction + loop iteration + warp) and
    optionally one lane of it. Views show the selected row and highlight the lane."""

    instruction: int = 0
    iteration: int = 0
    warp: int = 0
    lane: int | None = None
    #: the instructions of a source line picked in an imported kernel's per-line view (the lists
    #: mark them all; ``instruction`` is the one the views draw); empty otherwise
    group: tuple[int, ...] = ()


@dataclass(frozen=True)
class KernelLaunch:
    """The launch an imported kernel's pattern came from, beyond what the pattern and its file keep:
    the attached arrays' bytes, the kernel's file and its dynamic shared size ("Re-run as compiled"
    runs it again with them)."""

    arrays: dict[str, bytes]
    path: str | None = None
    extern_bytes: int | None = None


@dataclass(frozen=True)
class Hover:
    """What is under the mouse in any view, so every other view can highlight the same thing."""

    lane: int | None = None
    bank: int | None = None
    element: tuple[int, ...] | None = None
    word: int | None = None

    @property
    def empty(self) -> bool:
        return self.lane is None and self.bank is None and self.element is None and self.word is None


class _EditCommand(QUndoCommand):
    """One undoable edit: stores both whole states (and their analyses, so undo is instant)."""

    def __init__(self, doc: "Document", old: Pattern, old_an: Analysis | None, new: Pattern, new_an: Analysis,
                 text: str, merge_id: int):
        super().__init__(text)
        self.doc = doc
        self.old, self.old_an = old, old_an
        self.new, self.new_an = new, new_an
        self.merge_id = merge_id

    def id(self) -> int:  # noqa: A003 - Qt's name
        return self.merge_id

    def mergeWith(self, other: QUndoCommand) -> bool:  # a held spin box or a drag is one step
        if not isinstance(other, _EditCommand) or other.merge_id != self.merge_id or self.merge_id < 0:
            return False
        self.new, self.new_an = other.new, other.new_an
        if self.new == self.old:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self.doc._set_state(self.new, self.new_an)

    def undo(self) -> None:
        self.doc._set_state(self.old, self.old_an)


def _analysis_problems(an: Analysis) -> dict[int, str]:
    return dict(an.instruction_errors)


class Document(QObject):
    """The pattern being explored. Signals say what changed; the views redraw from the state."""

    patternChanged = Signal()
    analysisChanged = Signal()
    selectionChanged = Signal()
    hoverChanged = Signal()
    errorsChanged = Signal()
    dirtyChanged = Signal(bool)
    pathChanged = Signal()
    #: a different pattern was opened (File > New/Open): views fit themselves again
    loaded = Signal()
    #: the replay moved to another step (or stopped: :attr:`replay_step` is None)
    replayChanged = Signal()

    def __init__(self, pattern: Pattern | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.pattern: Pattern = pattern or Pattern()
        self.analysis: Analysis | None = None
        self.path: Path | None = None
        self.selection = Selection()
        self.hover_state = Hover()
        #: the replay's current step (a :class:`~bankexplorer.model.replay.ReplayStep`), or None
        self.replay_step = None
        #: problems of the last rejected edit, as (path, message); empty after a good edit
        self.errors: list[tuple[str, str]] = []
        self._executions: list = [None, {}]  # (analysis, {instruction: executions per warp})
        #: each imported kernel's launch (its pattern's ``KernelSource`` -> :class:`KernelLaunch`),
        #: for as long as the kernel lives (the pattern, or an undo step that brings it back)
        self._launches: list[tuple[weakref.ref, KernelLaunch]] = []
        self.analysis = self._analyze(self.pattern)
        if self.analysis is not None:
            self.selection = Selection(instruction=self.analysis.most_expensive())

    def remember_launch(self, kernel, launch: KernelLaunch) -> None:
        """Keep ``launch`` for ``kernel`` (an imported pattern's ``KernelSource``)."""
        self._launches = [(r, s) for r, s in self._launches if r() is not None and r() is not kernel]
        self._launches.append((weakref.ref(kernel), launch))

    def launch_of(self, kernel) -> KernelLaunch | None:
        """The launch :meth:`remember_launch` kept for ``kernel`` (None: it came from a file)."""
        return next((s for r, s in self._launches if r() is kernel), None)

    def _on_clean_changed(self, clean: bool) -> None:
        self.dirtyChanged.emit(not clean)

    # ---- state -------------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    @staticmethod
    def _analyze(p: Pattern) -> Analysis | None:
        if p.validate():
            return None
        try:
            return analyze(p)
        except BankExplorerError:
            return None

    def _set_state(self, p: Pattern, an: Analysis | None) -> None:
        self.pattern = p
        self.analysis = an
        self._clamp_selection(True)
        self.patternChanged.emit()
        self.analysisChanged.emit()
        if self.errors:
            self.errors = []
            self.errorsChanged.emit()

    def set_pattern(self, pattern: Pattern, path: str | Path | None = None) -> None:
        """Open or new: a fresh history, clean, and the most expensive instruction selected (the one
        with the most wavefronts; ties go to the first), since that is what the user came to see."""
        self.undo_stack.clear()
        self.path = Path(path) if path else None
        # the pattern the document was made with (the window's first file): analysed already
        an = self.analysis if pattern is self.pattern and self.analysis is not None else self._analyze(pattern)
        self.selection = Selection(instruction=an.most_expensive() if an is not None else 0)
        self._set_state(pattern, an)
        self.undo_stack.setClean()
        self.dirtyChanged.emit(False)
        self.pathChanged.emit()
        self.loaded.emit()
        self.selectionChanged.emit()

    def mark_saved(self, path: str | Path) -> None:
        self.path = Path(path)
        self.undo_stack.setClean()
        self.pathChanged.emit()

    def check(self, new: Pattern) -> tuple[list[tuple[str, str]], Analysis | None]:
        """Problems that would make ``new`` a rejected edit, and its analysis when there are none.

        Structural problems (``Pattern.validate``) always reject. Problems found while analyzing
        (an expression that does not parse, an index out of bounds) reject only when the edit
        introduces them, so a file that arrived broken can still be edited into shape."""
        problems = new.validate()
        if problems:
            return problems, None
        try:
            an = analyze(new)
        except BankExplorerError as e:
            return [(e.where, e.message)], None
        old = _analysis_problems(self.analysis) if self.analysis is not None else {}
        # an imported kernel laid out otherwise than compiled: an access the new layout makes
        # impossible (a vector access no longer aligned) is the what-if's answer, shown on the
        # instruction with its note, not a reason to refuse the layout
        answers = set()
        if new.kernel is not None and new.kernel.what_if(new.arrays):
            answers = {k for k, ins in enumerate(new.instructions) if ins.recorded is not None}
        fresh = [(f"instructions[{k}]", msg) for k, msg in sorted(_analysis_problems(an).items())
                 if old.get(k) != msg and k not in answers]
        if fresh and len(_analysis_problems(an)) >= len(old):
            return fresh, None
        return [], an

    def apply(self, new: Pattern, text: str, merge_id: int = -1) -> bool:
        """One undoable edit. Returns False (and sets :attr:`errors`) when ``new`` is invalid;
        the document then keeps its last valid state."""
        if new == self.pattern:
            if self.errors:
                self.errors = []
                self.errorsChanged.emit()
            return True
        problems, an = self.check(new)
        if problems:
            self.errors = problems
            self.errorsChanged.emit()
            return False
        self.undo_stack.push(_EditCommand(self, self.pattern, self.analysis, new, an, text, merge_id))
        return True

    # ---- selection and hover -----------------------------------------------------------------
    def executions(self, k: int) -> np.ndarray:
        """How many times each warp executes instruction ``k`` (its loop iterations, or for an
        imported kernel's instruction its recorded executions, which differ between warps: a
        branch, a loop whose trip count depends on the thread)."""
        p, an = self.pattern, self.analysis
        if not 0 <= k < len(p.instructions):
            return np.zeros(p.warps, np.int64)
        ins = p.instructions[k]
        if ins.recorded is None:
            return np.full(p.warps, max(ins.iterations(), 1), np.int64)
        cache = self._executions
        if cache[0] is not an:
            cache[:] = [an, {}]
        hit = cache[1].get(k)
        if hit is None:
            hit = cache[1][k] = np.bincount(ins.recorded.warp.astype(np.int64), minlength=p.warps)[:p.warps]
        return hit

    def _clamp_selection(self, moved: bool = False) -> None:
        """Keep the selection inside the pattern. ``moved``: the instruction was just picked, so
        a warp that never executes it gives way to the first that does."""
        p = self.pattern
        s = self.selection
        k = min(max(s.instruction, 0), max(len(p.instructions) - 1, 0))
        w = min(max(s.warp, 0), max(p.warps - 1, 0))
        it = max(s.iteration, 0)
        if p.instructions:
            runs = self.executions(k)
            if moved and runs.size and not runs[w] and runs.any():
                w = int(np.flatnonzero(runs)[0])
            it = min(it, max(int(runs[w]) - 1 if runs.size else 0, 0))
        lane = s.lane if s.lane is None or 0 <= s.lane < p.hardware.warp_size else None
        group = tuple(g for g in s.group if 0 <= g < len(p.instructions))
        new = Selection(k, it, w, lane, group if k in group else ())
        if new != s:
            self.selection = new
            self.selectionChanged.emit()

    def select(self, instruction: int | None = None, iteration: int | None = None, warp: int | None = None,
               lane: int | None | type(...) = ...) -> None:
        """Change part of the selection; ``lane=None`` clears the lane, leaving it out keeps it."""
        s = self.selection
        new = Selection(
            s.instruction if instruction is None else instruction,
            s.iteration if iteration is None else iteration,
            s.warp if warp is None else warp,
            s.lane if lane is ... else lane,
        )
        moved = instruction is not None and instruction != s.instruction
        if moved and iteration is None:
            new = replace(new, iteration=0)
        if instruction is not None and instruction not in s.group:
            new = replace(new, group=())  # one instruction picked: no longer a source line's
        if new != s:
            self.selection = new
            self._clamp_selection(moved)
            self.selectionChanged.emit()

    def select_group(self, instructions, lane: int | None | type(...) = ...) -> None:
        """Select the instructions of one source line: every list marks them, the views draw the
        costliest (the most excess wavefronts, then the most wavefronts; ties: the first)."""
        ks = tuple(sorted({int(k) for k in instructions if 0 <= int(k) < len(self.pattern.instructions)}))
        if not ks:
            return
        k = ks[0]
        an = self.analysis
        if an is not None and len(an):
            wf, ideal = an.row_costs()
            excess = np.maximum(wf - ideal, 0)
            best = None
            for j in ks:
                rows = an.rows_of(j)
                key = (int(excess[rows].sum()), int(wf[rows].sum()))
                if best is None or key > best:
                    best, k = key, j
        s = self.selection
        new = Selection(k, 0 if k != s.instruction else s.iteration, s.warp, s.lane if lane is ... else lane, ks)
        if new != s:
            self.selection = new
            self._clamp_selection(k != s.instruction)
            self.selectionChanged.emit()

    def set_replay_step(self, step) -> None:
        """Show ``step`` of the selected instruction's replay in every view (None: no replay)."""
        if step is not self.replay_step:
            self.replay_step = step
            self.replayChanged.emit()

    def hover(self, lane: int | None = None, bank: int | None = None, element: tuple[int, ...] | None = None,
              word: int | None = None) -> None:
        h = Hover(lane, bank, tuple(element) if element is not None else None, word)
        if h != self.hover_state:
            self.hover_state = h
            self.hoverChanged.emit()

    @property
    def selected_row(self) -> int | None:
        """The analysis row of the selected warp instruction (None when nothing to show)."""
        an = self.analysis
        if an is None or not len(an):
            return None
        s = self.selection
        return an.row_of(s.instruction, s.iteration, s.warp)
