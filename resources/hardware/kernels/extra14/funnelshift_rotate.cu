// block: 128
// input: in = ukeys_1024.npy
// funnel shifts on shared words: __funnelshift_l / __funnelshift_r (shift taken mod 32) and the
// clamping __funnelshift_lc / __funnelshift_rc (shift clamped to 32) with data-driven shift
// amounts 0..63, joining a word with its neighbour; a 64-bit rotate of a word pair built from them
__global__ void funnelshift_rotate(const unsigned *in, unsigned *out) {
    __shared__ unsigned w[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) w[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        unsigned lo = w[i], hi = w[(i + 1) & 1023];
        unsigned s = w[(i * 7 + 3) & 1023] & 63;
        out[i] = __funnelshift_l(lo, hi, s);
        out[1024 + i] = __funnelshift_r(lo, hi, s);
        out[2048 + i] = __funnelshift_lc(lo, hi, s);
        out[3072 + i] = __funnelshift_rc(lo, hi, s);
        unsigned r = s & 31;
        unsigned a = (s & 32) ? hi : lo, b = (s & 32) ? lo : hi;
        out[4096 + 2 * i] = __funnelshift_l(b, a, r);
        out[4096 + 2 * i + 1] = __funnelshift_l(a, b, r);
    }
}
