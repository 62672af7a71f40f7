"""The program's start-up: Python's cycle collector is off while it starts, and PySide reads no
module's source.

Starting the window creates a few hundred thousand long-lived objects (numpy's, Qt's and
pyqtgraph's modules, then the window's items) and no garbage worth a cycle collection; the
collector walked all of them several times, a tenth of the time to a painted window. The program
(``cli.main``) turns it off first thing; each command turns it back on once it has started, with
what start-up made set aside for good (``gc.freeze``), so that a later full collection walks only
what came after and an edit is never the one that pays for walking every module's objects.
Callers in the same process (tests, a notebook) never see the collector turned off.

PySide6 replaces ``import`` with a hook that, after each module imported once PySide is loaded,
reads the module's whole source file (``inspect.getsource``) to see whether it mentions PySide6:
its way to decide which modules may use ``from __feature__ import snake_case``. For the window that
is every module of pyqtgraph and of the views, about 25 ms, a sixteenth of the time to a painted
window. The window's program (:func:`qt_without_source_scan`) answers without reading: every module
uses PySide's default names, the scan's answer for any module that mentions PySide6 (which this
program's Qt modules do; pyqtgraph's reach Qt through its own shim). A module that does import from
``__feature__`` still gets its features: that import registers the module before the scan would
run. Callers in the same process (tests, a notebook) keep PySide's scan.
"""

from __future__ import annotations

import gc
import importlib
import sys


def collector_off() -> None:
    gc.disable()


def collector_on() -> None:
    """Back on after start-up (a no-op when it was never turned off)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def qt_without_source_scan() -> None:
    """Import PySide6 without its per-module source scan (see the module's docstring). The scan
    lives in PySide's support module; a PySide without it is left as it is, and one that cannot be
    imported is left to the window's own import to report."""
    try:
        importlib.import_module("PySide6")  # installs PySide's import hook and loads its feature module
    except ImportError:
        return
    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_pyside


def _uses_pyside(module) -> bool:
    return True  # the scan's answer for a module that mentions PySide6: its default names
