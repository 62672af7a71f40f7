// block: 128
// input: in = bytes_2048.npy
// 8- and 16-bit shared element types: signed char (sign-extending LDS.S8), unsigned char,
// unsigned short and short (LDS.U16 / LDS.S16) filled from the same bytes, mixed arithmetic that
// promotes them, narrowing stores that truncate, and a short array read at stride 3
__global__ void ushort_schar_sign_extend(const unsigned char *in, int *out) {
    __shared__ signed char sc[1024];
    __shared__ unsigned char uc[1024];
    __shared__ unsigned short us[512];
    __shared__ short ss[512];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) { sc[i] = (signed char)in[i]; uc[i] = in[1024 + i]; }
    for (int i = t; i < 512; i += 128) {
        us[i] = (unsigned short)(in[2 * i] | in[2 * i + 1] << 8);
        ss[i] = (short)(in[1024 + 2 * i] << 8 | in[1025 + 2 * i]);
    }
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        int i = k * 128 + t;
        int a = sc[i * 2] + sc[(i * 2 + 1) & 1023];
        int b = uc[i] - sc[i];
        int c = us[i] + ss[i];
        int d = ss[(i * 3) & 511] * (int)sc[(i * 7) & 1023];
        unsigned e = us[(i * 3 + 1) & 511] ^ (unsigned)ss[i];
        out[i * 5] = a; out[i * 5 + 1] = b; out[i * 5 + 2] = c; out[i * 5 + 3] = d; out[i * 5 + 4] = (int)e;
    }
    __syncthreads();
    for (int i = t; i < 512; i += 128) { ss[i] = (short)(ss[i] * 300); sc[i] = (signed char)(sc[i] + 100); }
    __syncthreads();
    for (int i = t; i < 512; i += 128) out[2560 + i] = ss[511 - i] + sc[i];
}
