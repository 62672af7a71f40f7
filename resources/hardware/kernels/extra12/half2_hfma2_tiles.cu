// block: 16, 8
// input: a = floats_1024.npy
// a small product of half tiles kept as __half2: A (16 x 32 halves as 16 x 16 half2) and B (32 x 32
// halves as 32 x 16 half2) in shared memory, each thread two outputs accumulated with __hfma2
// (A's pair broadcast with __low2half2 / __high2half2)
__global__ void half2_hfma2(const float *a, float *out) {
    __shared__ __half2 As[16][16];
    __shared__ __half2 Bs[32][16];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int i = t; i < 256; i += 128) As[i / 16][i % 16] = __floats2half2_rn(a[2 * i], a[2 * i + 1]);
    for (int i = t; i < 512; i += 128) Bs[i / 16][i % 16] = __floats2half2_rn(a[512 + (i & 255)], a[(i * 3) & 1023]);
    __syncthreads();
    for (int r = ty; r < 16; r += 8) {
        __half2 acc = __float2half2_rn(0.f);
        for (int k = 0; k < 16; ++k) {
            __half2 p = As[r][k];
            acc = __hfma2(__low2half2(p), Bs[2 * k][tx], acc);
            acc = __hfma2(__high2half2(p), Bs[2 * k + 1][tx], acc);
        }
        float2 f = __half22float2(acc);
        out[r * 32 + 2 * tx] = f.x;
        out[r * 32 + 2 * tx + 1] = f.y;
    }
}
