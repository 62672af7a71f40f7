// block: 256
// input: in = keys_1024.npy
// shared atomicMin / atomicMax on int (signed order) and on unsigned (unsigned order) of the same
// bits, into 16 buckets chosen by the data (many lanes of a warp on one address), plus 64-bit
// unsigned long long atomicMin / atomicMax; results do not depend on the order
__global__ void atomic_minmax_signed_unsigned(const int *in, int *out) {
    __shared__ int smin[16], smax[16];
    __shared__ unsigned umin[16], umax[16];
    __shared__ unsigned long long lmin[16], lmax[16];
    int t = threadIdx.x;
    if (t < 16) {
        smin[t] = 0x7fffffff; smax[t] = (int)0x80000000;
        umin[t] = 0xffffffffu; umax[t] = 0;
        lmin[t] = ~0ull; lmax[t] = 0;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int x = in[i];
        int b = (x >> 3) & 15;
        atomicMin(&smin[b], x);
        atomicMax(&smax[b], x);
        atomicMin(&umin[b], (unsigned)x);
        atomicMax(&umax[b], (unsigned)x);
        unsigned long long l = (unsigned long long)(unsigned)x << 20 | (unsigned)i;
        atomicMin(&lmin[b & 7], l);
        atomicMax(&lmax[b & 7], l);
    }
    __syncthreads();
    if (t < 16) {
        out[t] = smin[t]; out[16 + t] = smax[t];
        out[32 + t] = (int)umin[t]; out[48 + t] = (int)umax[t];
        out[64 + 2 * t] = (int)lmin[t]; out[65 + 2 * t] = (int)(lmin[t] >> 32);
        out[96 + 2 * t] = (int)lmax[t]; out[97 + 2 * t] = (int)(lmax[t] >> 32);
    }
}
