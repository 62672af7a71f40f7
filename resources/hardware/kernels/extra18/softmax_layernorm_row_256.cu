// block: 256
// input: x = normal_4096.npy
// a softmax and a layernorm over rows of 1024 floats (4 rows, one after another): 4 values a
// thread, the max and the sums by __shfl_xor_sync within warps, then 8 warp partials through
// shared memory read back by warp 0 and broadcast; expf, rsqrtf
__global__ void softmax_layernorm_row(const float *x, float *y, float *z) {
    __shared__ float part[8];
    __shared__ float bcast[2];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int row = 0; row < 4; ++row) {
        const float *r = x + row * 1024;
        float v[4];
        float m = -1e30f;
        for (int i = 0; i < 4; ++i) { v[i] = r[t + 256 * i]; m = fmaxf(m, v[i]); }
        for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
        if (lane == 0) part[w] = m;
        __syncthreads();
        if (w == 0) {
            float q = lane < 8 ? part[lane] : -1e30f;
            for (int o = 4; o; o >>= 1) q = fmaxf(q, __shfl_xor_sync(0xffffffff, q, o));
            if (lane == 0) bcast[0] = q;
        }
        __syncthreads();
        m = bcast[0];
        float s = 0.f;
        for (int i = 0; i < 4; ++i) { v[i] = expf(v[i] - m); s += v[i]; }
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
        __syncthreads();
        if (lane == 0) part[w] = s;
        __syncthreads();
        if (t < 32) {
            float q = lane < 8 ? part[lane] : 0.f;
            for (int o = 4; o; o >>= 1) q += __shfl_xor_sync(0xffffffff, q, o);
            if (lane == 0) bcast[1] = q;
        }
        __syncthreads();
        float inv = 1.f / bcast[1];
        for (int i = 0; i < 4; ++i) y[row * 1024 + t + 256 * i] = v[i] * inv;
        // layernorm of the same row: mean and variance in two passes
        float a = 0.f;
        for (int i = 0; i < 4; ++i) { v[i] = r[t + 256 * i]; a += v[i]; }
        for (int o = 16; o; o >>= 1) a += __shfl_down_sync(0xffffffff, a, o);
        __syncthreads();
        if (lane == 0) part[w] = a;
        __syncthreads();
        float mean = 0.f;
        for (int k = 0; k < 8; ++k) mean += part[k];
        mean *= (1.f / 1024.f);
        float d = 0.f;
        for (int i = 0; i < 4; ++i) { float e = v[i] - mean; d += e * e; }
        for (int o = 16; o; o >>= 1) d += __shfl_down_sync(0xffffffff, d, o);
        __syncthreads();
        if (lane == 0) part[w] = d;
        __syncthreads();
        float var = 0.f;
        for (int k = 0; k < 8; ++k) var += part[k];
        float rs = rsqrtf(var * (1.f / 1024.f) + 1e-5f);
        for (int i = 0; i < 4; ++i) z[row * 1024 + t + 256 * i] = (v[i] - mean) * rs;
        __syncthreads();
    }
}
