// block: 64
// input: in = ints_1024.npy
// BlockScan<Affine, 64, BLOCK_SCAN_RAKING_MEMOIZE> over a non-commutative operator (composition of
// x -> a x + b, an 8-byte struct): InclusiveScan of 4 items a thread, ExclusiveScan with the
// identity and the block aggregate
#include <cub/cub.cuh>
struct Affine { int a, b; };
struct Compose {
    __device__ Affine operator()(const Affine &f, const Affine &g) const { return {f.a * g.a, g.a * f.b + g.b}; }
};
__global__ void scan_affine_64x4(const int *in, int *out) {
    using BS = cub::BlockScan<Affine, 64, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ typename BS::TempStorage tmp;
    int t = threadIdx.x;
    Affine f[4], g[4];
    for (int i = 0; i < 4; ++i) { int v = in[4 * t + i]; f[i] = {v % 3 - 1, v % 7}; }
    BS(tmp).InclusiveScan(f, g, Compose());
    for (int i = 0; i < 4; ++i) { out[2 * (4 * t + i)] = g[i].a; out[2 * (4 * t + i) + 1] = g[i].b; }
    __syncthreads();
    for (int i = 0; i < 4; ++i) { int v = in[256 + 4 * t + i]; f[i] = {(v & 1) ? 1 : -1, v % 5}; }
    Affine agg;
    BS(tmp).ExclusiveScan(f, g, Affine{1, 0}, Compose(), agg);
    for (int i = 0; i < 4; ++i) { out[512 + 2 * (4 * t + i)] = g[i].a; out[512 + 2 * (4 * t + i) + 1] = g[i].b; }
    if (t == 0) { out[1024] = agg.a; out[1025] = agg.b; }
}
