# The held-out wgmma family (scripts/make_wgmma_family.py draws its cases): products whose operands
# Triton lays out in shared memory either K-major or M/N-major, and kernels whose counts were not
# measured before (HGMMA with A in registers, tl.sort, tl.gather, an attention forward)
import triton
import triton.language as tl


@triton.jit
def dot_layout(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, A_MMAJOR: tl.constexpr,
               B_KMAJOR: tl.constexpr, BF16: tl.constexpr):
    # A is stored M x K (K-major) or K x M (M-major), B K x N (N-major) or N x K (K-major); with BF16
    # the arrays hold bfloat16's bits as uint16 (numpy has no bfloat16)
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    if A_MMAJOR:
        a = tl.trans(tl.load(A + k[:, None] * M + m[None, :]))
    else:
        a = tl.load(A + m[:, None] * K + k[None, :])
    if B_KMAJOR:
        b = tl.trans(tl.load(B + n[:, None] * K + k[None, :]))
    else:
        b = tl.load(B + k[:, None] * N + n[None, :])
    if BF16:
        a = a.to(tl.bfloat16, bitcast=True)
        b = b.to(tl.bfloat16, bitcast=True)
    tl.store(C + m[:, None] * N + n[None, :], tl.dot(a, b))


@triton.jit
def dot_rega(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # A computed in registers first (as an attention's P): HGMMA reads A from registers, B from shared
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(A + m[:, None] * K + k[None, :]).to(tl.float32)
    p = tl.exp(x - tl.max(x, 1)[:, None])
    b = tl.load(B + k[:, None] * N + n[None, :])
    tl.store(C + m[:, None] * N + n[None, :], tl.dot(p.to(tl.float16), b))


@triton.jit
def sort_k(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.sort(x))


@triton.jit
def gather2d(X, I, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(X + r[:, None] * N + c[None, :])
    i = tl.load(I + r[:, None] * N + c[None, :])
    tl.store(Y + r[:, None] * N + c[None, :], tl.gather(x, i, 1))


@triton.jit
def attn_fwd(Q, K, V, O, L: tl.constexpr, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.arange(0, BM)
    d = tl.arange(0, D)
    q = tl.load(Q + m[:, None] * D + d[None, :])
    mi = tl.full((BM,), -float("inf"), tl.float32)
    li = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for s in range(0, L, BN):
        n = s + tl.arange(0, BN)
        k = tl.load(K + n[:, None] * D + d[None, :])
        v = tl.load(V + n[:, None] * D + d[None, :])
        qk = tl.dot(q, tl.trans(k))
        mn = tl.maximum(mi, tl.max(qk, 1))
        p = tl.exp(qk - mn[:, None])
        alpha = tl.exp(mi - mn)
        li = li * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        mi = mn
    tl.store(O + m[:, None] * D + d[None, :], acc / li[:, None])
