// block: 128
// input: in = floats_1024.npy
// `__noinline__` device functions (real CALL and RET) that get shared arrays as plain pointers: a
// strided sum called with three different strides, a store, and an index swizzle (a pure function)
__device__ __noinline__ float strided_sum(const float *p, int start, int stride, int n) {
    float a = 0.f;
    for (int i = 0; i < n; ++i) a += p[start + i * stride];
    return a;
}
__device__ __noinline__ void scale_store(float *p, int i, float v, float k) { p[i] = v * k; }
__device__ __noinline__ int swizzle(int row, int col) { return row * 32 + (col ^ row); }
__global__ void noinline_calls(const float *in, float *out) {
    __shared__ float s[32 * 32];
    __shared__ float r[128];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) s[swizzle(i / 32, i % 32)] = in[i];
    __syncthreads();
    float a = strided_sum(s, t & 31, 32, 8) + strided_sum(s, (t & 31) * 32, 1, 4);
    scale_store(r, t, a, 0.5f);
    __syncthreads();
    out[t] = strided_sum(r, t & 3, 4, 32) + s[swizzle(t & 31, t >> 2)];
}
