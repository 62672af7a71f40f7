"""Turn a layout pasted from a library's printout into a :class:`Transform`.

Accepted, as the libraries print them:

* CuTe: ``(_8,_64):(_64,_1)``, ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``, ``smem_ptr[16b](...) o ...``;
* Triton TTGIR: ``#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>``,
  ``#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>``
  (the older ``#triton_gpu.shared<{..., hasLeadingOffset = ...}>`` too);
* TMA: ``CU_TENSOR_MAP_SWIZZLE_128B`` (or ``SWIZZLE_128B``, ``128B``; ``_NONE``).

Every failure is a :class:`LayoutParseError` naming the column and what was expected there.
"""

from __future__ import annotations

import re

from ..layout import Transform
from . import cute, tma, triton
from .cute import LayoutParseError

_CTA_KEYS = {"CTAsPerCGA", "CTASplitNum", "CTAOrder"}


def _attr_dict(text: str, start: int) -> dict[str, tuple[object, int]]:
    """Parse ``{key = value, ...}`` from ``text[start:]``; values are ints, bools or int lists.
    Returns key -> (value, column of the value)."""
    i = start
    n = len(text)

    def ws():
        nonlocal i
        while i < n and text[i].isspace():
            i += 1

    def fail(msg):
        raise LayoutParseError(msg, text, min(i, n))

    def found():
        return "the end of the text" if i >= n else repr(text[i])

    ws()
    if i >= n or text[i] != "{":
        fail(f"expected '{{' opening the attribute list, found {found()}")
    i += 1
    out: dict[str, tuple[object, int]] = {}
    while True:
        ws()
        if i < n and text[i] == "}":
            i += 1
            break
        m = re.compile(r"[A-Za-z_][A-Za-z_0-9]*").match(text, i)
        if not m:
            fail(f"expected a parameter name or '}}', found {found()}")
        key = m.group(0)
        i = m.end()
        ws()
        if i >= n or text[i] != "=":
            fail(f"expected '=' after {key}, found {found()}")
        i += 1
        ws()
        vpos = i
        if text.startswith("true", i) or text.startswith("false", i):
            val: object = text.startswith("true", i)
            i += 4 if val else 5
        elif i < n and text[i] == "[":
            i += 1
            items = []
            while True:
                ws()
                if i < n and text[i] == "]":
                    i += 1
                    break
                m = re.compile(r"-?\d+").match(text, i)
                if not m:
                    fail(f"expected an integer or ']' in {key}, found {found()}")
                items.append(int(m.group(0)))
                i = m.end()
                ws()
                if i < n and text[i] == ",":
                    i += 1
                elif not (i < n and text[i] == "]"):
                    fail(f"expected ',' or ']' in {key}, found {found()}")
            val = tuple(items)
        else:
            m = re.compile(r"-?\d+").match(text, i)
            if not m:
                fail(f"expected a value (integer, true/false or [list]) for {key}, found {found()}")
            val = int(m.group(0))
            i = m.end()
            ws()
            if text.startswith(":", i):  # MLIR type suffix, e.g. "8 : i32"
                m = re.compile(r":\s*[a-z]+\d*").match(text, i)
                i = m.end() if m else i
        if key in out:
            raise LayoutParseError(f"{key} is given twice", text, m.start() if m else vpos)
        out[key] = (val, vpos)
        ws()
        if i < n and text[i] == ",":
            i += 1
        elif not (i < n and text[i] == "}"):
            fail(f"expected ',' or '}}' after {key}, found {found()}")
    ws()
    if i < n and text[i] == ">":
        i += 1
    ws()
    if i < n:
        fail(f"expected the end of the encoding, found {found()}")
    return out


def _known(d: dict, allowed: set[str], text: str, name: str) -> None:
    for k, (v, pos) in d.items():
        if k in _CTA_KEYS:
            if k == "CTAsPerCGA" and any(x != 1 for x in v):
                raise LayoutParseError("layouts spread over several CTAs (CTAsPerCGA != 1) are not modelled: "
                                       "paste the layout of one CTA", text, pos)
            continue
        if k not in allowed:
            raise LayoutParseError(f"{name} has no parameter {k!r} (known: {', '.join(sorted(allowed))})", text,
                                   text.rfind(k, 0, pos))


def _triton(text: str, name: str, brace: int) -> Transform:
    d = _attr_dict(text, brace)
    get = lambda k, default=None: d[k][0] if k in d else default  # noqa: E731
    if name in ("swizzled_shared", "shared"):
        lead = get("hasLeadingOffset", False)
        _known(d, {"vec", "perPhase", "maxPhase", "order", "hasLeadingOffset"}, text, name)
        for k in ("vec", "perPhase", "maxPhase", "order"):
            if k not in d:
                raise LayoutParseError(f"{name} needs {k}", text, len(text) - 1)
        if lead:  # Triton before nvmma_shared: hasLeadingOffset = true was the MMAv3 layout
            width = {(4, 2): 32, (2, 4): 64, (1, 8): 128}.get((get("perPhase"), get("maxPhase")))
            if width is None:
                raise LayoutParseError("with hasLeadingOffset = true, (perPhase, maxPhase) must be (4,2), (2,4) or (1,8)",
                                       text, d["perPhase"][1])
            return triton.nvmma(width, transposed=tuple(get("order")) == (0, 1))
        return triton.swizzled(get("vec"), get("perPhase"), get("maxPhase"), get("order"))
    _known(d, {"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank"}, text, name)
    if get("fp4Padded", False):
        raise LayoutParseError("fp4Padded layouts are not modelled", text, d["fp4Padded"][1])
    if "swizzlingByteWidth" not in d:
        raise LayoutParseError("nvmma_shared needs swizzlingByteWidth", text, brace)
    w = get("swizzlingByteWidth")
    if w not in triton.NVMMA_WIDTHS:
        raise LayoutParseError(f"swizzlingByteWidth must be 0, 32, 64 or 128, got {w}", text, d["swizzlingByteWidth"][1])
    return triton.nvmma(w, bool(get("transposed", False)), get("elementBitWidth"))


_TRITON = re.compile(r"\s*#?(?:ttg|triton_gpu)?\.?(swizzled_shared|nvmma_shared|shared)\s*<")
_TMA = re.compile(r"\s*(?:CU_TENSOR_MAP_)?(?:SWIZZLE_)?(NONE|32B|64B|128B)\s*$", re.IGNORECASE)


def from_text(text: str) -> Transform:
    """The layout kind and parameters of a pasted library layout (see the module docstring)."""
    if not isinstance(text, str) or not text.strip():
        raise LayoutParseError("expected a CuTe layout, a Triton #ttg.*_shared encoding or a TMA swizzle mode", "", 0)
    m = _TRITON.match(text)
    if m:
        return _triton(text, m.group(1), m.end())
    if "_shared" in text or text.lstrip().startswith("#"):
        pos = text.find("#") if "#" in text else 0
        raise LayoutParseError("expected #ttg.swizzled_shared<{...}> or #ttg.nvmma_shared<{...}>", text, pos)
    m = _TMA.match(text)
    if m:
        mode = m.group(1).upper()
        return tma.make("none" if mode == "NONE" else mode)
    if "SWIZZLE" in text.upper():
        raise LayoutParseError("expected a TMA swizzle mode: CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B or _128B", text,
                               text.upper().find("SWIZZLE"))
    return cute.make(text)
