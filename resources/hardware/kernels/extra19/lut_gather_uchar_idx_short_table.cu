// block: 256
// input: codes = bytes_4096.npy
// input: tab = keys_1024.npy
// gathers from a shared short[64][4] table at row = byte >> 2 and column from the byte's low bits
// (uniform bytes: random banks, 2-byte words), and from a short2[256] table by byte
__global__ void lut_gather_short(const unsigned char *codes, const int *tab, int *out) {
    __shared__ short lut[64][4];
    __shared__ short2 lut2[256];
    int t = threadIdx.x;
    lut[t >> 2][t & 3] = (short)(tab[t] >> 16);
    lut2[t] = make_short2((short)tab[256 + t], (short)(tab[512 + t] >> 8));
    __syncthreads();
    int acc = 0, acc2 = 0;
    for (int i = t; i < 4096; i += 256) {
        unsigned c = codes[i];
        acc += lut[c >> 2][c & 3];
        short2 p = lut2[c];
        acc2 += (c & 1) ? p.x : p.y;
    }
    out[t] = acc;
    out[256 + t] = acc2;
}
