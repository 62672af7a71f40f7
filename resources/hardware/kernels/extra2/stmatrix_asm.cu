// block: 32
__global__ void stsm(const unsigned *in, unsigned *out) {
    __shared__ unsigned short tile[16][72];
    int t = threadIdx.x;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]));
    unsigned a = in[t], b = in[t + 32];
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" :: "r"(addr), "r"(a), "r"(b));
    __syncthreads();
    out[t] = tile[t % 16][t / 16];
}
