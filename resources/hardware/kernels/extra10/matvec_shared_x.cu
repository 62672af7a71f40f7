// block: 128
#define N 256
__global__ void matvec(const float *A, const float *x, float *y) {
    __shared__ float xs[N];
    int tid = threadIdx.x;
    for (int i = tid; i < N; i += blockDim.x) xs[i] = x[i];
    __syncthreads();
    float acc = 0.f;
    for (int j = 0; j < N; ++j) acc += A[tid * N + j] * xs[j];
    y[tid] = acc;
}
