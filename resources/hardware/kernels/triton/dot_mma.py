import triton
import triton.language as tl


@triton.jit
def dot_mma(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # a small fp16 product (M = 32 is below a warpgroup's 64 rows): mma.sync (HMMA) with its
    # operands read from shared memory by ldmatrix
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(A + m[:, None] * K + k[None, :])
    b = tl.load(B + k[:, None] * N + n[None, :])
    c = tl.dot(a, b)
    tl.store(C + m[:, None] * N + n[None, :], c)
