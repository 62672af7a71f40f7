// block: 256
__global__ void warp_sums(const float *in, float *out) {
    __shared__ float sums[8];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float v = in[t];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < 8 ? sums[lane] : 0.f;
        for (int o = 4; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        if (lane == 0) out[0] = v;
    }
}
