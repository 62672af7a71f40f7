// block: 32, 8
#define TILE 32
#define ROWS 8
__global__ void transpose_lambda(const float *idata, float *odata) {
    __shared__ float tile[TILE * (TILE + 1)];
    auto idx = [&](int r, int c) { return r * 33 + c; };
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[idx(y + j, x)] = idata[(y + j) * TILE + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * TILE + x] = tile[idx(x, y + j)];
}
