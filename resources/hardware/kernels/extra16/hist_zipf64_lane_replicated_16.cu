// block: 256
// input: data = zipf64_2048.npy
// 16-bin histogram of skewed values replicated per lane (h[16][32]: bin-major, lane-minor, no
// intra-warp collisions), updated with atomicAdd across the 8 warps; a column sum per bin; a second
// layout h2[32][17] (lane-major, padded) updated the same way
__global__ void hist_lane_replicated(const int *data, unsigned int *out) {
    __shared__ unsigned int h[16][32];
    __shared__ unsigned int h2[32][17];
    int t = threadIdx.x, lane = t & 31;
    for (int i = t; i < 512; i += 256) (&h[0][0])[i] = 0;
    for (int i = t; i < 544; i += 256) (&h2[0][0])[i] = 0;
    __syncthreads();
    for (int i = t; i < 2048; i += 256) {
        int b = data[i] & 15;
        atomicAdd(&h[b][lane], 1u);
        atomicAdd(&h2[lane][b], 1u);
    }
    __syncthreads();
    if (t < 16) {
        unsigned int s = 0, s2 = 0;
        for (int l = 0; l < 32; ++l) { s += h[t][l]; s2 += h2[l][t]; }
        out[t] = s;
        out[16 + t] = s2;
    }
}
