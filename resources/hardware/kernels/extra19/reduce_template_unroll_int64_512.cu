// block: 512
// input: in = keys_1024.npy
// Harris's reduction #6 as a device template over the block size (the kernel calls it with 512):
// two loads a thread, a shared long long tree unrolled by `if (BS >= N)`, the last warp by a
// volatile tail; plus a max reduction of the same data through the same template
template <unsigned BS, bool MAX>
__device__ __forceinline__ void warp_tail(volatile long long *s, unsigned t) {
#define STEP(o) if (BS >= 2 * o) { long long a = s[t], b = s[t + o]; s[t] = MAX ? (a > b ? a : b) : a + b; }
    STEP(32) STEP(16) STEP(8) STEP(4) STEP(2) STEP(1)
#undef STEP
}
template <unsigned BS, bool MAX>
__device__ long long block_reduce(long long *s, long long v) {
    unsigned t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    if (BS >= 512) { if (t < 256) s[t] = MAX ? max(s[t], s[t + 256]) : s[t] + s[t + 256]; __syncthreads(); }
    if (BS >= 256) { if (t < 128) s[t] = MAX ? max(s[t], s[t + 128]) : s[t] + s[t + 128]; __syncthreads(); }
    if (BS >= 128) { if (t < 64) s[t] = MAX ? max(s[t], s[t + 64]) : s[t] + s[t + 64]; __syncthreads(); }
    if (t < 32) warp_tail<BS, MAX>(s, t);
    __syncthreads();
    long long r = s[0];
    __syncthreads();
    return r;
}
__global__ void reduce_template_i64(const int *in, long long *out) {
    __shared__ long long s[512];
    unsigned t = threadIdx.x;
    long long v = (long long)in[t] * 3 + (long long)in[t + 512];
    long long sum = block_reduce<512, false>(s, v);
    long long mx = block_reduce<512, true>(s, (long long)in[t] * in[t + 512]);
    if (t == 0) { out[0] = sum; out[1] = mx; }
    out[2 + t] = v;
}
