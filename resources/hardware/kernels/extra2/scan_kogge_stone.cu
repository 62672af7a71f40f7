// block: 128
__global__ void kogge(const float *in, float *out) {
    __shared__ float temp[2 * 128];
    int thid = threadIdx.x, n = 128;
    int pout = 0, pin = 1;
    temp[pout * n + thid] = in[thid];
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
        __syncthreads();
    }
    out[thid] = temp[pout * n + thid];
}
