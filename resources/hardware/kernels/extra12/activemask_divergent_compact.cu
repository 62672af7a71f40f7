// block: 128
// input: in = ints_1024.npy
// __activemask() inside a data-dependent branch: the lanes that took it count themselves with
// __popc, rank themselves with the lanes below, and the first of them reserves room in a shared
// list. The counts assume __activemask() returns exactly the lanes of the branch, which is what
// the hardware does here but CUDA does not promise.
__global__ void activemask_compact(const int *in, int *list_out, int *n_out) {
    __shared__ int list[1024];
    __shared__ int n;
    int t = threadIdx.x, lane = t & 31;
    if (t == 0) n = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 128) {
        int v = in[i];
        if (v % 7 < 3) {
            unsigned int m = __activemask();
            int rank = __popc(m & ((1u << lane) - 1));
            int first = __ffs(m) - 1;
            int base = 0;
            if (lane == first) base = atomicAdd(&n, __popc(m));
            base = __shfl_sync(m, base, first);
            list[base + rank] = v;
        }
    }
    __syncthreads();
    for (int i = t; i < n; i += 128) list_out[i] = list[i];
    if (t == 0) n_out[0] = n;
}
