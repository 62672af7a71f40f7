// block: 128
// input: in = bytes_2048.npy
// a byte array and a 64-bit array in shared memory: 2048 bytes stored and read one byte a lane
// (four lanes a word) and at a stride of 3 bytes, byte counts kept per thread in a [128][9]
// unsigned char table, then 64-bit prefix products modulo a prime in a long long array at
// strides 1 and 8 (LDS.64 / STS.64)
__global__ void longlong_uchar(const unsigned char *in, long long *out, unsigned char *bout) {
    __shared__ unsigned char bytes[2048];
    __shared__ unsigned char small[128][9];
    __shared__ long long acc[256];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += 128) bytes[i] = in[i];
    for (int k = 0; k < 9; ++k) small[t][k] = 0;
    __syncthreads();
    for (int j = 0; j < 16; ++j) {
        unsigned char b = bytes[(t * 3 + j * 384) & 2047];
        small[t][b % 9] += 1;
    }
    for (int k = 0; k < 9; ++k) bout[t * 9 + k] = small[t][k];
    long long p = 1;
    for (int j = 0; j < 16; ++j) p = (p * (bytes[j * 128 + t] + 1)) % 1000000007LL;
    acc[t] = p;
    acc[128 + t] = p * t;
    __syncthreads();
    long long s = 0;
    for (int k = 0; k < 8; ++k) s += acc[(t * 8 + k) & 255];
    out[t] = s + acc[255 - t];
}
