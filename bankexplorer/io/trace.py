"""Explicit-address instructions in batches of numpy arrays: the pattern format's ``instructions``
when every one has ``addresses``, and the line-per-instruction trace format (``.jsonl``).

A trace file is a header line, then one instruction object per line (blank lines are skipped)::

    {"format": "bankexplorer-trace", "version": 1, "name": "my kernel", "hardware": {"preset": "nvidia-sm70-sm90"}}
    {"kind": "load", "width": 4, "addresses": [0, 4, 8, ...], "label": "tile load", "pc": 400}

Instruction lines take the keys of a pattern file's explicit-address instructions (``kind``,
``width`` / ``matrices`` + ``trans``, ``addresses``, ``space``, ``op``, ``aggregate``, ``repeat``,
``label``, ``pc``). Validation is the pattern format's, message for message, with the line number
in place of the JSON path. A batch is checked with a few passes over its columns; only a batch that
fails them is validated instruction by instruction, to say exactly what is wrong and where.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from ..model.engine import ADDRESS_LIMIT, WarpBatch, served_lanes
from ..model.errors import FileFormatError
from ..model.hardware import Hardware, aggregated_lanes, past_shared_memory, past_shared_memory_message
from ..model.pattern import MAX_REPEAT, Instruction, Pattern
from . import jsonread
from .addresses import Lanes, cut
from .files import LineReader, open_input
from . import patternfile as pf

TRACE_FORMAT = "bankexplorer-trace"
TRACE_VERSION = 1
BATCH = 16384  # instructions per batch: a few MB of arrays, big enough that numpy dominates
_HEADER_KEYS = {"format", "version", "name", "description", "hardware"}
_TRACE_KEYS = frozenset({"kind", "width", "matrices", "trans", "addresses", "repeat", "label", "space", "op",
                         "aggregate", "pc"})
#: the keys that decide how an instruction is costed: instructions that agree on them share a template
_TEMPLATE_KEYS = ("kind", "width", "matrices", "trans", "space", "op", "aggregate")
_MISSING = object()


@dataclass(frozen=True)
class Template:
    """What the instructions of one kind/width/space/op share: engine code, JSON fields, title, note."""

    ins: Instruction  # with no addresses

    @property
    def width(self) -> int:
        return self.ins.lane_width({})

    @property
    def code(self) -> int:
        return self.ins.engine_kind({})

    @property
    def matrices(self) -> int:
        return self.ins.matrices if self.ins.is_matrix else 0

    def json_fields(self) -> str:
        """The row fields of ``analyze --json`` that only depend on the template (as ``row_json``)."""
        i = self.ins
        d: dict[str, Any] = {"kind": i.kind}
        if i.is_matrix:
            d["matrices"], d["trans"] = i.matrices, i.trans
        else:
            d["width"] = self.width
        if i.kind == "atomic":
            d["op"] = i.atomic_op({})
        if i.space != "shared":
            d["space"] = i.space
        if i.aggregate:
            d["aggregate"] = True
        return json.dumps(d)[1:-1]

    def title(self) -> str:
        return self.ins.title()


@dataclass
class InstructionBatch:
    """``len(template)`` explicit-address instructions, numbered from ``first``."""

    first: int
    template: np.ndarray  # (N,) index into the reader's templates
    batch: WarpBatch
    repeat: np.ndarray  # (N,) int64
    label: np.ndarray  # (N,) index into the reader's labels, -1 = none
    pc: np.ndarray  # (N,) int64, -1 = none
    errors: dict[int, str] = field(default_factory=dict)  # batch row -> error found before the engine

    def __len__(self) -> int:
        return int(self.template.shape[0])


class Converter:
    """Instruction dicts -> :class:`InstructionBatch`; keeps the templates and labels seen so far."""

    def __init__(self, hw: Hardware, where: Callable[[int], str], source: str = "") -> None:
        self.hw = hw
        self.where = where  # instruction number -> its place in the file ("instructions[5]", "line 7")
        self.source = source
        self.templates: list[Template] = []
        self._template_index: dict[tuple, int] = {}
        self.labels: list[str] = []
        self._label_index: dict[str, int] = {}

    # ---- the fast path: a few passes over columns ----
    def convert(self, ds: list, first: int, reparse: Callable[[], list] | None = None,
                lanes: Lanes | None = None) -> InstructionBatch:
        """``reparse``: the same instructions read again by the standard library, for exact
        messages when ``ds`` came from orjson (see :func:`jsonread.fast_parse`) or had their
        addresses cut out into ``lanes`` (see :mod:`.addresses`)."""
        try:
            b = self._fast(ds, first, lanes)
        except (TypeError, ValueError, OverflowError, KeyError):
            b = None
        if b is None:
            b = self._slow(reparse() if reparse else ds, first)
        return b

    def _column(self, ds: list, key: str, default: Any) -> list:
        return list(map(dict.get, ds, itertools.repeat(key), itertools.repeat(default)))

    def _fast(self, ds: list, first: int, lanes: Lanes | None = None) -> InstructionBatch | None:
        n = len(ds)
        W = self.hw.warp_size
        if not ds:
            return self._assemble(first, [], np.zeros((0, W), np.int64), np.zeros((0, W), bool), np.ones(0, np.int64),
                                  np.zeros(0, np.int64), np.zeros(0, np.int64), {})
        if not _TRACE_KEYS.issuperset(set().union(*ds)):  # TypeError on a non-object: slow path
            return None
        cols = [self._column(ds, k, _MISSING) for k in _TEMPLATE_KEYS]
        keys = list(zip(*cols))
        tids = list(map(self._template_index.get, keys))
        if None in tids:
            for r in [r for r, t in enumerate(tids) if t is None]:
                t = self._template_index.get(keys[r])
                if t is None:
                    t = self._new_template(keys[r])
                    if t is None:
                        return None
                tids[r] = t
        reps = self._column(ds, "repeat", 1)
        if not {int}.issuperset(map(type, reps)):
            return None
        repeat = np.array(reps, np.int64)
        if repeat.min() < 1 or repeat.max() > MAX_REPEAT:
            return None
        labels = self._column(ds, "label", "")
        if not {str}.issuperset(map(type, labels)):
            return None
        li = self._label_index
        label_ids = np.array([li.get(s, -1) if s in li or not s else self._new_label(s) for s in labels], np.int64)
        pcs = self._column(ds, "pc", _MISSING)
        if pcs.count(_MISSING) == n:
            pc = np.full(n, -1, np.int64)
        else:
            if not {int, object}.issuperset(map(type, pcs)):
                return None
            pc = np.array([-1 if p is _MISSING else p for p in pcs], np.int64)
            if (pc[[p is not _MISSING for p in pcs]] < 0).any():
                return None
        if lanes is not None:
            a, active, errors = lanes.rows(first, n, W)
            return self._assemble(first, tids, a, active, repeat, label_ids, pc, errors)
        al = self._column(ds, "addresses", None)
        if not {list}.issuperset(map(type, al)):
            return None
        lens = np.fromiter(map(len, al), np.int64, n)
        if not {int, type(None)}.issuperset(map(type, itertools.chain.from_iterable(al))) or (lens == 0).any():
            return None
        errors: dict[int, str] = {}
        odd = np.flatnonzero(lens != W)
        if odd.size:
            al = list(al)
            for r in odd.tolist():
                errors[r] = f"needs {W} addresses (one per lane), got {len(al[r])}"
                al[r] = (al[r] + [None] * W)[:W]
        a = np.array(al, np.float64)  # null -> nan; exact for every valid address (< 2^40)
        active = ~np.isnan(a)
        a[~active] = 0
        if a.size and (a.min() < 0 or a.max() >= ADDRESS_LIMIT):
            return None
        return self._assemble(first, tids, a.astype(np.int64), active, repeat, label_ids, pc, errors)

    def _new_template(self, key: tuple) -> int | None:
        d = {k: v for k, v in zip(_TEMPLATE_KEYS, key) if v is not _MISSING}
        P = pf._Problems()
        ins = pf._instruction({**d, "addresses": [0] * self.hw.warp_size}, "", P)
        if ins is None or P.items or ins.validate({}):
            return None
        t = len(self.templates)
        self.templates.append(Template(Instruction(**{**ins.__dict__, "addresses": (), "label": "", "pc": None})))
        self._template_index[key] = t
        return t

    def _new_label(self, s: str) -> int:
        self._label_index[s] = len(self.labels)
        self.labels.append(s)
        return self._label_index[s]

    def _assemble(self, first: int, tids: list, addr: np.ndarray, active: np.ndarray, repeat: np.ndarray,
                  label: np.ndarray, pc: np.ndarray, errors: dict[int, str]) -> InstructionBatch:
        hw = self.hw
        template = np.array(tids, np.int64)
        table = self.templates
        codes = np.array([t.code for t in table] or [0], np.int64)
        widths = np.array([t.width for t in table] or [4], np.int64)
        mats = np.array([t.matrices for t in table] or [0], np.int64)
        agg = np.array([t.ins.aggregate for t in table] or [False], bool)
        rows = np.flatnonzero(agg[template])
        if rows.size:
            active[rows] = aggregated_lanes(active[rows])
        batch = WarpBatch(codes[template], widths[template], mats[template], addr, active)
        served = served_lanes(batch, hw)
        for r in np.flatnonzero(past_shared_memory(addr, batch.width, served, hw)).tolist():
            errors.setdefault(r, past_shared_memory_message(addr[r], int(batch.width[r]), served[r], hw))
        return InstructionBatch(first, template, batch, repeat, label, pc, errors)

    # ---- the slow path: every instruction on its own, for exact messages ----
    def _slow(self, ds: list, first: int) -> InstructionBatch:
        P = pf._Problems()
        instrs: list[Instruction] = []
        for k, d in enumerate(ds):
            path = self.where(first + k)
            n0 = len(P.items)
            if isinstance(d, dict) and "addresses" not in d:
                P.add(path, "a trace instruction needs explicit 'addresses' (expressions need a pattern file)")
                continue
            if isinstance(d, dict):
                for key in set(d) - _TRACE_KEYS:
                    if key in pf._INSTR_KEYS:
                        P.add(f"{path}.{key}", "cannot be combined with explicit addresses")
            ins = pf._instruction(d, path, P)
            if ins is not None and len(P.items) == n0:
                for w, m in ins.validate({}):
                    P.add(f"{path}.{w}", m)
                instrs.append(ins)
        if P.items:
            raise FileFormatError([(_tidy(p), m) for p, m in P.items], self.source)
        return self._from_instructions(instrs, first)

    def _from_instructions(self, instrs: list[Instruction], first: int) -> InstructionBatch:
        """Valid instructions the fast path declined (rare shapes): one row at a time."""
        W = self.hw.warp_size
        ds = []
        for ins in instrs:
            d: dict[str, Any] = {"kind": ins.kind, "addresses": [a for a in ins.addresses or ()]}
            if ins.is_matrix:
                d.update(matrices=ins.matrices, trans=ins.trans)
            else:
                d["width"] = ins.width
            for k, default in (("space", "shared"), ("op", "add"), ("aggregate", False), ("repeat", 1), ("label", "")):
                if getattr(ins, k) != default:
                    d[k] = getattr(ins, k)
            if ins.pc is not None:
                d["pc"] = ins.pc
            if not d["addresses"]:
                d["addresses"] = [None] * W
            ds.append(d)
        b = self._fast(ds, first)
        assert b is not None, "a validated instruction must convert"
        return b


def _tidy(path: str) -> str:
    """``line 7.width`` -> ``line 7: width`` (JSON paths are kept as they are)."""
    return re.sub(r"^(line \d+)\.", r"\1: ", path)


# ---- readers ----------------------------------------------------------------------------------
@dataclass
class Source:
    """A header (a pattern with no instructions) and its instructions, batch by batch."""

    header: Pattern
    converter: Converter
    batches: Iterator[InstructionBatch]
    count_hint: int | None = None  # instructions in the file when known up front (pattern files)
    #: the parsed instructions, kept until the command ends (freeing millions of objects costs more
    #: than the command's own work; the command line exits without it, see ``cli.main``)
    parsed: Any = None
    #: bytes of the file read so far (traces read as they go), for progress
    position: Callable[[], int] | None = None


def explicit_only(d: Any) -> bool:
    """A parsed pattern file whose instructions all give explicit addresses (the streaming path)."""
    return (isinstance(d, dict) and isinstance(d.get("instructions"), list) and bool(d["instructions"])
            and all(isinstance(i, dict) and "addresses" in i for i in d["instructions"]))


def from_pattern_bytes(raw: bytes, source: str, reparse: Callable[[], Any]) -> Source | None:
    """A pattern file of explicit-address instructions read with the addresses cut out of the text
    (see :mod:`.addresses`); None when that does not apply (the caller parses the usual way)."""
    got = cut(raw)
    if got is None:
        return None
    text, lanes = got
    try:
        d, _exact = jsonread.fast_parse(text, "", source)
    except FileFormatError:
        return None
    if not explicit_only(d) or len(d["instructions"]) != lanes.counts.size:
        return None
    if not all(type(x["addresses"]) is int and x["addresses"] == 0 for x in d["instructions"]):
        return None
    return from_pattern_dict(d, source, reparse=reparse, lanes=lanes)


def from_pattern_dict(d: dict, source: str = "", batch: int = BATCH, reparse: Callable[[], Any] | None = None,
                      lanes: Lanes | None = None) -> Source:
    """A parsed pattern file of explicit-address instructions, converted up front (so that a bad
    instruction is reported before any output). ``reparse``: the file parsed
    again by the standard library (see :func:`jsonread.fast_parse`)."""
    header = pf.from_dict({**d, "instructions": []}, source)
    ds: list = d["instructions"]
    d["instructions"] = None
    conv = Converter(header.hardware, lambda k: f"instructions[{k}]", source)
    again = (lambda s: lambda: reparse()["instructions"][s:s + batch]) if reparse else (lambda s: None)
    batches = []
    for s in range(0, len(ds), batch):
        batches.append(conv.convert(ds[s:s + batch], s, again(s), lanes))
    return Source(header, conv, iter(batches), len(ds), ds)


def _header_pattern(d: Any, source: str) -> Pattern:
    if not isinstance(d, dict):
        raise FileFormatError([("line 1", f"the header must be a JSON object, got {pf._tname(d)}")], source)
    P = pf._Problems()
    for k in d:
        if k not in _HEADER_KEYS:
            P.add(f"line 1: {k}", f"unknown key (allowed: {', '.join(sorted(_HEADER_KEYS))})")
    if d.get("format") != TRACE_FORMAT:
        P.add("line 1: format", f"must be {TRACE_FORMAT!r}" + ("" if "format" in d else " (missing)"))
    v = d.get("version")
    if not pf._is_int(v) or v < 1:
        P.add("line 1: version", "must be an integer" + ("" if "version" in d else " (missing)"))
    elif v > TRACE_VERSION:
        P.add("line 1: version", f"{v} is newer than this BankExplorer understands ({TRACE_VERSION}); please update")
    if P.items:
        raise FileFormatError(P.items, source)
    body = {k: d[k] for k in ("name", "description", "hardware") if k in d}
    try:
        return pf.from_dict({"format": pf.FORMAT, "version": 1, **body, "instructions": []}, source)
    except FileFormatError as e:
        raise FileFormatError([(f"line 1: {p}", m) for p, m in e.problems], source)


def read_jsonl(path: str | Path, batch: int = BATCH) -> Source:
    """A ``.jsonl`` trace, read ``batch`` lines at a time (constant memory)."""
    header, conv, pairs, f = _jsonl(Path(path), batch)
    return Source(header, conv, (b for _lines, b in pairs), position=lambda: 0 if f.closed else f.tell())


def iter_jsonl_lines(path: str | Path, batch: int = BATCH) -> Iterator[tuple[list[bytes], InstructionBatch]]:
    """The instruction lines of a trace with their converted (so validated) batch."""
    return _jsonl(Path(path), batch)[2]


def _jsonl(path: Path, batch: int) -> tuple[Pattern, Converter, Iterator[tuple[list[bytes], InstructionBatch]], Any]:
    source = path.name
    f = open_input(path, "trace file")
    lines = LineReader(f, source)
    try:
        first = (lines.take(1) or [b""])[0]
        if not first.strip():
            raise FileFormatError([("line 1", "empty: a trace starts with a header line "
                                    f'({{"format": "{TRACE_FORMAT}", "version": 1, ...}})')], source)
        header = _header_pattern(jsonread.parse(first, "line 1", source), source)
        lines.fill()  # the first block of instructions: a binary file fails here, before any output
    except BaseException:
        f.close()
        raise
    place: dict[str, Any] = {"lines": [], "base": 0}
    conv = Converter(header.hardware, lambda k: f"line {place['lines'][k - place['base']]}", source)

    def gen() -> Iterator[tuple[list[bytes], InstructionBatch]]:
        lineno, count = 1, 0
        try:
            while True:
                chunk = lines.take(batch)
                if not chunk:
                    return
                nums: Any = range(lineno + 1, lineno + 1 + len(chunk))
                lineno += len(chunk)
                keep = [i for i, x in enumerate(chunk) if x.strip()]
                if len(keep) < len(chunk):
                    chunk = [chunk[i] for i in keep]
                    nums = [nums[i] for i in keep]
                if not chunk:
                    continue
                try:
                    got = convert(chunk, nums, count)
                except FileFormatError as e:  # the lines before the bad one still come first
                    k = _first_bad(e, nums)
                    got = None
                    if k:
                        try:
                            got = convert(chunk[:k], nums[:k], count)
                        except FileFormatError:
                            pass
                    if got is not None:
                        yield chunk[:k], got
                    raise e
                yield chunk, got
                count += len(chunk)
        finally:
            f.close()

    def convert(chunk: list[bytes], nums, count: int) -> InstructionBatch:
        ds, exact = _parse_lines(chunk, nums, source)
        place["lines"], place["base"] = list(nums), count
        reparse = None if exact else (lambda c=chunk, n=nums: _parse_each(c, n, source))
        return conv.convert(ds, count, reparse)

    return header, conv, gen(), f


def _first_bad(e: FileFormatError, nums) -> int | None:
    """The index in ``nums`` of the line ``e`` names first (``line 7: width``), if any."""
    m = re.match(r"line (\d+)\b", e.problems[0][0] if e.problems else "")
    if m is None:
        return None
    nums = list(nums)
    line = int(m.group(1))
    return nums.index(line) if line in nums else None


def _parse_lines(chunk: list[bytes], nums, source: str) -> tuple[list, bool]:
    """Many lines with one parse; on failure, line by line to say which. Returns (values, exact)."""
    try:
        ds, exact = jsonread.fast_parse(b"[" + b",".join(chunk) + b"]")
        if isinstance(ds, list) and len(ds) == len(chunk):
            return ds, exact
    except FileFormatError:
        pass
    return _parse_each(chunk, nums, source), True


def _parse_each(chunk: list[bytes], nums, source: str) -> list:
    out = []
    for line, n in zip(chunk, nums):
        try:
            out.append(jsonread.parse(line, f"line {n}", source))
        except FileFormatError as e:  # "at line 1, column 5" of a one-line text: say "at column 5"
            raise FileFormatError([(p, m.replace(" at line 1, column ", " at column ")) for p, m in e.problems], source)
    return out


def write_jsonl(p: Pattern, out) -> None:
    """A pattern of explicit-address instructions as a trace (``bankexplorer convert``)."""
    hw = pf.to_dict(p)["hardware"]
    head = {"format": TRACE_FORMAT, "version": TRACE_VERSION, "name": p.name}
    if p.description:
        head["description"] = p.description
    head["hardware"] = hw
    out.write(json.dumps(head) + "\n")
    d = pf.to_dict(p)
    out.writelines(json.dumps(x) + "\n" for x in d["instructions"])

