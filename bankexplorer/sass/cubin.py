"""What the driver reads from a cubin before a launch: where parameters go in the constant bank,
how much static shared and local memory the kernel has, and the contents of constant banks.

A cubin is an ELF file. Only the few sections a launch needs are read here (``.nv.info.<kernel>``
attributes, ``.nv.shared.<kernel>``, ``.nv.constant<N>[.<kernel>]``, the PTX text ptxas kept for
the line table); no library beyond ``struct`` is needed.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

# .nv.info attribute codes (the ones a launch uses)
_EIATTR_PARAM_CBANK = 0x0A
_EIATTR_FRAME_SIZE = 0x11
_EIATTR_MIN_STACK_SIZE = 0x12
_EIATTR_KPARAM_INFO = 0x17
_EIATTR_CBANK_PARAM_SIZE = 0x19
_EIATTR_MAX_STACK_SIZE = 0x23

_EIFMT_NVAL, _EIFMT_BVAL, _EIFMT_HVAL, _EIFMT_SVAL = 1, 2, 3, 4


class CubinError(ValueError):
    """The compiler's output is not a cubin this reader understands."""


@dataclass(frozen=True)
class Param:
    ordinal: int
    offset: int  # bytes from the start of the parameter area
    size: int  # bytes


@dataclass
class KernelImage:
    """One kernel's launch facts."""

    name: str
    param_base: int  # byte offset of the parameters in constant bank 0
    params: list[Param]
    static_shared: int  # bytes of the .nv.shared section, the reserved window included
    shared_align: int
    local_bytes: int  # per thread: the frame, plus the stack a call may grow
    constant0_size: int
    banks: dict[int, bytes] = field(default_factory=dict)  # initialised constant banks (__constant__ is bank 3)
    ptx: str = ""  # the PTX ptxas compiled, when the line-table build kept it
    #: ``__device__`` variables: the bytes of .nv.global.init then .nv.global (zeros), and where
    #: each variable starts in them
    globals_data: bytes = b""
    globals_at: dict[str, int] = field(default_factory=dict)
    #: addresses the driver writes into constant banks: (bank, offset, variable, addend)
    relocations: list[tuple[int, int, str, int]] = field(default_factory=list)
    patches: list[tuple[int, int, int]] = field(default_factory=list)  # filled at launch: (bank, offset, address)


def _symbol_table(data: bytes, secs) -> list[tuple[str, int, int, int, int]]:
    """(name, section index, value, info, other) of every symbol."""
    st = next((s for s in secs if s[1] == 2), None)  # SHT_SYMTAB
    if st is None:
        return []
    strtab = secs[st[4]]
    out = []
    for k in range(st[3] // 24):
        name, info, other, shndx, value, _size = struct.unpack_from("<IBBHQQ", data, st[2] + 24 * k)
        end = data.index(b"\0", strtab[2] + name)
        out.append((data[strtab[2] + name:end].decode("latin-1"), shndx, value, info, other))
    return out


def _symbols(data: bytes, secs) -> list[tuple[str, int, int]]:
    """(name, section index, value) of every symbol."""
    return [(n, sh, v) for n, sh, v, _i, _o in _symbol_table(data, secs)]


_STO_CUDA_ENTRY = 0x10


def entry_symbols(cubin: bytes) -> list[str]:
    """The kernels (entry functions: STT_FUNC symbols marked STO_CUDA_ENTRY) of a cubin."""
    return [n for n, _sh, _v, info, other in _symbol_table(cubin, _sections(cubin))
            if info & 0xF == 2 and other & _STO_CUDA_ENTRY]


def _sections(data: bytes):
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise CubinError("not a 64-bit ELF file")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = []
    for i in range(shnum):
        name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        heads.append((name, typ, off, size, link, info, align))
    stro = heads[shstrndx][2]

    def sname(o: int) -> str:
        end = data.index(b"\0", stro + o)
        return data[stro + o:end].decode("latin-1")

    return [(sname(h[0]), *h[1:]) for h in heads]


def _attributes(blob: bytes):
    i = 0
    while i + 2 <= len(blob):
        fmt, attr = blob[i], blob[i + 1]
        if fmt == _EIFMT_SVAL:
            (n,) = struct.unpack_from("<H", blob, i + 2)
            yield attr, blob[i + 4:i + 4 + n]
            i += 4 + n
        elif fmt == _EIFMT_HVAL:
            yield attr, blob[i + 2:i + 4]
            i += 4
        elif fmt in (_EIFMT_NVAL, _EIFMT_BVAL):
            yield attr, blob[i + 2:i + 4] if fmt == _EIFMT_BVAL else b""
            i += 4  # records stay 4-byte aligned
        else:
            raise CubinError(f"unknown .nv.info record format {fmt}")


#: the stack size ptxas writes when it cannot bound it (a recursive device function)
UNKNOWN_STACK = 0xFFFFFFFF
#: the stack a thread gets then: CUDA's default cudaLimitStackSize (a deeper recursion faults as
#: a stack overflow would)
DEFAULT_STACK_BYTES = 1024


def read(cubin: bytes, kernel: str) -> KernelImage:
    secs = _sections(cubin)
    by_name = {s[0]: s for s in secs}

    def body(name: str) -> bytes:
        s = by_name[name]
        return cubin[s[2]:s[2] + s[3]] if s[1] != 8 else b""  # SHT_NOBITS holds no bytes

    info = by_name.get(f".nv.info.{kernel}")
    if info is None:
        raise CubinError(f"the cubin has no launch information for {kernel!r}")
    param_base, params, param_size = 0, [], 0
    for attr, val in _attributes(body(info[0])):
        if attr == _EIATTR_PARAM_CBANK and len(val) >= 8:
            _sym, param_base, param_size = struct.unpack_from("<IHH", val)
        elif attr == _EIATTR_KPARAM_INFO and len(val) >= 12:
            _index, ordinal, offset, word = struct.unpack_from("<IHHI", val)
            params.append(Param(ordinal, offset, (word >> 18) & 0x3FFF))
    frame = stack = 0
    if ".nv.info" in by_name:
        for attr, val in _attributes(body(".nv.info")):
            if attr in (_EIATTR_FRAME_SIZE, _EIATTR_MAX_STACK_SIZE, _EIATTR_MIN_STACK_SIZE) and len(val) >= 8:
                _sym, v = struct.unpack_from("<II", val)
                if attr == _EIATTR_FRAME_SIZE:
                    frame = max(frame, v)
                elif v == UNKNOWN_STACK:  # recursion: no bound is known; CUDA's default stack size
                    stack = max(stack, DEFAULT_STACK_BYTES)
                else:
                    stack = max(stack, v)
    sh = by_name.get(f".nv.shared.{kernel}")
    static_shared = sh[3] if sh else 0
    c0 = by_name.get(f".nv.constant0.{kernel}")
    banks: dict[int, bytes] = {}
    for s in secs:  # the module's banks, then this kernel's own (switch jump tables are bank 2)
        m = re.fullmatch(r"\.nv\.constant(\d+)", s[0])
        if m and m.group(1) != "0":
            banks[int(m.group(1))] = body(s[0])
    for s in secs:
        m = re.fullmatch(r"\.nv\.constant(\d+)\.(.+)", s[0])
        if m and m.group(1) != "0" and m.group(2) == kernel:
            banks[int(m.group(1))] = body(s[0])
    ptx = ""
    if ".nv_debug_ptx_txt" in by_name:
        ptx = body(".nv_debug_ptx_txt").replace(b"\0", b"\n").decode("utf-8", "replace")
    params.sort(key=lambda p: p.ordinal)
    for s in secs:  # a constant bank without initial bytes is zeros
        m = re.fullmatch(r"\.nv\.constant(\d+)", s[0])
        if m and m.group(1) != "0" and len(banks.get(int(m.group(1)), b"")) < s[3]:
            banks[int(m.group(1))] = banks.get(int(m.group(1)), b"").ljust(s[3], b"\0")
    # __device__ variables and the constant-bank slots that hold their addresses
    index = {s[0]: k for k, s in enumerate(secs)}
    gdata, gstart = b"", {}
    for name in (".nv.global.init", ".nv.global"):
        if name in by_name:
            gstart[index[name]] = len(gdata)
            gdata += body(name).ljust(by_name[name][3], b"\0")
            gdata = gdata.ljust(-(-len(gdata) // 16) * 16, b"\0")
    syms = _symbols(cubin, secs)
    at = {n: gstart[sh] + v for n, sh, v in syms if sh in gstart}
    relocs = []
    for s in secs:
        m = re.fullmatch(r"\.rela\.nv\.constant(\d+)", s[0])
        if not m or s[1] != 4:  # SHT_RELA
            continue
        for k in range(s[3] // 24):
            off, info, addend = struct.unpack_from("<QQq", cubin, s[2] + 24 * k)
            sym = syms[info >> 32][0] if (info >> 32) < len(syms) else ""
            relocs.append((int(m.group(1)), off, sym, addend))
    return KernelImage(kernel, param_base, params, static_shared, sh[6] if sh else 16, max(frame, stack) + frame,
                       c0[3] if c0 else param_base + param_size, banks, ptx, gdata, at, relocs)
