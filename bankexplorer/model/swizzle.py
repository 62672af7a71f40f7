"""CuTe's ``Swizzle<B, M, S>``, with CuTe's meaning so that a CuTe user recognises it.

``Swizzle<B,M,S>`` takes the B bits starting at bit ``M + max(0, S)`` of an offset and XORs
them into the B bits starting at ``M + max(0, -S)``. With S > 0 (the usual case) higher bits
(the row) scramble lower bits (the column chunk): ``Swizzle<3,4,3>`` on byte offsets XORs bits
7-9 into bits 4-6, i.e. the 16-byte chunk within a 128-byte row by the row index.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Swizzle:
    """CuTe's ``Swizzle<B, M, S>``: the ``B`` bits at bit ``M + S`` of an offset XORed into its
    ``B`` bits at bit ``M``."""

    B: int
    M: int
    S: int

    @property
    def yyy_mask(self) -> int:
        """The source bits (CuTe's name)."""
        return ((1 << self.B) - 1) << (self.M + max(0, self.S))

    @property
    def zzz_mask(self) -> int:
        """The destination bits."""
        return ((1 << self.B) - 1) << (self.M + max(0, -self.S))

    def __call__(self, offset):
        off = np.asarray(offset, dtype=np.int64)
        if self.S >= 0:
            return off ^ ((off & self.yyy_mask) >> self.S)
        return off ^ ((off & self.yyy_mask) << (-self.S))

    def __str__(self) -> str:
        return f"Sw<{self.B},{self.M},{self.S}>"
