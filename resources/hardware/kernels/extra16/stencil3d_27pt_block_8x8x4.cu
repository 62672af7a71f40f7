// block: 8, 8, 4
// input: in = normal_4096.npy
// 27-point 3-D stencil on an 8 x 8 x 4 output brick from a 16 x 16 x 16 volume: the (6 x 10 x 10)
// input brick with a halo of 1 loaded by a linear loop over the 3-D block into s[6][10][11]
// (padded rows), then 27 weighted reads per output (weights by Manhattan distance)
__global__ void stencil27(const float *in, float *out) {
    __shared__ float s[6][10][11];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int t = (z * 8 + y) * 8 + x;
    for (int i = t; i < 600; i += 256) {
        int zz = i / 100, yy = (i / 10) % 10, xx = i % 10;
        s[zz][yy][xx] = in[((zz + 3) * 16 + (yy + 3)) * 16 + (xx + 3)];
    }
    __syncthreads();
    const float wt[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
    float acc = 0.f;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                acc += wt[abs(dx) + abs(dy) + abs(dz)] * s[z + 1 + dz][y + 1 + dy][x + 1 + dx];
    out[t] = acc;
}
