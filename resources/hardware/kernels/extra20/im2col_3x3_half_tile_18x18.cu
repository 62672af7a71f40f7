// block: 256
// input: img = normal_4096.npy
// input: wts = floats_1024.npy
// im2col of a 16 x 16 output tile for a 3 x 3 convolution over a 64 x 64 image: an [18][18] __half
// halo tile (zero padding above and left), a [9][264] __half column matrix in shared memory, the
// columns written out pixel-major (16-bit reads at stride 9 rows), and the convolution from them
#include <cuda_fp16.h>
__global__ void im2col3x3(const float *img, const float *wts, __half *cols, float *conv) {
    __shared__ __half tile[18][18];
    __shared__ __half colsh[9][264];
    __shared__ __half w[9];
    int t = threadIdx.x;
    for (int i = t; i < 324; i += 256) {
        int y = i / 18 - 1, x = i % 18 - 1;
        tile[i / 18][i % 18] = (y < 0 || x < 0) ? __float2half(0.f) : __float2half(img[y * 64 + x]);
    }
    if (t < 9) w[t] = __float2half(wts[t]);
    __syncthreads();
    int py = t >> 4, px = t & 15;
    for (int k = 0; k < 9; ++k) colsh[k][t] = tile[py + k / 3][px + k % 3];
    __syncthreads();
    for (int i = t; i < 9 * 256; i += 256) cols[i] = colsh[i % 9][i / 9];
    float s = 0.f;
    for (int k = 0; k < 9; ++k) s += __half2float(colsh[k][t]) * __half2float(w[k]);
    conv[t] = s;
}
