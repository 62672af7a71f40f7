// block: 256
// input: in = values_2048.npy
// 64-bin histogram with one sub-histogram per warp (less contention), merged at the end
#define BINS 64
#define WARPS 8
__global__ void hist_per_warp(const int *in, unsigned int *out) {
    __shared__ unsigned int sub[WARPS][BINS];
    int t = threadIdx.x, warp = t / 32;
    for (int i = t; i < WARPS * BINS; i += 256) (&sub[0][0])[i] = 0;
    __syncthreads();
    for (int i = t; i < 2048; i += 256) {
        int v = in[i];
        atomicAdd(&sub[warp][(v >> 4) & (BINS - 1)], 1u);
    }
    __syncthreads();
    if (t < BINS) {
        unsigned int s = 0;
        for (int w = 0; w < WARPS; ++w) s += sub[w][t];
        out[t] = s;
    }
}
