// block: 32
__global__ void bank_conflict_stride(float *out, int stride) {
    __shared__ float s[2048];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += 32) s[i] = i;
    __syncthreads();
    float acc = 0.f;
    for (int r = 0; r < 16; ++r)
        acc += s[(t * stride + r) % 2048];
    out[t] = acc;
}
