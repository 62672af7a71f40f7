"""The layout advisor: which padding or swizzle removes a conflict, and what it costs in
resident blocks. ``search`` and ``occupancy`` are pure model code (no Qt); ``cli`` registers
``bankexplorer advise``."""

from .occupancy import GPUS, GPU, Occupancy, occupancy
from .search import Advice, Candidate, Ranked, advise, padding_curve

__all__ = ["GPUS", "GPU", "Occupancy", "occupancy", "Advice", "Candidate", "Ranked", "advise", "padding_curve"]
