// block: 32, 4
#define LD 33
#define IDX(r, c) ((r) * LD + (c))
__global__ void matvec_idx(const float *M, const float *v, float *y) {
    __shared__ float Ms[32 * LD];
    __shared__ float vs[32];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 4) Ms[IDX(r, tx)] = M[r * 32 + tx];
    if (ty == 0) vs[tx] = v[tx];
    __syncthreads();
    float acc = 0.f;
#pragma unroll 4
    for (int k = 0; k < 16; ++k) {
        int c = ty * 8 + (k & 7);
        acc += Ms[IDX(tx, c)] * vs[c] + Ms[IDX(k, tx)];
    }
    y[ty * 32 + tx] = acc;
}
