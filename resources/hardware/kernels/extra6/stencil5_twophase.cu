// block: 16, 16
#define B 16
#define W 1024
__global__ void stencil5_twophase(const float *in, float *out) {
    __shared__ float tile[B + 2][B + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * B + tx;
    int gx0 = blockIdx.x * B - 1, gy0 = blockIdx.y * B - 1;
    for (int i = tid; i < (B + 2) * (B + 2); i += blockDim.x * blockDim.y) {
        int r = i / (B + 2), c = i % (B + 2);
        int gx = min(max(gx0 + c, 0), W - 1);
        int gy = min(max(gy0 + r, 0), W - 1);
        tile[r][c] = in[gy * W + gx];
    }
    __syncthreads();
    float v = 4.f * tile[ty + 1][tx + 1] - tile[ty][tx + 1] - tile[ty + 2][tx + 1]
              - tile[ty + 1][tx] - tile[ty + 1][tx + 2];
    out[(blockIdx.y * B + ty) * W + blockIdx.x * B + tx] = v;
}
