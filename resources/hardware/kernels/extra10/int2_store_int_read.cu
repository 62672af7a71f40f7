// block: 32, 4
__global__ void i2(const int2 *in, int *out) {
    __shared__ int s[32][66];
    int x = threadIdx.x, y = threadIdx.y;
    for (int r = y; r < 32; r += 4)
        *reinterpret_cast<int2 *>(&s[r][2 * x]) = in[r * 32 + x];
    __syncthreads();
    int acc = 0;
    for (int r = y; r < 32; r += 4) acc += s[x][2 * r] + s[x][2 * r + 1];
    out[y * 32 + x] = acc;
}
