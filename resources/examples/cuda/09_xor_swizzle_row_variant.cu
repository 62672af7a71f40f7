// The variant some tutorials print: it XORs the ROW index with the column. A warp reading a
// column still has all 32 lanes in one column, i.e. one bank: 32-way, like no swizzle at all.
// block: 32, 8
constexpr int TILE = 32;

__global__ void transpose_row_swizzle(float* out, const float* in)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;

    for (int k = 0; k < 4; ++k) {
        int r = y + 8 * k;
        tile[r ^ (x % 32)][x] = in[r * TILE + x];
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int c = y + 8 * k;
        out[c * TILE + x] = tile[x ^ (c % 32)][c];
    }
}
