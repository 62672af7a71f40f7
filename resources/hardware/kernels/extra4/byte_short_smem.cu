// block: 128
__global__ void bytes_and_shorts(const unsigned char *in, const short *sin, int *out) {
    __shared__ __align__(4) char flags[512];
    __shared__ short vals[128 * 3];
    int t = threadIdx.x;
    flags[t] = (char)in[t];
    flags[t + 128] = 1;
    flags[4 * t + 2] = 7;
    vals[3 * t] = sin[t];
    vals[3 * t + 1] = (short)t;
    __syncthreads();
    int packed = reinterpret_cast<const int *>(flags)[t];
    int f = flags[t * 2];
    int s = vals[t] + vals[3 * ((t + 5) % 128)];
    out[t] = packed + f + s;
}
