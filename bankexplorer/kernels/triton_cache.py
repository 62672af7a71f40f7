"""The Triton cache entry front end: ``NAME.cubin`` with ``NAME.json`` beside it (and ``NAME.ttir``,
``NAME.source``, ``NAME.ptx``), as Triton writes them into ``~/.triton/cache/<key>/``.

What Triton's launcher does at ``kernel[grid](...)`` is what the kernel object gets here:
- the block is ``num_warps`` x 32 threads (times ``num_ctas``), the dynamic shared memory the
  metadata's ``shared`` (Triton declares all its shared memory ``extern``);
- the parameters are the function's arguments that are not constants (``tl.constexpr``, and the
  integers equal to 1 the launcher made constants), named as the TTIR signature names them, followed
  by the scratch pointers Triton 3.3+ appends (``global_scratch``, ``profile_scratch``): the launcher
  passes an allocation of ``global_scratch_size`` bytes per program (a null pointer when it is 0);
  here each gets a zero-filled buffer, as every pointer does;
- the Python lines: Triton's line table gives code that its library inlined (``tl.sum``'s combine in
  ``triton/language/standard.py``) that library's line; :mod:`.triton_lines` puts it on the
  kernel's own line that called it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from ..sass.decode import split_top
from ..sass.kernel import Kernel, KernelParam, LaunchDefaults, Setting
from ..sass.launch import LaunchError

#: the pointers Triton's launcher appends after the kernel's own arguments (Triton 3.3 and later)
SCRATCH_POINTERS = ("global_scratch", "profile_scratch")
#: what an entry's cubin is at most (a Triton kernel is a few hundred KiB)
MAX_CUBIN_BYTES = 64 << 20

#: TTIR scalar types -> the C type the launch writes the value as
_TTIR_TYPES = {"i1": "bool", "i8": "char", "i16": "short", "i32": "int", "i64": "long long",
               "f16": "half", "bf16": "bfloat16", "f32": "float", "f64": "double"}


class CacheEntryError(LaunchError):
    """The files are not a Triton cache entry this front end can read (the message says which file
    and what is wrong)."""


@dataclass(frozen=True)
class TritonMeta:
    """What ``NAME.json`` says about the launch."""

    name: str
    num_warps: int
    num_ctas: int
    shared: int  # dynamic shared memory, bytes
    arch: int  # 90 for sm_90
    global_scratch_size: int = 0
    profile_scratch_size: int = 0
    triton_version: str = ""

    @property
    def block(self) -> tuple[int, int, int]:
        return (32 * self.num_warps * self.num_ctas, 1, 1)


def is_cache_entry(path: str) -> bool:
    """A ``.cubin`` with Triton's ``NAME.json`` metadata beside it."""
    if not path.endswith(".cubin"):
        return False
    meta = path[:-len(".cubin")] + ".json"
    if not os.path.isfile(meta):
        return False
    try:
        with open(meta, "rb") as f:
            d = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(d, dict) and "num_warps" in d and "shared" in d


def read_meta(path: str) -> TritonMeta:
    """``NAME.json`` of a cache entry."""
    try:
        with open(path, "rb") as f:
            d = json.loads(f.read(1 << 20))
        target = d.get("target") or {}
        arch = target.get("arch", 90) if isinstance(target, dict) else 90
        meta = TritonMeta(str(d["name"]), int(d["num_warps"]), int(d.get("num_ctas", 1)), int(d["shared"]),
                          int(arch), int(d.get("global_scratch_size") or 0), int(d.get("profile_scratch_size") or 0),
                          str(d.get("triton_version", "")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise CacheEntryError(f"{os.path.basename(path)}: not Triton's metadata of a kernel ({e})") from None
    if not 1 <= meta.num_warps <= 32 or meta.block[0] > 1024:
        raise CacheEntryError(f"{os.path.basename(path)}: num_warps {meta.num_warps} x num_ctas {meta.num_ctas} is not "
                              f"a block of 1 to 1,024 threads")
    if not 0 <= meta.shared <= 227 << 10:
        raise CacheEntryError(f"{os.path.basename(path)}: shared {meta.shared:,} bytes: at most 227 KiB on sm_90")
    if not re.fullmatch(r"[A-Za-z_]\w*", meta.name):
        raise CacheEntryError(f"{os.path.basename(path)}: {meta.name!r} is not a kernel name")
    return meta


_FUNC = re.compile(r"tt\.func\s+(?:public\s+)?@([\w$.]+)\s*\(")


def ttir_signature(text: str, name: str, attributes: bool = False) -> list[tuple] | None:
    """(name, TTIR type) of each argument of ``tt.func @name`` in a TTIR text (``NAME.ttir`` or
    ``NAME.source``): ``%X: !tt.ptr<f32> {...} loc("X"(#loc))`` -> ``("X", "!tt.ptr<f32>")``, with
    the attribute text (``tt.divisibility = 16 : i32``) third when ``attributes``. An argument MLIR
    printed as ``%arg3`` takes the name in its ``loc("NAME"...)``. None when the text has no such
    function."""
    for m in _FUNC.finditer(text):
        if m.group(1) != name:
            continue
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out = []
        for part in split_top(text[m.end():i - 1], "<({[", ">)}]"):
            am = re.match(r"\s*%([\w$.]+)\s*:\s*(!tt\.ptr<[^>]*>|[\w.]+)", part)
            if not am:
                continue
            pname = am.group(1)
            if re.fullmatch(r"arg\d+", pname):
                lm = re.search(r'loc\("([A-Za-z_]\w*)"', part)
                pname = lm.group(1) if lm else pname
            am_attrs = re.search(r"\{([^}]*)\}", part[am.end():])
            out.append((pname, am.group(2), am_attrs.group(1) if am_attrs else "") if attributes
                       else (pname, am.group(2)))
        return out
    return None


def _c_type(ttir_type: str) -> tuple[str, bool]:
    """(C type, pointer) of a TTIR argument type."""
    m = re.fullmatch(r"!tt\.ptr<([\w.]+)(?:,\s*\d+)?>", ttir_type)
    if m:
        return _TTIR_TYPES.get(m.group(1), "void") + "*", True
    return _TTIR_TYPES.get(ttir_type, ttir_type), False


def _read(path: str, limit: int) -> bytes:
    try:
        if os.path.getsize(path) > limit:
            raise CacheEntryError(f"{os.path.basename(path)} is larger than {limit >> 20} MiB")
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise CacheEntryError(f"{os.path.basename(path)}: {e.strerror or e}") from None


def from_cache_entry(cubin_path: str, python_lines: bool = True) -> Kernel:
    """The kernel of a Triton cache entry (``cubin_path`` is its ``NAME.cubin``), launched as
    Triton's launcher launches it. ``python_lines``: put code Triton's library inlined on the
    kernel's own lines (:mod:`.triton_lines`; needs Triton's ptxas, else the library's lines stay)."""
    from ..compiler.kernel import disassemble_text
    from ..sass.cubin import CubinError, read as read_image
    from ..sass.decode import entry_names

    stem = cubin_path[:-len(".cubin")]
    if not os.path.isfile(stem + ".json"):
        raise CacheEntryError(f"{os.path.basename(cubin_path)}: no {os.path.basename(stem)}.json beside it (a Triton "
                              f"cache entry holds NAME.cubin and NAME.json)")
    meta = read_meta(stem + ".json")
    if meta.arch != 90:
        raise CacheEntryError(f"{os.path.basename(stem)}.json: compiled for sm_{meta.arch}; the emulator executes "
                              f"sm_90 (compile with GPUTarget('cuda', 90, 32))")
    cubin = _read(cubin_path, MAX_CUBIN_BYTES)
    ptx = _read(stem + ".ptx", 64 << 20).decode("utf-8", "replace") if os.path.isfile(stem + ".ptx") else ""
    from . import triton_memo
    from .triton_lines import kernel_file_of, ptxas_path, relined_sass

    kernel_file = kernel_file_of(ptx) if ptx else None
    relining = bool(python_lines and kernel_file and ptxas_path())
    memo = f"sass-{triton_memo.key(cubin, ptx, str(relining))}"
    sass = triton_memo.get(memo)
    if sass is None:
        try:
            sass = disassemble_text(cubin)
        except RuntimeError as e:
            raise CacheEntryError(f"{os.path.basename(cubin_path)}: {e}") from None
        if relining:
            sass = relined_sass(ptx, sass, kernel_file) or sass
        triton_memo.put(memo, sass)
    entries = entry_names(sass)
    if meta.name not in entries:
        raise CacheEntryError(f"{os.path.basename(cubin_path)}: no kernel {meta.name!r} in it (it has "
                              f"{', '.join(entries) or 'none'})")
    try:
        image = read_image(cubin, meta.name)
    except CubinError as e:
        raise CacheEntryError(f"{os.path.basename(cubin_path)}: {e}") from None
    signature = None
    for ext in (".ttir", ".source"):
        if os.path.isfile(stem + ext):
            signature = ttir_signature(_read(stem + ext, 16 << 20).decode("utf-8", "replace"), meta.name)
            if signature is not None:
                break
    params = _params(image, signature, os.path.basename(cubin_path))
    if ptx and not image.ptx:  # its shared memory by name (Triton's one extern array, global_smem)
        image.ptx = ptx
    from .cuda_source import line_files

    files = line_files(sass)
    own = os.path.basename(kernel_file) if kernel_file else (files[0].rsplit("/", 1)[-1] if files else None)
    source_text = None
    if kernel_file and os.path.isfile(kernel_file):
        try:
            source_text = _read(kernel_file, 4 << 20).decode("utf-8", "replace")
        except CacheEntryError:
            source_text = None
    warps = f"num_warps={meta.num_warps}" + (f" x num_ctas={meta.num_ctas}" if meta.num_ctas > 1 else "")
    k = Kernel(cubin, sass, meta.name, meta.name, params, "", "sm_90", True, own, files,
               LaunchDefaults(Setting(meta.block, warps), Setting(meta.shared, "Triton's shared")),
               True, "Triton cache entry", source_text, kernel_file or cubin_path)
    k.__dict__["image"] = image
    return k


def _params(image, signature: list[tuple[str, str]] | None, where: str) -> tuple[KernelParam, ...]:
    """The cubin's parameters named and typed by the TTIR signature, then Triton's scratch pointers."""
    n = len(image.params)
    if signature is None:  # no TTIR beside the cubin: by position, 8-byte ones taken for pointers
        names = [None] * n
        types = [("", p.size == 8) for p in image.params]
    else:
        extra = n - len(signature)
        if not 0 <= extra <= len(SCRATCH_POINTERS):
            raise CacheEntryError(f"{where}: the cubin has {n} parameters and the TTIR signature {len(signature)} "
                                  f"(with Triton's scratch pointers it would have at most "
                                  f"{len(signature) + len(SCRATCH_POINTERS)}): the files are of different kernels")
        names = [s[0] for s in signature] + list(SCRATCH_POINTERS[:extra])
        types = [_c_type(t) for _n, t in signature] + [("void*", True)] * extra
    return tuple(KernelParam(k, p.offset, p.size, ptr, name, ctype)
                 for k, (p, name, (ctype, ptr)) in enumerate(zip(image.params, names, types)))
