"""The window on a Triton kernel: a .py file opened (or dropped) shows Import Triton kernel, one
program runs on a worker thread, and its import is the window's pattern (the measured column sum:
1,096 wavefronts for an ideal of 136)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bankexplorer.gui.triton_dialog import TritonDialog, jit_functions
from bankexplorer.kernels.triton_source import available

HERE = Path(__file__).resolve().parent.parent / "resources" / "hardware" / "kernels" / "triton"


def test_functions_and_parameters_are_read_without_running_the_file():
    text = "import os\nos.system('false')\n@triton.jit\ndef k(X, n, B: tl.constexpr):\n    pass\ndef plain(a):\n    pass\n"
    assert jit_functions(text) == {"k": [("X", False), ("n", False), ("B", True)]}
    assert jit_functions("def (:") == {}


@pytest.mark.skipif(not available(), reason="Triton is not installed")
def test_open_a_py_run_one_program_and_import_it(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from bankexplorer.gui.app import MainWindow

    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True  # the import changed the document: no question at the end
    qtbot.addWidget(w)
    assert w.open_path(HERE / "colsum.py")
    d: TritonDialog = w.triton_dialog
    assert d.function.currentText() == "colsum" and list(d.rows) == ["X", "Y", "M", "N", "BLOCK_M"]
    d.rows["X"].attach_file(str(HERE / "colsum_8warps.X.npy"))
    d.rows["Y"].attach_file(str(HERE / "colsum_8warps.Y.npy"))
    for name, value in (("M", "128"), ("N", "64"), ("BLOCK_M", "128")):
        d.rows[name].edit.setText(value)
    d.num_warps.setValue(8)
    d.run()
    assert d.wait()
    assert "1,096 shared wavefronts for an ideal of 136" in d.status.text() and "worst: line 12" in d.status.text()
    assert d.import_into_document()
    t = w.document.analysis.totals()
    assert (t.wavefronts, t.ideal) == (1096, 136)
    assert w.document.pattern.kernel.file == "colsum.py"


def test_a_cache_entry_opens_with_its_parameters(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from bankexplorer.gui.app import MainWindow

    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True  # the import changed the document: no question at the end
    qtbot.addWidget(w)
    assert w.open_path(HERE / "measured" / "colsum_8warps" / "colsum.cubin")
    d: TritonDialog = w.triton_dialog
    assert list(d.rows) == ["X", "Y", "M"] and d.num_warps.value() == 8 and not d.num_warps.isEnabled()
    d.rows["X"].attach_file(str(HERE / "colsum_8warps.X.npy"))
    d.rows["M"].edit.setText("128")
    d.run()
    assert d.wait() and "1,096 shared wavefronts" in d.status.text()
