// block: 64
#define MODE 1
__global__ void switch_unroll2(const float *in, float *out) {
    __shared__ float a[256];
    __shared__ float b[64];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 64) a[i] = in[i];
    __syncthreads();
    float acc = 0.f;
    switch (MODE) {
    case 0:
        acc = a[t];
        break;
    case 1:
#pragma unroll 2
        for (int k = 0; k < 8; ++k)
            acc += a[t * 2 + k] * a[(t + k * 32) % 256];
        break;
    default:
        acc = a[(t * 4) % 256];
        break;
    }
    __syncthreads();
    if (t % 4 == 0)
        a[t * 2] = acc;
    else
        b[t] = acc;
    __syncthreads();
    out[t] = a[t * 2] + b[t];
}
