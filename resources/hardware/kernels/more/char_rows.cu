// block: 32, 2
__global__ void char_rows(const unsigned char *in, int *out) {
    __shared__ unsigned char c[64][64];
    int x = threadIdx.x, y = threadIdx.y;
    c[y * 32 + x][0] = in[x];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 8; ++k)
        acc += c[y * 32 + x][k] + c[k][x + 32 * y];
    out[y * 32 + x] = acc;
}
