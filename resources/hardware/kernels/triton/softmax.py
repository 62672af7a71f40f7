import triton
import triton.language as tl


@triton.jit
def softmax(X, Y, stride, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = cols[None, :] < n_cols
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=-float("inf"))
    m = tl.max(x, axis=1)
    e = tl.exp(x - m[:, None])
    s = tl.sum(e, axis=1)
    tl.store(Y + rows[:, None] * stride + cols[None, :], e / s[:, None], mask=mask)
