"""A Triton kernel's Python lines: code that Triton's library inlined, put on the kernel's own line.

Triton's line table (the cubin's, which ``nvdisasm -gi`` prints) gives each instruction the
innermost source location only: the shared-memory stores of ``tl.sum(x, axis=0)`` sit on a line of
``triton/language/standard.py``, not on the kernel's line that called it. The PTX beside the cubin
(``NAME.ptx``) says where each location was inlined, in a comment after every ``.loc``
(``// standard.py:263:15 @[ standard.py:293:36 @[ colsum.py:12:30 ] ]``). :func:`relined_sass`
points every such ``.loc`` at its outermost location in the kernel's file, assembles the PTX again
with the ptxas Triton itself uses (the options Triton passes: ``-lineinfo``, ``--gpu-name=sm_90a``),
and checks that the code is the same, instruction for instruction: only the line table differs. A
PTX without such comments, no ptxas (Triton not installed) or code that came out otherwise keeps
the library's lines (the caller's ``None``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import tempfile

_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', re.M)
_LOC = re.compile(r"^(\s*)\.loc\s+(\d+)\s+(\d+)\s+(\d+)([^\n]*)$", re.M)
_COMMENT_LOC = re.compile(r"([^\s@\[\]:]+):(\d+):(\d+)")
_INSTR = re.compile(r"/\*[0-9a-f]{4,6}\*/\s+([^;]*;)")
_TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.M)
#: seconds ptxas may take (Triton's kernels assemble in well under a second)
PTXAS_SECONDS = 60


def kernel_file_of(ptx: str) -> str | None:
    """The kernel's own file: the one of the first ``.loc`` (the ``def`` line's), as the PTX's
    ``.file`` names it."""
    files = dict(_FILE.findall(ptx))
    m = _LOC.search(ptx)
    return files.get(m.group(2)) if m else None


def relined_ptx(ptx: str, kernel_file: str) -> tuple[str, int]:
    """The PTX with every ``.loc`` of another file that was inlined from ``kernel_file`` put on its
    outermost location there; and how many were moved."""
    files = dict(_FILE.findall(ptx))
    own = next((n for n, f in files.items() if f == kernel_file), None)
    if own is None:
        return ptx, 0
    base = os.path.basename(kernel_file)
    moved = 0

    def sub(m: re.Match) -> str:
        nonlocal moved
        if m.group(2) == own:
            return m.group(0)
        chain = _COMMENT_LOC.findall(m.group(5))
        mine = [c for c in chain if c[0] == base]
        if not mine:
            return m.group(0)
        moved += 1
        return f"{m.group(1)}.loc\t{own} {mine[-1][1]} {mine[-1][2]}{m.group(5)}"

    return _LOC.sub(sub, ptx), moved


def ptxas_path() -> str | None:
    """The ptxas Triton bundles (``triton/backends/nvidia/bin/ptxas``), found without importing Triton."""
    spec = importlib.util.find_spec("triton")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], "backends", "nvidia", "bin", "ptxas")
    return path if os.access(path, os.X_OK) else None


def _instructions(sass: str) -> list[str]:
    return [re.sub(r"\s+", " ", m.group(1)) for m in _INSTR.finditer(sass)]


def relined_sass(ptx: str, sass: str, kernel_file: str) -> str | None:
    """``nvdisasm -gi`` of the kernel assembled again with its inlined code on the kernel's own
    lines (see the module's docstring); None where the lines stay as they are."""
    new_ptx, moved = relined_ptx(ptx, kernel_file)
    ptxas = ptxas_path()
    if not moved or ptxas is None:
        return None
    target = _TARGET.search(ptx)
    arch = target.group(1) if target else "sm_90a"
    from ..compiler.kernel import disassemble_text

    with tempfile.TemporaryDirectory(prefix="bankexplorer-ptxas-") as d:
        src, out = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(new_ptx)
        try:
            p = subprocess.run([ptxas, "-lineinfo", f"--gpu-name={arch}", src, "-o", out],
                               capture_output=True, timeout=PTXAS_SECONDS, cwd=d)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if p.returncode or not os.path.isfile(out):
            return None
        with open(out, "rb") as f:
            text = disassemble_text(f.read())
    return text if _instructions(text) == _instructions(sass) else None
