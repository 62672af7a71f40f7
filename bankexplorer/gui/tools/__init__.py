"""Window features that live beside the core views (advisor, export, CUDA import, ...).

Every module in this package defines ``install(window: MainWindow) -> None``; the window calls
each one once it is built, so a feature adds its menu actions and docks without the main window
knowing about it.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..app import MainWindow


def install_all(window: "MainWindow") -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.install(window)
