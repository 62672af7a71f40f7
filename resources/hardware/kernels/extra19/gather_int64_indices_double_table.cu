// block: 128
// input: idx = idx64_pairs_2048.npy
// input: v = normal_4096.npy
// gathers through 64-bit indices (long long, from the data, with repeats) from a shared
// double[1024] table, a 64-bit scatter-add by index from one thread per warp-lane group (lane order,
// no atomics: each warp's lanes take turns), and a gather of float2 at idx / 2
__global__ void gather_i64_idx(const long long *idx, const float *v, double *out) {
    __shared__ double tab[1024];
    __shared__ float2 half_tab[512];
    __shared__ double acc[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) {
        tab[i] = (double)v[i] * 0.5;
        acc[i] = 0.0;
        if (i < 512) half_tab[i] = make_float2(v[1024 + 2 * i], v[1025 + 2 * i]);
    }
    __syncthreads();
    double s = 0.0;
    for (int i = t; i < 1024; i += 128) {
        long long k = idx[i];
        s += tab[k];
        float2 h = half_tab[k >> 1];
        s += (k & 1) ? h.y : h.x;
    }
    out[t] = s;
    // warp 0 only, lanes in turn: a deterministic read-modify-write at data indices
    if (t < 32) {
        for (int l = 0; l < 32; ++l) {
            if ((t & 31) == l)
                for (int i = l; i < 1024; i += 32) acc[idx[i]] += 1.0;
            __syncwarp();
        }
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 128) out[128 + i] = acc[i];
}
