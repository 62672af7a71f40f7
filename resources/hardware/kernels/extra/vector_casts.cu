// block: 64
__global__ void vcasts(const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    float4 *s4 = reinterpret_cast<float4 *>(s);
    float2 *s2 = reinterpret_cast<float2 *>(s);
    s4[t * 2] = make_float4(in[t], 1.f, 2.f, 3.f);
    __syncthreads();
    float2 a = s2[t * 3];
    float4 b = s4[(t * 4) % 256];
    out[t] = a.x + a.y + b.x + b.w;
}
