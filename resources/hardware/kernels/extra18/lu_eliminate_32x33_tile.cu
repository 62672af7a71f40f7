// block: 32, 8
// input: A = floats_1024.npy
// LU without pivoting on a diagonally dominant 32 x 32 tile in a [32][33] shared array: for
// each pivot k the column below it is scaled by 1 / a[k][k] (one warp), then the trailing
// block updated by 256 threads striding over the rows, __syncthreads between the two
__global__ void lu_tile(const float *A, float *out) {
    __shared__ float a[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8) a[r][tx] = A[r * 32 + tx] + (r == tx ? 40.f : 0.f);
    __syncthreads();
    for (int k = 0; k < 31; ++k) {
        if (ty == 0 && tx > k) a[tx][k] = a[tx][k] / a[k][k];
        __syncthreads();
        for (int r = k + 1 + ty; r < 32; r += 8)
            if (tx > k) a[r][tx] -= a[r][k] * a[k][tx];
        __syncthreads();
    }
    for (int r = ty; r < 32; r += 8) out[r * 32 + tx] = a[r][tx];
}
