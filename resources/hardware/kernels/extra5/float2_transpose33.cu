// block: 32, 8
// transpose of a 32x32 matrix of complex (float2) values on a [32][33] float2 tile
__global__ void transpose_c(const float2 *in, float2 *out) {
    __shared__ float2 tile[32][33];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[y + j][x] = in[(y + j) * 32 + x];
    __syncthreads();
    for (int j = 0; j < 32; j += 8) {
        float2 v = tile[x][y + j];
        out[(y + j) * 32 + x] = make_float2(v.x, -v.y);
    }
}
