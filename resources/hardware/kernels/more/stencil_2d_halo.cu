// block: 32, 4
__global__ void smem_stencil2d(const float *in, float *out) {
    __shared__ float s[6][34];
    int x = threadIdx.x, y = threadIdx.y;
    s[y + 1][x + 1] = in[y * 32 + x];
    if (x == 0) { s[y + 1][0] = 0.f; s[y + 1][33] = 0.f; }
    if (y == 0) { s[0][x + 1] = 0.f; s[5][x + 1] = 0.f; }
    __syncthreads();
    out[y * 32 + x] = s[y][x + 1] + s[y + 2][x + 1] + s[y + 1][x] + s[y + 1][x + 2] - 4.f * s[y + 1][x + 1];
}
