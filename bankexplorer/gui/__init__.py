"""The explorer window (PySide6 + pyqtgraph): a Document, linked views of it, and editors."""

import ctypes as _ctypes
import sys as _sys


def _keep_singletons_alive() -> None:
    """PySide6 6.12.0 on Python 3.11 drops references it does not own: one to ``None`` on every
    call of a Qt method that returns nothing (``setPen``, ``setVisible``, ``setText``...), and
    some to ``True``/``False``. From Python 3.12 these objects are immortal and it is harmless;
    on 3.11 their counts run down with every redraw and the interpreter aborts ("none_dealloc:
    deallocating None") after a few hundred redraws. 2**40 more references each makes them as
    good as immortal here too; nothing else changes."""
    if _sys.version_info < (3, 12):
        for obj in (None, True, False):
            _ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 40


_keep_singletons_alive()
