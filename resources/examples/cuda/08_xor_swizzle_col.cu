// XOR swizzle: element (r, c) is kept at column c ^ r. Rows and columns are both read
// conflict-free, with no extra memory.
// block: 32, 8
constexpr int TILE = 32;

__global__ void transpose_swizzled(float* out, const float* in)
{
    __shared__ float tile[TILE][TILE];
    int x = threadIdx.x, y = threadIdx.y;

    for (int k = 0; k < 4; ++k) {
        int r = y + 8 * k;
        tile[r][x ^ r] = in[r * TILE + x];
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int c = y + 8 * k;
        out[c * TILE + x] = tile[x][c ^ x];
    }
}
