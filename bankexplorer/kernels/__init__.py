"""Front ends: what makes a :class:`~bankexplorer.sass.kernel.Kernel` out of what a user has.

- :mod:`.cuda_source`: CUDA C++ source (CUB, CuTe and CUTLASS includes as users write them),
  compiled by NVRTC;
- :mod:`.binary`: a binary the user built: a ``.cubin``, a fatbin, an executable or a shared
  library (its sm_90 code, read without ``cuobjdump``: :mod:`.fatbin`, :mod:`.elf`).

:func:`load` picks the front end by the file's first bytes. Every front end's kernel runs through
:func:`bankexplorer.sass.run.execute`.
"""

from __future__ import annotations

from ..sass.kernel import Kernel, KernelParam, LaunchDefaults, Setting

__all__ = ["Kernel", "KernelParam", "LaunchDefaults", "Setting", "is_binary"]


def is_binary(data: bytes) -> bool:
    """A binary (an ELF file or a fatbin), not a text: by its first bytes."""
    from .fatbin import FATBIN_MAGIC

    return data[:4] == b"\x7fELF" or data[:4] == FATBIN_MAGIC
