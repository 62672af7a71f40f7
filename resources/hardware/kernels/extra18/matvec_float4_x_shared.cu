// block: 128
// input: A = normal_4096.npy
// input: x = floats_1024.npy
// y = A x for a 64 x 256 A: x (256 floats) staged as float4[64] in shared memory; a thread per
// row reads its row as float4 from global and x as float4 from shared (every thread the same
// element: broadcast), then a warp per row with lane-strided float4 x reads and a shuffle sum
__global__ void matvec_float4(const float4 *A, const float4 *x, float *y) {
    __shared__ float4 xs[64];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t < 64) xs[t] = x[t];
    __syncthreads();
    if (t < 64) {
        float acc = 0.f;
        for (int j = 0; j < 64; ++j) {
            float4 a = A[t * 64 + j], b = xs[j];
            acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        y[t] = acc;
    }
    for (int row = w; row < 64; row += 4) {
        float acc = 0.f;
        for (int j = lane; j < 64; j += 32) {
            float4 a = A[row * 64 + j], b = xs[(j * 5) & 63];
            acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);
        if (lane == 0) y[64 + row] = acc;
    }
}
