// block: 32, 8
// each warp writes its row through a bit-interleaved (8x4 <-> 4x8) index, then reads it back linearly
__global__ void bit_interleave(const int *in, int *out) {
    __shared__ int s[8][32];
    __shared__ int u[256];
    int t = threadIdx.x, y = threadIdx.y;
    s[y][((t & 7) << 2) | (t >> 3)] = in[y * 32 + t];
    int g = y * 32 + t;
    u[((g & 7) << 5) | (g >> 3)] = in[g] + 1;
    __syncthreads();
    out[y * 32 + t] = s[y][t] + u[g];
}
