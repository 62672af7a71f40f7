"""``bankexplorer convert SOURCE TARGET``: a pattern file of explicit addresses to a trace, or back."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

NAME = "convert"
HELP = "convert between a pattern file (.json) and a trace (.jsonl)"


def add_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("source", help="a pattern file of explicit addresses (.json) or a trace (.jsonl)")
    sp.add_argument("target", help="the file to write: .jsonl for a trace, .json for a pattern")


def run(args: argparse.Namespace) -> int:
    from ..io.convert import convert

    n = convert(args.source, args.target)
    print(f"{args.target}: {n:,} instruction{'s' if n != 1 else ''}", file=sys.stderr)
    return 0
