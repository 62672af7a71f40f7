// block: 128
// input: idx = idx_1024.npy
// input: in = floats_1024.npy
// indirect loads of 8- and 16-byte elements from shared memory: float2 f2[512], float4 f4[256],
// double d[512] at indices from the data (idx & 511, idx & 255), and a float4 gather that feeds an
// 8-byte scatter
__global__ void indirect_vector_widths(const int *idx, const float *in, float *out, double *dout) {
    __shared__ float2 f2[512];
    __shared__ float4 f4[256];
    __shared__ double d[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) {
        f2[i] = make_float2(in[2 * i & 1023], in[(2 * i + 1) & 1023]);
        d[i] = (double)in[i] * 4.0;
    }
    for (int i = t; i < 256; i += 128) f4[i] = make_float4(in[4 * i], in[4 * i + 1], in[4 * i + 2], in[4 * i + 3]);
    __syncthreads();
    float2 a = make_float2(0.f, 0.f);
    float4 b = make_float4(0.f, 0.f, 0.f, 0.f);
    double c = 0.0;
    for (int j = 0; j < 8; ++j) {
        int k = idx[j * 128 + t];
        float2 u = f2[k & 511];
        float4 v = f4[k & 255];
        a.x += u.x; a.y += u.y;
        b.x += v.x; b.y += v.y; b.z += v.z; b.w += v.w;
        c += d[(k * 3) & 511];
    }
    __syncthreads();
    f2[(t * 7) & 511] = make_float2(b.x + b.w, b.y - b.z);
    __syncthreads();
    out[t] = a.x; out[128 + t] = a.y;
    out[256 + t] = b.x; out[384 + t] = b.y; out[512 + t] = b.z; out[640 + t] = b.w;
    out[768 + t] = f2[t].x; out[896 + t] = f2[t].y;
    dout[t] = c;
}
