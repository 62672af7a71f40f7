// block: 128
// input: in = ints_1024.npy
// __pipeline_memcpy_async (cp.async) copies of 4, 8 and 16 bytes into shared memory, three
// commits (__pipeline_commit) waited in turn with __pipeline_wait_prior(2), (1), (0), each
// stage's data used as soon as it has arrived; the 4-byte stage zero-fills (src size 0) half
#include <cuda_pipeline.h>
__global__ void pipeline_memcpy_async_sizes(const int *in, int *out) {
    __shared__ alignas(16) int a[512];
    __shared__ alignas(16) int b[256];
    __shared__ alignas(16) int c[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&a[t * 4], &in[t * 4], 16);
    __pipeline_commit();
    __pipeline_memcpy_async(&b[t * 2], &in[512 + t * 2], 8);
    __pipeline_commit();
    __pipeline_memcpy_async(&c[t], &in[768 + t], 4, (t & 1) ? 4 : 0);
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    int x = a[(t * 4 + 1) & 511] + a[511 - t];
    __pipeline_wait_prior(1);
    __syncthreads();
    int y = b[(t * 2 + 255) & 255] - b[t];
    __pipeline_wait_prior(0);
    __syncthreads();
    int z = c[t ^ 1] * 2 + c[t];
    out[t] = x; out[128 + t] = y; out[256 + t] = z;
}
