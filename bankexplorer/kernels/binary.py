"""The binary front end: a kernel from the code a user built, as they built it.

Accepted: a ``.cubin`` (``nvcc -cubin``), a fatbin (``nvcc -fatbin``), an executable or a shared
library (a PyTorch extension's ``.so``) with device code in its ``.nv_fatbin`` section. The sm_90
ELF is taken out (:mod:`.fatbin`), its kernels are listed from the ELF's symbols (``STO_CUDA_ENTRY``),
and the one asked for (by its mangled symbol, its name or its demangled signature) becomes a
:class:`~bankexplorer.sass.kernel.Kernel`: parameters from the cubin's ``EIATTR_KPARAM_INFO``
(offset and size), their types from the demangled symbol where it is mangled (so a pointer is told
from an 8-byte integer), names from the kernel's source when it lies beside the binary; the block
from ``EIATTR_REQNTID`` or ``__launch_bounds__`` (``EIATTR_MAX_THREADS``), the cluster from
``EIATTR_CTA_PER_CLUSTER``.
"""

from __future__ import annotations

import os
import re
import struct
from collections import Counter

from ..sass.cubin import CubinError, _attributes, _sections, entry_symbols
from ..sass.cubin import read as read_image
from ..sass.kernel import Kernel, KernelParam, LaunchDefaults, Setting, params_of_signature
from ..sass.launch import LaunchError, demangle_name, kernel_params, text_settings
from .cuda_source import kernel_names, line_files, pick_symbol
from .demangle import demangle
from .fatbin import FATBIN_MAGIC, KIND_ELF, KIND_PTX, BinaryError, entries

EM_CUDA = 190
_EIATTR_MAX_THREADS, _EIATTR_REQNTID, _EIATTR_CTA_PER_CLUSTER = 0x05, 0x10, 0x3D
#: the largest binary read (a big PyTorch extension is a few hundred MiB)
MAX_BINARY_BYTES = 1 << 30
_HEADERS = (".h", ".hpp", ".hh", ".cuh", ".inl", ".inc")


def elf_arch(elf: bytes) -> int:
    """The SM version a cubin is for (``e_flags`` bits 8-15: 90 for sm_90)."""
    return (struct.unpack_from("<I", elf, 0x30)[0] >> 8) & 0xFF


def device_code(data: bytes, where: str) -> list[tuple[int, int, bytes]]:
    """(kind, arch, bytes) of every piece of device code in a cubin, a fatbin or a host ELF."""
    if data[:4] == FATBIN_MAGIC:
        return [(e.kind, e.arch, e.data) for e in entries(data, where)]
    if data[:4] != b"\x7fELF":
        raise BinaryError(f"{where}: not a cubin, a fatbin, an executable or a shared library")
    try:
        if len(data) < 0x40:
            raise CubinError("too short")
        machine = struct.unpack_from("<H", data, 0x12)[0]
        secs = _sections(data)
        for s in secs:
            if s[1] != 8 and s[2] + s[3] > len(data):  # SHT_NOBITS holds no bytes
                raise ValueError(f"section {s[0]} ends past the file's end")
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
        for k in range(phnum):  # the program headers and the bytes they load
            _t, _f, off, _va, _pa, filesz = struct.unpack_from("<IIQQQQ", data, phoff + k * phentsize)
            if off + filesz > len(data):
                raise ValueError("a segment ends past the file's end")
        if machine == EM_CUDA:
            return [(KIND_ELF, elf_arch(data), data)]
    except (struct.error, ValueError, IndexError):
        raise BinaryError(f"{where}: a truncated or damaged ELF file: its headers point past its end "
                          f"({len(data):,} bytes)") from None
    out = []
    for s in secs:
        if s[0] in (".nv_fatbin", "__nv_relfatbin") and s[1] != 8:
            if s[2] + s[3] > len(data):
                raise BinaryError(f"{where}: its {s[0]} section runs past the end of the file (a truncated file?)")
            out += [(e.kind, e.arch, e.data) for e in entries(data[s[2]:s[2] + s[3]], f"{where} ({s[0]})")]
    if not out and not any(s[0] in (".nv_fatbin", "__nv_relfatbin") for s in secs):
        raise BinaryError(f"{where}: an ELF file with no CUDA device code (no .nv_fatbin section)")
    return out


def elf_kernels(elf: bytes) -> list[str]:
    """The entry functions (kernels) of a cubin, by their symbols."""
    return entry_symbols(elf)


def _launch_defaults(elf: bytes, symbol: str) -> LaunchDefaults:
    secs = {s[0]: s for s in _sections(elf)}
    s = secs.get(f".nv.info.{symbol}")
    block = cluster = None
    if s is not None:
        for attr, val in _attributes(elf[s[2]:s[2] + s[3]]):
            if attr in (_EIATTR_REQNTID, _EIATTR_MAX_THREADS) and len(val) >= 12:
                dims = struct.unpack_from("<III", val)
                if attr == _EIATTR_REQNTID or block is None:
                    block = Setting(dims, "the binary's required block size" if attr == _EIATTR_REQNTID
                                    else "__launch_bounds__ in the binary")
            elif attr == _EIATTR_CTA_PER_CLUSTER and len(val) >= 12:
                cluster = struct.unpack_from("<III", val)
    return LaunchDefaults(block, None, cluster)


def _kernel_file(sass: str) -> str | None:
    """The file the kernel's own lines are in: the outermost file of most instructions' locations
    (code inlined from CuTe's headers is "inlined at" a line of the user's file)."""
    outer = Counter()
    for line in sass.splitlines():
        if "//##" in line:
            locs = re.findall(r'"([^"]*)", line \d+', line)
            if locs:
                outer[locs[-1]] += 1
    if not outer:
        return None
    own = [f for f, _n in outer.most_common() if not f.endswith(_HEADERS)]  # a kernel in a header: its file
    return os.path.basename(own[0] if own else outer.most_common(1)[0][0])


def _source_beside(path: str | None, file: str | None) -> tuple[str | None, str | None]:
    """The kernel's source when it lies beside the binary under the name its line table gives."""
    if not path or not file:
        return None, None
    cand = os.path.join(os.path.dirname(os.path.abspath(path)), file)
    try:
        if os.path.isfile(cand) and os.path.getsize(cand) <= 4 << 20:
            with open(cand, encoding="utf-8", errors="replace") as f:
                return f.read(), cand
    except OSError:
        pass
    return None, None


def from_binary(data: bytes, kernel: str | None = None, path: str | None = None, arch: str = "sm_90") -> Kernel:
    """The kernel object of ``kernel`` (None: the binary's first kernel) in a binary's sm_90 code."""
    from ..compiler.kernel import disassemble_text

    where = os.path.basename(path) if path else "the binary"
    want = int(arch.removeprefix("sm_"))
    code = device_code(data, where)
    elves = [c for c in code if c[0] == KIND_ELF and c[1] == want]
    if not elves:
        sass_archs = sorted({a for k, a, _ in code if k == KIND_ELF})
        ptx_archs = sorted({a for k, a, _ in code if k == KIND_PTX})
        has = "; ".join(x for x in (("SASS for " + ", ".join(f"sm_{a}" for a in sass_archs)) if sass_archs else "",
                                    ("PTX for " + ", ".join(f"compute_{a}" for a in ptx_archs)) if ptx_archs else "")
                        if x) or "no device code"
        hint = (f"; only PTX, which the driver compiles when the program runs: build with nvcc -arch={arch} "
                f"(or -gencode arch=compute_{want},code={arch}) to have the {arch} code in the file"
                if ptx_archs and not sass_archs else f"; rebuild it with nvcc -arch={arch}")
        raise BinaryError(f"{where}: no {arch} code (it has {has}){hint}")
    found: list[tuple[str, bytes]] = []
    for _k, _a, elf in elves:
        try:
            found += [(s, elf) for s in elf_kernels(elf)]
        except (struct.error, ValueError, IndexError) as e:
            raise BinaryError(f"{where}: its {arch} code is a damaged ELF file ({e})") from None
    if not found:
        raise BinaryError(f"{where}: its {arch} code has no kernel (only device functions: link it into a program)")
    symbols = [s for s, _ in found]
    try:
        symbol = pick_symbol(symbols, kernel)
    except LaunchError:
        raise LaunchError(f"{where}: no kernel named {kernel!r} ({_listing(symbols)})") from None
    elf = dict(found)[symbol]
    try:
        image = read_image(elf, symbol)
    except (CubinError, struct.error, ValueError, IndexError) as e:
        raise BinaryError(f"{where}: cannot read the launch information of {symbol} ({e})") from None
    try:
        sass = disassemble_text(elf)
    except RuntimeError:  # nvdisasm's own refusal of a damaged cubin
        raise BinaryError(f"{where}: its {arch} code cannot be disassembled (nvdisasm finds it damaged)") from None
    signature = demangle(symbol) or ""
    params = params_of_signature(signature, [(p.offset, p.size) for p in image.params])
    file = _kernel_file(sass)
    text, src_path = _source_beside(path, file)
    name = demangle_name(symbol)
    if text is not None and name in kernel_names(text):
        decls = kernel_params(text, name)
        if decls is not None and len(decls) == len(params):
            params = tuple(KernelParam(p.ordinal, p.offset, p.size, d.pointer, d.name, d.type or p.type)
                           for p, d in zip(params, decls))
    origin = ("fatbin" if data[:4] == FATBIN_MAGIC else "cubin" if struct.unpack_from("<H", data, 0x12)[0] == EM_CUDA
              else "shared library" if _is_shared_library(data) else "executable")
    launch = _launch_defaults(elf, symbol)
    if text is not None:  # the source's '// block:' comment or launch, where the binary says nothing
        from dataclasses import replace

        settings = text_settings(text)
        if launch.block is None and "block" in settings:
            launch = replace(launch, block=Setting(*settings["block"]))
        if "extern-size" in settings:
            launch = replace(launch, extern_bytes=Setting(*settings["extern-size"]))
    k = Kernel(elf, sass, symbol, name, params, signature, arch, True, file, line_files(sass),
               launch, None, origin, text, src_path or path)
    k.__dict__["image"] = image
    return k


def _listing(symbols: list[str]) -> str:
    shown = [f"{demangle_name(s)} ({s})" if demangle_name(s) != s else s for s in symbols[:12]]
    more = f", and {len(symbols) - 12} more" if len(symbols) > 12 else ""
    return "its kernels: " + ", ".join(shown) + more


def _is_shared_library(data: bytes) -> bool:
    """ET_DYN with no interpreter (PT_INTERP) is a library; a position-independent executable has one."""
    if struct.unpack_from("<H", data, 0x10)[0] != 3:
        return False
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    return not any(struct.unpack_from("<I", data, phoff + k * phentsize)[0] == 3 for k in range(phnum)
                   if phoff + k * phentsize + 4 <= len(data))


def read_file(path: str) -> bytes:
    """A binary's bytes, refused past :data:`MAX_BINARY_BYTES`."""
    size = os.path.getsize(path)
    if size > MAX_BINARY_BYTES:
        raise BinaryError(f"{os.path.basename(path)}: {size / (1 << 20):,.0f} MiB, larger than the "
                          f"{MAX_BINARY_BYTES >> 20:,} MiB a binary may have here")
    with open(path, "rb") as f:
        return f.read()


def load(path: str, kernel: str | None = None, arch: str = "sm_90") -> Kernel:
    """:func:`from_binary` of a file."""
    return from_binary(read_file(path), kernel, path, arch)


def kernels_in(data: bytes, where: str = "the binary", arch: str = "sm_90") -> list[str]:
    """Every kernel symbol in a binary's ``arch`` code (for a window's list)."""
    want = int(arch.removeprefix("sm_"))
    return [s for k, a, elf in device_code(data, where) if k == KIND_ELF and a == want for s in elf_kernels(elf)]
