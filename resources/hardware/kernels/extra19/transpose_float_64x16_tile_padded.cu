// block: 64, 4
// input: in = normal_4096.npy
// a 64 x 64 float matrix transposed through 64 x 16 tiles: [16][65] padded tile, each thread
// copies 4 rows of the tile (ty, ty+4, ...), then writes 4 columns; and one unpadded [16][64] pass
__global__ void transpose_64x16(const float *in, float *out) {
    __shared__ float tile[16][65];
    __shared__ float raw[16][64];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int by = 0; by < 64; by += 16) {
        for (int r = ty; r < 16; r += 4) tile[r][tx] = in[(by + r) * 64 + tx];
        __syncthreads();
        // output: rows tx in 0..63 become columns; 16 x 64 tile read by columns
        for (int c = ty; c < 64; c += 4)
            if (tx < 16) out[c * 64 + by + tx] = tile[tx][c];
        __syncthreads();
    }
    for (int r = ty; r < 16; r += 4) raw[r][tx] = in[r * 64 + tx] * 2.0f;
    __syncthreads();
    for (int c = ty; c < 64; c += 4)
        if (tx < 16) out[4096 + c * 16 + tx] = raw[tx][c];
}
