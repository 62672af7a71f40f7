// block: 128
#define RADIUS 3
#define BLOCK 128
__global__ void stencil_1d(const int *in, int *out) {
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x + RADIUS;
    int lindex = threadIdx.x + RADIUS;
    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        temp[lindex + BLOCK] = in[gindex + BLOCK];
    }
    __syncthreads();
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];
    out[gindex] = result;
}
