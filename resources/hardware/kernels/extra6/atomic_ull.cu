// block: 128
__global__ void atomic_ull(unsigned long long *out) {
    __shared__ long long s[4];
    int t = threadIdx.x;
    if (t < 4) s[t] = 0;
    __syncthreads();
    atomicAdd((unsigned long long *)&s[t % 4], 1ull);
    __syncthreads();
    if (t < 4) out[t] = (unsigned long long)s[t];
}
