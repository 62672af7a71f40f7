// block: 128
// input: in = u64_pairs_1024.npy
// 64-bit bit intrinsics on a shared unsigned long long array (some zero words, some with only the
// low or only the high half set): __brevll, __clzll, __popcll, __ffsll, plus 32-bit __brev,
// __clz, __ffs of the halves, and the position of the highest set bit of each 64-bit key
__global__ void bits64_brev_clz_popc_ffs(const unsigned long long *in, unsigned long long *out) {
    __shared__ unsigned long long v[512];
    __shared__ int cnt[128][5];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) v[i] = in[i];
    __syncthreads();
    int c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    for (int k = 0; k < 4; ++k) {
        unsigned long long x = v[k * 128 + t];
        out[k * 128 + t] = __brevll(x);
        c0 += __clzll((long long)x);
        c1 += __popcll(x);
        c2 += __ffsll((long long)x);
        c3 += __clz((int)(x >> 32)) + __ffs((int)x);
        c4 += 63 - __clzll((long long)(x | 1));
        out[512 + k * 128 + t] = (unsigned long long)__brev((unsigned)x) << 32 | __brev((unsigned)(x >> 32));
    }
    cnt[t][0] = c0; cnt[t][1] = c1; cnt[t][2] = c2; cnt[t][3] = c3; cnt[t][4] = c4;
    __syncthreads();
    int *o = (int *)(out + 1024);
    for (int j = 0; j < 5; ++j) o[j * 128 + t] = cnt[(t * 3) & 127][j];
}
