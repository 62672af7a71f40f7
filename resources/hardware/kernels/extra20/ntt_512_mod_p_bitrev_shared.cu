// block: 256
// input: in = ints_1024.npy
// input: tw = ntt_roots_256.npy
// number-theoretic transform of 512 values mod 998244353 (an exact FFT): a bit-reversed scatter
// into shared memory (__brev), 9 radix-2 butterfly stages of 256 butterflies (one a thread,
// twiddles from a shared table at stride 256 / len, 64-bit products reduced mod p), then a
// pointwise square and the sum of the transform
__global__ void ntt512(const unsigned *in, const unsigned *tw, unsigned *out) {
    const unsigned P = 998244353u;
    __shared__ unsigned a[512];
    __shared__ unsigned w[256];
    int t = threadIdx.x;
    w[t] = tw[t];
    for (int i = t; i < 512; i += 256) a[__brev(i) >> 23] = in[i] % P;
    __syncthreads();
    for (int len = 1; len < 512; len <<= 1) {
        int j = t & (len - 1), base = (t - j) * 2;
        unsigned u = a[base + j];
        unsigned v = (unsigned)((unsigned long long)a[base + j + len] * w[j * (256 / len)] % P);
        a[base + j] = u + v >= P ? u + v - P : u + v;
        a[base + j + len] = u >= v ? u - v : u + P - v;
        __syncthreads();
    }
    for (int i = t; i < 512; i += 256) {
        out[i] = a[i];
        out[512 + i] = (unsigned)((unsigned long long)a[i] * a[i] % P);
    }
}
