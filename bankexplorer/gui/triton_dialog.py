"""*Import Triton kernel*: a ``.py`` file's ``@triton.jit`` function or a Triton cache entry's
``NAME.cubin``, opened or dropped on the window. One row per parameter (a number, or *Attach .npy…*
for an array) and Triton's launch options; *Run* compiles (a ``.py``: the installed Triton, in a
child process) and executes one program on a worker thread; *Import into window* makes the run the
window's pattern (one undoable edit), its Python lines in the Source lines dock.

A ``.py`` file's functions and parameters are read from its syntax tree (``ast``), never by running
it; the file's Python runs only when *Run* compiles it (docs/security.md).
"""

from __future__ import annotations

import ast
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (QComboBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="triton-import")


def jit_functions(text: str) -> dict[str, list[tuple[str, bool]]]:
    """The ``@triton.jit`` functions of a Python text: name -> [(parameter, is constexpr)]."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    out = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any("jit" in ast.unparse(d) for d in node.decorator_list):
            continue
        out[node.name] = [(a.arg, a.annotation is not None and "constexpr" in ast.unparse(a.annotation))
                          for a in node.args.args]
    return out


class _Param(QWidget):
    """A parameter's value: a number typed in, or an attached array."""

    def __init__(self, name: str, constexpr: bool, parent=None):
        super().__init__(parent)
        self.name, self.array, self.file = name, None, ""
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("constexpr value" if constexpr else "number, or attach an array")
        lay.addWidget(self.edit, 1)
        if not constexpr:
            self.attach = QPushButton("Attach .npy…")
            self.attach.clicked.connect(self._choose)
            lay.addWidget(self.attach)

    def _choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"Array for {self.name}", "", "NumPy arrays (*.npy)")
        if path:
            self.attach_file(path)

    def attach_file(self, path: str) -> None:
        self.array = np.load(path, allow_pickle=False)
        self.file = Path(path).name
        self.edit.setText(f"{self.file}  ({self.array.dtype}, {'x'.join(map(str, self.array.shape))})")
        self.edit.setReadOnly(True)

    def value(self):
        t = self.edit.text().strip()
        if self.array is not None or not t:
            return None
        if t in ("True", "False"):
            return t == "True"
        try:
            return int(t, 0)
        except ValueError:
            return float(t)


class TritonDialog(QDialog):
    def __init__(self, window, path: str):
        super().__init__(window)
        from ..kernels.triton_cache import is_cache_entry

        self.window_, self.path = window, path
        self.entry = is_cache_entry(path)
        self.setWindowTitle(f"Import Triton kernel: {Path(path).name}")
        self.resize(640, 420)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        lay.addLayout(form)
        self.function = QComboBox()
        form.addRow("function", self.function)
        self.params_form = QFormLayout()
        lay.addLayout(self.params_form)
        opts = QFormLayout()
        self.num_warps = QSpinBox(minimum=1, maximum=32, value=4)
        self.num_stages = QSpinBox(minimum=1, maximum=8, value=3)
        opts.addRow("num_warps", self.num_warps)
        opts.addRow("num_stages", self.num_stages)
        lay.addLayout(opts)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.import_button = QPushButton("Import into window")
        self.import_button.setEnabled(False)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.import_button)
        lay.addLayout(buttons)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status, 1)
        self.rows: dict[str, _Param] = {}
        self.pattern = None
        self._future: Future | None = None
        self._poll = QTimer(self, interval=50)
        self._poll.timeout.connect(self._collect)
        self.run_button.clicked.connect(self.run)
        self.import_button.clicked.connect(self.import_into_document)
        self.function.currentTextChanged.connect(self._fill_params)
        self._load()

    def _load(self) -> None:
        if self.entry:
            from ..kernels.triton_cache import from_cache_entry, read_meta

            k = from_cache_entry(self.path, python_lines=False)
            meta = read_meta(self.path[:-len(".cubin")] + ".json")
            self.functions = {k.name: [(p.name or str(p.ordinal), False) for p in k.params
                                       if p.name not in ("global_scratch", "profile_scratch")]}
            self.num_warps.setValue(meta.num_warps)
            self.num_warps.setEnabled(False)  # compiled in
            self.num_stages.setEnabled(False)
        else:
            self.functions = jit_functions(Path(self.path).read_text(encoding="utf-8", errors="replace"))
        self.function.addItems(list(self.functions))
        if not self.functions:
            self.status.setText("No @triton.jit function in this file.")
            self.run_button.setEnabled(False)

    def _fill_params(self, name: str) -> None:
        while self.params_form.rowCount():
            self.params_form.removeRow(0)
        self.rows = {}
        for pname, constexpr in self.functions.get(name, []):
            row = _Param(pname, constexpr)
            self.rows[pname] = row
            self.params_form.addRow(pname + (" (constexpr)" if constexpr else ""), row)

    def values(self) -> tuple[dict[str, np.ndarray], dict]:
        arrays = {n: r.array for n, r in self.rows.items() if r.array is not None}
        values = {n: v for n, r in self.rows.items() if (v := r.value()) is not None}
        if not self.entry:
            values.update(num_warps=self.num_warps.value(), num_stages=self.num_stages.value())
        return arrays, values

    def run(self) -> None:
        """Compile and execute on the worker thread; the dialog stays live."""
        try:
            arrays, values = self.values()
        except ValueError as e:
            self.status.setText(f"A value is not a number: {e}")
            return
        from ..sass.run import execute
        from ..sass.to_pattern import kernel_pattern
        from ..kernels import triton_launch as T

        path, fn, entry = self.path, self.function.currentText(), self.entry

        def work():
            launch = T.from_entry(path, arrays, values) if entry else T.from_source(path, fn, arrays, values)
            run = execute(launch.kernel, launch.cfg)
            return run, kernel_pattern(run, launch.kernel.source_text or "", launch.kernel.name, launch.origin,
                                       launch.cfg, path=launch.kernel.path)

        self.run_button.setEnabled(False)
        self.import_button.setEnabled(False)
        self.status.setText("Compiling and executing one program…")
        self._future = _POOL.submit(work)
        self._poll.start()

    def _collect(self) -> None:
        f = self._future
        if f is None or not f.done():
            return
        self._poll.stop()
        self.run_button.setEnabled(True)
        try:
            run, pat = f.result()
        except Exception as e:  # noqa: BLE001 - every failure is said in the dialog, in its own words
            self.status.setText(f"Not run: {getattr(e, 'log', None) or e}")
            self.pattern = None
            return
        self.pattern = pat
        shared = [r for r in run.rows if r.wavefronts is not None and r.executed and not r.guarded_off]
        wf, ideal = sum(r.wavefronts for r in shared), sum(r.ideal for r in shared)
        by_line: dict[int, int] = {}
        for r in shared:
            by_line[r.line] = by_line.get(r.line, 0) + r.wavefronts - r.ideal
        worst = max(by_line.items(), key=lambda kv: kv[1], default=(None, 0))
        text = (f"{run.kernel}: block {'x'.join(map(str, run.block))}, {run.warp_instructions:,} warp instructions; "
                f"{wf:,} shared wavefronts for an ideal of {ideal:,}")
        if worst[1] > 0:
            text += f"; worst: line {worst[0]} ({worst[1]:,} excess wavefronts)"
        self.status.setText(text)
        self.import_button.setEnabled(bool(pat.instructions))

    def wait(self, seconds: float = 120.0) -> bool:
        """Block until the run ends (tests, scripts)."""
        if self._future is None:
            return False
        try:
            self._future.exception(timeout=seconds)  # waits for the end, whatever it was
        except FutureTimeout:
            return False
        self._collect()
        return self.pattern is not None

    def import_into_document(self) -> bool:
        if self.pattern is None:
            return False
        doc = self.window_.document
        pat = replace(self.pattern, figure=doc.pattern.figure)
        if not doc.apply(pat, f"Import Triton kernel {pat.name}"):
            self.status.setText(f"Not imported: {doc.errors[0][0]}: {doc.errors[0][1]}")
            return False
        self.status.setText(f"Imported {pat.name} (Edit > Undo brings the previous pattern back).")
        return True


def open_triton(window, path: str) -> TritonDialog:
    d = TritonDialog(window, path)
    d.show()
    return d
