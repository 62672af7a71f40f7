// block: 128
// input: in = ints_4096.npy
// two mbarriers in inline PTX, each expecting one arrival: thread 0 announces 4 KiB with
// arrive.expect_tx and starts a cp.async.bulk into that stage; every thread spins on
// try_wait.parity for the stage's phase (four rounds, two stages, parities 0 0 1 1), then reads a
// column of the stage (32 words apart: 32-way conflicts) and a row
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__global__ void mbarrier_ptx_parity(const int *in, int *out) {
    __shared__ alignas(128) int data[2][1024];
    __shared__ alignas(8) unsigned long long full[2];
    int t = threadIdx.x;
    if (t == 0)
        for (int s = 0; s < 2; ++s)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(&full[s])), "r"(1) : "memory");
    __syncthreads();
    int acc = 0;
    for (int round = 0; round < 4; ++round) {
        int s = round & 1;
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(smem(&full[s])), "r"(4096) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                         :: "r"(smem(data[s])), "l"(in + round * 1024), "r"(4096), "r"(smem(&full[s])) : "memory");
        }
        unsigned parity = (round >> 1) & 1, done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(smem(&full[s])), "r"(parity) : "memory");
        acc += data[s][(t * 32 + round) & 1023] + 3 * data[s][(t + 7 * round) & 1023];
        __syncthreads();
    }
    out[t] = acc;
}
