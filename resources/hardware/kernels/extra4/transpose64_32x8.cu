// block: 32, 8
#define TILE_DIM 64
#define BLOCK_ROWS 8
__global__ void transpose64(float *odata, const float *idata) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        tile[y + j][x] = idata[(y + j) * TILE_DIM + x];
        tile[y + j][x + 32] = idata[(y + j) * TILE_DIM + x + 32];
    }
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        odata[(y + j) * TILE_DIM + x] = tile[x][y + j];
        odata[(y + j) * TILE_DIM + x + 32] = tile[x + 32][y + j];
    }
}
