// block: 256
// input: in = bytes_4096.npy
// byte classification through shared lookup tables: a 256-entry unsigned char LUT indexed by
// each byte (1-byte loads at data addresses), a 2048-entry unsigned short LUT indexed by
// 11 bits of byte pairs (2-byte loads), both filled by formula; 16-class histograms per warp
// ([8][17], integer atomicAdd) and merged
__global__ void byte_lut_hist(const unsigned char *in, int *out) {
    __shared__ unsigned char lut1[256];
    __shared__ unsigned short lut2[2048];
    __shared__ int h[8][17];
    int t = threadIdx.x, w = t >> 5;
    lut1[t] = (unsigned char)((t * 37 + (t >> 3)) & 15);
    for (int i = t; i < 2048; i += 256) lut2[i] = (unsigned short)(((i * 2654435761u) >> 20) & 0xffff);
    if (t < 136) h[t / 17][t % 17] = 0;
    __syncthreads();
    int acc = 0;
    for (int i = t; i < 4096; i += 256) {
        unsigned char c = in[i];
        int cls = lut1[c];
        atomicAdd(&h[w][cls], 1);
        unsigned char c2 = in[(i + 1) & 4095];
        unsigned short v = lut2[(c << 3) | (c2 & 7)];
        acc += v;
        atomicAdd(&h[w][16], v & 1);
    }
    __syncthreads();
    if (t < 17) {
        int s = 0;
        for (int k = 0; k < 8; ++k) s += h[k][t];
        out[t] = s;
    }
    out[32 + t] = acc;
}
