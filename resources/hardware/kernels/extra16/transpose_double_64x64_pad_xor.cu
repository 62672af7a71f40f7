// block: 32, 8
// input: in = floats_1024.npy
// a 64 x 64 tile of doubles transposed twice by a 32 x 8 block (each thread 2 columns x 8 rows):
// through double[64][65] (padded by one 8-byte word), then, in the same union, through double[64][64] with an XOR
// swizzle of the column by the row (tile[r][c ^ (r & 31)]); 8-byte shared accesses
__global__ void transpose_double_64(const float *in, double *out) {
    __shared__ union { double pad[64][65]; double swz[64][64]; } u;
    int x = threadIdx.x, y = threadIdx.y;
    for (int r = y; r < 64; r += 8)
        for (int c = x; c < 64; c += 32) u.pad[r][c] = (double)in[(r * 64 + c) & 1023] + r * 0.5;
    __syncthreads();
    for (int r = y; r < 64; r += 8)
        for (int c = x; c < 64; c += 32) out[r * 64 + c] = u.pad[c][r];
    __syncthreads();
    for (int r = y; r < 64; r += 8)
        for (int c = x; c < 64; c += 32) u.swz[r][c ^ (r & 31)] = (double)in[(r * 64 + c) & 1023] - c * 0.25;
    __syncthreads();
    for (int r = y; r < 64; r += 8)
        for (int c = x; c < 64; c += 32) out[4096 + r * 64 + c] = u.swz[c][r ^ (c & 31)];
}
