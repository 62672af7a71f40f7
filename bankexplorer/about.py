"""What this install runs with: its version, the compilers and headers it found, and whether the
emulator's compiled paths were built. ``bankexplorer --version`` prints it and Help > About shows
it, so that a user, or a bug report, tells in one look why a kernel compiles or runs as it does.
Package versions are read from the installed metadata: nothing is loaded (no NVRTC, no Triton).
"""

from __future__ import annotations

from importlib import metadata

from . import __version__

#: (distribution, what it is for)
PACKAGES = (("nvidia-cuda-nvrtc", "NVRTC: compiles CUDA kernels"),
            ("nvidia-cuda-nvdisasm", "nvdisasm: reads their SASS"),
            ("nvidia-cuda-cccl", "CUB and libcu++ headers"),
            ("nvidia-cutlass", "CuTe and CUTLASS headers"),
            ("triton", "Triton kernels from source (optional)"))


def components() -> list[tuple[str, str]]:
    """(name and version, what it is for) of each part, BankExplorer's first."""
    out = [(f"BankExplorer {__version__}", "GPU shared-memory bank conflicts, drawn")]
    for dist, what in PACKAGES:
        try:
            out.append((f"{dist} {metadata.version(dist)}", what))
        except metadata.PackageNotFoundError:
            out.append((f"{dist}: not installed", what))
    from .sass import compiled

    built = [what for module, what in ((compiled.shared, "shared memory"), (compiled.alu, "integer ops"))
             if module is not None]
    if built:  # (the hot paths of each, in C)
        out.append(("emulator: compiled", "in C: " + ", ".join(built)))
    else:
        # (no C compiler at install, or BANKEXPLORER_NO_COMPILED is set: docs/install.md)
        out.append(("emulator: numpy only", "the same results, slower (docs/install.md)"))
    return out


def text() -> str:
    """:func:`components` as plain text: the version, then a line a part, what it is for aligned."""
    (first, _), *parts = components()
    wide = max(len(n) for n, _w in parts)
    return "\n".join([first] + [f"  {n:<{wide}}  {w}" for n, w in parts])
