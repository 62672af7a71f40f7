"""Launch facts: a kernel's parameters as the source declares them, their values and buffers, the
constant bank the driver writes, and the shared arrays the PTX declares.

Conventions (the measurements' launcher uses the same): every pointer parameter points to its own
16 MiB zero-filled buffer, unless data is given (``--arg NAME=FILE.npy`` fills it from the start);
integer parameters are 64 and floating-point ones 64.0 unless ``-D NAME=VALUE``; one block, index
(0, 0, 0) of a one-block grid unless told; ``extern __shared__`` arrays get 48 KiB.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .cubin import KernelImage
from .kernel import KernelParam
from .limits import integer_value
from .state import CONSTANTS_BASE, GLOBAL_BASE, GLOBAL_STRIDE, LOCAL_WINDOW, SHARED_WINDOW, Buffer

BUFFER_BYTES = 16 << 20
GLOBALS_BUFFER = "__device__ variables"  #: the buffer of the kernel's own global variables
EXTERN_BYTES = 48 << 10
DEFAULT_SCALAR = 64
SHARED_RESERVED = 0x400  #: the bytes sm_90 keeps at the start of a block's shared memory


class LaunchError(ValueError):
    """The kernel cannot be launched as asked (a parameter without a value, data too large...)."""


@dataclass(frozen=True)
class ParamDecl:
    name: str
    type: str
    pointer: bool

    @property
    def floating(self) -> bool:
        return any(w in self.type for w in ("float", "double", "half", "bfloat"))


@dataclass(frozen=True)
class SharedArray:
    """A ``__shared__`` array as the PTX declares it, at its byte offset in shared memory."""

    name: str  # the source name (demangled from the PTX symbol)
    offset: int
    size: int  # bytes; for extern arrays the dynamic size given at launch
    align: int
    extern: bool = False


@dataclass
class LaunchConfig:
    block: tuple[int, int, int]
    block_index: tuple[int, int, int] = (0, 0, 0)
    grid: tuple[int, int, int] = (1, 1, 1)
    scalars: dict[str, int | float] = field(default_factory=dict)
    arrays: dict[str, bytes] = field(default_factory=dict)  # pointer parameter -> its first bytes
    extern_bytes: int = EXTERN_BYTES
    buffer_bytes: int = BUFFER_BYTES


def demangle_name(symbol: str) -> str:
    """The kernel's own name from its mangled symbol (``_Z19early_return_doublePKdPd`` ->
    ``early_return_double``; ``_ZN2ns1kEv`` -> ``k``; ``extern "C"`` names as they are)."""
    if not symbol.startswith("_Z"):
        return symbol
    s = symbol[2:]
    names = []
    if s.startswith("N"):
        s = s[1:]
        while s and s[0].isdigit():
            m = re.match(r"(\d+)", s)
            n = int(m.group(1))
            names.append(s[m.end():m.end() + n])
            s = s[m.end() + n:]
            if s.startswith("I"):
                break
        return names[-1] if names else symbol
    m = re.match(r"(\d+)", s)
    if not m:
        return symbol
    return s[m.end():m.end() + int(m.group(1))]


def _split_params(text: str) -> list[str]:
    from .decode import split_top

    return [p for p in split_top(text, "<([", ">)]") if p and p != "void"]


def kernel_params(source: str, name: str) -> list[ParamDecl] | None:
    """The parameters of ``__global__`` function ``name`` as the source writes them."""
    clean = re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.S)
    for m in re.finditer(r"__global__[^;{]*?\b" + re.escape(name) + r"\s*\(", clean):
        i, depth = m.end(), 1
        while i < len(clean) and depth:
            depth += {"(": 1, ")": -1}.get(clean[i], 0)
            i += 1
        out = []
        for p in _split_params(clean[m.end():i - 1]):
            p = re.sub(r"\s*=\s*[^,]*$", "", p)  # a default argument
            words = re.findall(r"[A-Za-z_]\w*", p)
            pname = words[-1] if words else ""
            ptype = p[:p.rfind(pname)].strip() if pname else p
            out.append(ParamDecl(pname, ptype, "*" in p or "[" in p))
        return out
    return None


_SHARED_DECL = re.compile(r"\.(?:extern\s+)?\.?shared\s+\.align\s+(\d+)\s+\.\w+\s+([\w$.]+)\[(\d*)\]\s*;")


def shared_arrays(ptx: str, static_bytes: int, extern_bytes: int) -> list[SharedArray] | None:
    """The shared arrays in PTX order at the offsets ptxas gives them (in order, each aligned),
    or None when those offsets do not add up to the section's size (then no array is named)."""
    decls = [(m.group(2), int(m.group(1)), m.group(3)) for m in _SHARED_DECL.finditer(ptx)]
    out, off = [], SHARED_RESERVED
    for sym, align, size in decls:
        if size == "":
            continue
        off = -(-off // align) * align
        out.append(SharedArray(_source_name(sym), off, int(size), align))
        off += int(size)
    if off != static_bytes and out:
        return None
    ext = [(sym, align) for sym, align, size in decls if size == ""]
    if ext:
        start = -(-static_bytes // max(a for _s, a in ext)) * max(a for _s, a in ext)
        for sym, align in ext:
            out.append(SharedArray(_source_name(sym), start, extern_bytes, align, True))
    return out


def _source_name(sym: str) -> str:
    """``_ZZ19early_return_doublePKdPdE1d`` -> ``d``: a local static's name is the last one."""
    m = re.search(r"E(\d+)([A-Za-z_]\w*)$", sym)
    if m and len(m.group(2)) >= int(m.group(1)):
        return m.group(2)[:int(m.group(1))]
    return demangle_name(sym)


def has_extern_shared(ptx: str) -> bool:
    return any(m.group(3) == "" for m in _SHARED_DECL.finditer(ptx))


#: where the driver puts blockDim, gridDim, the stack top and the generic addresses of local memory,
#: of ``__constant__`` data and (before sm_90) of shared memory in constant bank 0, per architecture
#: (the parameters' place is in the cubin); each as the compiled code reads it (-G code makes the
#: generic address of a local variable from the local window, of a ``__constant__`` one from the
#: constant window)
_SM80_BANK0 = {"ntid": 0x0, "nctaid": 0xC, "stack": 0x28, "local_window": 0x20, "shared_window": 0x18,
               "constant_window": 0x50}
_SM100_BANK0 = {"ntid": 0x360, "nctaid": 0x370, "stack": 0x37C, "local_window": 0x2F8, "constant_window": 0x120}
BANK0_LAYOUT = {"default": {"ntid": 0x0, "nctaid": 0xC, "stack": 0x28, "local_window": 0x20, "constant_window": 0xD0},
                "sm_80": _SM80_BANK0, "sm_86": _SM80_BANK0, "sm_89": _SM80_BANK0,
                "sm_100": _SM100_BANK0, "sm_120": _SM100_BANK0}


def struct_params(params: Sequence[KernelParam], cfg: LaunchConfig) -> list[KernelParam]:
    """The structures passed by value (neither pointers nor 1/2/4/8-byte scalars) that the launch
    gives no bytes: :func:`constant_bank0` leaves them zero, and the run says so."""
    return [p for p in params if not p.pointer and p.size not in (1, 2, 4, 8)
            and not any(k in cfg.arrays for k in p.keys)]


def constant_bank0(image: KernelImage, cfg: LaunchConfig, params: Sequence[KernelParam],
                   arch: str = "sm_90") -> tuple[np.ndarray, list[Buffer]]:
    """Bank 0 as the driver writes it (block and grid sizes, the stack top, the parameters) and
    the pointer parameters' buffers. A launch value names its parameter by name or position."""
    where = BANK0_LAYOUT.get(arch, BANK0_LAYOUT["default"])
    size = max(image.constant0_size, image.param_base + sum(p.size for p in image.params),
               max(where.values()) + 8)
    bank = np.zeros(-(-size // 8) * 8, np.uint8)

    def put(off: int, value: int, n: int) -> None:
        bank[off:off + n] = np.frombuffer(int(value & ((1 << (8 * n)) - 1)).to_bytes(n, "little"), np.uint8)

    for k in range(3):
        put(where["ntid"] + 4 * k, cfg.block[k], 4)
        put(where["nctaid"] + 4 * k, cfg.grid[k], 4)
    put(where["stack"], image.local_bytes, 4)  # the stack pointer starts at the top of local memory
    put(where["local_window"], LOCAL_WINDOW, 8)
    put(where["constant_window"], CONSTANTS_BASE, 8)
    if "shared_window" in where:
        put(where["shared_window"], SHARED_WINDOW, 8)
    if len(params) != len(image.params):
        raise LaunchError(f"the kernel has {len(image.params)} parameters in the compiled code but "
                          f"{len(params)} in the source")
    buffers: list[Buffer] = []
    patches: list[tuple[int, int, int]] = []
    image.patches = patches  # (bank, offset, 64-bit address) for the constant banks besides 0
    for key in list(cfg.arrays) + list(cfg.scalars):
        if not any(key in p.keys for p in params):
            named = ", ".join(p.name for p in params if p.name)
            raise LaunchError(f"the kernel has no parameter named {key!r} (it has: "
                              + (named if named else f"{len(params)}, by position 0 to {len(params) - 1}"
                                 if params else "none") + ")")

    def given(values: dict, p: KernelParam):
        return next(((k, values[k]) for k in p.keys if k in values), (None, None))

    for p in params:
        off = image.param_base + p.offset
        key, value = given(cfg.scalars, p)
        if p.pointer and key is not None and p.type:
            raise LaunchError(f"-D {key}: the parameter is a pointer ({p.type}); give it data with --arg {key}=FILE.npy")
        if p.pointer and key is None:  # (a binary's untyped 8-byte parameter given -D is a scalar)
            base = GLOBAL_BASE + len(buffers) * GLOBAL_STRIDE
            data = np.zeros(cfg.buffer_bytes, np.uint8)
            _k, data_given = given(cfg.arrays, p)
            data_given = data_given or b""
            if len(data_given) > cfg.buffer_bytes:
                raise LaunchError(f"--arg {p.name or p.ordinal}: {len(data_given):,} bytes do not fit the parameter's "
                                  f"{cfg.buffer_bytes >> 20} MiB buffer")
            data[:len(data_given)] = np.frombuffer(data_given, np.uint8)
            buffers.append(Buffer(p.name or str(p.ordinal), base, data, len(data_given)))
            put(off, base, 8)
            continue
        akey, raw = given(cfg.arrays, p)
        if akey is not None and p.size not in (1, 2, 4, 8):  # a structure passed by value: its bytes
            if len(raw) > p.size:
                raise LaunchError(f"--arg {akey}: {len(raw):,} bytes for a {p.size}-byte structure parameter")
            bank[off:off + len(raw)] = np.frombuffer(raw, np.uint8)
            continue
        if akey is not None:
            raise LaunchError(f"--arg {akey}: the parameter is not a pointer ({' '.join(x for x in (p.type, p.name) if x)}"
                              f"); give it a value with -D {akey}=VALUE")
        value = DEFAULT_SCALAR if value is None else value
        words = p.type.replace("const", "").split()
        if p.floating:
            if "bfloat" in p.type:  # the high half of the float's bits, rounded to nearest even
                b32 = int(np.array(value, np.float32).view(np.uint32))
                put(off, (b32 + 0x7FFF + ((b32 >> 16) & 1)) >> 16, 2)
            else:
                ft = {8: np.float64, 4: np.float32, 2: np.float16}.get(p.size, np.float32)
                bank[off:off + p.size] = np.frombuffer(np.array(value, ft).tobytes(), np.uint8)[:p.size]
        elif words == ["bool"]:  # a C++ conversion: any non-zero value is true
            put(off, int(bool(value)), p.size)
        elif p.size in (1, 2, 4, 8):
            if isinstance(value, float) and not p.type:  # a binary's untyped parameter given a float: its bits
                ft = {8: np.float64, 4: np.float32, 2: np.float16}.get(p.size)
                if ft is None:
                    raise LaunchError(f"parameter {p.label}: a {p.size}-byte parameter cannot hold {value!r}")
                bank[off:off + p.size] = np.frombuffer(np.array(value, ft).tobytes(), np.uint8)
            else:
                try:
                    put(off, integer_value(value, p.size, p.type or f"a {p.size}-byte integer"), p.size)
                except ValueError as e:
                    raise LaunchError(f"parameter {p.label}: {e}") from None
        elif key is not None:
            raise LaunchError(f"-D {key}: parameter {' '.join(x for x in (p.type, p.label) if x)} is a {p.size}-byte "
                              f"structure: give its bytes with --arg {key}=FILE.npy")
        else:  # a structure nobody gave: zeros, as the run's notes say (struct_params)
            pass
    if image.globals_data or image.relocations:
        # the __device__ variables, in a buffer of their own, and their addresses where the code finds them
        base = GLOBAL_BASE + len(buffers) * GLOBAL_STRIDE
        data = np.zeros(max(len(image.globals_data), 16), np.uint8)
        data[:len(image.globals_data)] = np.frombuffer(image.globals_data, np.uint8)
        buffers.append(Buffer(GLOBALS_BUFFER, base, data, 0))
        for bank_no, off, sym, addend in image.relocations:
            if sym in image.globals_at:
                patches.append((bank_no, off, base + image.globals_at[sym] + addend))
            else:  # printf's vprintf, assert's __assertfail: the emulator does the call (sass/calls.py)
                from .calls import FUNCTIONS

                if sym in FUNCTIONS:
                    patches.append((bank_no, off, FUNCTIONS[sym] + addend))
    return bank, buffers


#: a string or character literal (skipped: a ``//`` inside one starts no comment), or a comment
_COMMENT_OR_LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//([^\n]*)|/\*(.*?)\*/', re.S)
#: a comment whose whole text is a launch setting
_SETTING = re.compile(r"\s*(block|extern-size)\s*[:=]\s*(.*?)\s*", re.I | re.S)
_LAUNCH = re.compile(r"<<<\s*([^,>]+?)\s*,\s*(dim3\s*\(([^)]*)\)|[^,>]+?)\s*(?:,\s*([^,>]+?)\s*)?(?:,[^>]*)?>>>")
_BOUNDS = re.compile(r"__launch_bounds__\s*\(\s*([^,)]+)")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+([^\n]+?)\s*$", re.M)
_CONST = re.compile(r"\b(?:static\s+)?(?:constexpr|const)\s+(?:unsigned\s+)?(?:int|long|size_t)\s+([A-Za-z_]\w*)\s*=\s*([^;]+);")


def _value(expr: str, names: dict[str, str], depth: int = 0) -> int | None:
    """An integer expression of literals and the text's constants, worked out with the model's
    whitelist expression language (nothing in the text is executed)."""
    from ..model.expr import evaluate

    if depth > 16:
        return None
    text = expr.strip().rstrip("uUlL")
    used = set(re.findall(r"[A-Za-z_]\w*", text))
    values = {}
    for n in used:
        if n not in names:
            return None
        v = _value(names[n], names, depth + 1)
        if v is None:
            return None
        values[n] = v
    try:
        v = evaluate(re.sub(r"(\d+)[uUlL]+\b", r"\1", text), values)
    except Exception:  # noqa: BLE001 - anything the language cannot read is simply not a setting
        return None
    return int(v) if np.ndim(v) == 0 else None


def constants(text: str) -> dict[str, str]:
    """The text's ``#define NAME VALUE`` and ``const``/``constexpr`` integer definitions (as text)."""
    names = {m.group(1): m.group(2) for m in _DEFINE.finditer(text)}
    names.update({m.group(1): m.group(2) for m in _CONST.finditer(text)})
    return names


def setting_comments(text: str) -> list[tuple[str, str, int, int]]:
    """Every comment of ``text`` that is exactly ``key: value`` (or ``key = value``), ``key`` one
    of ``block`` and ``extern-size``: ``// block: 32, 8``, ``/* extern-size: 4096 */``. The one
    reader of these comments (the emulator's launch, the as-written import, the API and the window
    all come here); prose that mentions a block is left alone, and a ``//`` in a string starts no
    comment. (key, value text, line, column) in the text's order, 1-based."""
    out = []
    for m in _COMMENT_OR_LITERAL.finditer(text):
        body = m.group(1) if m.group(1) is not None else m.group(2)
        if body is None:
            continue  # a literal
        s = _SETTING.fullmatch(body.strip().strip("*"))
        if s:
            line = text.count("\n", 0, m.start()) + 1
            out.append((s.group(1).lower(), s.group(2), line, m.start() - text.rfind("\n", 0, m.start())))
    return out


def text_settings(text: str) -> dict[str, tuple]:
    """Launch settings the text states: a ``// block: 32, 8`` or ``// extern-size: 4096`` comment,
    a ``<<<grid, block[, bytes]>>>`` launch, ``__launch_bounds__(N)``; numbers may be the text's
    ``#define`` and ``const``/``constexpr`` integers. key -> (value, where)."""
    names = constants(text)
    out: dict[str, tuple] = {}

    def line_of(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    def dims(parts: list[str]) -> tuple[int, int, int] | None:
        nums = [_value(p, names) for p in parts]
        if not 1 <= len(nums) <= 3 or any(n is None or n < 1 for n in nums):
            return None
        return tuple(nums + [1] * (3 - len(nums)))  # type: ignore[return-value]

    for key, value, line, _ in setting_comments(text):
        parts = re.split(r"\s*x\s*", value) if re.fullmatch(r"\d+(\s*x\s*\d+)+", value) else value.split(",")
        if key == "block" and (d := dims(parts)) is not None:
            out.setdefault("block", (d, f"comment at line {line}"))
        elif key == "extern-size" and (v := _value(value, names)) is not None:
            out.setdefault("extern-size", (v, f"comment at line {line}"))
    for m in _LAUNCH.finditer(text):
        where = f"launch at line {line_of(m.start())}"
        d = dims(m.group(3).split(",") if m.group(3) is not None else [m.group(2)])
        if d is not None:
            out.setdefault("block", (d, where))
        if m.group(4) and (v := _value(m.group(4), names)) is not None:
            out.setdefault("extern-size", (v, where))
    m = _BOUNDS.search(text)
    if m and (v := _value(m.group(1), names)) is not None and v >= 1:
        out.setdefault("block", ((v, 1, 1), f"__launch_bounds__ at line {line_of(m.start())}"))
    return out
