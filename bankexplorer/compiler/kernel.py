"""A compiled kernel (:class:`Build`: the cubin and its disassembly) and what every build shares:
``nvdisasm -gi`` of a cubin (kept in the compile cache), and the rules for CuTe/CUTLASS sources.
The CUDA source front end (:func:`bankexplorer.kernels.cuda_source.build`) makes a Build.
"""

from __future__ import annotations

import hashlib
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


def includes_cutlass(text: str) -> bool:
    """The text includes CuTe's or CUTLASS's headers (compiled with ``-default-device`` and a
    longer budget; their -G build takes minutes)."""
    return bool(_CUTLASS_INCLUDE.search(text))


def disassemble_text(cubin: bytes) -> str:
    """``nvdisasm -gi`` of a cubin: the SASS with each instruction's source line."""
    from . import cache

    k = cache.key("disassemble", nvrtc.toolchain(), cubin=hashlib.sha256(cubin).hexdigest())
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
