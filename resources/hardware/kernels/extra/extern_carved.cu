// block: 256
// extern-size: 2048
__global__ void carved(const float *in, float *out) {
    extern __shared__ float buf[];
    float *a = buf;
    float *b = buf + 256;
    int t = threadIdx.x;
    a[t] = in[t];
    b[t] = in[t] * 2.f;
    __syncthreads();
    out[t] = a[255 - t] + b[(t * 2) % 256];
}
