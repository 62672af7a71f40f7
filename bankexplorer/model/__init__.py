"""The model: pure Python + numpy, no Qt. Hardware rules live in ``hardware.py``, the vectorized
wavefront engine in ``engine.py``, layouts in ``layout.py``, patterns in ``pattern.py``, and the
expansion of a pattern into per-lane addresses plus totals in ``analysis.py``."""

from .analysis import Analysis, analyze, instruction_detail
from .errors import BankExplorerError, ExprError, FileFormatError, PatternError
from .hardware import GENERIC, NVIDIA_SM70_SM90, PRESETS, Hardware
from .layout import DTYPES, SharedArray, Transform
from .pattern import Figure, Instruction, Loop, Pattern

__all__ = [
    "Analysis", "analyze", "instruction_detail", "BankExplorerError", "ExprError", "FileFormatError",
    "PatternError", "GENERIC", "NVIDIA_SM70_SM90", "PRESETS", "Hardware", "DTYPES", "SharedArray",
    "Transform", "Figure", "Instruction", "Loop", "Pattern",
]

# layout kinds of kernel libraries (CuTe, Triton, TMA) register themselves on import
from . import libraries  # noqa: E402,F401
