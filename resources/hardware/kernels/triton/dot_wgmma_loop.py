import triton
import triton.language as tl


@triton.jit
def dot_wgmma_loop(A, B, C, K, M: tl.constexpr, N: tl.constexpr, BLOCK_K: tl.constexpr):
    # a K loop of warpgroup products: Triton pipelines the loads (num_stages) through shared memory
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + m[:, None] * K + (k0 + k)[None, :])
        b = tl.load(B + (k0 + k)[:, None] * N + n[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(C + m[:, None] * N + n[None, :], acc)
