"""Compile a pasted kernel: the cubin, its disassembly, and the kernels it holds.

The one way user text reaches NVRTC (the emulator, both builds, comes here): its
includes are checked against the include rules first (:func:`..cudaimport.device_source.for_compiler`,
an ``IncludeError`` when one is refused), host functions are blanked with every line and column
kept, the half and bfloat16 headers are added, and NVRTC gets the user's headers in memory and no
folder but the bundled CUDA headers. ``-D`` values that name a kernel or template parameter are
launch values, not macros.

``optimize=False`` builds the unoptimised device-debug code (NVRTC ``-G``): every access the source
writes stays its own instruction, on its own line ("as written"), and calls to header functions
such as ``atomicAdd`` stay calls. The emulator executes it like any other build.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass

from . import nvrtc
from .nvrtc import INSTALL_HINT, CompilerUnavailable


#: a CuTe kernel takes 10-40 s to compile on a 2-core laptop (twice that on a busy one): its budget
CUTLASS_COMPILE_SECONDS = 180
#: an include of CuTe's or CUTLASS's headers (they are compiled with ``-default-device``)
_CUTLASS_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"](?:cute|cutlass)/", re.M)


@dataclass(frozen=True)
class Build:
    ok: bool
    log: str
    cubin: bytes = b""
    sass: str = ""  # nvdisasm -gi text
    name: str = "kernel.cu"  # the file name the line table uses
    optimized: bool = True  # False: the device-debug build (-G)


def build(text: str, arch: str = nvrtc.DEFAULT_ARCH, defines: dict[str, int | float] | None = None,
          path: str | None = None, include_dirs: list[str] | None = None, disassemble: bool = True,
          optimize: bool = True) -> Build:
    from ..cudaimport.device_source import device_source, for_compiler, kernel_parameters, template_kernels
    from ..cudaimport.includes import IncludeRules

    defines = dict(defines or {})
    code, headers = for_compiler(text, IncludeRules.of(path, list(include_dirs or [])))
    code = device_source(code)
    name = os.path.basename(path) if path else "kernel.cu"
    pre = "".join(f"#include <{h}>\n" for h in ("cuda_fp16.h", "cuda_bf16.h")
                  if h not in text and any(os.path.isfile(os.path.join(d, h)) for d in nvrtc.include_dirs()))
    if pre:
        code = f'{pre}#line 1 "{name}"\n{code}'
    params = kernel_parameters(text)  # function and template parameters: values for them are not macros
    opts = tuple(f"-D{k}={v}" for k, v in defines.items() if k not in params)
    cutlass = bool(_CUTLASS_INCLUDE.search(text))
    if cutlass:  # CUTLASS's headers declare helpers without __device__ (NVRTC takes them for host code)
        opts += ("-default-device",)
    instantiate, _missing = template_kernels(text, {k: v for k, v in defines.items() if isinstance(v, int)})
    out = nvrtc.compile_cuda(code, arch, name=name, options=opts, instantiate=tuple(instantiate), headers=headers,
                             debug=not optimize, seconds=CUTLASS_COMPILE_SECONDS if cutlass else None)
    if not out.ok:
        return Build(False, out.log, name=name, optimized=optimize)
    return Build(True, out.log, out.cubin, disassemble_text(out.cubin) if disassemble else "", name, optimize)


def disassemble_text(cubin: bytes) -> str:
    """``nvdisasm -gi`` of a cubin: the SASS with each instruction's source line."""
    from . import cache

    k = cache.key("disassemble", cubin=hashlib.sha256(cubin).hexdigest())
    hit = cache.get(k)
    if hit is not None:
        return hit.decode("utf-8")
    tool = nvrtc.find_tool("nvdisasm")
    if tool is None:
        raise CompilerUnavailable(INSTALL_HINT)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        p = subprocess.run([tool, "-gi", "-c", f.name], capture_output=True, text=True, timeout=60)
    if p.returncode:
        raise RuntimeError(f"nvdisasm failed: {p.stderr.strip()[:300]}")
    cache.put(k, p.stdout.encode("utf-8"))
    return p.stdout
