// Classic transpose: rows are written conflict-free, but reading a column puts all 32 lanes of a
// warp in one bank (32-way).
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose(float* odata, const float* idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch(float* odata, const float* idata, int width, int height)
{
    dim3 grid(width / TILE_DIM, height / TILE_DIM);
    transpose<<<grid, dim3(TILE_DIM, BLOCK_ROWS)>>>(odata, idata, width, height);
}
