// block: 16, 16
#define TILE 16
__global__ void transpose16(const float *in, float *out) {
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * TILE + x];
    __syncthreads();
    out[y * TILE + x] = tile[x][y];
}
