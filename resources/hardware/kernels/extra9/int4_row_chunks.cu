// block: 64
__global__ void int4_chunks(const int4 *in, int4 *out) {
    __shared__ int4 s[64][4];   // 64 rows of 16 ints, one row per thread
    int t = threadIdx.x;
    for (int c = 0; c < 4; ++c)
        s[t][c] = in[t * 4 + c];
    __syncthreads();
    int4 a = s[t][t % 4];
    int4 b = s[(t * 4) % 64][t / 16];
    out[t] = make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
