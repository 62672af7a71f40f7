// block: 128
__global__ void lut_apply(const float *table, float *out) {
    __shared__ float lut[64];
    int t = threadIdx.x;
    if (t < 64) lut[t] = table[t];
    __syncthreads();
    float a = lut[t % 16];
    float b = lut[(t * t) % 64];
    float c = lut[63 - (t % 64)];
    out[t] = a + b * c;
}
