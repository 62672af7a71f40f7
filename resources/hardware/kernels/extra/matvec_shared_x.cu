// block: 128
__global__ void matvec(const float *A, const float *x, float *y) {
    __shared__ float xs[64];
    int t = threadIdx.x;
    if (t < 64) xs[t] = x[t];
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int j = 0; j < 64; ++j) acc += A[t * 64 + j] * xs[j];
    y[t] = acc;
}
