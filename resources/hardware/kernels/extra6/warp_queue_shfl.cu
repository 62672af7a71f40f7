// block: 128
#define WARPS 4
__global__ void warp_queue_shfl(const int *in, int *out) {
    __shared__ int q[WARPS * 33];
    __shared__ int count[WARPS];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int base = 0;
    if (lane == 0) {
        base = warp * 33;
        count[warp] = 32;
    }
    base = __shfl_sync(0xffffffffu, base, 0);
    q[base + lane] = in[t] + lane;
    __syncwarp();
    int n = count[warp];
    int v = q[warp * 33 + (lane * 3) % 32];
    out[t] = v + q[base + 31 - lane] + n;
}
