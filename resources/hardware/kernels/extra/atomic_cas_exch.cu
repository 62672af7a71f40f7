// block: 64
__global__ void cas_exch(int *out) {
    __shared__ int lock[32];
    __shared__ int slot[64];
    int t = threadIdx.x;
    lock[t % 32] = 0;
    slot[t] = 0;
    __syncthreads();
    int old = atomicCAS(&lock[t % 32], 0, t + 1);
    int prev = atomicExch(&slot[t / 2], t);
    atomicMin(&slot[(t % 16) * 4], t);
    __syncthreads();
    out[t] = old + prev + slot[t];
}
