// block: 32
// input: x = normal_4096.npy
// input: idx = idx_1024.npy
// CAS loops by one warp whose lanes collide on 16 shared bins chosen by the data: a float max
// (atomicCAS on the int bits, retried while larger) and a 64-bit min of (key, index) by
// atomicCAS on unsigned long long; the final values do not depend on the order
__device__ void cas_max_float(float *a, float v) {
    int *ai = reinterpret_cast<int *>(a);
    int old = *ai;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(v));
        if (old == assumed) break;
    }
}
__device__ void cas_min_u64(unsigned long long *a, unsigned long long v) {
    unsigned long long old = *a;
    while (v < old) {
        unsigned long long assumed = old;
        old = atomicCAS(a, assumed, v);
        if (old == assumed) break;
    }
}
__global__ void cas_loops_one_warp(const float *x, const int *idx, float *mx, unsigned long long *mn) {
    __shared__ float fm[16];
    __shared__ unsigned long long um[16];
    int t = threadIdx.x;
    if (t < 16) { fm[t] = -1e30f; um[t] = ~0ull; }
    __syncwarp();
    for (int i = t; i < 256; i += 32) {
        int b = idx[i] & 15;
        cas_max_float(&fm[b], x[i]);
        cas_min_u64(&um[b], (unsigned long long)(idx[i] >> 4) << 32 | (unsigned)i);
    }
    __syncwarp();
    if (t < 16) { mx[t] = fm[t]; mn[t] = um[t]; }
}
