// block: 128
// input: in = floats_1024.npy
// warp specialisation: warp 0 produces 16 x 16 tiles into a double buffer, warps 1-3 consume them;
// named barriers (bar.arrive / bar.sync with ids 1-4 over all 128 threads) say "full" and "empty"
#define ITERS 4
__device__ __forceinline__ void bar_sync(int id) { asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id) { asm volatile("bar.arrive %0, 128;" ::"r"(id) : "memory"); }
__global__ void warp_specialized(const float *in, float *out) {
    __shared__ float buf[2][256];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (int it = 0; it < ITERS; ++it) {
        int b = it & 1;
        if (warp == 0) {
            if (it >= 2) bar_sync(3 + b);  // wait until the consumers have emptied this buffer
            for (int i = lane; i < 256; i += 32) buf[b][i] = in[it * 256 + i] * 2.f;
            bar_arrive(1 + b);  // full
        } else {
            bar_sync(1 + b);
            int c = t - 32, col = c & 15, part = c >> 4;  // 96 consumers: 16 columns x 6 parts
            float acc = 0.f;
            for (int r = part; r < 16; r += 6) acc += buf[b][r * 16 + col];
            out[it * 96 + c] = acc;
            if (it + 2 < ITERS) bar_arrive(3 + b);  // empty
        }
    }
}
