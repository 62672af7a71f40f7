// block: 48, 16
// input: in = floats_1024.npy
// a rectangular 16 x 48 tile (768 threads) transposed to 48 x 16 twice: through an unpadded
// [16][48] array and through one padded to [16][49]; each warp spans parts of two rows
__global__ void transpose_48x16(const float *in, float *out) {
    __shared__ float plain[16][48];
    __shared__ float padded[16][49];
    int x = threadIdx.x, y = threadIdx.y;
    float v = in[y * 48 + x];
    plain[y][x] = v;
    padded[y][x] = v * 2.f;
    __syncthreads();
    int i = y * 48 + x, r = i % 16, c = i / 16;  // output element (c, r) of the 48 x 16 result
    out[i] = plain[r][c];
    out[768 + i] = padded[r][c];
}
