// block: 32
// input: cases = lds128_pairs_1.npy
// the merge_pairs family (scripts/make_merge_pairs_family.py): 44 predicated LDS.128 by one warp, one per
// case, each with its own lanes (index -1: the lane loads nothing) and words of a shared double2[512] (bank slot = index % 8)
__global__ void lds128_pairs_1(const int *cases, double *out) {
    __shared__ __align__(128) double2 xs[512];
    int lane = threadIdx.x;
    for (int i = lane; i < 512; i += 32) xs[i] = make_double2(i * 3 + 1, i * 5 + 2);
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < 44; ++c) {
        int k = cases[c * 32 + lane];
        if (k >= 0) { double2 v = xs[k]; acc += (v.x + v.y) * (double)(c + 1); }
    }
    out[lane] = acc;
}
