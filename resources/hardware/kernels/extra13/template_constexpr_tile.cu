// block: 128
// input: in = floats_1024.npy
// a templated __device__ tile routine instantiated from constexpr and #define constants:
// a TILE x TILE transpose with PAD words of padding, for (TILE, PAD) = (32, 0), (32, 1), (16, 1)
// and (8, 3), all with the same 128 threads (loops over rows where the tile is larger)
#define SMALL_TILE 8
constexpr int BIG = 32;
template <int TILE, int PAD>
__device__ void tile_transpose(float (*tile)[TILE + PAD], const float *in, float *out) {
    int t = threadIdx.x;
    constexpr int ROWS = 128 / TILE;
    for (int r = t / TILE; r < TILE; r += ROWS) tile[r][t % TILE] = in[r * TILE + t % TILE];
    __syncthreads();
    for (int r = t / TILE; r < TILE; r += ROWS) out[r * TILE + t % TILE] = tile[t % TILE][r];
    __syncthreads();
}
__global__ void template_tiles(const float *in, float *out) {
    __shared__ float a[BIG][BIG + 0];
    __shared__ float b[BIG][BIG + 1];
    __shared__ float c[BIG / 2][BIG / 2 + 1];
    __shared__ float d[SMALL_TILE][SMALL_TILE + 3];
    tile_transpose<BIG, 0>(a, in, out);
    tile_transpose<BIG, 1>(b, in, out + 1024);
    tile_transpose<BIG / 2, 1>(c, in, out + 2048);
    tile_transpose<SMALL_TILE, 3>(d, in, out + 2304);
}
