// block: 256
__global__ void bitonic(float *data) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int ixj = t ^ j;
            if (ixj > t) {
                float a = s[t], b = s[ixj];
                bool up = (t & k) == 0;
                if ((a > b) == up) { s[t] = b; s[ixj] = a; }
            }
            __syncthreads();
        }
    }
    data[t] = s[t];
}
