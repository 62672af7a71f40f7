// block: 128
// input: in = floats_1024.npy
// a loop whose trip count is the int parameter n (64 at launch, unknown to the compiler) under
// #pragma unroll 4 (four copies, then a remainder loop), reading a [64][65] padded tile by
// columns, and a second loop of n - 3 iterations (61: the remainder runs) by rows
__global__ void unroll4_runtime(const float *in, float *out, int n) {
    __shared__ float tile[64][65];
    int t = threadIdx.x;
    for (int i = t; i < 64 * 64; i += 128) tile[i >> 6][i & 63] = in[i & 1023] * (float)(i >> 10);
    __syncthreads();
    int c = t & 63, h = t >> 6;
    float acc = 0.f;
#pragma unroll 4
    for (int r = 0; r < n; ++r) acc += tile[r][c] * (float)(r + h);
    float acc2 = 0.f;
#pragma unroll 4
    for (int k = 0; k < n - 3; ++k) acc2 += tile[c][k + h];
    out[t] = acc;
    out[128 + t] = acc2;
}
