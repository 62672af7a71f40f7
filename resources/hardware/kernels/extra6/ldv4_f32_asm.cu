// block: 64
__device__ __forceinline__ float4 lds128(const float *p) {
    float4 v;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr));
    return v;
}
__global__ void ldv4_f32_asm(const float *in, float *out) {
    __shared__ __align__(16) float buf[320];
    int t = threadIdx.x;
    for (int i = t; i < 320; i += 64) buf[i] = in[i];
    __syncthreads();
    float4 a = lds128(&buf[t * 4]);
    float4 b = lds128(&buf[(t % 32) * 8 + 4]);
    out[t] = a.x + a.y * a.z - a.w + b.x * b.w;
}
