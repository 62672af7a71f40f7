// block: 24, 24
// input: in = floats_1024.npy
// a 24 x 24 tile transposed through shared memory without padding (576 threads, 18 warps that
// each cover one and a third rows: a warp's column read tile[x][y] spans rows at a stride of 24
// words), then the same tile read along anti-diagonals
__global__ void transpose_24x24(const float *in, float *out) {
    __shared__ float tile[24][24];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 24 + x];
    __syncthreads();
    out[y * 24 + x] = tile[x][y];
    out[576 + y * 24 + x] = tile[(x + y) % 24][23 - x];
}
