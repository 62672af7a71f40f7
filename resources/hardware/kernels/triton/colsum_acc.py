import triton
import triton.language as tl


@triton.jit
def colsum_acc(X, Y, M, N: tl.constexpr, R: tl.constexpr):
    # colsum.py without its 16-way conflict: each thread adds R rows at a time into registers (a
    # loop over the matrix), so the warps exchange one R x N block of partial sums, not BLOCK_M x N
    cols = tl.arange(0, N)
    rows = tl.arange(0, R)
    acc = tl.zeros((R, N), dtype=tl.float32)
    for r0 in range(0, M, R):
        acc += tl.load(X + (r0 + rows)[:, None] * N + cols[None, :], mask=(r0 + rows)[:, None] < M, other=0.0)
    tl.store(Y + cols, tl.sum(acc, axis=0))
