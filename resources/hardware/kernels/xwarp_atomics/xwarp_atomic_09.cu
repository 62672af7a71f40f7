// block: 128
// input: keys = xwarp_atomic_09.npy
// the xwarp_atomics family (scripts/make_xwarp_atomics_family.py): 4 warps atomicAdd one of 4
// shared counter(s) (the thread's counter from keys, so the compiler cannot aggregate a warp) and stores its thread index at the slot it got (an address made from the returned value)
__global__ void xwarp_atomic_09(const int *keys, int *out) {
    __shared__ int cnt[4];
    __shared__ int slots[4096];
    const int t = threadIdx.x;
    if (t < 4) cnt[t] = 0;
    for (int i = t; i < 4096; i += blockDim.x) slots[i] = -1;
    __syncthreads();
    const int c = keys[t];
    const int s = atomicAdd(&cnt[c], 1);
    slots[c * 1024 + s * 1] = t;
    __syncthreads();
    for (int i = t; i < 4096; i += blockDim.x) out[i] = slots[i];
    if (t < 4) out[4096 + t] = cnt[t];
}
