"""The CUDA C++ source front end: compile a text with NVRTC and make its :class:`Kernel`.

The one place the source is read for what a launch needs: which kernel (:func:`kernel_names`, the
``__global__`` functions in the order the text defines them), its parameters' names and C types
(:func:`~bankexplorer.sass.launch.kernel_params`, matched to the cubin's offsets and sizes), and
the launch settings the text states (:func:`~bankexplorer.sass.launch.text_settings`: a
``// block:`` comment, a ``<<<...>>>`` launch, ``__launch_bounds__``).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import replace

from ..compiler import nvrtc
from ..compiler.kernel import CUTLASS_COMPILE_SECONDS, Build, disassemble_text, includes_cutlass
from ..sass.cubin import read as read_image
from ..sass.decode import entry_names
from ..sass.kernel import Kernel, KernelParam, LaunchDefaults, Setting
from ..sass.launch import LaunchConfig, LaunchError, demangle_name, has_extern_shared, kernel_params, text_settings
from ..sass.run import MAX_SECONDS, MAX_WARP_INSTRUCTIONS, CompileFailed, Control, KernelRun, execute

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
#: words followed by "(" between ``__global__`` and the kernel's name
_ATTRIBUTES = ("__launch_bounds__", "__cluster_dims__", "__maxnreg__", "__attribute__", "__align__", "alignas",
               "__declspec")
_LOC = re.compile(r'"([^"]*)", line \d+')


def kernel_names(text: str) -> list[str]:
    """The ``__global__`` functions of a text, in the order it defines them (comments skipped): after
    each ``__global__``, the first name followed by ``(`` that is not an attribute
    (``__launch_bounds__(256)``, ``__cluster_dims__(2)``); the one reader of kernel names."""
    clean = _COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out = []
    for m in re.finditer(r"\b__global__\b", clean):
        for f in re.finditer(r"([A-Za-z_]\w*)\s*\(", clean[m.end():m.end() + 2000]):
            if f.group(1) not in _ATTRIBUTES:
                out.append(f.group(1))
                break
    return out


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

    b = build or compile_text(text, arch, dict(defines or {}), path, include_dirs, optimize=optimize)
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


def compile_text(text: str, arch: str = nvrtc.DEFAULT_ARCH, defines: dict[str, int | float] | None = None,
          path: str | None = None, include_dirs: list[str] | None = None, disassemble: bool = True,
          optimize: bool = True) -> Build:
    """Compile ``text``: the one way user text reaches NVRTC (the emulator, both builds, comes here).
    Its includes are checked against the include rules first (:func:`..cudaimport.device_source.for_compiler`,
    an ``IncludeError`` when one is refused), host functions are blanked with every line and column
    kept, the half and bfloat16 headers are added, and NVRTC gets the user's headers in memory and no
    folder but the bundled CUDA (and CUTLASS) headers. ``-D`` values that name a kernel or template
    parameter are launch values, not macros. ``optimize=False`` builds the unoptimised device-debug
    code (NVRTC ``-G``): every access the source writes stays its own instruction, on its own line
    ("as written"), and calls to header functions such as ``atomicAdd`` stay calls."""
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
    cutlass = includes_cutlass(text)
    if cutlass:  # CUTLASS's headers declare helpers without __device__ (NVRTC takes them for host code)
        opts += ("-default-device",)
    instantiate, _missing = template_kernels(text, {k: v for k, v in defines.items() if isinstance(v, int)})
    out = nvrtc.compile_cuda(code, arch, name=name, options=opts, instantiate=tuple(instantiate), headers=headers,
                             debug=not optimize, seconds=CUTLASS_COMPILE_SECONDS if cutlass else None)
    if not out.ok:
        return Build(False, out.log, name=name, optimized=optimize)
    return Build(True, out.log, out.cubin, disassemble_text(out.cubin) if disassemble else "", name, optimize)


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


def emulate(text: str, cfg: LaunchConfig, arch: str = "sm_90", path: str | None = None,
            defines: dict[str, int | float] | None = None, include_dirs: list[str] | None = None,
            kernel: str | None = None, budget: int = MAX_WARP_INSTRUCTIONS, build=None,
            timings: dict[str, float] | None = None, optimize: bool = True,
            control: Control | None = None, seconds: float | None = MAX_SECONDS,
            schedule: str | None = None) -> KernelRun:
    """Compile CUDA source ``text``, run one block of ``kernel`` (the first one when None) and
    count: the CUDA source front end (:func:`from_source`) then
    :func:`bankexplorer.sass.run.execute`. ``timings``, when given, receives the seconds of each stage; ``control``
    lets another thread stop the run and follow it. ``budget`` and ``seconds`` bound the execution
    (warp instructions, seconds; None: no time limit). ``optimize=False``: the source as written,
    from the unoptimised build (-G): one instruction per source access, each costed as the
    shared-memory instruction it stands for. ``schedule``: the scheduling policies by name
    (:data:`bankexplorer.sass.policy.SCHEDULES`; default the measured ``"h100"``)."""
    t0 = time.perf_counter()
    k = from_source(text, arch, {**(defines or {}), **cfg.scalars}, path, include_dirs, kernel, optimize, build)
    t1 = time.perf_counter()
    run = execute(k, launch_values(k, cfg), budget, control, timings, seconds, schedule)
    if timings is not None:
        timings["prepare"] = t1 - t0
    run.seconds = time.perf_counter() - t0
    return run
