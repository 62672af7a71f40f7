// block: 16, 16
// input: img = normal_4096.npy
// input: w = floats_1024.npy
// 7 x 7 convolution of a 16 x 16 output tile: the 22 x 22 input tile (halo 3) loaded by a linear
// loop over the block (i = t; i < 484; i += 256) into [22][23], weights in shared memory, the
// window read row by row (#pragma unroll over 7 x 7)
__global__ void conv2d_7x7(const float *img, const float *w, float *out) {
    __shared__ float tile[22][23];
    __shared__ float ws[49];
    int x = threadIdx.x, y = threadIdx.y, t = y * 16 + x;
    for (int i = t; i < 484; i += 256) {
        int r = i / 22, c = i % 22;
        int gr = r + 13, gc = c + 13;  // tile origin (16, 16) in a 64 x 64 image, minus the halo
        tile[r][c] = img[gr * 64 + gc];
    }
    if (t < 49) ws[t] = w[t];
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 7; ++i)
#pragma unroll
        for (int j = 0; j < 7; ++j) acc += ws[i * 7 + j] * tile[y + i][x + j];
    out[t] = acc;
}
