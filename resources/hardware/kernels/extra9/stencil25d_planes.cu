// block: 32, 8
#define BX 32
#define BY 8
#define NZ 8
#define W 64
__global__ void stencil_25d(const float *in, float *out) {
    __shared__ float tile[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    const int plane = W * W;
    int idx = (ty + 1) * W + tx + 1;
    float behind;
    float current = in[idx];
    float infront = in[plane + idx];
    for (int z = 1; z < NZ - 1; ++z) {
        behind = current;
        current = infront;
        infront = in[(z + 1) * plane + idx];
        __syncthreads();
        if (ty == 0) {
            tile[0][tx + 1] = in[z * plane + idx - W];
            tile[BY + 1][tx + 1] = in[z * plane + idx + BY * W];
        }
        if (tx == 0) {
            tile[ty + 1][0] = in[z * plane + idx - 1];
            tile[ty + 1][BX + 1] = in[z * plane + idx + BX];
        }
        tile[ty + 1][tx + 1] = current;
        __syncthreads();
        out[z * plane + idx] = 6.f * current - behind - infront
            - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] - tile[ty + 1][tx + 2];
    }
}
