"""``nvcuda::wmma`` fragments loaded from and stored to shared memory, as nvcc emits them for sm_80+.

Measured (``resources/hardware/kernels/extra5/wmma_padded_ld``): a ``matrix_a``/``matrix_b``
fragment of 16-bit elements (``half``, ``__nv_bfloat16``) of an m16n16k16 product is one
``ldmatrix.x4`` (``LDSM.16.M88.4``; ``.trans`` when the fragment's layout is the other one of the
rows in memory): lane ``l`` gives the address of memory row ``l % 16``, column ``8 * (l / 16)``. A
``float`` accumulator stored with ``mem_row_major`` is four 8-byte stores (``STS.64``), lane ``l``
writing elements ``(l / 4 + 8a, 2 * (l % 4) + 8b)`` for ``(a, b)`` = (0,0), (1,0), (0,1), (1,1);
loaded back, four 8-byte loads. Other shapes and element types are reported, not guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from .values import DATA, Int, Ptr, Ref, Value
from .walk_state import Unsupported

_SIXTEEN_BIT = {"half", "__half", "__nv_bfloat16", "nv_bfloat16", "bf16"}
_FRAGMENT = re.compile(r"fragment\s*<\s*(?:\w+::)*(matrix_a|matrix_b|accumulator)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)"
                       r"\s*,\s*(?:\w+::)*([\w ]+?)\s*(?:,\s*(?:\w+::)*(row_major|col_major)\s*)?>")


@dataclass(frozen=True)
class Fragment:
    use: str  # matrix_a, matrix_b, accumulator
    shape: tuple[int, int, int]
    element: str
    layout: str | None  # row_major / col_major (None for an accumulator)


def fragment_type(type_text: str) -> Fragment | None:
    """``wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>`` -> Fragment."""
    m = _FRAGMENT.search(type_text)
    if not m:
        return None
    return Fragment(m.group(1), (int(m.group(2)), int(m.group(3)), int(m.group(4))), m.group(5).strip(), m.group(6))


class WmmaWalk:
    """Mixed into the expression walk: ``load_matrix_sync`` / ``store_matrix_sync`` calls."""

    def wmma_call(self, name: str, node: ts.Node, args: list[ts.Node]) -> Value:
        store = name == "store_matrix_sync"
        if len(args) < 3:
            return DATA
        frag_node, ptr_node = (args[1], args[0]) if store else (args[0], args[1])
        frag = self.fragments.get(self.text(frag_node)) if frag_node.type == "identifier" else None
        ptr = self.decay(self.ev(ptr_node))
        if not isinstance(ptr, Ptr):
            self.rv(args[2])
            return DATA  # global memory: not this tool's business
        try:
            ld = self.const_int(self.rv(args[2]), args[2], "the leading dimension")
        except Unsupported:
            self.report(args[2], f"{name}(): the leading dimension has no value here: not imported")
            return DATA
        layout = self.text(args[3]).split("::")[-1] if len(args) > 3 else None
        rank = self._thread_rank()
        lane = self.binop("%", rank, Int.of(32))
        if frag is None:
            self.report(frag_node, f"{name}(): the fragment's declaration was not found: not imported")
            return DATA
        if frag.shape != (16, 16, 16):
            self.report(node, f"{name}() of a {frag.shape[0]}x{frag.shape[1]}x{frag.shape[2]} fragment is not "
                              f"modelled (m16n16k16 is): not imported")
            return DATA
        if frag.use in ("matrix_a", "matrix_b") and not store:
            if frag.element not in _SIXTEEN_BIT:
                self.report(node, f"load_matrix_sync() of a {frag.element} {frag.use} fragment is not modelled "
                                  f"(16-bit elements are): not imported")
                return DATA
            row = self.binop("%", lane, Int.of(16))
            col = self.mul(self.binop("/", lane, Int.of(16)), 8)
            at = self._ptr_add(ptr, self.add(self.mul(row, ld), col))
            trans = (frag.use == "matrix_b") == (frag.layout == "row_major")
            self.emit("ldmatrix", Ref(at), node, matrices=4, trans=trans)
            return DATA
        if frag.use == "accumulator":
            if frag.element != "float" or layout not in ("mem_row_major", None):
                self.report(node, f"{name}() of a {frag.element} accumulator"
                                  f"{' with ' + layout if layout else ''} is not modelled (float, mem_row_major "
                                  f"is): not imported")
                return DATA
            r0 = self.binop("/", lane, Int.of(4))
            c0 = self.mul(self.binop("%", lane, Int.of(4)), 2)
            for a, b in ((0, 0), (1, 0), (0, 1), (1, 1)):
                off = self.add(self.mul(self.add(r0, Int.of(8 * a)), ld), self.add(c0, Int.of(8 * b)))
                self.emit("store" if store else "load", Ref(self._ptr_add(ptr, off)), node, width_override=8)
            return DATA
        self.report(node, f"{name}() of a {frag.use} fragment is not modelled: not imported")
        return DATA
