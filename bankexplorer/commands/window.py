"""``bankexplorer open [FILE]`` (also ``bankexplorer FILE`` and ``bankexplorer``): the window."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..terminal import EXIT_BAD_INPUT

if TYPE_CHECKING:
    import argparse

NAME = "open"
HELP = "open the window (also: bankexplorer FILE)"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", nargs="?", help="pattern file to open")


def run(args: argparse.Namespace) -> int:
    try:
        from ..gui.app import run_app
    except ImportError as e:  # Qt missing or broken: say so instead of a traceback
        print(f"bankexplorer: cannot start the window: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_app(args.file)
