// block: 32, 8
__global__ void ushort2_tile(const unsigned short *in, unsigned *out) {
    __shared__ unsigned short tile[32][64];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = y; j < 32; j += 8) {
        tile[j][x] = in[j * 64 + x];
        tile[j][x + 32] = in[j * 64 + x + 32];
    }
    __syncthreads();
    unsigned acc = 0;
    for (int j = y; j < 32; j += 8) {
        ushort2 r = *reinterpret_cast<const ushort2 *>(&tile[j][2 * x]);
        ushort2 c = *reinterpret_cast<const ushort2 *>(&tile[x][2 * j]);
        acc += r.x * c.y + r.y + c.x;
    }
    out[y * 32 + x] = acc;
}
