"""Window features that live beside the core views (advisor, export, CUDA import, ...).

Every module in this package but :mod:`.host` defines ``install(host: ToolHost) -> object``: the
window calls each one once it is built, in the modules' name order, so a feature adds its menu
actions and docks through the window's small interface (:class:`.host.ToolHost`) without the main
window knowing about it; what ``install`` returns (the tool's own object, or None) the window
keeps in ``tools`` under the module's name.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .host import ToolHost


def install_all(host: "ToolHost") -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "host":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        host.tools[info.name] = module.install(host)
