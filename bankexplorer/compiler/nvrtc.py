"""Compile CUDA source to a cubin with NVRTC, through a small ctypes binding.

NVRTC comes from PyPI (``nvidia-cuda-nvrtc``, the ``compile`` extra), so a laptop without a GPU or a
CUDA toolkit can see the machine code nvcc would emit. Only the handful of entry points needed here
are bound; nothing is executed, the source is only compiled.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from dataclasses import dataclass
from functools import lru_cache

#: architectures the compiler accepts here; only sm_90 has measurements behind the bank rules
ARCHITECTURES = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120")
MEASURED_ARCHITECTURES = ("sm_90",)
DEFAULT_ARCH = "sm_90"


class CompilerUnavailable(RuntimeError):
    """NVRTC (or nvdisasm) is not installed: the compiled view needs ``pip install 'bankexplorer[compile]'``."""


INSTALL_HINT = "the compiled view needs NVRTC and nvdisasm: pip install 'bankexplorer[compile]'"


@dataclass(frozen=True)
class CompileOutput:
    ok: bool
    log: str  # the compiler's messages ("file(line): error: ...")
    cubin: bytes = b""


def _nvidia_dirs() -> list[str]:
    """Folders of the ``nvidia`` namespace package (PyPI's CUDA wheels), newest CUDA first."""
    try:
        import nvidia  # namespace package from the nvidia-* wheels
    except ImportError:
        return []
    roots = [p for p in getattr(nvidia, "__path__", [])]
    out = []
    for r in roots:
        out += sorted(glob.glob(os.path.join(r, "cu*")), reverse=True)
        out += [os.path.join(r, "cuda_nvrtc"), os.path.join(r, "cuda_nvcc")]
    return [d for d in out if os.path.isdir(d)]


def find_tool(name: str) -> str | None:
    """Path of a CUDA binary shipped in a wheel (``nvdisasm``), else one on PATH."""
    for d in _nvidia_dirs():
        p = os.path.join(d, "bin", name)
        if os.access(p, os.X_OK):
            return p
    from shutil import which

    return which(name)


@lru_cache(maxsize=1)
def _lib() -> ctypes.CDLL:
    cands = []
    for d in _nvidia_dirs():
        cands += sorted(glob.glob(os.path.join(d, "lib", "libnvrtc.so*")))
        cands += sorted(glob.glob(os.path.join(d, "bin", "nvrtc64_*.dll")))
    cands += ["libnvrtc.so"]
    for c in cands:
        try:
            lib = ctypes.CDLL(c)
        except OSError:
            continue
        _declare(lib)
        return lib
    raise CompilerUnavailable(INSTALL_HINT)


def _declare(lib: ctypes.CDLL) -> None:
    P = ctypes.c_void_p
    lib.nvrtcCreateProgram.argtypes = [ctypes.POINTER(P), ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p)]
    lib.nvrtcCompileProgram.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.nvrtcGetProgramLogSize.argtypes = [P, ctypes.POINTER(ctypes.c_size_t)]
    lib.nvrtcGetProgramLog.argtypes = [P, ctypes.c_char_p]
    lib.nvrtcGetCUBINSize.argtypes = [P, ctypes.POINTER(ctypes.c_size_t)]
    lib.nvrtcGetCUBIN.argtypes = [P, ctypes.c_char_p]
    lib.nvrtcDestroyProgram.argtypes = [ctypes.POINTER(P)]
    lib.nvrtcAddNameExpression.argtypes = [P, ctypes.c_char_p]
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p
    lib.nvrtcVersion.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]


def available() -> bool:
    try:
        _lib()
    except CompilerUnavailable:
        return False
    return find_tool("nvdisasm") is not None


def version() -> str:
    a, b = ctypes.c_int(), ctypes.c_int()
    _lib().nvrtcVersion(ctypes.byref(a), ctypes.byref(b))
    return f"{a.value}.{b.value}"


_LOCK = threading.Lock()  # NVRTC is thread-safe per program; one compile at a time keeps memory low


def compile_cuda(source: str, arch: str = DEFAULT_ARCH, name: str = "kernel.cu",
                 options: tuple[str, ...] = (), instantiate: tuple[str, ...] = ()) -> CompileOutput:
    """Compile ``source`` for ``arch`` with line info; the cubin, or the log of what failed.
    ``instantiate``: template kernels to generate code for (``"k<32>"``)."""
    if arch not in ARCHITECTURES:
        raise ValueError(f"arch: {arch!r} is not one of {', '.join(ARCHITECTURES)}")
    lib = _lib()
    prog = ctypes.c_void_p()
    opts = [f"--gpu-architecture={arch}", "-lineinfo", "-std=c++17", *[f"-I{d}" for d in include_dirs()], *options]
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    with _LOCK:
        rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
        if rc:
            return CompileOutput(False, f"nvrtc: {lib.nvrtcGetErrorString(rc).decode()}")
        try:
            for expr in instantiate:
                lib.nvrtcAddNameExpression(prog, expr.encode())
            rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
            n = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
            buf = ctypes.create_string_buffer(n.value)
            lib.nvrtcGetProgramLog(prog, buf)
            log = buf.value.decode(errors="replace")
            if rc:
                return CompileOutput(False, log or lib.nvrtcGetErrorString(rc).decode())
            lib.nvrtcGetCUBINSize(prog, ctypes.byref(n))
            cub = ctypes.create_string_buffer(n.value)
            lib.nvrtcGetCUBIN(prog, cub)
            return CompileOutput(True, log, cub.raw)
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))


#: headers of our own, searched before the wheels': ``cub/cub.cuh`` without CUB's host-only parts
OWN_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def include_dirs() -> list[str]:
    """CUDA headers from the wheels (``cuda_fp16.h``, ``cuda_bf16.h`` come with nvidia-cuda-runtime;
    ``cooperative_groups.h`` and CUB need the CCCL headers from nvidia-cuda-cccl, in ``include/cccl``),
    after our own (``include/cub/cub.cuh``: CUB's umbrella as NVRTC can compile it)."""
    return [OWN_INCLUDE] + [p for d in _nvidia_dirs() for sub in ("include", os.path.join("include", "cccl"))
                            if os.path.isdir(p := os.path.join(d, sub))]
