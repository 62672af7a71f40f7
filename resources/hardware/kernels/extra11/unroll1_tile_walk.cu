// block: 32, 8
// input: in = floats_1024.npy
// column and row walks over a padded 32 x 32 tile in loops kept rolled by #pragma unroll 1: one
// load instruction each, executed 32 times
__global__ void unroll1_tile_walk(const float *in, float *out) {
    __shared__ float tile[32][33];
    int x = threadIdx.x, y = threadIdx.y;
#pragma unroll 1
    for (int j = y; j < 32; j += 8) tile[j][x] = in[j * 32 + x];
    __syncthreads();
    float col = 0.f, row = 0.f;
#pragma unroll 1
    for (int k = 0; k < 32; ++k) {
        col += tile[k][x];
        row += tile[x][(k + 4 * y) & 31];
    }
    out[y * 32 + x] = col - row;
}
