// block: 32, 8
__global__ void half2_transpose(const __half2 *in, __half2 *out) {
    // 32 rows x 64 halves, stored as __half2 pairs; read back columns of pairs
    __shared__ __half2 tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[y + j][x] = in[(y + j) * 32 + x];
    __syncthreads();
    for (int j = 0; j < 32; j += 8) {
        __half2 a = tile[x][y + j];
        __half lo = __low2half(a), hi = __high2half(a);
        out[(y + j) * 32 + x] = __halves2half2(hi, lo);
    }
}
