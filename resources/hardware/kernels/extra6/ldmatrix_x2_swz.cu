// block: 32
__global__ void ldmatrix_x2_swz(const int4 *in, unsigned *out) {
    // 16 rows x 64 halves = 8 chunks of 16 bytes per row, chunk index XOR (row % 8)
    __shared__ __half tile[16 * 64];
    int t = threadIdx.x;
    for (int i = t; i < 16 * 8; i += 32) {
        int row = i >> 3, chunk = i & 7;
        *reinterpret_cast<int4 *>(&tile[row * 64 + ((chunk ^ (row & 7)) << 3)]) = in[i];
    }
    __syncthreads();
    unsigned acc = 0;
    int row = t & 15;
#pragma unroll
    for (int kc = 0; kc < 4; ++kc) {
        int chunk = kc * 2 + (t >> 4);
        unsigned addr = static_cast<unsigned>(
            __cvta_generic_to_shared(&tile[row * 64 + ((chunk ^ (row & 7)) << 3)]));
        unsigned a0, a1;
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(a0), "=r"(a1) : "r"(addr));
        acc += a0 ^ (a1 << 1);
    }
    out[t] = acc;
}
