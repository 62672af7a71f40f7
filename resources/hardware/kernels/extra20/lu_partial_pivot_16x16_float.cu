// block: 16, 16
// input: in = normal_4096.npy
// LU factorization with partial pivoting of a 16 x 16 float matrix in a [16][17] tile: warp 0 finds
// each pivot by an argmax of |A[i][k]| with __shfl_xor_sync (lowest row on ties), 16 threads swap
// the rows, the column is scaled, the trailing block updated; the permutation kept in shared memory
__global__ void lu_pivot16(const float *in, float *lu, int *piv) {
    __shared__ float A[16][17];
    __shared__ int perm[16];
    __shared__ int p_sh;
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    A[ty][tx] = in[t];
    if (t < 16) perm[t] = t;
    __syncthreads();
    for (int k = 0; k < 15; ++k) {
        if (t < 32) {
            float v = (t >= k && t < 16) ? fabsf(A[t & 15][k]) : -1.f;
            int i = t;
            for (int o = 16; o; o >>= 1) {
                float v2 = __shfl_xor_sync(0xffffffffu, v, o);
                int i2 = __shfl_xor_sync(0xffffffffu, i, o);
                if (v2 > v || (v2 == v && i2 < i)) { v = v2; i = i2; }
            }
            if (t == 0) p_sh = i;
        }
        __syncthreads();
        int p = p_sh;
        if (p != k && ty == 0) { float x = A[k][tx]; A[k][tx] = A[p][tx]; A[p][tx] = x; }
        if (p != k && t == 0) { int q = perm[k]; perm[k] = perm[p]; perm[p] = q; }
        __syncthreads();
        if (ty > k && tx == k) A[ty][k] /= A[k][k];
        __syncthreads();
        if (ty > k && tx > k) A[ty][tx] -= A[ty][k] * A[k][tx];
        __syncthreads();
    }
    lu[t] = A[ty][tx];
    if (t < 16) piv[t] = perm[t];
}
