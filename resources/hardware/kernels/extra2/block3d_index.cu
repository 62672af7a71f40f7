// block: 8, 4, 4
__global__ void b3(const int *in, int *out) {
    __shared__ int cube[4][4][9];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    cube[z][y][x] = in[(z * 4 + y) * 8 + x];
    __syncthreads();
    out[(z * 4 + y) * 8 + x] = cube[x % 4][y][z * 2 + x / 4];
}
