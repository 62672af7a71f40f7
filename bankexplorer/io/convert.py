"""``bankexplorer convert``: a pattern file of explicit-address instructions <-> a ``.jsonl`` trace.

Both directions validate every instruction (the same messages as ``analyze``) and write the
target atomically (a temporary file beside it, then a rename), never over the source. Trace to
pattern streams: each instruction line is copied as it is, so a trace of any length converts in
constant memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..model.errors import FileFormatError
from . import jsonread, patternfile, trace
from .atomic import atomic_open, check_writable


def _kind(path: Path) -> str:
    return "trace" if path.suffix.lower() == ".jsonl" else "pattern"


def convert(src: str | os.PathLike, dst: str | os.PathLike) -> int:
    """Convert ``src`` to ``dst`` (the direction from the suffixes); returns the instruction count."""
    src, dst = Path(src), Path(dst)
    check_writable(dst, (src,))
    if _kind(src) == _kind(dst):
        raise FileFormatError([("", f"both files are {_kind(src)}s: convert a .json pattern to a .jsonl "
                                    "trace or back")], dst.name)
    if _kind(src) == "trace":
        return _trace_to_pattern(src, dst)
    return _pattern_to_trace(src, dst)


def _pattern_to_trace(src: Path, dst: Path) -> int:
    raw = patternfile.read_bytes(src, max_bytes=None)
    d, exact = jsonread.fast_parse(raw, "", src.name)
    if not trace.explicit_only(d):
        p = jsonread.parse(raw, "", src.name) if not exact else d
        patternfile.from_dict(p, src.name)  # a malformed file says what is wrong first
        raise FileFormatError([("instructions", "a trace holds explicit addresses only; this pattern builds "
                                                "addresses from expressions (analyze it as it is)")], src.name)
    instrs = list(d["instructions"])
    again = None if exact else (lambda: jsonread.parse(raw, "", src.name))
    source = trace.from_pattern_dict(d, src.name, reparse=again)  # validates every instruction
    head = {"format": trace.TRACE_FORMAT, "version": trace.TRACE_VERSION, "name": source.header.name}
    if source.header.description:
        head["description"] = source.header.description
    head["hardware"] = patternfile.to_dict(source.header)["hardware"]
    with atomic_open(dst, text=True) as f:
        f.write(json.dumps(head) + "\n")
        for s in range(0, len(instrs), trace.BATCH):
            f.write("".join(json.dumps(x) + "\n" for x in instrs[s:s + trace.BATCH]))
    return len(instrs)


def _trace_to_pattern(src: Path, dst: Path) -> int:
    header = trace.read_jsonl(src).header  # the header alone, checked
    d = patternfile.to_dict(header)
    d.pop("instructions", None)
    n = 0
    with atomic_open(dst, text=True) as f:
        f.write(json.dumps(d)[:-1] + ', "instructions": [\n')
        for lines, _batch in trace.iter_jsonl_lines(src):
            f.write((",\n" if n else "") + ",\n".join(x.decode("utf-8").strip() for x in lines))
            n += len(lines)
        f.write("\n]}\n")
    return n
