// block: 32, 8
// 32x32 tile stored XOR-swizzled through a helper; each thread reads 4 consecutive rows of its column
__device__ __forceinline__ int swizzle(int row, int col) { return row * 32 + (col ^ (row & 31)); }
__global__ void swz_cols(const float *in, float *out) {
    __shared__ float tile[32 * 32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[swizzle(y + j, x)] = in[(y + j) * 32 + x];
    __syncthreads();
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 4; ++k)
        s += tile[swizzle(y * 4 + k, x)];
    out[y * 32 + x] = s;
}
