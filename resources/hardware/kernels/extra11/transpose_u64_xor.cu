// block: 32, 8
// input: in = u64_1024.npy
// 32 x 32 transpose of 64-bit elements through a tile swizzled by XOR (column x ^ row) instead of padding
__global__ void transpose_u64_xor(const unsigned long long *in, unsigned long long *out) {
    __shared__ unsigned long long tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = y; j < 32; j += 8) tile[j][x ^ j] = in[j * 32 + x];
    __syncthreads();
    for (int j = y; j < 32; j += 8) out[j * 32 + x] = tile[x][j ^ x];
}
