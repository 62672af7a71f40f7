// block: 256
// input: keys = ck_keys_512.npy
// input: q = ck_q_1024.npy
// cuckoo hashing in two shared 512-slot tables (unsigned keys, short values): 400 keys inserted by
// one thread with evictions (at most 32 kicks; a key left over is counted), then 1024 lookups by
// all threads probing h1 then h2 (data addresses), hits counted per warp by __ballot_sync
__device__ unsigned h1(unsigned k) { return (k * 2654435761u) >> 23; }
__device__ unsigned h2(unsigned k) { return ((k ^ (k >> 15)) * 0x2c1b3c6du) >> 23; }
__global__ void cuckoo(const unsigned *keys, const unsigned *q, int *out) {
    __shared__ unsigned tk[2][512];
    __shared__ short tv[2][512];
    __shared__ int failed;
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256) { tk[0][i] = tk[1][i] = 0xffffffffu; tv[0][i] = tv[1][i] = -1; }
    __syncthreads();
    if (t == 0) {
        int fails = 0;
        for (int i = 0; i < 400; ++i) {
            unsigned k = keys[i];
            short v = (short)i;
            int side = 0;
            for (int kick = 0; kick < 32; ++kick) {
                unsigned h = side ? h2(k) : h1(k);
                unsigned ok = tk[side][h];
                short ov = tv[side][h];
                tk[side][h] = k; tv[side][h] = v;
                if (ok == 0xffffffffu) { k = ok; break; }
                k = ok; v = ov; side ^= 1;
            }
            if (k != 0xffffffffu) ++fails;
        }
        failed = fails;
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        unsigned k = q[i];
        int r = -1;
        if (tk[0][h1(k)] == k) r = tv[0][h1(k)];
        else if (tk[1][h2(k)] == k) r = tv[1][h2(k)];
        out[i] = r;
        unsigned m = __ballot_sync(0xffffffffu, r >= 0);
        if ((t & 31) == 0) out[1024 + (i >> 5)] = __popc(m);
    }
    if (t == 0) out[1056] = failed;
}
