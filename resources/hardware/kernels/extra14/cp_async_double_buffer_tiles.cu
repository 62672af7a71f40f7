// block: 128
// input: in = floats_1024.npy
// a 2-stage cp.async double-buffered tile pipeline: 8 tiles of 128 floats streamed through two
// shared buffers with __pipeline_memcpy_async (16-byte copies by 32 threads), the next tile's
// copy issued before waiting (__pipeline_wait_prior(1)) on the current one, each tile reduced
// along a shifted window and accumulated per thread
#include <cuda_pipeline.h>
__global__ void cp_async_double_buffer_tiles(const float *in, float *out) {
    __shared__ alignas(16) float buf[2][128];
    int t = threadIdx.x;
    if (t < 32) __pipeline_memcpy_async(&buf[0][t * 4], &in[t * 4], 16);
    __pipeline_commit();
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k) {
        int cur = k & 1;
        if (k + 1 < 8 && t < 32) __pipeline_memcpy_async(&buf[cur ^ 1][t * 4], &in[(k + 1) * 128 + t * 4], 16);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float s = 0.0f;
        for (int j = 0; j < 4; ++j) s += buf[cur][(t + j * 5 + k) & 127];
        acc = acc * 0.5f + s;
        __syncthreads();
    }
    __pipeline_wait_prior(0);
    out[t] = acc;
}
