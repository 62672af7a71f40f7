"""The program's start-up: Python's cycle collector is off while it starts.

Starting the window creates a few hundred thousand long-lived objects (numpy's, Qt's and
pyqtgraph's modules, then the window's items) and no garbage worth a cycle collection; the
collector walked all of them several times, a tenth of the time to a painted window. The program
(``cli.main``) turns it off first thing; each command turns it back on once it has started, with
what start-up made set aside for good (``gc.freeze``), so that a later full collection walks only
what came after and an edit is never the one that pays for walking every module's objects.
Callers in the same process (tests, a notebook) never see the collector turned off.
"""

from __future__ import annotations

import gc


def collector_off() -> None:
    gc.disable()


def collector_on() -> None:
    """Back on after start-up (a no-op when it was never turned off)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
