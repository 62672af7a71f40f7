// block: 512
// input: in = ints_1024.npy
// tree reductions of 1024 ints by 512 threads: two items a thread summed on load, a fully unrolled
// (#pragma unroll) shared tree from 256 down to 64, then the last warp by __shfl_down_sync; a
// max reduction with the same shape but #pragma unroll 1 and a __shfl_xor_sync butterfly
__global__ void reduce_shfl_tail(const int *in, int *out) {
    __shared__ int s[512];
    __shared__ int m[512];
    int t = threadIdx.x;
    int a = in[t], b = in[t + 512];
    s[t] = a + b;
    m[t] = a > b ? a : b;
    __syncthreads();
#pragma unroll
    for (int k = 256; k >= 64; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
#pragma unroll 1
    for (int k = 256; k >= 64; k >>= 1) {
        if (t < k) m[t] = max(m[t], m[t + k]);
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t] + s[t + 32];
        int w = max(m[t], m[t + 32]);
#pragma unroll
        for (int o = 16; o; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        for (int o = 1; o < 32; o <<= 1) w = max(w, __shfl_xor_sync(0xffffffffu, w, o));
        if (t == 0) out[0] = v;
        out[1 + t] = w;
    }
}
