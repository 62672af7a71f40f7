import triton
import triton.language as tl


@triton.jit
def permute(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)
    b = tl.arange(0, B)
    c = tl.arange(0, C)
    x = tl.load(X + (a[:, None, None] * B + b[None, :, None]) * C + c[None, None, :])
    y = tl.permute(x, (2, 1, 0))  # C x B x A
    tl.store(Y + (c[:, None, None] * B + b[None, :, None]) * A + a[None, None, :], y)
