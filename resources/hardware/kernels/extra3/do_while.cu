// block: 32
__global__ void dw(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int k = 0;
    do {
        s[t + k] = k;
        k += 16;
    } while (k < 48);
    out[t] = s[t];
}
