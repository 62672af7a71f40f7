// block: 128
// input: in = ukeys_1024.npy
// input: sel = ints_1024.npy
// __sad / __usad (absolute difference plus accumulator, signed and unsigned) and __byte_perm with
// selectors from the data (including the sign-replicate mode bits 0x8) on shared words; a byte
// reversal and a rotate by byte_perm with constant selectors
__global__ void sad_byte_perm(const unsigned *in, const int *sel, unsigned *out) {
    __shared__ unsigned w[1024];
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { w[i] = in[i]; s[i] = sel[i]; }
    __syncthreads();
    unsigned acc = 0, uacc = 0;
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        unsigned x = w[i], y = w[1023 - i];
        acc = __sad((int)x >> 8, (int)y >> 8, acc);
        uacc = __usad(x >> 4, y >> 4, uacc);
        unsigned p = (unsigned)s[i] * 0x9E3779B1u;
        out[i] = __byte_perm(x, y, p & 0xffff);
        out[1024 + i] = __byte_perm(x, y, 0x0123) ^ __byte_perm(x, 0, 0x2103);
    }
    out[2048 + t] = acc;
    out[2176 + t] = uacc;
}
