// block: 128
// attention-style row softmax of a 16x64 half score tile: 8 threads per row, max with __hmax, sum in float
__global__ void attn_softmax(const __half *scores, __half *out) {
    __shared__ __half S[16][64];
    __shared__ __half rowmax[16];
    __shared__ float rowsum[16];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 64; i += 128) S[i / 64][i % 64] = scores[i];
    __syncthreads();
    int r = t / 8, part = t % 8;
    __half m = __float2half(-65504.f);
    for (int c = part; c < 64; c += 8) m = __hmax(m, S[r][c]);
    for (int o = 4; o > 0; o >>= 1) m = __hmax(m, __shfl_xor_sync(0xffffffff, m, o));
    if (part == 0) rowmax[r] = m;
    __syncthreads();
    float s = 0.f;
    for (int c = part; c < 64; c += 8) {
        __half e = hexp(__hsub(S[r][c], rowmax[r]));
        S[r][c] = e;
        s += __half2float(e);
    }
    for (int o = 4; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (part == 0) rowsum[r] = s;
    __syncthreads();
    for (int i = t; i < 16 * 64; i += 128)
        out[i] = __float2half(__half2float(S[i / 64][i % 64]) / rowsum[i / 64]);
}
