// block: 256
// input: in = values_2048.npy
// a work queue in shared memory: threads push the indices of the items that pass a test (atomicAdd
// on the tail), then the warps drain it 32 items at a time (lane 0 takes a batch with atomicAdd on
// the head and broadcasts it)
__global__ void atomic_work_queue(const int *in, int *out) {
    __shared__ int queue[2048];
    __shared__ int tail, head;
    int t = threadIdx.x, lane = t & 31;
    if (t == 0) { tail = 0; head = 0; }
    __syncthreads();
    for (int i = t; i < 2048; i += 256)
        if (in[i] % 3 == 0) queue[atomicAdd(&tail, 1)] = i;
    __syncthreads();
    int n = tail;
    while (true) {
        int base = 0;
        if (lane == 0) base = atomicAdd(&head, 32);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (base >= n) break;
        if (base + lane < n) {
            int item = queue[base + lane];
            out[item] = in[item] / 3 + 1;
        }
    }
    if (t == 0) out[2048] = n;
}
