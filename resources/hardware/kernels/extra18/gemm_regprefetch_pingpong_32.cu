// block: 16, 16
// input: A = normal_4096.npy
// input: B = floats_1024.npy
// a 32 x 32 C tile over K = 128 in steps of 16: each thread holds 2 x 2 results, the next A and
// B slices are loaded into registers while the current shared pair is used, and the shared
// tiles ping-pong between two buffers (one __syncthreads a step); A stored transposed [k][m+1]
__global__ void gemm_pingpong(const float *A, const float *B, float *C) {
    __shared__ float As[2][16][33];
    __shared__ float Bs[2][16][32];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    // A is 32 x 128 (row-major), B is 128 x 32 (B[k][n] = B[(k * 32 + n) & 1023])
    int am = t >> 3, ak = (t & 7) * 2;          // 2 A elements a thread per step
    int bk = t >> 4, bn = (t & 15) * 2;         // 2 B elements a thread per step
    float ra0 = A[am * 128 + ak], ra1 = A[am * 128 + ak + 1];
    float rb0 = B[(bk * 32 + bn) & 1023], rb1 = B[(bk * 32 + bn + 1) & 1023];
    As[0][ak][am] = ra0; As[0][ak + 1][am] = ra1;
    Bs[0][bk][bn] = rb0; Bs[0][bk][bn + 1] = rb1;
    __syncthreads();
    float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
    for (int s = 0; s < 8; ++s) {
        int cur = s & 1;
        if (s + 1 < 8) {
            int k0 = (s + 1) * 16;
            ra0 = A[am * 128 + k0 + ak]; ra1 = A[am * 128 + k0 + ak + 1];
            rb0 = B[((k0 + bk) * 32 + bn) & 1023]; rb1 = B[((k0 + bk) * 32 + bn + 1) & 1023];
        }
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            float a0 = As[cur][k][ty], a1 = As[cur][k][ty + 16];
            float b0 = Bs[cur][k][tx], b1 = Bs[cur][k][tx + 16];
            c00 += a0 * b0; c01 += a0 * b1; c10 += a1 * b0; c11 += a1 * b1;
        }
        if (s + 1 < 8) {
            As[cur ^ 1][ak][am] = ra0; As[cur ^ 1][ak + 1][am] = ra1;
            Bs[cur ^ 1][bk][bn] = rb0; Bs[cur ^ 1][bk][bn + 1] = rb1;
        }
        __syncthreads();
    }
    C[ty * 32 + tx] = c00; C[ty * 32 + tx + 16] = c01;
    C[(ty + 16) * 32 + tx] = c10; C[(ty + 16) * 32 + tx + 16] = c11;
}
