// block: 32, 8
__global__ void rowred(const float *in, float *out) {
    __shared__ float s[8][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    s[ty][tx] = in[ty * 32 + tx];
    __syncwarp();
    for (int o = 16; o > 0; o >>= 1) {
        if (tx < o) s[ty][tx] += s[ty][tx + o];
        __syncwarp();
    }
    if (tx == 0) out[ty] = s[ty][0];
}
