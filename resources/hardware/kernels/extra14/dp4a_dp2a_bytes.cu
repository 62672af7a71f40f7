// block: 128
// input: in = ukeys_1024.npy
// byte and halfword dot products on packed shared words: __dp4a signed x signed, unsigned x
// unsigned and (via int/unsigned overloads) mixed, __dp2a_lo / __dp2a_hi with 16-bit pairs against
// the low or high bytes, accumulated over an 8-word row of a [128][9] padded shared table
__global__ void dp4a_dp2a_bytes(const unsigned *in, int *out) {
    __shared__ unsigned a[128][9];
    __shared__ unsigned b[8][33];
    int t = threadIdx.x;
    for (int k = 0; k < 8; ++k) a[t][k] = in[t * 8 + k];
    for (int i = t; i < 256; i += 128) b[i >> 5][i & 31] = in[(i * 5 + 1) & 1023];
    __syncthreads();
    int ss = 0, sm = 0, lo = 0, hi = 0;
    unsigned uu = 0;
    for (int k = 0; k < 8; ++k) {
        unsigned x = a[t][k], y = b[k][t & 31];
        ss = __dp4a((int)x, (int)y, ss);
        uu = __dp4a(x, y, uu);
        sm += __dp4a((int)x, (int)(y ^ 0x80808080u), 0);
        lo = __dp2a_lo((int)x, (int)y, lo);
        hi = __dp2a_hi(x, y, (unsigned)hi);
    }
    out[t] = ss; out[128 + t] = (int)uu; out[256 + t] = sm;
    out[384 + t] = lo; out[512 + t] = hi;
}
