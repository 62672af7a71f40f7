"""What an import is asked for: block, defines, includes, hardware.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.hardware import NVIDIA_SM70_SM90, Hardware
from ..sass.limits import parse_dims


#: The value an ``int`` parameter of the kernel takes when none is given (``-D n=VALUE``): what the
#: verification launcher (``scripts/verify_on_gpu.py --kernel``) and the measured kernels in
#: ``resources/hardware/kernels`` pass, so the import predicts the launch that was measured; the
#: import says so in a note at the parameter.
KERNEL_INT_PARAMETER = 64


@dataclass
class ImportOptions:
    block: tuple[int, int, int] | None = None  # None: from a launch in the text, else 32x1x1
    defines: dict[str, int] = field(default_factory=dict)  # like nvcc -D NAME=VALUE
    extern_bytes: int | None = None  # size of extern __shared__ arrays; None: from a launch, else 48 KiB
    name: str = "Imported CUDA"
    hardware: Hardware = NVIDIA_SM70_SM90
    include_dirs: list[str] = field(default_factory=list)  # for #include "x.h" (the file's folder is searched too)
    path: str | None = None  # the file the text came from, if any


def parse_block(text: str) -> tuple[int, int, int]:
    """``32,8`` / ``32x8x1`` / ``256`` -> (x, y, z) (:func:`bankexplorer.sass.limits.parse_dims`);
    ValueError with a message people can act on."""
    try:
        return parse_dims(text, "block")
    except ValueError as e:
        raise ValueError(f"block {text!r}: {e}") from None


