"""Compile CUDA source to a cubin with NVRTC, through a small ctypes binding.

NVRTC comes from PyPI (``nvidia-cuda-nvrtc``, part of the default install), so a laptop without a GPU
or a CUDA toolkit can see the machine code nvcc would emit. Only the handful of entry points needed here
are bound; nothing is executed, the source is only compiled.

The compile runs in a child process (this file run as a script), because a pasted text can make
NVRTC work without end (a macro that doubles at every level) and a call into a C library cannot be
interrupted: the child starts in an empty folder, is limited to :data:`COMPILE_MEMORY` bytes, is
ended after :data:`COMPILE_SECONDS`, and dies with the command on Ctrl-C. It is given the source,
the user's headers in memory and, as its only include folder, the bundled CUDA headers.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import glob
import hashlib
import json
import os
import sys
import threading
from typing import Iterator
from dataclasses import dataclass
from functools import lru_cache

#: the compile's budget: seconds before the child is ended, and the address space it may use
COMPILE_SECONDS = 60
COMPILE_MEMORY = 4 << 30

#: architectures the compiler accepts here; only sm_90 has measurements behind the bank rules
ARCHITECTURES = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120")
MEASURED_ARCHITECTURES = ("sm_90",)
DEFAULT_ARCH = "sm_90"


class CompilerUnavailable(RuntimeError):
    """NVRTC (or nvdisasm) is not installed (a broken install: bankexplorer depends on them)."""


#: what a window or a command says, in one line, where it finds no compiler
INSTALL_HINT = ("compiling a kernel needs NVRTC and nvdisasm, which bankexplorer installs with it; this install "
                "lacks them: pip install nvidia-cuda-nvrtc nvidia-cuda-nvdisasm nvidia-cuda-runtime nvidia-cuda-cccl "
                "nvidia-cuda-crt")


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
    for d in _nvidia_dirs():
        # libnvrtc opens its builtins library by name; some wheels' libnvrtc does not look beside
        # itself for it (13.0): loaded first, the name is found
        for b in sorted(glob.glob(os.path.join(d, "lib", "libnvrtc-builtins.so*"))):
            try:
                ctypes.CDLL(b, mode=ctypes.RTLD_GLOBAL)
            except OSError:
                pass
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


_LOCK = threading.Lock()  # one compile at a time keeps memory low
_THREAD = threading.local()


@contextlib.contextmanager
def alongside() -> Iterator[None]:
    """Compiles this thread starts in the block run beside another thread's, not after it: the
    command line's as-written build (-G) compiles while the optimised one compiles and runs, on the
    second core. Each compile keeps its own budget (:data:`COMPILE_SECONDS`, :data:`COMPILE_MEMORY`),
    so two at once hold at most twice the memory; and one that the other waited on could double the
    time to an error (a compile that runs to its budget), which beside it cannot."""
    before = getattr(_THREAD, "alongside", False)
    _THREAD.alongside = True
    try:
        yield
    finally:
        _THREAD.alongside = before


def compile_cuda(source: str, arch: str = DEFAULT_ARCH, name: str = "kernel.cu",
                 options: tuple[str, ...] = (), instantiate: tuple[str, ...] = (),
                 headers: dict[str, str] | None = None, seconds: float | None = None,
                 memory: int | None = None, debug: bool = False) -> CompileOutput:
    """Compile ``source`` for ``arch`` with line info; the cubin, or the log of what failed.
    ``debug``: the unoptimised device-debug build (``-G``: every source access its own instruction,
    its full line table in place of ``-lineinfo``, which ptxas would ignore beside it).
    ``instantiate``: template kernels to generate code for (``"k<32>"``). ``headers``: the text of
    each header the source may include, by the name it is included as (NVRTC opens no other file
    than the bundled CUDA headers). ``seconds`` / ``memory``: the budget (default
    :data:`COMPILE_SECONDS`, :data:`COMPILE_MEMORY`); past it the log says so."""
    if arch not in ARCHITECTURES:
        raise ValueError(f"arch: {arch!r} is not one of {', '.join(ARCHITECTURES)}")
    _lib()  # CompilerUnavailable here, not in the child
    opts = [f"--gpu-architecture={arch}", "-G" if debug else "-lineinfo", "-std=c++17",
            *[f"-I{d}" for d in include_dirs()], *options]
    request = {"source": source, "name": name, "options": opts, "instantiate": list(instantiate),
               "headers": dict(headers or {})}
    from . import cache

    k = cache.key("compile", toolchain(), request=request)
    hit = cache.get(k)
    if hit is not None:
        d = json.loads(hit)
        return CompileOutput(bool(d["ok"]), str(d["log"]), base64.b64decode(d["cubin"]))
    with contextlib.nullcontext() if getattr(_THREAD, "alongside", False) else _LOCK:
        out = _in_child(request, COMPILE_SECONDS if seconds is None else seconds,
                        COMPILE_MEMORY if memory is None else memory)
    if out.ok or not (out.log.startswith("nvrtc:") or "budget" in out.log):  # a stopped compile may finish next time
        cache.put(k, json.dumps({"ok": out.ok, "log": out.log,
                                 "cubin": base64.b64encode(out.cubin).decode("ascii")}).encode("utf-8"))
    return out


def _in_child(request: dict, seconds: float, memory: int) -> CompileOutput:
    """Run :func:`_compile_here` in a child process within the budget (:mod:`.child`)."""
    from . import child

    r = child.run([sys.executable, "-P", os.path.abspath(__file__), str(memory), str(int(seconds) + 5),
                   str(os.getpid())], request, seconds, prefix="bankexplorer-nvrtc-")
    if r.timed_out:
        return CompileOutput(False, f"nvrtc: stopped after {seconds:g} s, the compile's time budget (does a macro "
                                    f"or template expand without end?)")
    try:
        d = r.reply or {}
        res = CompileOutput(bool(d["ok"]), str(d["log"]), base64.b64decode(d["cubin"]))
    except (ValueError, KeyError, TypeError):
        res = None
    if res is not None:
        if not res.ok and "out of memory" in res.log:
            res = CompileOutput(False, res.log.rstrip() + f"\nnvrtc: the compile's memory budget is "
                                                          f"{memory / (1 << 30):g} GiB")
        return res
    return CompileOutput(False, f"nvrtc: the compiler stopped ({r.why[:200]}); it may have needed more than "
                                f"{memory / (1 << 30):g} GiB, the compile's memory budget (does a macro or template "
                                f"expand without end?)")


def _compile_here(source: str, name: str, options: list[str], instantiate: list[str],
                  headers: dict[str, str]) -> CompileOutput:
    """The NVRTC calls themselves (in the child process)."""
    lib = _lib()
    prog = ctypes.c_void_p()
    arr = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    names = list(headers)
    h_text = (ctypes.c_char_p * len(names))(*[headers[k].encode() for k in names])
    h_name = (ctypes.c_char_p * len(names))(*[k.encode() for k in names])
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), len(names), h_text, h_name)
    if rc:
        return CompileOutput(False, f"nvrtc: {lib.nvrtcGetErrorString(rc).decode()}")
    try:
        for expr in instantiate:
            lib.nvrtcAddNameExpression(prog, expr.encode())
        rc = lib.nvrtcCompileProgram(prog, len(options), arr)
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


def _child(argv: list[str]) -> None:
    """The child process: limits first, then the request from stdin, the result to stdout."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # run as a file
    from bankexplorer.compiler.child import limit

    limit(int(argv[0]), int(argv[1]), int(argv[2]) if len(argv) > 2 else None)
    req = json.loads(sys.stdin.buffer.read())
    out = _compile_here(req["source"], req["name"], req["options"], req["instantiate"], req["headers"])
    sys.stdout.buffer.write(json.dumps({"ok": out.ok, "log": out.log,
                                        "cubin": base64.b64encode(out.cubin).decode("ascii")}).encode("utf-8"))


#: headers of our own, searched before the wheels': ``cub/cub.cuh`` without CUB's host-only parts
OWN_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


@lru_cache(maxsize=1)
def cutlass_include() -> str | None:
    """CUTLASS's and CuTe's headers (``cute/tensor.hpp``, ``cutlass/cutlass.h``), from the
    ``nvidia-cutlass`` wheel (its ``cutlass_library/source/include``), found without importing it."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("cutlass_library")
    except (ImportError, ValueError):
        return None
    for root in (spec.submodule_search_locations or []) if spec else []:
        inc = os.path.join(root, "source", "include")
        if os.path.isfile(os.path.join(inc, "cute", "tensor.hpp")):
            return inc
    return None


def include_dirs() -> list[str]:
    """CUDA headers from the wheels (``cuda_fp16.h``, ``cuda_bf16.h`` come with nvidia-cuda-runtime;
    ``cooperative_groups.h`` and CUB need the CCCL headers from nvidia-cuda-cccl, in ``include/cccl``),
    after our own (``include/cub/cub.cuh``: CUB's umbrella as NVRTC can compile it), then CUTLASS's and
    CuTe's (:func:`cutlass_include`)."""
    cuda = [p for d in _nvidia_dirs() for sub in ("include", os.path.join("include", "cccl"))
            if os.path.isdir(p := os.path.join(d, sub))]
    cutlass = cutlass_include()
    return [OWN_INCLUDE] + cuda + ([cutlass] if cutlass else [])


if __name__ == "__main__":
    _child(sys.argv[1:])


@lru_cache(maxsize=1)
def toolchain() -> str:
    """What the installed compiler and headers are: NVRTC's version, the versions of the packages
    whose headers NVRTC reads, and our own headers' text (a change to any is a new key)."""
    from importlib import metadata

    parts = []
    try:
        parts.append("nvrtc " + version())
    except Exception:  # noqa: BLE001 - no compiler: nothing will be compiled, the key does not matter
        parts.append("nvrtc ?")
    for dist in ("nvidia-cuda-nvrtc", "nvidia-cuda-cccl", "nvidia-cuda-runtime", "nvidia-cuda-crt", "nvidia-cutlass",
                 "nvidia-cuda-nvdisasm"):
        try:
            parts.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist} -")
    for root, _dirs, files in sorted(os.walk(OWN_INCLUDE)):
        for f in sorted(files):
            with open(os.path.join(root, f), "rb") as fh:
                parts.append(f"{os.path.relpath(os.path.join(root, f), OWN_INCLUDE)} "
                             f"{hashlib.sha256(fh.read()).hexdigest()}")
    return "\n".join(parts)
