// block: 32, 8
struct Cfg {
    static constexpr int TILE = 32;
    static constexpr int PAD = 1;
    static constexpr int ROWS = 8;
    static constexpr int PER_THREAD = TILE / ROWS;
};
__global__ void cfg_row_partials(const float *in, float *out) {
    __shared__ float s[Cfg::TILE][Cfg::TILE + Cfg::PAD];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = y; j < Cfg::TILE; j += Cfg::ROWS)
        s[j][x] = in[j * Cfg::TILE + x];
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < Cfg::PER_THREAD; ++k)
        acc += s[x][y * Cfg::PER_THREAD + k];
    out[y * Cfg::TILE + x] = acc;
}
