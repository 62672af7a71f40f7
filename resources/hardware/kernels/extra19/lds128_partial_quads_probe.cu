// block: 32
// input: cases = lds128_quads.npy
// a probe of the bucket sort's LDS.128 (lanes 4j+1..4j+3 reading slot j of one 128-byte row):
// 16 predicated LDS.128 by one warp over a shared double2[512] (bank slot = index % 8), each
// case a variation (all four lanes, one lane, one half, another row, reversed, ...), from
// make_inputs.py (this folder)
__global__ void lds128_quads_probe(const int *cases, double *out) {
    __shared__ __align__(128) double2 xs[512];
    int lane = threadIdx.x;
    for (int i = lane; i < 512; i += 32) xs[i] = make_double2((double)(i * 3 + 1), (double)(i * 5 + 2));
    __syncthreads();
    double acc = 0.0;
#pragma unroll
    for (int c = 0; c < 16; ++c) {
        int k = cases[c * 32 + lane];
        if (k >= 0) {
            double2 v = xs[k];
            acc += (v.x + 2.0 * v.y) * (double)(c + 1);
        }
    }
    out[lane] = acc;
}
