// block: 32
__global__ void stmatrix_x4(const unsigned *in, unsigned short *out) {
    __shared__ unsigned short tile[16][16];
    int t = threadIdx.x;
    unsigned r0 = in[t], r1 = in[t + 32], r2 = in[t + 64], r3 = in[t + 96];
    // lanes 0-7: rows 0-7 cols 0-7, 8-15: rows 8-15 cols 0-7, 16-23: rows 0-7 cols 8-15, 24-31: rows 8-15 cols 8-15
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    __syncthreads();
    for (int k = 0; k < 8; ++k)
        out[k * 32 + t] = tile[(k * 32 + t) / 16][(k * 32 + t) % 16];
}
