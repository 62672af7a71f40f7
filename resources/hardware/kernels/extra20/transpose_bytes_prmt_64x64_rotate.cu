// block: 16, 16
// input: in = bytes_4096.npy
// a 64 x 64 byte matrix as words ([64][17] padded): each thread transposes a 4 x 4 byte block with
// __byte_perm (PRMT) and stores its four columns down a second tile (a 2-way pattern: 68 words a
// step); then the transpose and the 90-degree rotation (words reversed, bytes reversed) written out
__global__ void rotate90_bytes(const unsigned *in, unsigned *out) {
    __shared__ unsigned src[64][17];
    __shared__ unsigned dst[64][17];
    int x = threadIdx.x, y = threadIdx.y;
    for (int i = 0; i < 4; ++i) src[4 * y + i][x] = in[(4 * y + i) * 16 + x];
    __syncthreads();
    unsigned r0 = src[4 * y][x], r1 = src[4 * y + 1][x], r2 = src[4 * y + 2][x], r3 = src[4 * y + 3][x];
    unsigned lo01 = __byte_perm(r0, r1, 0x5140), hi01 = __byte_perm(r0, r1, 0x7362);
    unsigned lo23 = __byte_perm(r2, r3, 0x5140), hi23 = __byte_perm(r2, r3, 0x7362);
    dst[4 * x + 0][y] = __byte_perm(lo01, lo23, 0x5410);
    dst[4 * x + 1][y] = __byte_perm(lo01, lo23, 0x7632);
    dst[4 * x + 2][y] = __byte_perm(hi01, hi23, 0x5410);
    dst[4 * x + 3][y] = __byte_perm(hi01, hi23, 0x7632);
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
        int r = 4 * y + i;
        unsigned v = dst[r][x];
        out[r * 16 + x] = v;
        out[1024 + r * 16 + (15 - x)] = __byte_perm(v, 0, 0x0123);
    }
}
