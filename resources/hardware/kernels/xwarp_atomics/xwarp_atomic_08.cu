// block: 192
// input: keys = xwarp_atomic_08.npy
// the xwarp_atomics family (scripts/make_xwarp_atomics_family.py): 6 warps atomicAdd one of 3
// shared counter(s) (the thread's counter from keys, so the compiler cannot aggregate a warp) and stores the value it got at its own slot (only the values depend on the order)
__global__ void xwarp_atomic_08(const int *keys, int *out) {
    __shared__ int cnt[4];
    __shared__ int slots[576];
    const int t = threadIdx.x;
    if (t < 4) cnt[t] = 0;
    for (int i = t; i < 576; i += blockDim.x) slots[i] = -1;
    __syncthreads();
    const int c = keys[t];
    const int s = atomicAdd(&cnt[c], 1);
    slots[t * 3] = s;
    __syncthreads();
    for (int i = t; i < 576; i += blockDim.x) out[i] = slots[i];
    if (t < 4) out[576 + t] = cnt[t];
}
