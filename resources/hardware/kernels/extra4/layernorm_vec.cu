// block: 128
#define H 1024
__global__ void layernorm(const float *x, const float *gamma, const float *beta, float *y) {
    __shared__ __align__(16) float xs[H];
    __shared__ float2 stats[128];
    int t = threadIdx.x;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float4 *xs4 = reinterpret_cast<float4 *>(xs);
    for (int i = t; i < H / 4; i += 128) xs4[i] = x4[i];
    __syncthreads();

    float s = 0.f, ss = 0.f;
    for (int i = t; i < H / 4; i += 128) {
        float4 v = xs4[i];
        s += v.x + v.y + v.z + v.w;
        ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    stats[t] = make_float2(s, ss);
    __syncthreads();
    for (int o = 64; o > 0; o >>= 1) {
        if (t < o) {
            float2 a = stats[t], b = stats[t + o];
            stats[t] = make_float2(a.x + b.x, a.y + b.y);
        }
        __syncthreads();
    }
    float2 tot = stats[0];
    float mean = tot.x / H;
    float rstd = rsqrtf(tot.y / H - mean * mean + 1e-5f);
    const float2 *xs2 = reinterpret_cast<const float2 *>(xs);
    for (int i = t; i < H / 2; i += 128) {
        float2 v = xs2[i];
        y[2 * i] = (v.x - mean) * rstd * gamma[2 * i] + beta[2 * i];
        y[2 * i + 1] = (v.y - mean) * rstd * gamma[2 * i + 1] + beta[2 * i + 1];
    }
}
