// block: 8, 8, 4
// 4 slices of 8x8, each slice transposed in place through shared memory
__global__ void cube_transpose(const float *in, float *out) {
    __shared__ float s[4][8][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[threadIdx.z][threadIdx.y][threadIdx.x] = in[(z * 8 + y) * 8 + x];
    __syncthreads();
    float v = s[threadIdx.z][threadIdx.x][threadIdx.y];
    float w = s[3 - z][y][x];
    out[(z * 8 + y) * 8 + x] = v + w;
}
