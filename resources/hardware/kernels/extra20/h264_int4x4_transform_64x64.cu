// block: 16, 16
// input: img = bytes_4096.npy
// the H.264 4 x 4 forward integer transform over a 64 x 64 byte image: the image less 128 in a
// [64][65] int tile, each thread its own 4 x 4 block in place (rows, then columns: 4-word strides
// across the warp), then the coefficients written out row by row
__global__ void h264_fwd(const unsigned char *img, int *coef) {
    __shared__ int tile[64][65];
    int x = threadIdx.x, y = threadIdx.y, t = y * 16 + x;
    for (int i = t; i < 4096; i += 256) tile[i >> 6][i & 63] = (int)img[i] - 128;
    __syncthreads();
    int by = 4 * y, bx = 4 * x;
    for (int i = 0; i < 4; ++i) {
        int *p = &tile[by + i][bx];
        int s03 = p[0] + p[3], d03 = p[0] - p[3], s12 = p[1] + p[2], d12 = p[1] - p[2];
        p[0] = s03 + s12; p[2] = s03 - s12; p[1] = 2 * d03 + d12; p[3] = d03 - 2 * d12;
    }
    for (int j = 0; j < 4; ++j) {
        int a0 = tile[by][bx + j], a1 = tile[by + 1][bx + j], a2 = tile[by + 2][bx + j], a3 = tile[by + 3][bx + j];
        int s03 = a0 + a3, d03 = a0 - a3, s12 = a1 + a2, d12 = a1 - a2;
        tile[by][bx + j] = s03 + s12; tile[by + 2][bx + j] = s03 - s12;
        tile[by + 1][bx + j] = 2 * d03 + d12; tile[by + 3][bx + j] = d03 - 2 * d12;
    }
    __syncthreads();
    for (int i = t; i < 4096; i += 256) coef[i] = tile[i >> 6][i & 63];
}
