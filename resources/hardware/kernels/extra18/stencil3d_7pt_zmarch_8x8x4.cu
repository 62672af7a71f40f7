// block: 8, 8, 4
// input: u = normal_4096.npy
// a 7-point stencil on a 16 x 16 x 16 grid by a 3-D block of 8 x 8 x 4: each thread owns a 2 x 2
// column in x, y and marches z in steps of 4 planes, a [6][18][19] halo brick (z, y, x) loaded
// linearly by the 256 threads each step, boundaries clamped
__global__ void stencil3d_zmarch(const float *u, float *out) {
    __shared__ float b[6][18][19];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int t = (tz * 8 + ty) * 8 + tx;
    for (int z0 = 0; z0 < 16; z0 += 4) {
        for (int i = t; i < 6 * 18 * 18; i += 256) {
            int bz = i / 324, r = i % 324, by = r / 18, bx = r % 18;
            int gz = min(max(z0 + bz - 1, 0), 15), gy = min(max(by - 1, 0), 15), gx = min(max(bx - 1, 0), 15);
            b[bz][by][bx] = u[(gz * 16 + gy) * 16 + gx];
        }
        __syncthreads();
        int z = tz + 1;
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx) {
                int y = ty * 2 + dy + 1, x = tx * 2 + dx + 1;
                float c = b[z][y][x];
                float s = b[z - 1][y][x] + b[z + 1][y][x] + b[z][y - 1][x] + b[z][y + 1][x]
                        + b[z][y][x - 1] + b[z][y][x + 1];
                out[((z0 + tz) * 16 + y - 1) * 16 + x - 1] = s - 6.f * c;
            }
        __syncthreads();
    }
}
