// block: 64
// input: in = ints_1024.npy
// input: f = floats_1024.npy
// vector shared accesses of several element types: int4 and float4 (LDS.128), short4 and char4
// (8- and 4-byte), double2 (16-byte) arrays staged from global memory with __ldg (read-only
// path) of float4 / int4 / int2 / short and read back transposed (strided vector loads)
__global__ void ldg_vector_types(const int *in, const float *f, float *out) {
    __shared__ int4 i4[64];
    __shared__ float4 f4[64];
    __shared__ short4 s4[128];
    __shared__ char4 c4[256];
    __shared__ double2 d2[64];
    int t = threadIdx.x;
    i4[t] = __ldg(reinterpret_cast<const int4 *>(in) + t);
    f4[t] = __ldg(reinterpret_cast<const float4 *>(f) + t);
    for (int i = t; i < 128; i += 64) {
        int2 p = __ldg(reinterpret_cast<const int2 *>(in) + 128 + i);
        s4[i] = make_short4((short)p.x, (short)(p.x - 500), (short)p.y, (short)(-p.y));
    }
    for (int i = t; i < 256; i += 64) {
        int v = __ldg(in + 512 + i);
        c4[i] = make_char4((signed char)v, (signed char)(v >> 2), (signed char)(v * 3), (signed char)-v);
    }
    d2[t] = make_double2(__ldg(f + 256 + t), (double)__ldg(in + 768 + t) * 0.5);
    __syncthreads();
    int j = (t * 9) & 63;
    int4 a = i4[j];
    float4 b = f4[63 - t];
    short4 s = s4[(t * 17) & 127];
    char4 c = c4[(t * 33) & 255];
    double2 d = d2[(t * 5) & 63];
    float *o = out + t * 8;
    o[0] = (float)(a.x + a.y - a.z + a.w);
    o[1] = b.x * b.w + b.y - b.z;
    o[2] = (float)(s.x - s.y + s.z * s.w);
    o[3] = (float)(c.x + c.y * c.z - c.w);
    o[4] = (float)(d.x + d.y);
    o[5] = (float)(i4[t].y ^ s4[t].z);
    o[6] = f4[(t + 1) & 63].x;
    o[7] = (float)c4[t * 4 + 3].w;
}
