// block: 32
// input: cases = lds64_pairs_1.npy
// the merge_pairs family (scripts/make_merge_pairs_family.py): 44 predicated LDS.64 by one warp, one per
// case, each with its own lanes (index -1: the lane loads nothing) and words of a shared double[1024] (bank slot = index % 16)
__global__ void lds64_pairs_1(const int *cases, double *out) {
    __shared__ __align__(128) double xs[1024];
    int lane = threadIdx.x;
    for (int i = lane; i < 1024; i += 32) xs[i] = (double)(i * 3 + 1);
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < 44; ++c) {
        int k = cases[c * 32 + lane];
        if (k >= 0) { double v = xs[k]; acc += (v) * (double)(c + 1); }
    }
    out[lane] = acc;
}
