"""Compile a ``@triton.jit`` function of a ``.py`` file for sm_90, on the CPU, as Triton's launcher
would for the given arguments.

Loading the file runs the user's Python (its imports, its top-level code): that happens in a child
process started in an empty folder, limited to :data:`COMPILE_MEMORY` bytes of address space and
:data:`COMPILE_SECONDS` seconds, and ended with the command on Ctrl-C (docs/security.md). The child
specializes the arguments with Triton's own binder (``create_function_from_signature``, what
``kernel[grid](...)`` calls): a pointer 16-byte aligned is ``tt.divisibility=16``, an integer
divisible by 16 likewise, an integer equal to 1 a constant; then ``triton.compile`` with
``GPUTarget("cuda", 90, 32)``. Triton's own cache (``~/.triton/cache``, or ``TRITON_CACHE_DIR``)
is used, so a kernel compiled before comes back at once. The result is the cache entry's folder.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass

#: what a command or the window says, in one line, when a ``.py`` kernel needs Triton and it is absent
INSTALL_HINT = "compiling a Triton kernel needs Triton 3.6 (about 290 MB): pip install 'bankexplorer[triton]'"

#: the compile's budget: as NVRTC's (compiler/nvrtc.py), with room for Triton's LLVM
COMPILE_SECONDS = 120
COMPILE_MEMORY = 8 << 30
#: Triton's launch options a ``-D NAME=VALUE`` may give (the rest name the kernel's parameters)
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "enable_reflect_ftz",
                  "launch_pdl", "launch_cooperative_grid", "debug", "sanitize_overflow", "max_num_imprecise_acc_default")
ALIGNED_POINTER = 1 << 32  #: the address the binder is shown for every array: 16-byte aligned, as our buffers are


def available() -> bool:
    """Is Triton installed (found without importing it: that takes a second)?"""
    import importlib.util

    return importlib.util.find_spec("triton") is not None


class TritonUnavailable(RuntimeError):
    """Triton is not installed (it is the optional extra ``bankexplorer[triton]``)."""


class TritonCompileError(ValueError):
    """The file, the function or its arguments do not make a kernel: ``log`` says why (Triton's own
    message where it has one, with the line of the user's file)."""

    def __init__(self, log: str):
        super().__init__(log)
        self.log = log


@dataclass(frozen=True)
class Compiled:
    entry: str  # the cache entry's folder (NAME.cubin, NAME.json, ... in it)
    name: str  # the kernel's name (the function's)
    seconds: float  # in the child


def compile_file(path: str, function: str, arrays: dict[str, str], values: dict[str, int | float | bool],
                 seconds: float = COMPILE_SECONDS, memory: int = COMPILE_MEMORY) -> Compiled:
    """Compile ``function`` of the file at ``path``. ``arrays``: pointer parameter -> numpy dtype name
    (``"float32"``); ``values``: scalars, constexprs and launch options (:data:`LAUNCH_OPTIONS`)."""
    if not available():
        raise TritonUnavailable(INSTALL_HINT)
    request = {"path": os.path.abspath(path), "function": function, "arrays": arrays, "values": values}
    from ..compiler import child

    r = child.run([sys.executable, "-m", "bankexplorer.kernels.triton_source", str(memory), str(int(seconds) + 5),
                   str(os.getpid())], request, seconds, _child_env(), prefix="bankexplorer-triton-")
    if r.timed_out:
        raise TritonCompileError(f"triton: stopped after {seconds:g} s, the compile's time budget")
    d = r.reply
    if d is None or "ok" not in d:
        raise TritonCompileError(f"triton: the compiler stopped ({r.why[:300]}); it may have needed more than "
                                 f"{memory / (1 << 30):g} GiB, the compile's memory budget")
    if not d["ok"]:
        raise TritonCompileError(d["log"])
    return Compiled(d["entry"], d["name"], d["seconds"])


def _child_env() -> dict[str, str]:
    """The child's environment: ours, with this package importable (it runs ``-m``), and Triton's
    cache where the user's Triton keeps it (the child's working folder is an empty one)."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("TRITON_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".triton", "cache"))
    return env


class _Array:
    """What Triton's binder is shown for an array: its dtype and an aligned address."""

    def __init__(self, dtype) -> None:
        self.dtype = dtype

    @staticmethod
    def data_ptr() -> int:
        return ALIGNED_POINTER


def _compile_here(path: str, function: str, arrays: dict[str, str], values: dict) -> dict:
    """In the child: load the file, find the function, specialize, compile."""
    import importlib.util
    import time

    import numpy as np

    t0 = time.perf_counter()
    spec = importlib.util.spec_from_file_location("_bankexplorer_triton_kernel", path)
    if spec is None or spec.loader is None:
        return {"ok": False, "log": f"{path}: not a Python file"}
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))  # its own imports of neighbouring modules
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001 - the user's file: any error is reported as its message
        return {"ok": False, "log": f"{path}: loading the file failed: {type(e).__name__}: {e}"}
    import triton
    import triton.runtime.cache as triton_cache
    from triton.backends.compiler import GPUTarget

    from . import triton_memo

    memo = triton_memo.triton_key()
    triton_cache.triton_key = lambda: memo  # the same value, computed once per install (triton_memo)
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import JITFunction, create_function_from_signature

    fn = getattr(mod, function, None)
    fn = getattr(fn, "fn", fn) if not isinstance(fn, JITFunction) else fn  # an autotuner wraps the function
    if not isinstance(fn, JITFunction):
        found = [n for n, v in vars(mod).items() if isinstance(v, JITFunction)]
        return {"ok": False, "log": f"{path}: no @triton.jit function named {function!r} (the file has "
                                    f"{', '.join(found) or 'none'})"}
    names = list(fn.arg_names)
    kw: dict = {}
    for n, dt in arrays.items():
        if n not in names:
            return {"ok": False, "log": f"--arg {n}: {function} has no parameter {n!r} (it has {', '.join(names)})"}
        kw[n] = _Array(np.dtype(dt))
    for n, v in values.items():
        if n not in names and n not in LAUNCH_OPTIONS:
            return {"ok": False, "log": f"-D {n}: {function} has no parameter {n!r} (it has {', '.join(names)}) and "
                                        f"it is not a launch option ({', '.join(LAUNCH_OPTIONS)})"}
        kw[n] = v
    missing = [p.name for p in fn.params if p.name not in kw and not p.has_default]
    if missing:
        return {"ok": False, "log": f"{function}: no value for {', '.join(missing)} (give arrays with --arg "
                                    f"NAME=F.npy, scalars and constexprs with -D NAME=VALUE)"}
    for p in fn.params:
        if p.is_constexpr and p.name in arrays:
            return {"ok": False, "log": f"--arg {p.name}: the parameter is a tl.constexpr: give it with -D"}
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    kw.setdefault("debug", False)
    kw["instrumentation_mode"] = ""
    try:
        binder = create_function_from_signature(fn.signature, fn.params, backend)
        bound, specialization, options = binder(**kw)
        options, signature, constexprs, attrs = fn._pack_args(backend, options, bound, specialization, options)
        kernel = triton.compile(ASTSource(fn, signature, constexprs, attrs), target=target, options=options.__dict__)
    except Exception as e:  # noqa: BLE001 - Triton's compile errors carry the user's line
        return {"ok": False, "log": f"{type(e).__name__}: {e}".strip()}
    entry = _cache_entry(ASTSource(fn, signature, constexprs, attrs), backend, options, kernel.name)
    if entry is None:
        return {"ok": False, "log": "triton: the compiled kernel is not in Triton's cache (is the cache read-only?)"}
    return {"ok": True, "entry": entry, "name": kernel.name, "seconds": time.perf_counter() - t0}


def _cache_entry(src, backend, options, name: str) -> str | None:
    """The folder Triton's cache keeps the kernel in: named by the compile's key, worked out as
    ``triton.compile`` works it out."""
    import hashlib

    from triton._C.libtriton import get_cache_invalidating_env_vars
    from triton.runtime.cache import get_cache_key, get_cache_manager

    opts = backend.parse_options(dict(options.__dict__, **src.parse_options()))
    key = get_cache_key(src, backend, opts, env_vars=get_cache_invalidating_env_vars())
    folder = get_cache_manager(hashlib.sha256(key.encode("utf-8")).hexdigest()).cache_dir
    return folder if os.path.isfile(os.path.join(folder, f"{name}.cubin")) else None


def _child(argv: list[str]) -> None:
    from ..compiler.child import limit

    limit(int(argv[0]), int(argv[1]), int(argv[2]) if len(argv) > 2 else None)
    req = json.loads(sys.stdin.buffer.read())
    out = _compile_here(req["path"], req["function"], req["arrays"], req["values"])
    sys.stdout.buffer.write(json.dumps(out).encode())


if __name__ == "__main__":
    _child(sys.argv[1:])
