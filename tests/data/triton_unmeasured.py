# A Triton kernel the GPU machine did not measure: tests/test_triton.py checks its result against numpy
# (tl.sort, a 2-D tl.gather and an attention forward were measured: resources/hardware/kernels/triton/heldout)
import triton
import triton.language as tl


@triton.jit
def gather_k(X, I, Y, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(X + r)
    i = tl.load(I + r)
    tl.store(Y + r, tl.gather(x, i, 0))
