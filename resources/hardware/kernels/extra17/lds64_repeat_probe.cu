// block: 32
// input: cases = lds64_repeat_cases.npy
// the 8-byte probe as the measured rows were taken: each of 8 cases (word indices of a shared
// double[1024]; -1: the lane loads nothing) loaded 8 times in a row by one warp with a predicated
// ld.volatile.shared.v2.u32 (LDS.64), so that every repetition is its own SASS instruction
__global__ void lds64_repeat_probe(const int *cases, unsigned long long *out) {
    __shared__ __align__(128) double xs[1024];
    int lane = threadIdx.x;
    for (int i = lane; i < 1024; i += 32) xs[i] = (double)(i * 3 + 1);
    __syncthreads();
    unsigned long long acc = 0;
    const unsigned base = (unsigned)__cvta_generic_to_shared(xs);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        const int k = cases[c * 32 + lane];
        const unsigned act = k >= 0;
        const unsigned sa = base + 8u * (unsigned)(k >= 0 ? k : 0);
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            unsigned r0 = 0, r1 = 0;
            asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.b32 q, %3, 0;\n\t@q ld.volatile.shared.v2.u32 {%0, %1}, [%2];\n\t}"
                         : "+r"(r0), "+r"(r1) : "r"(sa), "r"(act) : "memory");
            acc += (unsigned long long)r0 + r1;
        }
    }
    out[lane] = acc;
}
