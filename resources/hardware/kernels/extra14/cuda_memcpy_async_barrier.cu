// block: 128
// input: in = floats_1024.npy
// cuda::memcpy_async of a 4 KiB chunk into shared memory completed through a block-scoped
// cuda::barrier in shared memory (mbarrier init, arrive, wait; the async copy's completion
// tracked by the barrier), twice into one buffer with a compute phase between; then a
// column read of the 32 x 32 tile
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
__global__ void cuda_memcpy_async_barrier(const float *in, float *out) {
    __shared__ alignas(16) float tile[1024];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    float acc = 0.0f;
    for (int phase = 0; phase < 2; ++phase) {
        if (t == 0) cuda::memcpy_async(tile, in + phase * 1024 - phase * 512, cuda::aligned_size_t<16>(4096), bar);
        bar.arrive_and_wait();
        for (int r = t >> 5; r < 32; r += 4) acc += tile[r * 32 + (t & 31)] * (float)(r + 1);
        __syncthreads();
    }
    out[t] = acc;
}
