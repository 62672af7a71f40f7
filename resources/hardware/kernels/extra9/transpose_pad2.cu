// block: 32, 8
#define TILE 32
__global__ void transpose_pad2(float *out, const float *in) {
    __shared__ float tile[TILE][TILE + 2];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[y + j][x] = in[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * TILE + x] = tile[x][y + j];
}
