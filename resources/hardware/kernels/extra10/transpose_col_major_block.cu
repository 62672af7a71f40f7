// block: 16, 16
__global__ void colmajor(const float *in, float *out) {
    __shared__ float s[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    s[x][y] = in[y * 16 + x];
    __syncthreads();
    out[y * 16 + x] = s[y][x] + s[x][(y + 1) % 16];
}
