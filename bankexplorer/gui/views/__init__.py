"""The linked views. Each draws (Analysis, Selection, Hover, Style) and can run without a window."""

from .banks import BanksView
from .matrix import MatrixView
from .summary import InstructionList, SummaryView
from .tile import TileView
from .timeline import TimelineView

__all__ = ["BanksView", "InstructionList", "MatrixView", "SummaryView", "TileView", "TimelineView"]
