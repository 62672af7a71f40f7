// block: 128
// input: data = uniform_4096.npy
// histograms of uniform ints with 64 and 100 bins (bin = x % bins): 4 lane-interleaved copies
// with a padded row (hist64[64][5], copy = lane & 3) and one copy at stride 1 for 100 bins;
// integer atomics, then sums of the copies
__global__ void hist_uniform_padded(const int *data, unsigned int *out) {
    __shared__ unsigned int hist64[64][5];
    __shared__ unsigned int hist100[100];
    int t = threadIdx.x, c = t & 3;
    for (int i = t; i < 320; i += 128) (&hist64[0][0])[i] = 0;
    if (t < 100) hist100[t] = 0;
    __syncthreads();
    for (int i = t; i < 4096; i += 128) {
        int x = data[i];
        atomicAdd(&hist64[x & 63][c], 1u);
        atomicAdd(&hist100[x % 100], 1u);
    }
    __syncthreads();
    if (t < 64) out[t] = hist64[t][0] + hist64[t][1] + hist64[t][2] + hist64[t][3];
    if (t < 100) out[64 + t] = hist100[t];
}
