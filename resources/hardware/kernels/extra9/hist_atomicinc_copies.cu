// block: 256
#define BINS 32
#define COPIES 8
__global__ void hist_inc(const int *in, unsigned int *out) {
    __shared__ unsigned int h[COPIES][BINS + 1];
    int t = threadIdx.x;
    for (int i = t; i < COPIES * (BINS + 1); i += blockDim.x)
        h[i / (BINS + 1)][i % (BINS + 1)] = 0;
    __syncthreads();
    int copy = t % COPIES;
    for (int i = t; i < 1024; i += blockDim.x)
        atomicInc(&h[copy][(i / 4) % BINS], 0xffffffffu);
    __syncthreads();
    if (t < BINS) {
        unsigned int s = 0;
        for (int c = 0; c < COPIES; ++c) s += h[c][t];
        out[t] = s;
    }
}
