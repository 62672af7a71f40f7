// block: 32, 8
__global__ void transpose_u8(unsigned char *out, const unsigned char *in) {
    __shared__ unsigned char tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[y + j][x] = in[(y + j) * 32 + x];
    __syncthreads();
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * 32 + x] = tile[x][y + j];
}
