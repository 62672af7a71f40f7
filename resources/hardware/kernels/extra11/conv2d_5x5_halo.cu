// block: 32, 8
// input: img = floats_1024.npy
// input: w = weights_25.npy
// 5 x 5 convolution of rows 8-15 of a 32 x 32 image: the tile with a 2-pixel halo, loaded by the
// edge threads (left/right, top/bottom, corners), clamped at the border; weights in shared memory
#define R 2
#define TW 32
#define TH 8
__device__ __forceinline__ float px(const float *img, int y, int x) {
    return img[min(max(y, 0), 31) * 32 + min(max(x, 0), 31)];
}
__global__ void conv2d_5x5_halo(const float *img, const float *w, float *out) {
    __shared__ float tile[TH + 2 * R][TW + 2 * R];
    __shared__ float wk[2 * R + 1][2 * R + 1];
    int x = threadIdx.x, y = threadIdx.y, gy = 8 + y;
    if (y == 0 && x < 25) wk[x / 5][x % 5] = w[x];
    tile[y + R][x + R] = px(img, gy, x);
    if (x < R) {
        tile[y + R][x] = px(img, gy, x - R);
        tile[y + R][x + TW + R] = px(img, gy, x + TW);
    }
    if (y < R) {
        tile[y][x + R] = px(img, gy - R, x);
        tile[y + TH + R][x + R] = px(img, gy + TH, x);
        if (x < R) {
            tile[y][x] = px(img, gy - R, x - R);
            tile[y][x + TW + R] = px(img, gy - R, x + TW);
            tile[y + TH + R][x] = px(img, gy + TH, x - R);
            tile[y + TH + R][x + TW + R] = px(img, gy + TH, x + TW);
        }
    }
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i <= 2 * R; ++i)
#pragma unroll
        for (int j = 0; j <= 2 * R; ++j) acc += wk[i][j] * tile[y + i][x + j];
    out[y * TW + x] = acc;
}
