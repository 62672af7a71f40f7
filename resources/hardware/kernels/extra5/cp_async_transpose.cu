// block: 32, 8
#include <cuda_pipeline.h>
// 32x32 tile filled with 16-byte cp.async chunks (rows padded to 36 floats to stay 16-byte aligned), read transposed
__global__ void cpasync_transpose(const float *in, float *out) {
    __shared__ __align__(16) float tile[32][36];
    int x = threadIdx.x, y = threadIdx.y;
    int tid = y * 32 + x;
    int r = tid / 8, c = tid % 8;
    __pipeline_memcpy_async(&tile[r][c * 4], &in[r * 32 + c * 4], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * 32 + x] = tile[x][y + j];
}
