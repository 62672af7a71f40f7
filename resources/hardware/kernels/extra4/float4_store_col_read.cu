// block: 256
__global__ void f4_store_col(const float4 *in, float *out) {
    __shared__ __align__(16) float s[32][32];
    int t = threadIdx.x;
    int r = t / 8, c4 = t % 8;
    reinterpret_cast<float4 *>(&s[r][0])[c4] = in[t];
    __syncthreads();
    int row = t % 32, k0 = t / 32;
    float acc = 0.f;
    for (int k = k0; k < 32; k += 8) acc += s[row][k];
    out[t] = acc;
}
