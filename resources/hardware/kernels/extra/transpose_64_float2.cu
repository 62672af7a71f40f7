// block: 32, 8
#define TILE 64
__global__ void transpose64(const float *in, float *out) {
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {
        tile[y + j][x] = in[(y + j) * TILE + x];
        tile[y + j][x + 32] = in[(y + j) * TILE + x + 32];
    }
    __syncthreads();
    for (int j = 0; j < TILE; j += 8) {
        out[(y + j) * TILE + x] = tile[x][y + j];
        out[(y + j) * TILE + x + 32] = tile[x + 32][y + j];
    }
}
