import triton
import triton.language as tl


@triton.jit
def layernorm(X, W, B, Y, N, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK_N)
    mask = c[None, :] < N
    x = tl.load(X + r[:, None] * N + c[None, :], mask=mask, other=0.0)
    mean = tl.sum(x, axis=1) / N
    d = tl.where(mask, x - mean[:, None], 0.0)
    var = tl.sum(d * d, axis=1) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + c, mask=c < N)
    b = tl.load(B + c, mask=c < N)
    tl.store(Y + r[:, None] * N + c[None, :], d * rstd[:, None] * w[None, :] + b[None, :], mask=mask)
