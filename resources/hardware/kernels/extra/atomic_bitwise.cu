// block: 64
__global__ void abits(const unsigned *in, unsigned *out) {
    __shared__ unsigned m[64];
    int t = threadIdx.x;
    m[t] = 0;
    __syncthreads();
    atomicOr(&m[t % 8], 1u << (t % 32));
    atomicAnd(&m[(t * 2) % 64], ~0u);
    atomicXor(&m[0], in[t]);
    atomicInc(&m[t / 4], 100u);
    unsigned r = atomicAdd(&m[t % 16], 2u);
    __syncthreads();
    out[t] = m[t] + r;
}
