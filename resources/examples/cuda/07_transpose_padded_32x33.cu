// Transpose with one padding column: every row starts one bank later, so the column read is
// conflict-free for 128 extra bytes.
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose(float* odata, const float* idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];  // one padding column

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
