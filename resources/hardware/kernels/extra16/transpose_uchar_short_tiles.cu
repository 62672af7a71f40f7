// block: 16, 16
// input: in = bytes_2048.npy
// byte and 16-bit tiles: a 64 x 32 unsigned char tile loaded as uchar4 rows into [32][68] (row
// stride 68 bytes) and read back by columns one byte at a time (four lanes per word); a 32 x 64
// short tile stored with an XOR swizzle of the column (c ^ 2r) and read by columns
__global__ void transpose_uchar_short(const unsigned char *in, unsigned char *out, short *sout) {
    __shared__ unsigned char tb[32][68];
    __shared__ short ts[32][64];
    int x = threadIdx.x, y = threadIdx.y, t = y * 16 + x;
    for (int i = t; i < 32 * 16; i += 256) {
        int r = i / 16, q = i % 16;
        uchar4 v = reinterpret_cast<const uchar4 *>(in)[i];
        *reinterpret_cast<uchar4 *>(&tb[r][q * 4]) = v;
    }
    for (int i = t; i < 32 * 64; i += 256) {
        int r = i / 64, c = i % 64;
        ts[r][c ^ (2 * r)] = (short)(in[i] * 3 - 300);
    }
    __syncthreads();
    for (int i = t; i < 64 * 32; i += 256) {
        int c = i / 32, r = i % 32;  // output row c (a tile column), 32 bytes wide
        out[i] = tb[r][c];
    }
    for (int i = t; i < 64 * 32; i += 256) {
        int c = i / 32, r = i % 32;
        sout[i] = ts[r][c ^ (2 * r)];
    }
}
