"""A big trace in the window: loaded on a worker thread while the GUI keeps processing events,
listed by a virtualized table, the selected instruction shown in the views, cancel."""

from __future__ import annotations

import gc
import io
import json
import os
import time

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QMessageBox, QTableView  # noqa: E402

from bankexplorer.gui.app import MainWindow  # noqa: E402
from bankexplorer.io import trace  # noqa: E402
from bankexplorer.io.stream import Streamer  # noqa: E402
from test_trace import TRACE_HEAD, mixed  # noqa: E402 - the sibling test module

N = 200_000


@pytest.fixture(scope="module")
def big_trace(tmp_path_factory):
    """200,000 mixed explicit instructions as a .jsonl trace (1,000 distinct lines, repeated)."""
    rows = mixed(1000, seed=11)
    lines = [json.dumps(r) + "\n" for r in rows]
    path = tmp_path_factory.mktemp("trace") / "big.jsonl"
    with open(path, "w") as f:
        f.write(json.dumps({**TRACE_HEAD, "name": "big"}) + "\n")
        for _ in range(N // len(lines)):
            f.writelines(lines)
    buf = io.StringIO()
    expected = Streamer(trace.read_jsonl(path), buf, False).run().summary.totals
    return path, rows, expected


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.trace.shutdown()
    w.document.undo_stack.setClean()


def test_window_opens_big_trace_and_stays_responsive(qtbot, win, big_trace):
    path, rows, expected = big_trace
    # the test session's own heap (every earlier test's objects) is not the window's: collect it
    # now and keep it out of later collections, so that a pass over it cannot pose as a stall
    gc.collect()
    gc.freeze()
    # the Trace dock appears first (a one-time layout of the window); then the load is timed
    win.docks["trace"].show()
    win.docks["trace"].raise_()
    qtbot.wait(200)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    t0 = time.perf_counter()
    assert win.open_path(path, ask=False)
    assert win.trace.state == "loading" and win.trace.bar.isVisibleTo(win.trace)
    qtbot.waitUntil(lambda: win.trace.state != "loading", timeout=180_000)
    t1 = time.perf_counter()
    timer.stop()
    gc.unfreeze()
    assert win.trace.state == "loaded", win.trace.status.text()
    # the event loop ran all along: the 10 ms timer kept ticking while the worker loaded
    during = [t for t in ticks if t0 <= t <= t1]
    gaps = [b - a for a, b in zip([t0] + during, during + [t1])]
    assert len(during) >= 10, (len(during), t1 - t0)
    assert max(gaps) < 1.0, (max(gaps), gaps.index(max(gaps)), len(gaps))
    # the list is a model over arrays (no widget per row), with every instruction
    assert isinstance(win.trace.table, QTableView)
    model = win.trace.model
    assert model.rowCount() == N
    assert win.trace.data.summary.totals == expected
    assert expected["instructions"] == N
    # the selected instruction in every view: the document holds exactly that instruction
    k = 123_457
    win.trace.table.selectRow(k)
    qtbot.waitUntil(lambda: win.document.pattern.name.endswith(f"#{k:,}"), timeout=5000)
    ins = win.document.pattern.instructions[0]
    assert list(ins.addresses) == rows[k % 1000]["addresses"]
    an = win.document.analysis
    wf = int(an.result.wavefronts[0])
    assert model.data(model.index(k, 3)) == str(wf)
    assert wf == int(win.trace.data.wavefronts[k])
    win.refresh_now()


def test_cancel_stops_the_load(qtbot, win, big_trace):
    path, _rows, _expected = big_trace
    win.open_trace(path)
    qtbot.waitUntil(lambda: win.trace.done > 0, timeout=60_000)
    win.trace.cancel_button.click()
    qtbot.waitUntil(lambda: win.trace.state != "loading", timeout=60_000)
    assert win.trace.state == "cancelled"
    assert win.trace.model.rowCount() == 0 and not win.trace.bar.isVisibleTo(win.trace)


def test_bad_trace_says_why(qtbot, win, tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(TRACE_HEAD) + '\n{"kind": "load", "width": 3, "addresses": [0]}\n')
    win.open_trace(f)
    qtbot.waitUntil(lambda: win.trace.state != "loading", timeout=30_000)
    assert win.trace.state == "failed"
    assert "line 2: width: must be one of 1, 2, 4, 8, 16" in win.trace.status.text()


def test_a_trace_opens_on_its_most_expensive_instruction(qtbot, win, tmp_path):
    rows = [{"kind": "load", "width": 4, "addresses": [4 * t * s for t in range(32)]} for s in (1, 2, 32, 8, 32)]
    path = tmp_path / "five.jsonl"
    path.write_text(json.dumps(TRACE_HEAD) + "\n" + "".join(json.dumps(r) + "\n" for r in rows))
    win.open_path(path)
    qtbot.waitUntil(lambda: win.trace.state == "loaded", timeout=10000)
    # wavefronts 1, 2, 32, 8, 32: the first 32-way row, shown in the views; conflicts in the conflict colour
    assert win.trace.table.currentIndex().row() == 2
    assert win.document.pattern.instructions[0].addresses == tuple(rows[2]["addresses"])
    m = win.trace.model
    from PySide6.QtCore import Qt
    assert m.data(m.index(2, 3)) == "32" and m.data(m.index(2, 3), Qt.ItemDataRole.ForegroundRole) is not None
    assert m.data(m.index(0, 3), Qt.ItemDataRole.ForegroundRole) is None
    assert win.trace.table.isColumnHidden(2)  # no pc in this trace: no pc column
