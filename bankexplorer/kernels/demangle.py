"""C++ symbol demangling (``_Z4gemmPfPKfi`` -> ``gemm(float*, float const*, int)``).

A binary names its kernels by their mangled symbols only; the demangled signature gives a kernel's
readable name (``--kernel`` accepts it) and its parameter types (which tells a pointer from an
8-byte integer). The C++ runtime's own ``__cxa_demangle`` does it (loaded with ctypes from
libstdc++ or libc++, which every Linux and macOS desktop has); where neither is found, binutils'
``c++filt``; otherwise the signature is unknown and the caller falls back to the cubin's sizes.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from functools import lru_cache


#: where the C++ runtime is, by its usual names (dlopen by name: no search process, no file opened
#: but the library)
_RUNTIMES = ("libstdc++.so.6", "libc++.so.1", "libc++.1.dylib", "libstdc++.6.dylib", "libc++.dylib")


@lru_cache(maxsize=1)
def _runtime():
    for cand in _RUNTIMES:
        try:
            lib = ctypes.CDLL(cand)
            fn = lib.__cxa_demangle
        except (OSError, AttributeError):
            continue
        fn.restype = ctypes.c_void_p
        fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        try:
            free = ctypes.CDLL(None).free  # the C library this process already has
        except (OSError, AttributeError):
            continue
        free.argtypes = [ctypes.c_void_p]
        return fn, free
    return None


@lru_cache(maxsize=256)
def demangle(symbol: str) -> str | None:
    """The demangled symbol; the symbol itself when it is not mangled (``extern "C"``); None when
    it cannot be demangled here."""
    if not symbol.startswith("_Z"):
        return symbol
    rt = _runtime()
    if rt is not None:
        fn, free = rt
        status = ctypes.c_int()
        p = fn(symbol.encode(), None, None, ctypes.byref(status))
        if p and status.value == 0:
            try:
                return ctypes.string_at(p).decode("utf-8", "replace")
            finally:
                free(p)
        return None
    tool = shutil.which("c++filt")
    if tool is None:
        return None
    try:
        out = subprocess.run([tool, symbol], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out if out and out != symbol else None
