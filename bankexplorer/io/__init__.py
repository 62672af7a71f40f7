"""Reading and writing pattern files."""

from .patternfile import dumps, from_dict, load, loads, save, to_dict

__all__ = ["dumps", "from_dict", "load", "loads", "save", "to_dict"]
