// block: 128
// input: A = normal_4096.npy
// input: x = floats_1024.npy
// two products with a 64 x 64 matrix staged in shared memory: y = A^T x with one thread a column
// of A[64][65] (row-wise walk, consecutive lanes consecutive words), and y = A x with a warp per
// row reading float4 chunks of an unpadded [64][64] copy, a __shfl_xor_sync sum
__global__ void matvec_two_ways(const float *A, const float *x, float *y) {
    __shared__ float Ap[64][65];
    __shared__ __align__(16) float Au[64][64];
    __shared__ float xs[64];
    int t = threadIdx.x, w = t / 32, lane = t & 31;
    for (int i = t; i < 4096; i += 128) { Ap[i / 64][i % 64] = A[i]; Au[i / 64][i % 64] = A[i]; }
    if (t < 64) xs[t] = x[t];
    __syncthreads();
    if (t < 64) {
        float s = 0.f;
        for (int r = 0; r < 64; ++r) s += Ap[r][t] * xs[r];
        y[t] = s;
    }
    for (int r = w; r < 64; r += 4) {
        float s = 0.f;
        if (lane < 16) {
            float4 a = *reinterpret_cast<const float4 *>(&Au[r][lane * 4]);
            float4 v = *reinterpret_cast<const float4 *>(&xs[lane * 4]);
            s = a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
        }
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0) y[64 + r] = s;
    }
}
