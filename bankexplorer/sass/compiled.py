"""The compiled hot paths of shared-memory instructions (``_shared.c``), where they were built.

``pip install`` builds them where a C compiler and Python's headers are present (``setup.py``:
an optional extension, so an install without a compiler still succeeds). Without them, or with
``BANKEXPLORER_NO_COMPILED=1`` in the environment, the emulator uses the numpy code they stand in
for, which gives the same results (``tests/test_shared_words.py`` holds the two to each other) at
about three quarters of the speed on loops over shared memory.
"""

from __future__ import annotations

import os
from types import ModuleType


def load() -> ModuleType | None:
    """The compiled module, or None (not built, or not wanted)."""
    if os.environ.get("BANKEXPLORER_NO_COMPILED"):
        return None
    try:
        from . import _shared
    except ImportError:
        return None
    return _shared


#: the module the emulator uses (None: numpy's code throughout)
shared = load()
