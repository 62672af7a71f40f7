// block: 256
// input: in = text_4096.npy
// histogram of 4096 input bytes (text): atomicAdd(&hist[in[i]], 1) in shared memory; lanes that
// read the same letter hit the same counter
__global__ void byte_histogram(const unsigned char *in, unsigned int *out) {
    __shared__ unsigned int hist[256];
    int t = threadIdx.x;
    hist[t] = 0;
    __syncthreads();
    for (int i = t; i < 4096; i += 256) atomicAdd(&hist[in[i]], 1u);
    __syncthreads();
    out[t] = hist[t];
}
