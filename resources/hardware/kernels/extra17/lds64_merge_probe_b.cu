// block: 32
// input: cases = lds64_cases_b.npy
// a probe of when the H100 serves an 8-byte shared load (LDS.64) of one warp in one phase: 24
// predicated LDS.64 by one warp, each with its own lanes (index -1: the lane loads nothing) and
// words of a shared double[1024] (bank slot = index % 16), from make_inputs.py (this folder)
__global__ void lds64_merge_probe_b(const int *cases, double *out) {
    __shared__ __align__(128) double xs[1024];
    int lane = threadIdx.x;
    for (int i = lane; i < 1024; i += 32) xs[i] = (double)(i * 3 + 1);
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < 24; ++c) {
        int k = cases[c * 32 + lane];
        if (k >= 0) acc += xs[k] * (double)(c + 1);
    }
    out[lane] = acc;
}
