"""The CUDA C++ source front end: compile a text with NVRTC and make its :class:`Kernel`.

The one place the source is read for what a launch needs: which kernel (:func:`kernel_names`, the
``__global__`` functions in the order the text defines them), its parameters' names and C types
(:func:`~bankexplorer.sass.launch.kernel_params`, matched to the cubin's offsets and sizes), and
the launch settings the text states (:func:`~bankexplorer.sass.launch.text_settings`: a
``// block:`` comment, a ``<<<...>>>`` launch, ``__launch_bounds__``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..sass.cubin import read as read_image
from ..sass.decode import entry_names
from ..sass.kernel import Kernel, KernelParam, LaunchDefaults, Setting
from ..sass.launch import LaunchConfig, LaunchError, demangle_name, has_extern_shared, kernel_params, text_settings

_GLOBAL = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+"
                     r"(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_LOC = re.compile(r'"([^"]*)", line \d+')


def kernel_names(text: str) -> list[str]:
    """The ``__global__`` functions of a text, in the order it defines them (comments skipped)."""
    return _GLOBAL.findall(_COMMENTS.sub(" ", text))


def line_files(sass: str) -> tuple[str, ...]:
    """The files an ``nvdisasm -gi`` text's line table points to, most used first."""
    counts: dict[str, int] = {}
    for f in _LOC.findall(sass):
        counts[f] = counts.get(f, 0) + 1
    return tuple(sorted(counts, key=lambda f: -counts[f]))


def pick_symbol(entries: list[str], wanted: str | None, order: list[str] = ()) -> str:
    """The entry ``wanted`` names (mangled or its demangled name); None: the first of ``order``
    (the source's order) that the code has, else the first entry."""
    if wanted is None:
        named = [e for n in order for e in entries if demangle_name(e) == n]
        return named[0] if named else entries[0]
    from .demangle import demangle

    named = [e for e in entries if wanted in (e, demangle_name(e), demangle(e))]
    if not named:
        raise LaunchError(f"no kernel named {wanted!r} (the code has {', '.join(map(demangle_name, entries))})")
    return named[0]


def from_source(text: str, arch: str = "sm_90", defines: dict[str, int | float] | None = None,
                path: str | None = None, include_dirs: list[str] | None = None, kernel: str | None = None,
                optimize: bool = True, build=None) -> Kernel:
    """Compile ``text`` (``build``: an already compiled :class:`~bankexplorer.compiler.kernel.Build`)
    and make the kernel object of ``kernel`` (the text's first kernel when None). ``defines``
    that name a kernel or template parameter are launch values, the rest macros."""
    from ..compiler.kernel import build as build_kernel
    from ..sass.run import CompileFailed

    b = build or build_kernel(text, arch, dict(defines or {}), path, include_dirs, optimize=optimize)
    optimize = getattr(b, "optimized", optimize)
    if not b.ok:
        raise CompileFailed(b.log)
    entries = entry_names(b.sass)
    if not entries:
        raise LaunchError("the compiled code has no kernel (a template kernel needs its parameters: -D NAME=VALUE)")
    symbol = pick_symbol(entries, kernel, kernel_names(text))
    name = demangle_name(symbol)
    decls = kernel_params(text, name)
    if decls is None:
        raise LaunchError(f"cannot find the parameters of kernel {name!r} in the source")
    image = read_image(b.cubin, symbol)
    if len(decls) != len(image.params):
        raise LaunchError(f"the kernel has {len(image.params)} parameters in the compiled code but "
                          f"{len(decls)} in the source")
    params = tuple(KernelParam(k, p.offset, p.size, d.pointer, d.name, d.type)
                   for k, (p, d) in enumerate(zip(image.params, decls)))
    settings = text_settings(text)
    launch = LaunchDefaults(Setting(*settings["block"]) if "block" in settings else None,
                            Setting(*settings["extern-size"]) if "extern-size" in settings else None)
    from .demangle import demangle

    k = Kernel(b.cubin, b.sass, symbol, name, params, demangle(symbol) or "", arch, optimize, b.name,
               line_files(b.sass), launch, has_extern_shared(image.ptx), "CUDA source", text, path)
    k.__dict__["image"] = image  # read once
    return k


def launch_values(kernel: Kernel, cfg: LaunchConfig) -> LaunchConfig:
    """``cfg`` without the values of template parameters (they chose the instantiation when the
    text was compiled; they are not launch values)."""
    extra = {k for k in cfg.scalars if kernel.param(k) is None}
    if not extra or kernel.source_text is None:
        return cfg
    from ..cudaimport.device_source import kernel_parameters

    if extra <= kernel_parameters(kernel.source_text):
        return replace(cfg, scalars={k: v for k, v in cfg.scalars.items() if k not in extra})
    return cfg
