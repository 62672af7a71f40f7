// block: 32
__global__ void stv4(const unsigned *in, unsigned *out) {
    __shared__ unsigned buf[32 * 8];
    int t = threadIdx.x;
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&buf[t * 8]));
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" :: "r"(addr), "r"(in[t]), "r"(t), "r"(t), "r"(t));
    asm volatile("st.shared.v2.b32 [%0+16], {%1, %2};\n" :: "r"(addr), "r"(t), "r"(t));
    __syncthreads();
    out[t] = buf[(t * 9) % 256];
}
