// block: 8, 8, 4
// input: in = normal_4096.npy
// 19-point 3-D stencil (centre, 6 faces, 12 edges) on a 16 x 16 x 16 float grid, one block for the
// 8 x 8 x 8 corner cube: a [10][10][10] halo tile loaded linearly (1000 floats by 256 threads,
// clamped at the grid's edges), each thread two z planes
__global__ void stencil3d_19(const float *in, float *out) {
    __shared__ float tile[10][10][10];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int t = tx + 8 * (ty + 8 * tz);
    for (int i = t; i < 1000; i += 256) {
        int z = i / 100, y = (i / 10) % 10, x = i % 10;
        int gz = min(max(z - 1, 0), 15), gy = min(max(y - 1, 0), 15), gx = min(max(x - 1, 0), 15);
        tile[z][y][x] = in[(gz * 16 + gy) * 16 + gx];
    }
    __syncthreads();
    for (int k = 0; k < 2; ++k) {
        int z = tz * 2 + k + 1, y = ty + 1, x = tx + 1;
        float c = tile[z][y][x];
        float f = tile[z - 1][y][x] + tile[z + 1][y][x] + tile[z][y - 1][x] + tile[z][y + 1][x]
                + tile[z][y][x - 1] + tile[z][y][x + 1];
        float e = tile[z - 1][y - 1][x] + tile[z - 1][y + 1][x] + tile[z + 1][y - 1][x] + tile[z + 1][y + 1][x]
                + tile[z - 1][y][x - 1] + tile[z - 1][y][x + 1] + tile[z + 1][y][x - 1] + tile[z + 1][y][x + 1]
                + tile[z][y - 1][x - 1] + tile[z][y - 1][x + 1] + tile[z][y + 1][x - 1] + tile[z][y + 1][x + 1];
        out[((z - 1) * 8 + ty) * 8 + tx] = 0.5f * c + f * (0.25f / 6.f) + e * (0.25f / 12.f);
    }
}
