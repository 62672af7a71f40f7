// block: 8, 8, 4
#define B 8
__global__ void stencil3d(const float *in, float *out) {
    __shared__ float s[B / 2 + 2][B + 2][B + 2];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[z + 1][y + 1][x + 1] = in[(z * B + y) * B + x];
    if (x == 0) { s[z + 1][y + 1][0] = 0.f; s[z + 1][y + 1][B + 1] = 0.f; }
    if (y == 0) { s[z + 1][0][x + 1] = 0.f; s[z + 1][B + 1][x + 1] = 0.f; }
    if (z == 0) { s[0][y + 1][x + 1] = 0.f; s[B / 2 + 1][y + 1][x + 1] = 0.f; }
    __syncthreads();
    out[(z * B + y) * B + x] = s[z + 1][y + 1][x + 1] * 6.f - s[z][y + 1][x + 1] - s[z + 2][y + 1][x + 1]
        - s[z + 1][y][x + 1] - s[z + 1][y + 2][x + 1] - s[z + 1][y + 1][x] - s[z + 1][y + 1][x + 2];
}
