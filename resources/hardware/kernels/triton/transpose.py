import triton
import triton.language as tl


@triton.jit
def transpose(X, Y, M: tl.constexpr, N: tl.constexpr):
    # read rows (coalesced along N), write columns (coalesced along M): Triton converts the
    # register layout between the two through shared memory
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(X + r[:, None] * N + c[None, :])
    tl.store(Y + c[None, :] * M + r[:, None], x)
