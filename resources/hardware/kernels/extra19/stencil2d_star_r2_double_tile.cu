// block: 16, 16
// input: in = normal_4096.npy
// a radius-2 star stencil (9 points) in double precision on a 64 x 64 grid in 16 tiles of 16 x 16:
// a [20][21] double halo tile loaded linearly (400 values by 256 threads), clamped at the edges
__global__ void stencil_star_r2_double(const float *in, double *out) {
    __shared__ double tile[20][21];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int tb = 0; tb < 16; ++tb) {
        int bx = (tb & 3) * 16, by = (tb >> 2) * 16;
        for (int i = t; i < 400; i += 256) {
            int r = i / 20, c = i % 20;
            int gy = min(max(by + r - 2, 0), 63), gx = min(max(bx + c - 2, 0), 63);
            tile[r][c] = (double)in[gy * 64 + gx];
        }
        __syncthreads();
        double v = 0.5 * tile[ty + 2][tx + 2];
        v += 0.125 * (tile[ty + 1][tx + 2] + tile[ty + 3][tx + 2] + tile[ty + 2][tx + 1] + tile[ty + 2][tx + 3]);
        v -= 0.0625 * (tile[ty][tx + 2] + tile[ty + 4][tx + 2] + tile[ty + 2][tx] + tile[ty + 2][tx + 4]);
        out[(by + ty) * 64 + bx + tx] = v;
        __syncthreads();
    }
}
