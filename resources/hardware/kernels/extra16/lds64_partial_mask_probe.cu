// block: 32
// input: cases = lds64_cases_512.npy
// a probe, written after ell_colmajor_double_x: 16 8-byte shared loads (LDS.64) by one warp, each
// with its own set of lanes (a lane whose index is -1 loads nothing) and word indices from the
// data: lanes whose neighbours i^1 / i^2 are inactive, with regular and irregular active sets,
// the two warps of ell_colmajor_double_x's gather, controls with equal pairs and one half-warp
__global__ void lds64_probe(const int *cases, double *out) {
    __shared__ __align__(128) double xs[1024];
    int lane = threadIdx.x;
    for (int i = lane; i < 1024; i += 32) xs[i] = (double)(i * 3 + 1);
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < 16; ++c) {
        int k = cases[c * 32 + lane];
        if (k >= 0) acc += xs[k] * (double)(c + 1);
    }
    out[lane] = acc;
}
