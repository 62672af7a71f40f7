// block: 32, 8
// input: in = ints_1024.npy
// 2-D integer Haar transform (the S-transform by lifting: s = x0 + (x1 - x0) / 2, d = x1 - x0) of a
// 32 x 32 tile, 3 levels: rows into a second padded tile (pairs read at stride 2, halves written
// apart), then columns back, each level on the top-left quarter of the last
__global__ void haar2d(const int *in, int *out) {
    __shared__ int m[32][33];
    __shared__ int tmp[32][33];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    for (int r = ty; r < 32; r += 8) m[r][tx] = in[r * 32 + tx];
    __syncthreads();
    for (int n = 32; n >= 8; n >>= 1) {
        int h = n >> 1;
        for (int e = t; e < n * h; e += 256) {
            int r = e / h, p = e % h;
            int x0 = m[r][2 * p], x1 = m[r][2 * p + 1], dd = x1 - x0;
            tmp[r][p] = x0 + (dd >> 1);
            tmp[r][h + p] = dd;
        }
        __syncthreads();
        for (int e = t; e < n * h; e += 256) {
            int c = e % n, p = e / n;
            int x0 = tmp[2 * p][c], x1 = tmp[2 * p + 1][c], dd = x1 - x0;
            m[p][c] = x0 + (dd >> 1);
            m[h + p][c] = dd;
        }
        __syncthreads();
    }
    for (int r = ty; r < 32; r += 8) out[r * 32 + tx] = m[r][tx];
}
