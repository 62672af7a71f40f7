// block: 128
// input: in = ints_1024.npy
// BlockReduce of structs: cub::KeyValuePair<int, int> with cub::ArgMin over 4 items a thread
// (ties to the lower key), and a custom struct {min, max, count} with its own operator over a
// partial tile (valid 100) with BLOCK_REDUCE_RAKING
#include <cub/cub.cuh>
struct MinMaxCount { int mn, mx, n; };
struct MMCOp {
    __device__ MinMaxCount operator()(const MinMaxCount &a, const MinMaxCount &b) const {
        return {min(a.mn, b.mn), max(a.mx, b.mx), a.n + b.n};
    }
};
__global__ void reduce_argmin_struct(const int *in, int *out) {
    using KV = cub::KeyValuePair<int, int>;
    using R = cub::BlockReduce<KV, 128>;
    using R2 = cub::BlockReduce<MinMaxCount, 128, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename R::TempStorage t1;
    __shared__ typename R2::TempStorage t2;
    int t = threadIdx.x;
    KV kv[4];
    for (int i = 0; i < 4; ++i) { int j = t * 4 + i; kv[i] = KV(j, in[j] % 300); }
    KV best = R(t1).Reduce(kv, cub::ArgMin());
    if (t == 0) { out[0] = best.key; out[1] = best.value; }
    MinMaxCount m = {in[512 + t], in[512 + t], in[512 + t] & 1};
    MinMaxCount r = R2(t2).Reduce(m, MMCOp(), 100);
    if (t == 0) { out[2] = r.mn; out[3] = r.mx; out[4] = r.n; }
}
