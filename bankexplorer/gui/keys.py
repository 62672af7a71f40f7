"""Key bindings the window and its editors share (the editors' spin boxes hand undo and redo keys back
to the window's actions, so both must know the same keys)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence


def redo_keys() -> list[QKeySequence]:
    """The platform's Redo keys plus Ctrl+Shift+Z and Ctrl+Y, each once: on X11 the standard Redo
    already is Ctrl+Shift+Z, and a key bound twice is an "ambiguous shortcut" that fires neither."""
    keys: list[QKeySequence] = []
    for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo) + [QKeySequence("Ctrl+Shift+Z"),
                                                                        QKeySequence("Ctrl+Y")]:
        if not k.isEmpty() and k not in keys:
            keys.append(k)
    return keys
