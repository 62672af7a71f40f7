// block: 128
// input: in = ints_1024.npy
// warp shuffles with sub-warp widths on values staged in shared memory: __shfl_up_sync width 4
// (scan within quads), __shfl_down_sync width 8, __shfl_xor_sync width 16 (butterfly within half
// warps), __shfl_sync width 8 with a data-driven source lane (taken mod 8 within the segment),
// and a width-16 shuffle of a 64-bit value
__global__ void shfl_subwidth_4_8_16(const int *in, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        int v = s[i], q = v;
        for (int d = 1; d < 4; d <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, q, d, 4);
            if ((t & 3) >= d) q += u;
        }
        int dn = __shfl_down_sync(0xffffffffu, v, 3, 8);
        int x = v;
        for (int m = 8; m >= 1; m >>= 1) x = max(x, __shfl_xor_sync(0xffffffffu, x, m, 16));
        int g = __shfl_sync(0xffffffffu, v, s[(i + 7) & 1023], 8);
        long long w = ((long long)v << 32) | (unsigned)i;
        long long w2 = __shfl_xor_sync(0xffffffffu, w, 5, 16);
        out[i] = q; out[1024 + i] = dn; out[2048 + i] = x; out[3072 + i] = g;
        out[4096 + i] = (int)(w2 >> 32) - (int)w2;
    }
}
