// block: 256
// input: in = ints_1024.npy
// input: w = keys_1024.npy
// 1-D convolution of 1024 ints with a 15-tap filter (radius 7) in 4 tiles: a [256 + 14] halo tile
// loaded by the first 14 threads too (clamped at the ends), filter taps in shared memory, and a
// second pass with a stride-2 dilated filter
__global__ void conv1d_r7(const int *in, const int *w, int *out) {
    __shared__ int tile[256 + 28];
    __shared__ int taps[15];
    int t = threadIdx.x;
    if (t < 15) taps[t] = (w[t] & 7) - 3;
    for (int b = 0; b < 1024; b += 256) {
        int g = b + t - 14;
        tile[t] = in[max(g, 0)];
        if (t < 28) tile[256 + t] = in[min(b + 242 + t, 1023)];
        __syncthreads();
        int acc = 0;
#pragma unroll
        for (int k = 0; k < 15; ++k) acc += taps[k] * tile[t + 7 + k];
        int dil = 0;
        for (int k = 0; k < 15; ++k) dil += taps[k] * tile[t + 2 * k - (t & 1)];
        out[b + t] = acc;
        out[1024 + b + t] = dil;
        __syncthreads();
    }
}
