// block: 128
// input: series = series_4096.npy
// maximum over a sliding window of 12 values (a random walk of 4096 floats, staged in shared
// memory; each thread takes 32 consecutive outputs): a monotonic deque of indices per thread, a
// 16-slot ring in its warp's part of shared memory (dq[warp][slot][lane]); how many entries are
// popped, and where head and tail are, come from the data
#define W 12
__global__ void sliding_window_max(const float *series, float *out) {
    __shared__ float s[4096 + W];
    __shared__ int dq[4][16][32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < 4096; i += 128) s[i] = series[i];
    __syncthreads();
    int start = t * 32 - (W - 1), head = 0, tail = 0;
    for (int i = start; i < t * 32 + 32; ++i) {
        if (i < 0) continue;
        float v = s[i];
        while (tail > head && s[dq[w][(tail - 1) & 15][lane]] <= v) --tail;  // pop smaller from the back
        dq[w][tail & 15][lane] = i;
        ++tail;
        if (dq[w][head & 15][lane] <= i - W) ++head;  // the front left the window
        if (i >= t * 32) out[i] = s[dq[w][head & 15][lane]];
    }
}
