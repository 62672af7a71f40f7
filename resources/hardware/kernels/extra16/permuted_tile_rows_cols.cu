// block: 32, 8
// input: perm = perm32_64.npy
// input: in = floats_1024.npy
// a 32 x 32 tile permuted by rows and columns from the data: out[i][j] = in[pr[i]][pc[j]] through a
// [32][33] shared tile (gathers at data columns), and the transpose of the permuted tile through an
// unpadded [32][32] tile read at data rows
__global__ void permuted_tile(const int *perm, const float *in, float *out) {
    __shared__ float a[32][33];
    __shared__ float b[32][32];
    __shared__ int pr[32], pc[32];
    int x = threadIdx.x, y = threadIdx.y, t = y * 32 + x;
    if (t < 32) pr[t] = perm[t]; else if (t < 64) pc[t - 32] = perm[t];
    for (int r = y; r < 32; r += 8) { a[r][x] = in[r * 32 + x]; b[r][x] = in[r * 32 + x]; }
    __syncthreads();
    for (int r = y; r < 32; r += 8) {
        out[r * 32 + x] = a[pr[r]][pc[x]];
        out[1024 + r * 32 + x] = b[pc[x]][pr[r]];
    }
}
