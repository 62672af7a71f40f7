"""The layout advisor: which padding or swizzle removes a conflict, and what it costs in
resident blocks. ``search`` and ``occupancy`` are pure model code (no Qt); ``cli`` registers
``bankexplorer advise``.

The search loads when one of its names is first used: the window asks ``occupancy`` for a GPU's
shared-memory limit at start-up, and does not need the search for that."""

from .occupancy import GPU, GPUS, Occupancy, occupancy

_SEARCH = ("Advice", "Candidate", "Ranked", "advise", "padding_curve")


def __getattr__(name: str):
    if name in _SEARCH:
        from . import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GPUS", "GPU", "Occupancy", "occupancy", *_SEARCH]
