// block: 32, 8
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transpose_double(const double *idata, double *odata) {
    __shared__ double tile[TILE_DIM][TILE_DIM + 1];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[y + j][x] = idata[(y + j) * TILE_DIM + x];
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * TILE_DIM + x] = tile[x][y + j];
}
