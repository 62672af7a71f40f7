"""The compiled hot paths (``_shared.c``: shared-memory instructions; ``_alu.c``: the usual forms of
the integer instructions, :mod:`.alu_forms`), where they were built.

``pip install`` builds them where a C compiler and Python's headers are present (``setup.py``:
an optional extension, so an install without a compiler still succeeds). Without them, or with
``BANKEXPLORER_NO_COMPILED=1`` in the environment, the emulator uses the numpy code they stand in
for, which gives the same results (``tests/test_shared_words.py`` and ``tests/test_alu_forms.py``
hold the two to each other) at a quarter to a third of the speed on loops over shared memory (CUB's
block sort, a loop of racing stores and loads: ``scripts/bench_emulator.py --only-loops``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator
from types import ModuleType


def load(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None (not built, or not wanted)."""
    if os.environ.get("BANKEXPLORER_NO_COMPILED"):
        return None
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None


#: the modules the emulator uses (None: numpy's code throughout)
shared = load("_shared")
alu = load("_alu")


@contextlib.contextmanager
def off() -> Iterator[None]:
    """Numpy's code throughout while inside (the reference the compiled modules are compared with)."""
    global shared, alu
    was = shared, alu
    shared = alu = None
    try:
        yield
    finally:
        shared, alu = was
