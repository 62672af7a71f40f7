"""A layout what-if written back into the kernel: the padding a user gave an imported array, as
the array's declaration in the CUDA source, so the kernel can be compiled and executed again
("re-run as compiled").

Only padding can be written this way: it is the declaration's last dimension
(``__shared__ float tile[32][32]`` with one element of padding is ``tile[32][32 + 1]``). A
swizzle, a new element type, other dimensions or another base address are how the kernel indexes
its memory, not how it declares it, so they are refused with the reason, as is an array whose
declaration is not a plain ``__shared__`` array of the source (an ``extern`` array, a library's
``TempStorage``, a name declared twice).

Nothing in the text is run: declarations are found with a regular expression on the text with its
comments blanked, and their dimensions worked out with the launch module's whitelist arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..model.layout import SharedArray
from .launch import _value, constants


class WhatIfError(ValueError):
    """The what-if cannot be written into the source (the message says why)."""


@dataclass(frozen=True)
class Rewrite:
    """One declaration changed: ``before`` and ``after`` as written, on ``line`` (1-based)."""

    name: str
    line: int
    before: str
    after: str
    padding: int

    def __str__(self) -> str:
        return f"line {self.line}: {self.before} -> {self.after}"


# __shared__ [__align__(N)] [const|volatile]* TYPE [__align__(N)] NAME [dims]...
_DECL = re.compile(
    r"(?P<extern>\bextern\s+)?__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s+)?(?:(?:const|volatile)\s+)*"
    r"(?P<type>[A-Za-z_][\w:]*(?:\s*<[^;{}()]*?>)?(?:\s+[A-Za-z_][\w:]*)?)\s+"
    r"(?:__align__\s*\(\s*\d+\s*\)\s+)?(?P<name>[A-Za-z_]\w*)\s*(?P<dims>(?:\[[^\]\[]*\]\s*)*)")


def _blank_comments(text: str) -> str:
    """The text with comments and string literals replaced by spaces (newlines kept): positions
    in it are positions in the text."""
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    return re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", blank, text, flags=re.S)


def _declarations(text: str, name: str) -> list[re.Match]:
    return [m for m in _DECL.finditer(_blank_comments(text)) if m.group("name") == name]


def padding_changes(compiled: Sequence[SharedArray], arrays: Sequence[SharedArray]) -> dict[str, int]:
    """name -> the padding to write, for every array laid out otherwise than it was compiled;
    :class:`WhatIfError` when a change is not a padding (or an array is new or gone)."""
    was = {a.name: a for a in compiled}
    out: dict[str, int] = {}
    for a in arrays:
        c = was.get(a.name)
        if c is None:
            raise WhatIfError(f"{a.name} is not an array of the compiled kernel: only the kernel's own arrays can be "
                              f"re-run")
        if a == c:
            continue
        what = [w for w, x, y in (("element type", a.dtype, c.dtype), ("dimensions", a.dims, c.dims),
                                  ("base address", a.base, c.base), ("layout", a.transform, c.transform)) if x != y]
        if what:
            raise WhatIfError(
                f"{a.name}: its {' and '.join(what)} changed, not only its padding: only a padding can be written "
                f"into the declaration and compiled again (a swizzle or another layout is how the kernel indexes "
                f"the array; write it in the source)")
        if c.padding:
            raise WhatIfError(f"{a.name} was compiled with a padding of {c.padding}: cannot write another one")
        out[a.name] = a.padding
    return out


def rewrite_padding(text: str, padding: dict[str, int], compiled: Sequence[SharedArray] = ()) -> tuple[str, list[Rewrite]]:
    """The text with each named array's last dimension ``D`` declared as ``D + padding``
    (``compiled``, when given, checks that the declaration is the array the window shows)."""
    shown = {a.name: a for a in compiled}
    names = constants(text)
    edits: list[tuple[int, int, str, Rewrite]] = []
    for name, pad in sorted(padding.items()):
        if pad == 0:
            continue
        if pad < 0:
            raise WhatIfError(f"{name}: a padding of {pad} elements cannot be declared")
        found = _declarations(text, name)
        if not found:
            raise WhatIfError(f"cannot find the declaration of {name} in the source (a __shared__ array written "
                              f"there: one inside a library type, such as CUB's TempStorage, cannot be padded)")
        if len(found) > 1:
            lines = ", ".join(str(text.count("\n", 0, m.start()) + 1) for m in found)
            raise WhatIfError(f"{name} is declared {len(found)} times (lines {lines}): cannot tell which to pad")
        m = found[0]
        line = text.count("\n", 0, m.start()) + 1
        if m.group("extern"):
            raise WhatIfError(f"line {line}: {name} is an extern __shared__ array: its rows are the kernel's "
                              f"indexing, there is no declared row to pad")
        dims = list(re.finditer(r"\[([^\]\[]*)\]", m.group("dims")))
        if not dims:
            raise WhatIfError(f"line {line}: {name} is not declared as an array ({text[m.start():m.end()].strip()})")
        if name in shown:
            vals = [_value(d.group(1), names) for d in dims]
            a = shown[name]
            if None in vals or tuple(vals) != tuple(a.dims):
                decl = "".join(f"[{d.group(1).strip()}]" for d in dims)
                raise WhatIfError(f"line {line}: {name}{decl} is not the {'x'.join(map(str, a.dims))} array the window "
                                  f"shows, so its padding cannot be written in its declaration")
        last = dims[-1]
        inner = last.group(1).strip()
        if not inner:
            raise WhatIfError(f"line {line}: {name} has an unsized last dimension")
        # "D + pad" reads as (D) + pad when D has no operator that binds more loosely than +
        plain = re.fullmatch(r"[\w\s+\-*/%().]*", inner) is not None
        new_inner = f"{inner} + {pad}" if plain else f"({inner}) + {pad}"
        start = m.start("dims") + last.start(1)
        end = m.start("dims") + last.end(1)
        decl_before = text[m.start():m.end()].strip()
        decl_after = (text[m.start():start] + new_inner + text[end:m.end()]).strip()
        edits.append((start, end, new_inner, Rewrite(name, line, decl_before, decl_after, pad)))
    out = text
    for start, end, new, _r in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    return out, [e[3] for e in sorted(edits)]


def rerun_source(text: str, compiled: Sequence[SharedArray], arrays: Sequence[SharedArray]) -> tuple[str, list[Rewrite]]:
    """The kernel's text with the what-if of ``arrays`` (against the ``compiled`` ones) written into
    its declarations; :class:`WhatIfError` when it is not a padding or cannot be written."""
    return rewrite_padding(text, padding_changes(compiled, arrays), compiled)
