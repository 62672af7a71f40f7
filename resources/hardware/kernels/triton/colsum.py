import triton
import triton.language as tl


@triton.jit
def colsum(X, Y, M, N: tl.constexpr, BLOCK_M: tl.constexpr):
    # the sum of each column of an M x N row-major matrix: every warp holds a slice of the rows,
    # and the warps' partial sums meet in shared memory
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask=rows[:, None] < M, other=0.0)
    tl.store(Y + cols, tl.sum(x, axis=0))
