// block: 64
// input: in = ints_1024.npy
// inline PTX on 16-bit tiles: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 from a [32][40] short
// tile (row stride 80 bytes) with lane addresses from rows 0..31, then
// stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 of two of the fragments into a [16][24] tile
__global__ void ldmatrix_trans(const int *in, int *out) {
    __shared__ __align__(16) unsigned short a[2][32][40];
    __shared__ __align__(16) unsigned short b[2][16][24];
    int t = threadIdx.x, w = t / 32, lane = t & 31;
    for (int i = t; i < 2 * 32 * 40; i += 64) (&a[0][0][0])[i] = (unsigned short)(in[i & 1023] + i);
    for (int i = t; i < 2 * 16 * 24; i += 64) (&b[0][0][0])[i] = 0;
    __syncthreads();
    unsigned r0, r1, r2, r3;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&a[w][lane][(lane >> 3) * 8 % 32]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    out[t * 4] = r0; out[t * 4 + 1] = r1; out[t * 4 + 2] = r2; out[t * 4 + 3] = r3;
    unsigned saddr = (unsigned)__cvta_generic_to_shared(&b[w][lane & 15][(lane >> 4) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};"
                 :: "r"(saddr), "r"(r1 ^ r2), "r"(r3));
    __syncthreads();
    for (int i = t; i < 2 * 16 * 24; i += 64) out[256 + i] = (&b[0][0][0])[i];
}
