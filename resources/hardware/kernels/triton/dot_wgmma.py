import triton
import triton.language as tl


@triton.jit
def dot_wgmma(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # a warpgroup's product (M = 64, four warps): wgmma (HGMMA) reads both operands from shared
    # memory through matrix descriptors, in a swizzled layout chosen from K's width
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(A + m[:, None] * K + k[None, :])
    b = tl.load(B + k[:, None] * N + n[None, :])
    c = tl.dot(a, b)
    tl.store(C + m[:, None] * N + n[None, :], c)
