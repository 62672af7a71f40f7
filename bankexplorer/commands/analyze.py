"""``bankexplorer analyze FILE [--json]``: wavefronts per warp instruction of a pattern file or
a trace, then the totals; exit status 1 when some access is invalid."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ..terminal import EXIT_INVALID_ACCESS

if TYPE_CHECKING:
    import argparse

NAME = "analyze"
HELP = "analyze a pattern file: wavefronts per warp instruction"

#: a streamed trace's source, freed at exit, or never when the program exits fast (see cli.main)
KEEP: list = []


def add_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="pattern file (.json) or trace (.jsonl)")
    sp.add_argument("--json", action="store_true", help="machine-readable output")


def open_analysis_input(path: str):
    """A pattern file of expressions -> Pattern (bounded, for the window's sake); a trace (.jsonl)
    or a pattern file of explicit addresses only -> a streaming :class:`trace.Source` (no bound)."""
    from pathlib import Path

    from ..io import jsonread, patternfile, trace

    if Path(path).suffix.lower() == ".jsonl":
        return trace.read_jsonl(path)
    name = Path(path).name
    raw = patternfile.read_bytes(path, max_bytes=None)
    src = trace.from_pattern_bytes(raw, name, lambda: jsonread.parse(patternfile.read_bytes(path, None), "", name))
    if src is not None:
        return src
    d, exact = jsonread.fast_parse(raw, "", name)
    del raw
    if trace.explicit_only(d):
        again = None if exact else (lambda: jsonread.parse(patternfile.read_bytes(path, None), "", name))
        return trace.from_pattern_dict(d, name, reparse=again)
    if not exact:  # orjson read it: let the standard library's values make the messages
        d = jsonread.parse(patternfile.read_bytes(path, None), "", name)
    size = Path(path).stat().st_size
    if size > patternfile.MAX_FILE_BYTES:
        from ..model.errors import FileFormatError
        raise FileFormatError([("", f"file is {size:,} bytes; patterns with expressions are at most "
                                    f"{patternfile.MAX_FILE_BYTES:,} (explicit addresses have no limit)")], name)
    return patternfile.from_dict(d, name)


def run(args: argparse.Namespace) -> int:
    from ..io.trace import Source
    from ..model.analysis import analyze
    from ..model.report import format_table

    src = open_analysis_input(args.file)
    if isinstance(src, Source):
        from ..io.stream import Streamer

        KEEP.append(src)
        out = Streamer(src, sys.stdout, args.json).run()
        sys.stdout.flush()
        invalid, first = out.summary.totals["invalid"], out.first_error
    else:
        an = analyze(src, detail=False)
        if args.json:
            d = an.to_json()
            d["summary"] = an.summary().to_json(an.where)
            sys.stdout.write(json.dumps(d) + "\n")
        else:
            print(format_table(an))
            print("\n".join(an.summary().text_lines(an.where)))
        invalid = an.totals().invalid
        first = next((e for e in an.errors if e), None)
    if invalid:
        print(f"bankexplorer: {args.file}: {invalid} warp instruction(s) invalid; first: {first}", file=sys.stderr)
        return EXIT_INVALID_ACCESS
    return 0
