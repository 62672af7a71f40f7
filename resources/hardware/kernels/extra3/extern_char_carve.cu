// block: 64
// extern-size: 1024
__global__ void carve(float *out) {
    extern __shared__ char smem[];
    float *f = reinterpret_cast<float *>(smem);
    int *iv = reinterpret_cast<int *>(smem + 64 * sizeof(float));
    int t = threadIdx.x;
    f[t] = t;
    iv[t] = t * 2;
    __syncthreads();
    out[t] = f[(t * 4) % 64] + iv[63 - t];
}
