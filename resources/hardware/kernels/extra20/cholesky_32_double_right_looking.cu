// block: 32, 8
// input: bin = floats_1024.npy
// Cholesky factor of a 32 x 32 SPD matrix (B B^T / 32 + 8 I, built in double from a [32][33] float
// tile), right-looking in a [32][33] double tile: one thread's sqrt, a column scaled by 31 - k
// threads, the trailing lower triangle updated by all (column reads of doubles)
__global__ void cholesky32(const float *bin, double *out) {
    __shared__ double A[32][33];
    __shared__ float B[32][33];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    for (int r = ty; r < 32; r += 8) B[r][tx] = bin[r * 32 + tx];
    __syncthreads();
    for (int r = ty; r < 32; r += 8) {
        double s = 0.0;
        for (int k = 0; k < 32; ++k) s += (double)B[r][k] * B[tx][k];
        A[r][tx] = s / 32.0 + (r == tx ? 8.0 : 0.0);
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
        if (t == 0) A[k][k] = sqrt(A[k][k]);
        __syncthreads();
        if (t > k && t < 32) A[t][k] /= A[k][k];
        __syncthreads();
        for (int e = t; e < 1024; e += 256) {
            int i = e >> 5, j = e & 31;
            if (j > k && i >= j) A[i][j] -= A[i][k] * A[j][k];
        }
        __syncthreads();
    }
    for (int r = ty; r < 32; r += 8) out[r * 32 + tx] = tx <= r ? A[r][tx] : 0.0;
}
