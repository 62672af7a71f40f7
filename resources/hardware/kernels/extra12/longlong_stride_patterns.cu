// block: 128
// input: in = ints_1024.npy
// `long long` shared arrays read at strides of 1, 2, 3, 4, 16 and 17 elements (8-byte words: two
// banks each), a [16][17] tile read by rows and by columns, and a 64-bit XOR swizzle
__global__ void longlong_strides(const int *in, long long *out) {
    __shared__ long long s[2048];
    __shared__ long long tile[16][17];
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += 128) s[i] = (long long)in[i & 1023] << (i & 31);
    for (int i = t; i < 256; i += 128) tile[i / 16][i % 16] = (long long)i * 0x100000001LL;
    __syncthreads();
    const int strides[6] = {1, 2, 3, 4, 16, 17};
    long long a = 0;
#pragma unroll
    for (int k = 0; k < 6; ++k) a += s[(t * strides[k]) & 2047];
    a ^= tile[t & 15][t >> 3] + tile[t >> 3][t & 15];
    a += s[(t ^ (t >> 4)) * 16 & 2047];
    out[t] = a;
}
