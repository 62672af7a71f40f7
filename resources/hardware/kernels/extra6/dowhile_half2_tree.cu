// block: 32, 8
__global__ void dowhile_half2_tree(const __half2 *in, __half2 *out) {
    __shared__ __half2 tile[64][33];
    int x = threadIdx.x, y = threadIdx.y;
    for (int r = y; r < 64; r += 8)
        tile[r][x] = in[r * 32 + x];
    __syncthreads();
    int s = 32;
    do {
        for (int r = y; r < s; r += 8)
            tile[r][x] = __hadd2(tile[r][x], tile[r + s][x]);
        __syncthreads();
        s >>= 1;
    } while (s > 0);
    if (y == 0) out[x] = tile[0][x];
}
