"""The kernel object: one compiled kernel as the emulator executes it, whatever it was made from.

Front ends make a :class:`Kernel` and the emulator, the command line, the Python API and the window
consume it: CUDA C++ source compiled by NVRTC (:mod:`bankexplorer.kernels.cuda_source`), a binary
a user built (:mod:`bankexplorer.kernels.binary`: a ``.cubin``, a fatbin, an executable or a shared
library), and Triton. A kernel holds the sm_90 ELF (``cubin``) and its disassembly (``sass``), the
entry symbol and its names, the parameters as the cubin lays them out (with the name and C type
where the front end knows them), the launch defaults the front end found (block, dynamic shared
memory, cluster shape, each with where it came from) and the source files the line table points
to. :func:`bankexplorer.sass.run.execute` runs one block of it.

Parameters are matched to launch values (:class:`~.launch.LaunchConfig`'s ``arrays`` and
``scalars``) by name where the kernel has one, and always by position (``"0"``, ``"1"``, ...),
so a binary without names is launched as ``--arg 0=A.npy -D 2=64``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from .cubin import KernelImage, read as read_image

_FLOAT_WORDS = ("float", "double", "half", "bfloat", "__nv_fp8")


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter: where the driver puts it (``offset`` bytes into the parameter area,
    ``size`` bytes) and what it is. ``name`` is None where nothing names it (a binary's
    ``extern "C"`` kernel); ``type`` is the C type where known (from the source, or from the
    mangled symbol of a binary), else ``""``. ``pointer``: gets a buffer at launch."""

    ordinal: int
    offset: int
    size: int
    pointer: bool
    name: str | None = None
    type: str = ""

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys a launch value is looked up by: the name (when known), then the position."""
        return ((self.name,) if self.name else ()) + (str(self.ordinal),)

    @property
    def label(self) -> str:
        """How messages name it: ``a`` or ``parameter 0``."""
        return self.name or f"parameter {self.ordinal}"

    @property
    def floating(self) -> bool:
        return any(w in self.type for w in _FLOAT_WORDS)


@dataclass(frozen=True)
class Setting:
    """A launch default and where the front end found it (``"comment at line 3"``, ``"given"``)."""

    value: object
    origin: str


@dataclass(frozen=True)
class LaunchDefaults:
    """What the kernel itself says about its launch (None: it says nothing). ``block`` from a
    ``// block:`` comment, a ``<<<...>>>`` launch, ``__launch_bounds__`` or the cubin's required
    block size; ``extern_bytes`` the dynamic shared memory; ``cluster`` the ``__cluster_dims__``."""

    block: Setting | None = None
    extern_bytes: Setting | None = None
    cluster: tuple[int, int, int] | None = None


@dataclass
class Kernel:
    """One compiled kernel, ready to execute (see the module's docstring)."""

    cubin: bytes  # the sm_90 (or ``arch``) ELF the kernel is in
    sass: str  # ``nvdisasm -gi`` of that ELF: the code with each instruction's source line
    symbol: str  # the entry symbol (mangled, as the ELF names it)
    name: str  # the kernel's own name (``gemm`` of ``_Z4gemmPfS_``)
    params: tuple[KernelParam, ...]
    signature: str = ""  # the demangled symbol (``void gemm<128>(float*, float const*)``); "" unknown
    arch: str = "sm_90"
    optimized: bool = True  # False: the device-debug build (-G), executed "as written"
    line_file: str | None = None  # the file name the line table gives the kernel's own lines
    sources: tuple[str, ...] = ()  # every file the line table points to, the kernel's own first
    launch: LaunchDefaults = field(default_factory=LaunchDefaults)
    #: whether the kernel declares ``extern __shared__`` memory (None: cannot tell, as for a binary
    #: without its PTX; the launch's dynamic size is then given to it)
    dynamic_shared: bool | None = None
    origin: str = "CUDA source"  # what the front end read: "CUDA source", "cubin", "fatbin", ...
    source_text: str | None = None  # the CUDA source the kernel was compiled from, when at hand
    path: str | None = None  # the file the front end read

    @cached_property
    def image(self) -> KernelImage:
        """What the driver reads from the ELF for this kernel (parameter area, shared and local
        memory sizes, constant banks, the PTX ptxas kept)."""
        return read_image(self.cubin, self.symbol)

    def param(self, key: str) -> KernelParam | None:
        """The parameter a launch value names (by name or by position)."""
        return next((p for p in self.params if key in p.keys), None)

    def describe(self) -> str:
        """One line for a report: ``gemm(float* a, int n)`` (``<8 bytes>`` for a parameter
        nothing describes)."""
        ps = ", ".join(" ".join(x for x in (p.type, p.name) if x) or f"<{p.size} bytes>" for p in self.params)
        return f"{self.name}({ps})"


def params_of_signature(signature: str, sizes: list[tuple[int, int]]) -> tuple[KernelParam, ...]:
    """Parameters from a demangled signature's parameter list (``k(float*, int)``) and the cubin's
    (offset, size) per parameter; without a usable signature (an ``extern "C"`` kernel), an
    8-byte parameter is taken for a pointer and the rest for integers (``-D N=VALUE`` gives a
    pointer-sized parameter a scalar value instead)."""
    types = signature_types(signature)
    if types is not None and len(types) != len(sizes):
        types = None
    out = []
    for k, (off, size) in enumerate(sizes):
        t = types[k] if types is not None else ""
        ptr = _is_pointer(t) if t else size == 8
        out.append(KernelParam(k, off, size, ptr, None, t))
    return tuple(out)


def signature_types(signature: str) -> list[str] | None:
    """The parameter types of a demangled function signature (``void k<4>(float*, int)`` ->
    ``["float*", "int"]``); None when it has no parameter list."""
    s = signature.strip()
    if not s.endswith(")"):
        return None
    depth, i = 0, len(s) - 1
    while i >= 0:
        depth += {")": 1, "(": -1}.get(s[i], 0)
        if depth == 0:
            break
        i -= 1
    if i < 0:
        return None
    inner = s[i + 1:-1].strip()
    if inner in ("", "void"):
        return []
    from .decode import split_top

    return split_top(inner, "<([", ">)]")


def _is_pointer(ctype: str) -> bool:
    """A pointer (or a reference, which is passed as one); a ``*`` inside template arguments
    (``Tensor<float*>``, passed by value) does not make one."""
    t = re.sub(r"\b(const|volatile|__restrict__|__restrict)\b", "", ctype).strip()
    return t.endswith(("*", "&"))
