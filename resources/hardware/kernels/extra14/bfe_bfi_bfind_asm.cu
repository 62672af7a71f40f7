// block: 128
// input: in = ukeys_1024.npy
// input: pos = ints_1024.npy
// PTX bit-field instructions by inline asm on shared words: bfe.u32 and bfe.s32 (sign-extending
// extract) and bfi.b32 with data-driven position and length (including length 0 and fields that
// run past bit 31), and bfind.u32 / bfind.shiftamt.u32
__global__ void bfe_bfi_bfind_asm(const unsigned *in, const int *pos, unsigned *out) {
    __shared__ unsigned w[1024];
    __shared__ unsigned char p[1024], l[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) {
        w[i] = in[i];
        p[i] = pos[i] % 40;
        l[i] = (pos[i] / 40) % 36;
    }
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        unsigned x = w[i], y = w[(i + 1) & 1023], a = p[i], b = l[i], r0, r1, r2, r3, r4;
        asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(a), "r"(b));
        asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(a), "r"(b));
        asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r2) : "r"(y), "r"(x), "r"(a), "r"(b));
        asm("bfind.u32 %0, %1;" : "=r"(r3) : "r"(x >> a % 32));
        asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r4) : "r"(y >> b % 32));
        out[i] = r0; out[1024 + i] = r1; out[2048 + i] = r2; out[3072 + i] = r3 ^ (r4 << 8);
    }
}
