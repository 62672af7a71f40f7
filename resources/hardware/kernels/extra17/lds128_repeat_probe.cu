// block: 32
// input: cases = lds128_repeat_cases.npy
// the 16-byte companion of lds64_repeat_probe: 8 cases (16-byte word indices of a shared
// double2[512]) each loaded 8 times in a row with a predicated ld.volatile.shared.v4.u32 (LDS.128)
__global__ void lds128_repeat_probe(const int *cases, unsigned long long *out) {
    __shared__ __align__(128) double2 xs[512];
    int lane = threadIdx.x;
    for (int i = lane; i < 512; i += 32) xs[i] = make_double2((double)(i * 3 + 1), (double)(i * 5 + 2));
    __syncthreads();
    unsigned long long acc = 0;
    const unsigned base = (unsigned)__cvta_generic_to_shared(xs);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        const int k = cases[c * 32 + lane];
        const unsigned act = k >= 0;
        const unsigned sa = base + 16u * (unsigned)(k >= 0 ? k : 0);
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
            asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.b32 q, %5, 0;\n\t@q ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n\t}"
                         : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(sa), "r"(act) : "memory");
            acc += (unsigned long long)r0 + r1 + r2 + r3;
        }
    }
    out[lane] = acc;
}
