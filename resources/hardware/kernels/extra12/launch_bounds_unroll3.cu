// block: 256
// input: in = floats_1024.npy
// `__launch_bounds__(256, 2)` (written before the kernel qualifier) and a 16-pass loop under
// `#pragma unroll 3` (five copies of three passes plus a remainder): a column walk of a padded
// tile and a stride-5 read in the unrolled body
__launch_bounds__(256, 2) __global__ void launch_bounds_unroll3(const float *in, float *out) {
    __shared__ float tile[64][17];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) tile[i / 16][i % 16] = in[i];
    __syncthreads();
    float a = 0.f;
    int c = t & 15, r0 = t >> 4;
#pragma unroll 3
    for (int k = 0; k < 16; ++k) {
        a += tile[(r0 + k * 4) & 63][c];
        a *= 0.999f;
        a += tile[(t * 5 + k) & 63][(k + c) & 15];
    }
    out[t] = a;
}
