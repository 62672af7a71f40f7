// block: 128
// input: in = ints_1024.npy
// volatile shared memory: every read of a volatile array is issued (no reuse of a loaded value),
// a value written and read back twice around __threadfence_block within one warp, a volatile
// warp-synchronous tail of a tree sum guarded by __syncwarp, and a non-volatile alias of the
// same array for comparison (the compiler may merge those loads)
__global__ void volatile_reread_fence(const int *in, int *out) {
    __shared__ int buf[256];
    int t = threadIdx.x;
    volatile int *vb = buf;
    vb[t] = in[t] + in[t + 128];
    vb[t + 128] = in[t + 256] - in[t + 384];
    __syncthreads();
    int a = vb[t ^ 1] + vb[t ^ 1] + vb[(t * 2) & 255];
    int b = buf[t ^ 1] + buf[t ^ 1] + buf[(t * 2) & 255];
    __syncthreads();
    vb[t] = a - b + vb[t];
    __threadfence_block();
    int c = vb[t] * 3 + vb[(t + 32) & 127];
    __syncthreads();
    for (int s = 64; s >= 32; s >>= 1) {
        if (t < s) vb[t] = vb[t] + vb[t + s];
        __syncthreads();
    }
    if (t < 32) {
        for (int s = 16; s > 0; s >>= 1) {
            int x = vb[t] + vb[t + s];
            __syncwarp();
            vb[t] = x;
            __syncwarp();
        }
    }
    __syncthreads();
    out[t] = c;
    if (t == 0) out[128] = vb[0];
}
