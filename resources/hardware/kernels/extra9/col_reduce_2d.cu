// block: 32, 8
__global__ void column_sums(const float *in, float *out) {
    __shared__ float part[8][32];
    int x = threadIdx.x, y = threadIdx.y;
    float s = 0.f;
    for (int r = y; r < 64; r += 8)
        s += in[r * 32 + x];
    part[y][x] = s;
    __syncthreads();
    for (int h = 4; h > 0; h >>= 1) {
        if (y < h) part[y][x] += part[y + h][x];
        __syncthreads();
    }
    if (y == 0) out[x] = part[0][x];
}
