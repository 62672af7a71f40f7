// block: 128
#define BINS 64
__global__ void hist_warp(int *out) {
    __shared__ int h[4][BINS];
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    for (int i = lane; i < BINS; i += 32) h[warp][i] = 0;
    __syncwarp();
    atomicAdd(&h[warp][(t * 3) % BINS], 1);
    atomicAdd(&h[warp][(t * 5) % BINS], 1);
    __syncthreads();
    if (t < BINS) out[t] = h[0][t] + h[1][t] + h[2][t] + h[3][t];
}
