"""Pattern files: versioned JSON, validated with a precise path for every problem, saved atomically.

Nothing in a file is ever executed: expressions stay strings until the whitelist parser of
:mod:`bankexplorer.model.expr` reads them. The format is described in
``resources/schema/pattern.schema.json`` and in docs/pattern-files.md.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..model import expr as E
from ..model.errors import ExprError, FileFormatError
from ..model.hardware import ATOMIC_OPS, KINDS, MATRIX_KINDS, MAX_SHARED_BYTES, PRESETS, SPACES, WIDTHS, Hardware
from ..model.layout import DTYPES, SharedArray, Transform
from ..model.pattern import MAX_RECORDED_ROWS, Figure, Instruction, KernelSource, Loop, Pattern, Recorded
from .atomic import atomic_write

FORMAT = "bankexplorer-pattern"
VERSION = 2  # 2: an imported kernel (its "kernel" and each instruction's "recorded" executions); 1 otherwise
MAX_FILE_BYTES = 32 << 20
MAX_PC = (1 << 63) - 1
FIGURE_STYLES = ("default", "slide", "dark")

_TOP_KEYS = {"format", "version", "name", "description", "hardware", "block", "constants", "arrays", "instructions", "figure",
             "kernel"}
_HW_KEYS = {"preset", "banks", "bank_width", "warp_size", "shared_bytes"}
_ARRAY_KEYS = {"name", "type", "dims", "padding", "base", "transform"}
_INSTR_KEYS = {"kind", "width", "matrices", "trans", "array", "index", "loops", "active", "repeat", "addresses", "label",
               "space", "op", "aggregate", "pc", "recorded"}
_LOOP_KEYS = {"var", "start", "stop", "step"}


class _Problems:
    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def add(self, path: str, msg: str) -> None:
        self.items.append((path, msg))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _tname(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "an integer", float: "a number"}.get(type(v), type(v).__name__)


def _unknown(obj: dict, allowed: set[str], path: str, P: _Problems) -> None:
    for k in obj:
        if k not in allowed:
            P.add(f"{path}.{k}" if path else k, f"unknown key (allowed: {', '.join(sorted(allowed))})")


def _int(obj: dict, key: str, path: str, P: _Problems, default: int | None = None, lo: int | None = None,
         hi: int | None = None, choices: tuple[int, ...] | None = None) -> int | None:
    p = f"{path}.{key}" if path else key
    if key not in obj:
        return default
    v = obj[key]
    if not _is_int(v):
        P.add(p, f"must be an integer, got {_tname(v)}")
        return default
    if choices is not None and v not in choices:
        P.add(p, f"must be one of {', '.join(map(str, choices))}")
        return default
    if lo is not None and v < lo:
        P.add(p, f"must be at least {lo}, got {v}")
        return default
    if hi is not None and v > hi:
        P.add(p, f"must be at most {hi:,}, got {v:,}")
        return default
    return v


def _str(obj: dict, key: str, path: str, P: _Problems, default: str = "") -> str:
    if key not in obj:
        return default
    v = obj[key]
    if not isinstance(v, str):
        P.add(f"{path}.{key}" if path else key, f"must be a string, got {_tname(v)}")
        return default
    return v


def _expr(text: str, path: str, P: _Problems) -> None:
    try:
        E.parse(text)
    except ExprError as e:
        P.add(path, e.message)


def _hardware(d: Any, P: _Problems) -> Hardware:
    if not isinstance(d, dict):
        P.add("hardware", f"must be an object, got {_tname(d)}")
        return PRESETS["nvidia-sm70-sm90"]
    _unknown(d, _HW_KEYS, "hardware", P)
    preset = _str(d, "preset", "hardware", P, "nvidia-sm70-sm90")
    if preset not in PRESETS:
        P.add("hardware.preset", f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
        preset = "nvidia-sm70-sm90"
    hw = PRESETS[preset]
    banks = _int(d, "banks", "hardware", P, hw.banks, choices=(1, 2, 4, 8, 16, 32, 64))
    bw = _int(d, "bank_width", "hardware", P, hw.bank_width, choices=(1, 2, 4, 8, 16))
    ws = _int(d, "warp_size", "hardware", P, hw.warp_size, choices=(1, 2, 4, 8, 16, 32, 64))
    smem = _int(d, "shared_bytes", "hardware", P, hw.shared_bytes, lo=16, hi=MAX_SHARED_BYTES)
    if preset != "generic" and (banks, bw, ws, smem) != (hw.banks, hw.bank_width, hw.warp_size, hw.shared_bytes):
        P.add("hardware.preset", f"{preset!r} has fixed numbers; use the 'generic' preset to set your own")
    return replace(hw.with_numbers(banks, bw, ws), shared_bytes=smem or hw.shared_bytes)


def _transform(d: Any, path: str, P: _Problems) -> Transform:
    from ..model.layout import TRANSFORMS

    if not isinstance(d, dict):
        P.add(path, f"must be an object, got {_tname(d)}")
        return Transform()
    kind = _str(d, "kind", path, P, "none")
    if kind not in TRANSFORMS:
        P.add(f"{path}.kind", f"unknown transform {kind!r} (known: {', '.join(TRANSFORMS)})")
        return Transform()
    params = {k: v for k, v in d.items() if k != "kind"}
    for k, v in params.items():
        if not isinstance(v, (int, str, bool)) and not (isinstance(v, list) and all(_is_int(x) for x in v)):
            P.add(f"{path}.{k}", f"must be a number, a string or a list of integers, got {_tname(v)}")
    params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in params.items()}
    for key in ("expr",):
        if isinstance(params.get(key), str):
            _expr(params[key], f"{path}.{key}", P)
    return Transform.make(kind, **params)


def _array(d: Any, path: str, P: _Problems) -> SharedArray | None:
    if not isinstance(d, dict):
        P.add(path, f"must be an object, got {_tname(d)}")
        return None
    _unknown(d, _ARRAY_KEYS, path, P)
    n0 = len(P.items)
    name = _str(d, "name", path, P, "s")
    dtype = _str(d, "type", path, P, "float")
    if dtype not in DTYPES:
        P.add(f"{path}.type", f"unknown element type {dtype!r} (known: {', '.join(sorted(DTYPES))})")
    dims = d.get("dims", [32])
    if not isinstance(dims, list) or not 1 <= len(dims) <= 3:
        P.add(f"{path}.dims", "must be a list of 1 to 3 positive integers")
        dims = [1]
    for k, x in enumerate(dims):
        if not _is_int(x) or x < 1:
            P.add(f"{path}.dims[{k}]", f"must be a positive integer, got {x!r}")
        elif x > 1 << 22:
            P.add(f"{path}.dims[{k}]", f"{x:,} is absurdly large (at most {1 << 22:,})")
    padding = _int(d, "padding", path, P, 0, lo=0, hi=1 << 16)
    base = _int(d, "base", path, P, 0, lo=0, hi=1 << 24)
    tr = _transform(d.get("transform", {"kind": "none"}), f"{path}.transform", P)
    if len(P.items) > n0:
        return None
    arr = SharedArray(name, dtype, tuple(dims), padding or 0, base or 0, tr)
    for w, m in arr.validate():
        P.add(f"{path}.{w}".replace(".dtype", ".type"), m)
    return arr


def _instruction(d: Any, path: str, P: _Problems) -> Instruction | None:
    if not isinstance(d, dict):
        P.add(path, f"must be an object, got {_tname(d)}")
        return None
    _unknown(d, _INSTR_KEYS, path, P)
    n0 = len(P.items)
    if "kind" not in d:
        P.add(f"{path}.kind", "is required")
    kind = _str(d, "kind", path, P, "load")
    if kind not in KINDS:
        P.add(f"{path}.kind", f"must be one of {', '.join(KINDS)}")
    matrix = kind in MATRIX_KINDS
    width = None
    matrices = 1
    trans = False
    if matrix:
        if "width" in d:
            P.add(f"{path}.width", f"{kind} takes 'matrices' and 'trans', not a width")
        matrices = _int(d, "matrices", path, P, 1, choices=(1, 2, 4)) or 1
        trans = d.get("trans", False)
        if not isinstance(trans, bool):
            P.add(f"{path}.trans", f"must be true or false, got {_tname(trans)}")
            trans = False
    else:
        for k in ("matrices", "trans"):
            if k in d:
                P.add(f"{path}.{k}", f"only for ldmatrix/stmatrix, not {kind}")
        width = _int(d, "width", path, P, None, choices=WIDTHS)
    repeat = _int(d, "repeat", path, P, 1, lo=1, hi=10**12) or 1
    label = _str(d, "label", path, P, "")
    pc = _int(d, "pc", path, P, None, lo=0, hi=MAX_PC)
    space = _str(d, "space", path, P, "shared")
    if space not in SPACES:
        P.add(f"{path}.space", f"must be one of {', '.join(SPACES)}, got {space!r}")
    elif space != "shared" and kind not in ("load", "store"):
        P.add(f"{path}.space", f"only loads and stores can use a generic address, not {kind}")
    op = _str(d, "op", path, P, "add")
    if op not in ATOMIC_OPS:
        P.add(f"{path}.op", f"must be one of {', '.join(ATOMIC_OPS)}, got {op!r}")
    elif "op" in d and kind != "atomic":
        P.add(f"{path}.op", f"only atomics have an operation, not {kind}")
    aggregate = d.get("aggregate", False)
    if not isinstance(aggregate, bool):
        P.add(f"{path}.aggregate", f"must be true or false, got {_tname(aggregate)}")
    elif aggregate and kind != "atomic":
        P.add(f"{path}.aggregate", f"only atomics can be warp-aggregated, not {kind}")
    addresses = None
    array = None
    index: tuple[str, ...] = ()
    loops: list[Loop] = []
    recorded = None
    active = _str(d, "active", path, P, "")
    if active.strip():
        _expr(active, f"{path}.active", P)
    if "recorded" in d:
        for k in ("index", "loops", "addresses", "active"):
            if k in d:
                P.add(f"{path}.{k}", "cannot be combined with recorded executions")
        if "array" in d:
            array = _str(d, "array", path, P, "") or None
        recorded = _recorded(d["recorded"], f"{path}.recorded", P)
        if not matrix and width is None:
            P.add(f"{path}.width", "is required with recorded executions")
    elif "addresses" in d:
        a = d["addresses"]
        for k in ("array", "index", "loops"):
            if k in d:
                P.add(f"{path}.{k}", "cannot be combined with explicit addresses")
        if not isinstance(a, list) or not a:
            P.add(f"{path}.addresses", "must be a list of byte offsets (null = inactive lane)")
        else:
            for k, x in enumerate(a):
                if x is not None and (not _is_int(x) or x < 0 or x >= 1 << 40):
                    P.add(f"{path}.addresses[{k}]", f"must be a byte offset from 0 to 2^40 or null, got {x!r}")
            addresses = tuple(a)
        if not matrix and width is None and "width" not in d:
            P.add(f"{path}.width", "is required with explicit addresses")
    else:
        array = _str(d, "array", path, P, "")
        if "array" not in d:
            P.add(f"{path}.array", "is required (or give explicit 'addresses')")
        idx = d.get("index", [])
        if isinstance(idx, str):
            idx = [idx]
        if not isinstance(idx, list) or not all(isinstance(x, str) for x in idx):
            P.add(f"{path}.index", "must be a list of expressions, one per array dimension")
            idx = []
        for k, x in enumerate(idx):
            _expr(x, f"{path}.index[{k}]", P)
        index = tuple(idx)
        raw_loops = d.get("loops", [])
        if not isinstance(raw_loops, list):
            P.add(f"{path}.loops", "must be a list of {var, start, stop, step}")
            raw_loops = []
        for k, lp in enumerate(raw_loops):
            lpath = f"{path}.loops[{k}]"
            if not isinstance(lp, dict):
                P.add(lpath, f"must be an object, got {_tname(lp)}")
                continue
            _unknown(lp, _LOOP_KEYS, lpath, P)
            var = _str(lp, "var", lpath, P, "k")
            start = _int(lp, "start", lpath, P, 0, lo=-(1 << 31), hi=1 << 31)
            if "stop" not in lp:
                P.add(f"{lpath}.stop", "is required")
            stop = _int(lp, "stop", lpath, P, 1, lo=-(1 << 31), hi=1 << 31)
            step = _int(lp, "step", lpath, P, 1, lo=-(1 << 31), hi=1 << 31)
            loops.append(Loop(var, start or 0, stop if stop is not None else 1, step if step is not None else 1))
    if len(P.items) > n0:
        return None
    return Instruction(kind, width, matrices, trans, array, index, tuple(loops), active, repeat, addresses, label,
                       space, op, aggregate is True, pc, recorded)


_RECORDED_FIELDS = (("warp", "<i4", 1), ("element", "<i4", 32), ("offset", "<i2", 32), ("address", "<i4", 32))


def _declared_rows(instructions: list) -> int:
    """The recorded rows the instructions say they hold, all together (read from their ``rows``
    fields alone, nothing decompressed)."""
    total = 0
    for x in instructions:
        rec = x.get("recorded") if isinstance(x, dict) else None
        n = rec.get("rows") if isinstance(rec, dict) else None
        if _is_int(n) and 0 < n <= MAX_RECORDED_ROWS:  # one past the limit is reported on its own path
            total += n
    return total


def _recorded(d: Any, path: str, P: _Problems) -> Recorded | None:
    """Recorded executions: each field a zlib-compressed, base64 little-endian array of ``rows``
    rows, decompressed to at most the size the row count says (a hostile file cannot make it grow)."""
    import base64
    import binascii
    import zlib

    if not isinstance(d, dict):
        P.add(path, f"must be an object, got {_tname(d)}")
        return None
    _unknown(d, {"rows", "encoding"} | {f for f, _t, _n in _RECORDED_FIELDS}, path, P)
    n = _int(d, "rows", path, P, None, lo=0, hi=MAX_RECORDED_ROWS)
    if d.get("encoding", "zlib+base64") != "zlib+base64":
        P.add(f"{path}.encoding", "must be 'zlib+base64'")
    if n is None:
        return None
    out = {}
    for f, dt, per in _RECORDED_FIELDS:
        want = n * per * np.dtype(dt).itemsize
        raw = d.get(f)
        if not isinstance(raw, str):
            P.add(f"{path}.{f}", "is required (base64 text)")
            continue
        try:
            z = zlib.decompressobj()
            data = z.decompress(base64.b64decode(raw, validate=True), want + 1)
        except (binascii.Error, zlib.error, ValueError) as e:
            P.add(f"{path}.{f}", f"is not zlib-compressed base64 data ({e})")
            continue
        if len(data) != want:
            P.add(f"{path}.{f}", f"holds {len(data):,} bytes, {want:,} expected for {n:,} rows")
            continue
        out[f] = np.frombuffer(data, dt).reshape((n, per) if per > 1 else (n,)).astype(dt[1:])
    if len(out) != len(_RECORDED_FIELDS):
        return None
    if n and (out["warp"].min() < 0 or out["warp"].max() >= 32):
        P.add(f"{path}.warp", "warps are 0 to 31")
    if n and (out["address"].min() < -1 or out["element"].min() < -1 or out["offset"].min() < 0
              or out["offset"].max() >= 16):
        P.add(path, "addresses and elements are -1 (inactive) or from 0; offsets from 0 to 15")
    return Recorded(out["warp"].astype(np.int32), out["element"].astype(np.int32), out["offset"].astype(np.int16),
                    out["address"].astype(np.int32))


def _recorded_dict(r: Recorded) -> dict:
    import base64
    import zlib

    d: dict[str, Any] = {"rows": len(r), "encoding": "zlib+base64"}
    for f, dt, _per in _RECORDED_FIELDS:
        d[f] = base64.b64encode(zlib.compress(np.ascontiguousarray(getattr(r, f), dt).tobytes(), 6)).decode()
    return d


_KERNEL_KEYS = {"source", "file", "arch", "block_index", "grid", "defines", "inputs", "compiled_arrays", "sass", "notes",
                "timing_dependent", "warp_instructions"}


def _kernel(d: Any, P: _Problems) -> KernelSource | None:
    path = "kernel"
    if not isinstance(d, dict):
        P.add(path, f"must be an object, got {_tname(d)}")
        return None
    _unknown(d, _KERNEL_KEYS, path, P)
    n0 = len(P.items)
    text = _str(d, "source", path, P, "")
    if len(text) > 1 << 20:
        P.add(f"{path}.source", "is longer than 1 MiB")
    dims = {}
    for key, low in (("block_index", 0), ("grid", 1)):
        v = d.get(key, [low] * 3)
        if not isinstance(v, list) or len(v) != 3 or not all(_is_int(x) and low <= x < 1 << 31 for x in v):
            P.add(f"{path}.{key}", f"must be three integers from {low}")
            v = [low] * 3
        dims[key] = tuple(v)
    defines = d.get("defines", {})
    if not isinstance(defines, dict) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                for v in defines.values()):
        P.add(f"{path}.defines", "must be an object of name: number")
        defines = {}
    inputs = d.get("inputs", {})
    if not isinstance(inputs, dict) or not all(isinstance(v, str) for v in inputs.values()):
        P.add(f"{path}.inputs", "must be an object of parameter: file name")
        inputs = {}
    compiled = []
    for k, a in enumerate(d.get("compiled_arrays", []) if isinstance(d.get("compiled_arrays", []), list) else []):
        arr = _array(a, f"{path}.compiled_arrays[{k}]", P)
        if arr:
            compiled.append(arr)
    rows = d.get("sass", [])
    sass = []
    if not isinstance(rows, list) or len(rows) > 200_000:
        P.add(f"{path}.sass", "must be a list of at most 200,000 rows")
        rows = []
    for k, r in enumerate(rows):
        ok = (isinstance(r, list) and len(r) == 10 and all(_is_int(x) for x in r[0:1] + r[2:8])
              and isinstance(r[1], str) and isinstance(r[8], list) and all(isinstance(x, str) for x in r[8])
              and isinstance(r[9], bool))
        if not ok:
            P.add(f"{path}.sass[{k}]", "must be [pc, sass, line, executed, threads, pred_on_threads, wavefronts, ideal, "
                                       "[data parameters], timing]")
            break
        sass.append((r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], tuple(r[8]), r[9]))
    notes = []
    for k, nt in enumerate(d.get("notes", []) if isinstance(d.get("notes", []), list) else []):
        if not (isinstance(nt, list) and len(nt) == 2 and _is_int(nt[0]) and isinstance(nt[1], str)):
            P.add(f"{path}.notes[{k}]", "must be [line, message]")
            break
        notes.append((nt[0], nt[1]))
    timing = d.get("timing_dependent", False)
    if not isinstance(timing, bool):
        P.add(f"{path}.timing_dependent", "must be true or false")
    if len(P.items) > n0:
        return None
    return KernelSource(text, _str(d, "file", path, P, ""), _str(d, "arch", path, P, "sm_90"), dims["block_index"],
                        dims["grid"], tuple(sorted(defines.items())), tuple(sorted(inputs.items())), tuple(compiled),
                        tuple(sass), tuple(notes), timing is True,
                        _int(d, "warp_instructions", path, P, 0, lo=0, hi=1 << 40) or 0)


def _array_dict(a: SharedArray) -> dict:
    ad: dict[str, Any] = {"name": a.name, "type": a.dtype, "dims": list(a.dims)}
    if a.padding:
        ad["padding"] = a.padding
    if a.base:
        ad["base"] = a.base
    if a.transform.kind != "none":
        ad["transform"] = {"kind": a.transform.kind,
                           **{k: (list(v) if isinstance(v, tuple) else v) for k, v in a.transform.params}}
    return ad


def from_dict(d: Any, source: str = "") -> Pattern:
    """Build a Pattern from parsed JSON, or raise FileFormatError listing every problem."""
    P = _Problems()
    if not isinstance(d, dict):
        raise FileFormatError([("", f"the top level must be a JSON object, got {_tname(d)}")], source)
    _unknown(d, _TOP_KEYS, "", P)
    if d.get("format") != FORMAT:
        P.add("format", f"must be {FORMAT!r}" + ("" if "format" in d else " (missing)"))
    version = d.get("version")
    if not _is_int(version):
        P.add("version", "must be an integer" + ("" if "version" in d else " (missing)"))
    elif version > VERSION:
        P.add("version", f"{version} is newer than this BankExplorer understands ({VERSION}); please update")
    elif version < 1:
        P.add("version", "must be 1 or 2")
    name = _str(d, "name", "", P, "untitled")
    desc = _str(d, "description", "", P, "")
    hw = _hardware(d.get("hardware", {}), P)
    block_raw = d.get("block", [32, 1, 1])
    block = (32, 1, 1)
    if not isinstance(block_raw, list) or not 1 <= len(block_raw) <= 3 or not all(_is_int(x) for x in block_raw):
        P.add("block", "must be a list of 1 to 3 positive integers [x, y, z]")
    else:
        bl = list(block_raw) + [1] * (3 - len(block_raw))
        for k, x in enumerate(bl):
            if x < 1:
                P.add(f"block[{k}]", f"must be a positive integer, got {x}")
            elif x > 1024:
                P.add(f"block[{k}]", f"{x:,} is more than a block can have (1024 threads)")
        block = tuple(bl)  # type: ignore[assignment]
    consts = d.get("constants", {})
    constants: list[tuple[str, int]] = []
    if not isinstance(consts, dict):
        P.add("constants", f"must be an object of name: integer, got {_tname(consts)}")
    else:
        for k, v in consts.items():
            if not _is_int(v) or abs(v) > 1 << 40:
                P.add(f"constants.{k}", f"must be an integer, got {v!r}")
            else:
                constants.append((k, v))
    arrays = []
    raw_arrays = d.get("arrays", [])
    if not isinstance(raw_arrays, list):
        P.add("arrays", f"must be a list, got {_tname(raw_arrays)}")
        raw_arrays = []
    for k, a in enumerate(raw_arrays):
        arr = _array(a, f"arrays[{k}]", P)
        if arr:
            arrays.append(arr)
    instrs = []
    raw = d.get("instructions")
    if raw is None:
        P.add("instructions", "is required")
        raw = []
    elif not isinstance(raw, list):
        P.add("instructions", f"must be a list, got {_tname(raw)}")
        raw = []
    if len(raw) > 100_000:
        P.add("instructions", f"{len(raw):,} instructions is too many (at most 100,000)")
        raw = []
    declared = _declared_rows(raw)
    if declared > MAX_RECORDED_ROWS:  # before any is decompressed: 20,000,000 rows would take 6.5 GB
        P.add("instructions", f"{declared:,} recorded warp instructions is too many for one pattern (at most "
                              f"{MAX_RECORDED_ROWS:,})")
        raw = []
    for k, x in enumerate(raw):
        ins = _instruction(x, f"instructions[{k}]", P)
        if ins:
            instrs.append(ins)
    fig = d.get("figure", {})
    figure = Figure()
    if not isinstance(fig, dict):
        P.add("figure", f"must be an object, got {_tname(fig)}")
    else:
        _unknown(fig, {"style", "title"}, "figure", P)
        style = _str(fig, "style", "figure", P, "default")
        if style not in FIGURE_STYLES:
            P.add("figure.style", f"must be one of {', '.join(FIGURE_STYLES)}, got {style!r}")
            style = "default"
        figure = Figure(style, _str(fig, "title", "figure", P, ""))
    kernel = _kernel(d["kernel"], P) if "kernel" in d else None
    if P.items:
        raise FileFormatError(P.items, source)
    pat = Pattern(name, desc, hw, tuple(arrays), block, tuple(constants), tuple(instrs), figure, kernel)
    structural = pat.validate()
    if structural:
        raise FileFormatError(structural, source)
    return pat


def to_dict(p: Pattern) -> dict:
    """The file form of a pattern; defaults are written out so the file explains itself."""
    new = p.kernel is not None or any(i.recorded is not None for i in p.instructions)
    d: dict[str, Any] = {"format": FORMAT, "version": VERSION if new else 1, "name": p.name}
    if p.description:
        d["description"] = p.description
    hw = p.hardware
    d["hardware"] = {"preset": hw.preset}
    if hw.preset == "generic":
        d["hardware"].update(banks=hw.banks, bank_width=hw.bank_width, warp_size=hw.warp_size)
        if hw.shared_bytes != PRESETS["generic"].shared_bytes:
            d["hardware"]["shared_bytes"] = hw.shared_bytes
    d["block"] = list(p.block)
    if p.constants:
        d["constants"] = dict(p.constants)
    if p.arrays:
        d["arrays"] = [_array_dict(a) for a in p.arrays]
    d["instructions"] = []
    for i in p.instructions:
        x: dict[str, Any] = {"kind": i.kind}
        if i.is_matrix:
            x["matrices"] = i.matrices
            x["trans"] = i.trans
        elif i.width is not None:
            x["width"] = i.width
        if i.explicit:
            x["addresses"] = list(i.addresses or ())
        elif i.recorded is not None:
            if i.array:
                x["array"] = i.array
            x["recorded"] = _recorded_dict(i.recorded)
        else:
            x["array"] = i.array
            x["index"] = list(i.index)
            if i.loops:
                x["loops"] = [{"var": lp.var, "start": lp.start, "stop": lp.stop, "step": lp.step} for lp in i.loops]
        if i.active:
            x["active"] = i.active
        if i.repeat != 1:
            x["repeat"] = i.repeat
        if i.label:
            x["label"] = i.label
        if i.space != "shared":
            x["space"] = i.space
        if i.kind == "atomic" and i.op != "add":
            x["op"] = i.op
        if i.aggregate:
            x["aggregate"] = True
        if i.pc is not None:
            x["pc"] = i.pc
        d["instructions"].append(x)
    if p.figure != Figure():
        d["figure"] = {"style": p.figure.style, "title": p.figure.title}
    if p.kernel is not None:
        k = p.kernel
        d["kernel"] = {"source": k.text, "file": k.file, "arch": k.arch, "block_index": list(k.block_index),
                       "grid": list(k.grid), "defines": dict(k.defines), "inputs": dict(k.inputs),
                       "compiled_arrays": [_array_dict(a) for a in k.compiled_arrays],
                       "sass": [[*r[:8], list(r[8]), bool(r[9])] for r in k.sass],
                       "notes": [list(n) for n in k.notes], "timing_dependent": k.timing_dependent,
                       "warp_instructions": k.warp_instructions}
    return d


def loads(text: str, source: str = "") -> Pattern:
    from .jsonread import parse

    return from_dict(parse(text, "", source), source)


def dumps(p: Pattern) -> str:
    return json.dumps(to_dict(p), indent=2) + "\n"


def read_text(path: str | os.PathLike, max_bytes: int | None = MAX_FILE_BYTES) -> str:
    """A file's text, with every failure a :class:`FileFormatError` (``max_bytes``: refuse larger)."""
    raw = read_bytes(path, max_bytes)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileFormatError([("", f"not UTF-8 text (byte {e.start})")], Path(path).name)


def read_bytes(path: str | os.PathLike, max_bytes: int | None = MAX_FILE_BYTES) -> bytes | bytearray:
    """A file's bytes, with every failure a :class:`FileFormatError` (``max_bytes``: refuse larger);
    a binary file (a NUL byte) is refused at its first block (:func:`.files.read_bytes`)."""
    from .files import read_bytes as _read

    return _read(path, max_bytes, "pattern file")


def load(path: str | os.PathLike) -> Pattern:
    return loads(read_text(path), Path(path).name)


def save(p: Pattern, path: str | os.PathLike) -> None:
    atomic_write(path, dumps(p).encode("utf-8"))
