// block: 256
// input: in = ukeys_1024.npy
// shared bitwise atomics: atomicOr building a 2048-bit presence set from the data (one bit per
// value mod 2048), atomicAnd clearing bits of 8 shared words, atomicXor parity words, and the
// returned old values used (fetch-or test-and-set: count of first setters, order independent)
__global__ void atomic_and_or_xor_masks(const unsigned *in, unsigned *out) {
    __shared__ unsigned set[64];
    __shared__ unsigned andw[8], xorw[8];
    __shared__ int firsts;
    int t = threadIdx.x;
    if (t < 64) set[t] = 0;
    if (t < 8) { andw[t] = 0xffffffffu; xorw[t] = 0; }
    if (t == 0) firsts = 0;
    __syncthreads();
    int mine = 0;
    for (int i = t; i < 1024; i += 256) {
        unsigned x = in[i];
        unsigned v = x & 2047;
        unsigned old = atomicOr(&set[v >> 5], 1u << (v & 31));
        mine += (old >> (v & 31)) & 1 ? 0 : 1;
        atomicAnd(&andw[x >> 29], ~(1u << (x & 31)) | (x & 0x10000000u ? 0xffffffffu : 0));
        atomicXor(&xorw[i & 7], x);
    }
    atomicAdd(&firsts, mine);
    __syncthreads();
    if (t < 64) out[t] = set[t];
    if (t < 8) { out[64 + t] = andw[t]; out[72 + t] = xorw[t]; }
    if (t == 0) out[80] = firsts;
}
