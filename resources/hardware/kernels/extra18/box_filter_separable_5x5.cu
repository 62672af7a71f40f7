// block: 16, 16
// input: img = floats_1024.npy
// a 5 x 5 box filter on a 32 x 32 image in two separable passes: the 36 x 36 halo tile (zero
// outside) loaded linearly into [36][37], a horizontal pass into [36][33] (rows of 32 sums), a
// vertical pass out; each thread does 2 x 2 outputs
__global__ void box_filter(const float *img, float *out) {
    __shared__ float in_t[36][37];
    __shared__ float h[36][33];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    for (int i = t; i < 36 * 36; i += 256) {
        int r = i / 36 - 2, c = i % 36 - 2;
        in_t[i / 36][i % 36] = (r >= 0 && r < 32 && c >= 0 && c < 32) ? img[r * 32 + c] : 0.f;
    }
    __syncthreads();
    for (int i = t; i < 36 * 32; i += 256) {
        int r = i >> 5, c = i & 31;
        float s = 0.f;
        for (int k = 0; k < 5; ++k) s += in_t[r][c + k];
        h[r][c] = s;
    }
    __syncthreads();
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
            int r = ty + 16 * dy, c = tx + 16 * dx;
            float s = 0.f;
            for (int k = 0; k < 5; ++k) s += h[r + k][c];
            out[r * 32 + c] = s * 0.04f;
        }
}
