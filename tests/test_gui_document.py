"""Document: edits are undoable, merged, validated; selection and hover signal."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bankexplorer.gui.document import Document  # noqa: E402
from bankexplorer.io import patternfile  # noqa: E402
from bankexplorer.resources import EXAMPLES  # noqa: E402


@pytest.fixture
def doc(qtbot):
    d = Document()
    d.set_pattern(patternfile.load(EXAMPLES / "06_transpose_32x32.json"))
    return d


def _pad(doc, p):
    arr = replace(doc.pattern.arrays[0], padding=p)
    return doc.pattern.with_array(0, arr)


def test_apply_undo_redo_and_dirty(doc, qtbot):
    assert doc.analysis.totals().wavefronts == 4 * 8 + 4 * 8 * 32
    assert not doc.dirty
    with qtbot.waitSignal(doc.dirtyChanged):
        assert doc.apply(_pad(doc, 1), "padding")
    assert doc.dirty and doc.pattern.arrays[0].padding == 1
    assert doc.analysis.totals().wavefronts == 64  # padded transpose: conflict-free
    doc.undo_stack.undo()
    assert doc.pattern.arrays[0].padding == 0 and not doc.dirty
    assert doc.analysis.totals().wavefronts == 32 + 1024
    doc.undo_stack.redo()
    assert doc.pattern.arrays[0].padding == 1


def test_merge_id_makes_one_step(doc):
    for p in (1, 2, 3):
        assert doc.apply(_pad(doc, p), "padding", merge_id=7)
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.pattern.arrays[0].padding == 0


def test_invalid_edit_rejected_keeps_state(doc, qtbot):
    ins = replace(doc.pattern.instructions[0], index=("threadIdx.y +", "threadIdx.x"))
    with qtbot.waitSignal(doc.errorsChanged):
        ok = doc.apply(doc.pattern.with_instruction(0, ins), "index")
    assert not ok
    assert doc.errors and doc.errors[0][0] == "instructions[0]"
    assert "column" in doc.errors[0][1]
    assert doc.pattern.instructions[0].index[0] == "threadIdx.y + 8 * k"
    assert doc.undo_stack.count() == 0
    bad = replace(doc.pattern, block=(0, 1, 1))
    assert not doc.apply(bad, "block")
    assert doc.errors[0] == ("block[0]", "must be a positive integer")


def test_selection_and_hover_signals(doc, qtbot):
    with qtbot.waitSignal(doc.selectionChanged):
        doc.select(instruction=1, iteration=2, warp=3, lane=5)
    assert doc.selected_row == doc.analysis.row_of(1, 2, 3)
    doc.select(warp=99)
    assert doc.selection.warp == 7  # clamped to the block's 8 warps
    with qtbot.waitSignal(doc.hoverChanged):
        doc.hover(lane=4, bank=4)
    assert doc.hover_state.lane == 4


def test_opening_the_pattern_a_document_was_made_with_analyses_it_once(qapp, monkeypatch):
    """The window is made with the file it opens: one analysis, not one for File > New's pattern
    and another for the file."""
    import bankexplorer.gui.document as docmod

    p = patternfile.load(EXAMPLES / "07_transpose_padded_32x33.json")
    calls = []
    real = docmod.analyze
    monkeypatch.setattr(docmod, "analyze", lambda pat: calls.append(pat) or real(pat))
    d = Document(p)
    d.set_pattern(p, "x.json")
    assert len(calls) == 1 and d.analysis is not None and not d.dirty
    assert d.selection.instruction == d.analysis.most_expensive()
    d.set_pattern(replace(p, name="other"))  # another pattern: analysed
    assert len(calls) == 2
