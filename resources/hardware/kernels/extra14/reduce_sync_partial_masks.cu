// block: 128
// input: in = keys_1024.npy
// __reduce_add_sync / __reduce_min_sync / __reduce_max_sync (signed and unsigned) and
// __reduce_or_sync / __reduce_and_sync / __reduce_xor_sync inside data-divergent branches, each
// with the exact mask of its branch taken from __ballot_sync, on values read from shared memory
__global__ void reduce_sync_partial_masks(const int *in, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x, lane = t & 31;
    for (int i = t; i < 1024; i += 128) s[i] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        int i = k * 128 + t;
        int v = s[i];
        bool p = (v & 3) != 0;
        unsigned m = __ballot_sync(0xffffffffu, p);
        int r0, r1, r2;
        unsigned r3;
        if (p) {
            r0 = __reduce_add_sync(m, v >> 8);
            r1 = __reduce_min_sync(m, v);
            r2 = (int)__reduce_max_sync(m, (unsigned)v);
            r3 = __reduce_or_sync(m, (unsigned)v & 0xf0f0u);
        } else {
            r0 = (int)__reduce_add_sync(~m, (unsigned)v);
            r1 = __reduce_max_sync(~m, v);
            r2 = (int)__reduce_min_sync(~m, (unsigned)v);
            r3 = __reduce_and_sync(~m, (unsigned)v) ^ __reduce_xor_sync(~m, (unsigned)lane);
        }
        out[i * 4] = r0; out[i * 4 + 1] = r1; out[i * 4 + 2] = r2; out[i * 4 + 3] = (int)r3;
    }
}
