// block: 128
__global__ void warp_slice_reduce(const float *in, float *out) {
    __shared__ float s[128 + 16];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    s[warp * 32 + lane] = in[t];
    __syncwarp();
    for (int off = 16; off > 0; off >>= 1) {
        float v = 0.f;
        if (lane < off) v = s[warp * 32 + lane + off];
        __syncwarp();
        if (lane < off) s[warp * 32 + lane] += v;
        __syncwarp();
    }
    float total = s[warp * 32];
    // second pass: each lane reads its slice neighbour at stride 4
    float nb = s[warp * 32 + (lane * 4) % 32];
    out[t] = total + nb;
}
