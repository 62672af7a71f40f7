// block: 256
// input: in = ints_1024.npy
// a spin lock on a shared int: lane 0 of each warp takes it with an atomicCAS loop, the whole warp
// appends 32 values to a shared log inside the critical section, lane 0 moves the tail on and
// releases with atomicExch; four rounds a warp. The order of the warps in the log, and how long
// each spins, depend on the hardware's schedule.
__global__ void spinlock_critical(const int *in, int *log_out, int *order_out) {
    __shared__ int lock, tail;
    __shared__ int log[1024];
    __shared__ int order[32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    if (t == 0) { lock = 0; tail = 0; }
    __syncthreads();
    for (int round = 0; round < 4; ++round) {
        if (lane == 0) {
            while (atomicCAS(&lock, 0, 1) != 0) { }
        }
        __syncwarp();
        int base = *(volatile int *)&tail;
        log[base + lane] = in[round * 256 + t] + w;
        __syncwarp();
        if (lane == 0) {
            order[base / 32] = w;
            *(volatile int *)&tail = base + 32;
            __threadfence_block();
            atomicExch(&lock, 0);
        }
        __syncwarp();
    }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) log_out[i] = log[i];
    if (t < 32) order_out[t] = order[t];
}
