// block: 128
// input: in = ukeys_1024.npy
// SIMD video intrinsics on shared words: per byte __vadd4, __vsub4, __vabsdiffu4, __vcmpgtu4,
// __vmaxu4, __vminu4, __vavgu4, __vsetgeu4, __vaddss4 (signed saturating); per halfword __vadd2,
// __vabsdiffs2, __vcmpeq2, __vmins2, __vsads2; a byte-wise running max along a row
__global__ void simd_video_bytes(const unsigned *in, unsigned *out) {
    __shared__ unsigned w[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) w[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 2; ++k) {
        int i = k * 128 + t;
        unsigned x = w[i], y = w[(i + 517) & 1023];
        unsigned *o = out + k * 2048 + t * 16;
        o[0] = __vadd4(x, y);      o[1] = __vsub4(x, y);
        o[2] = __vabsdiffu4(x, y);  o[3] = __vcmpgtu4(x, y);
        o[4] = __vmaxu4(x, y);     o[5] = __vminu4(x, y);
        o[6] = __vavgu4(x, y);     o[7] = __vsetgeu4(x, y);
        o[8] = __vaddss4(x, y);    o[9] = __vadd2(x, y);
        o[10] = __vabsdiffs2(x, y); o[11] = __vcmpeq2(x & 0xff00ffu, y & 0xff00ffu);
        o[12] = __vmins2(x, y);    o[13] = __vsads2(x, y);
        unsigned m = 0;
        for (int j = 0; j < 8; ++j) m = __vmaxu4(m, w[(i * 8 + j) & 1023]);
        o[14] = m;
        o[15] = __vsadu4(x, m);
    }
}
