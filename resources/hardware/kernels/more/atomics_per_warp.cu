// block: 128
__global__ void atomics_per_warp(const int *in, int *out) {
    __shared__ int counts[8];
    __shared__ int maxes[8];
    int t = threadIdx.x;
    if (t < 8) { counts[t] = 0; maxes[t] = 0; }
    __syncthreads();
    atomicAdd(&counts[t / 32], 1);
    atomicMax(&maxes[t / 32], in[t]);
    atomicAdd(&counts[4], in[t]);
    int r = atomicAdd(&counts[5 + t % 2], 1);
    __syncthreads();
    out[t] = counts[t % 8] + maxes[t % 8] + r;
}
