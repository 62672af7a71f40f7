// block: 96
// input: in = ints_1024.npy
// BlockScan<int, 96> ExclusiveScan with an initial value and a custom functor struct (an affine
// combine a + 3 b folded as a non-commutative (mul, add) pair is too wide: here saturating add
// capped at 50000 and a bitwise "max of low 10 bits, or of the rest"), 3 items a thread, the
// block aggregate; then a single-item ExclusiveScan with init and aggregate
#include <cub/cub.cuh>
struct SatAdd {
    __device__ int operator()(int a, int b) const { int s = a + b; return s > 50000 ? 50000 : s; }
};
struct MaxLowOr {
    __device__ int operator()(int a, int b) const {
        int lo = max(a & 1023, b & 1023);
        return ((a | b) & ~1023) | lo;
    }
};
__global__ void exclusive_scan_init(const int *in, int *out) {
    using S = cub::BlockScan<int, 96>;
    __shared__ typename S::TempStorage tmp;
    int t = threadIdx.x;
    int x[3];
    for (int i = 0; i < 3; ++i) x[i] = in[t * 3 + i] * 3;
    int agg;
    S(tmp).ExclusiveScan(x, x, 7, SatAdd(), agg);
    for (int i = 0; i < 3; ++i) out[t * 3 + i] = x[i];
    if (t == 0) out[300] = agg;
    __syncthreads();
    int y = in[300 + t] * (t + 1) * 37;
    int agg2;
    S(tmp).ExclusiveScan(y, y, 5, MaxLowOr(), agg2);
    out[320 + t] = y;
    if (t == 95) out[420] = agg2;
}
