// block: 256
// 256-bin shared histogram: count increments (result unused) and weighted sums into the same bins
__global__ void hist256(const int *in, unsigned int *out) {
    __shared__ unsigned int h[256];
    int t = threadIdx.x;
    h[t] = 0;
    __syncthreads();
    atomicAdd(&h[(t * 7) & 255], 1);
    atomicAdd(&h[t & 255], t);
    atomicAdd(&h[(t >> 2) & 255], 1u);
    __syncthreads();
    out[t] = h[t];
}
