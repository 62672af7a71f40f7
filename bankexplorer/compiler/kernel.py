"""Compile a pasted kernel for execution: the cubin, its disassembly and the kernels it holds.

The text goes through the same preparation as the compiled import (host code and unavailable
headers blanked, line numbers kept, half/bfloat16 headers added); ``-D`` values that name a kernel
or template parameter are launch values, not macros.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

from . import nvrtc
from .nvrtc import INSTALL_HINT, CompilerUnavailable


@dataclass(frozen=True)
class Build:
    ok: bool
    log: str
    cubin: bytes = b""
    sass: str = ""  # nvdisasm -gi text
    name: str = "kernel.cu"  # the file name the line table uses


def build(text: str, arch: str = nvrtc.DEFAULT_ARCH, defines: dict[str, int | float] | None = None,
          path: str | None = None, include_dirs: list[str] | None = None,
          extra_options: tuple[str, ...] = ()) -> Build:
    from ..cudaimport.device_source import device_source, kernel_parameters, template_kernels

    defines = dict(defines or {})
    local = os.path.dirname(os.path.abspath(path)) if path else None
    code = device_source(text, nvrtc.include_dirs() + list(include_dirs or []), local)
    name = os.path.basename(path) if path else "kernel.cu"
    pre = "".join(f"#include <{h}>\n" for h in ("cuda_fp16.h", "cuda_bf16.h")
                  if h not in text and any(os.path.isfile(os.path.join(d, h)) for d in nvrtc.include_dirs()))
    code = f'{pre}#line 1 "{name}"\n{code}'
    params = kernel_parameters(text)
    opts = tuple(f"-D{k}={v}" for k, v in defines.items() if k not in params)
    instantiate, _missing = template_kernels(text, {k: v for k, v in defines.items() if isinstance(v, int)})
    if local:
        opts += (f"-I{local}",)
    opts += tuple(f"-I{d}" for d in include_dirs or []) + tuple(extra_options)
    out = nvrtc.compile_cuda(code, arch, name=name, options=opts, instantiate=tuple(instantiate))
    if not out.ok:
        return Build(False, out.log, name=name)
    return Build(True, out.log, out.cubin, disassemble_text(out.cubin), name)


def disassemble_text(cubin: bytes) -> str:
    tool = nvrtc.find_tool("nvdisasm")
    if tool is None:
        raise CompilerUnavailable(INSTALL_HINT)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        p = subprocess.run([tool, "-gi", "-c", f.name], capture_output=True, text=True, timeout=60)
    if p.returncode:
        raise RuntimeError(f"nvdisasm failed: {p.stderr.strip()[:300]}")
    return p.stdout
