// block: 256
// input: in = floats_4096.npy
// cuda::barrier in shared memory, three phases: thread 0 starts a cuda::memcpy_async of 8 KiB into
// buf each phase, every thread arrives (keeping the token) and waits on it; then a strided read
// (8 words apart: 4-way conflicts) and a 33-word stride (none), and a block barrier
#include <cuda/barrier>
#include <cuda/std/utility>
#pragma nv_diag_suppress static_var_with_dynamic_init
__global__ void barrier_token_phases(const float *in, float *out) {
    __shared__ alignas(128) float buf[2048];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    float acc = 0.0f;
    for (int p = 0; p < 3; ++p) {
        if (t == 0) cuda::memcpy_async(buf, in + p * 256, cuda::aligned_size_t<16>(sizeof(buf)), bar);
        auto tok = bar.arrive();
        bar.wait(cuda::std::move(tok));
        acc += buf[(t * 8) % 2048] * (float)(p + 1) + buf[(t * 33 + p) % 2048];
        __syncthreads();
    }
    out[t] = acc;
}
