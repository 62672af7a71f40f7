// block: 32, 4
__global__ void dcols(const double *in, double *out) {
    __shared__ double tile[32][32];
    __shared__ double padded[32][33];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 4) {
        tile[y + j][x] = in[(y + j) * 32 + x];
        padded[y + j][x] = in[(y + j) * 32 + x];
    }
    __syncthreads();
    for (int j = 0; j < 32; j += 4) out[(y + j) * 32 + x] = tile[x][y + j] + padded[x][y + j];
}
